// The kernels on hand-checked values and on layouts where a wrong stride shows.
#include "ReluAddKernels.hpp"

#include <hipdnn_data_sdk/utilities/Tensor.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

using example_plugin::addBroadcast;
using example_plugin::broadcastsTo;
using example_plugin::ConstTensorView;
using example_plugin::reluForward;
using example_plugin::TensorView;
using hipdnn_data_sdk::utilities::forEachIndex;
using hipdnn_data_sdk::utilities::Tensor;
using hipdnn_data_sdk::utilities::TensorLayout;

ConstTensorView constView(const Tensor<float>& tensor) {
    return {tensor.data(), tensor.dims(), tensor.strides()};
}

TensorView view(Tensor<float>& tensor) {
    return {tensor.data(), tensor.dims(), tensor.strides()};
}

TEST(Kernels, ReluClampsNegativesAndKeepsPositives) {
    const std::vector<float> x = {-2.0f, -0.5f, 0.0f, 3.0f};
    std::vector<float> y(4, 99.0f);
    reluForward({x.data(), {4}, {1}}, {y.data(), {4}, {1}});
    EXPECT_EQ(y, (std::vector<float>{0.0f, 0.0f, 0.0f, 3.0f}));
}

TEST(Kernels, ReluReadsAndWritesThroughDifferentLayouts) {
    Tensor<float> x({2, 3, 4, 5}, TensorLayout::NHWC);
    Tensor<float> y({2, 3, 4, 5}, TensorLayout::NCHW);
    x.fillRandom(-1.0, 1.0, 7);
    reluForward(constView(x), view(y));
    forEachIndex(y.dims(), [&](const std::vector<int64_t>& index) {
        EXPECT_EQ(y.at(index), x.at(index) > 0.0f ? x.at(index) : 0.0f);
    });
}

TEST(Kernels, AddBroadcastsAPerChannelBias) {
    Tensor<float> a({2, 3, 2, 2}, TensorLayout::NHWC);
    Tensor<float> bias({1, 3, 1, 1}, TensorLayout::NCHW);
    Tensor<float> y({2, 3, 2, 2}, TensorLayout::NCHW);
    a.fillRandom(-4.0, 4.0, 11);
    bias.at({0, 0, 0, 0}) = 10.0f;
    bias.at({0, 1, 0, 0}) = 20.0f;
    bias.at({0, 2, 0, 0}) = 30.0f;
    addBroadcast(constView(a), constView(bias), view(y));
    forEachIndex(y.dims(), [&](const std::vector<int64_t>& index) {
        EXPECT_EQ(y.at(index), a.at(index) + bias.at({0, index[1], 0, 0}));
    });
}

TEST(Kernels, AddBroadcastsBothInputsIntoAnOuterSum) {
    const std::vector<float> column = {1.0f, 2.0f};        // dims {2, 1}
    const std::vector<float> row = {10.0f, 20.0f, 30.0f};  // dims {1, 3}
    std::vector<float> y(6);
    addBroadcast({column.data(), {2, 1}, {1, 1}}, {row.data(), {1, 3}, {3, 1}}, {y.data(), {2, 3}, {3, 1}});
    EXPECT_EQ(y, (std::vector<float>{11.0f, 21.0f, 31.0f, 12.0f, 22.0f, 32.0f}));
}

TEST(Kernels, AddWritesAStridedOutputWithoutTouchingItsGaps) {
    const std::vector<float> a = {1.0f, 2.0f, 3.0f};
    const std::vector<float> b = {0.5f, 0.5f, 0.5f};
    std::vector<float> y(6, -1.0f);  // stride 2: every other element is a gap
    addBroadcast({a.data(), {3}, {1}}, {b.data(), {3}, {1}}, {y.data(), {3}, {2}});
    EXPECT_EQ(y, (std::vector<float>{1.5f, -1.0f, 2.5f, -1.0f, 3.5f, -1.0f}));
}

TEST(Kernels, BroadcastRuleNeedsSameRankAndEqualOrUnitDims) {
    EXPECT_TRUE(broadcastsTo({1, 3, 1, 1}, {2, 3, 4, 5}));
    EXPECT_TRUE(broadcastsTo({2, 3}, {2, 3}));
    EXPECT_FALSE(broadcastsTo({3}, {2, 3}));
    EXPECT_FALSE(broadcastsTo({2, 2}, {2, 3}));
}

TEST(Kernels, RejectMismatchedShapes) {
    std::vector<float> buffer(6);
    EXPECT_THROW(reluForward({buffer.data(), {2, 3}, {3, 1}}, {buffer.data(), {3, 2}, {2, 1}}),
                 std::invalid_argument);
    EXPECT_THROW(addBroadcast({buffer.data(), {2, 2}, {2, 1}}, {buffer.data(), {2, 3}, {3, 1}},
                              {buffer.data(), {2, 3}, {3, 1}}),
                 std::invalid_argument);
}

}  // namespace
