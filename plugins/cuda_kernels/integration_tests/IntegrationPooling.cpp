// CUDA_NORM_ENGINE's pooling against the CPU reference: max (each padding mode) and average
// (padding included and excluded), fp32/fp16/bf16, NCHW and NHWC, 2-D and 3-D windows, padding,
// strides below, at and above the window, odd sizes, a global pool, and a fused relu or residual
// add + relu after y.
#include "../tests/NormGraphs.hpp"
#include "EngineHarness.hpp"

#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <gtest/gtest.h>

#include <tuple>
#include <utility>

namespace cuda_kernels_integration {
namespace {

using cuda_kernels_test::Epilogue;
using cuda_kernels_test::PoolingShape;

using PoolingMode = std::pair<fb::ResampleMode, fb::PaddingMode>;

const auto kTypes = testing::Values(fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16);
const auto kModes =
    testing::Values(PoolingMode{fb::ResampleMode::MAXPOOL, fb::PaddingMode::PADDING_NOT_SET},
                    PoolingMode{fb::ResampleMode::MAXPOOL, fb::PaddingMode::ZERO_PAD},
                    PoolingMode{fb::ResampleMode::MAXPOOL, fb::PaddingMode::EDGE_VAL_PAD},
                    PoolingMode{fb::ResampleMode::AVGPOOL_EXCLUDE_PADDING, fb::PaddingMode::PADDING_NOT_SET},
                    PoolingMode{fb::ResampleMode::AVGPOOL_INCLUDE_PADDING, fb::PaddingMode::PADDING_NOT_SET});

RunOptions poolingOptions() {
    RunOptions options;
    options.engineId = hipdnn_data_sdk::utilities::CUDA_NORM_ENGINE_ID;
    options.tolerance = hipdnn_test_sdk::ToleranceOp::Resample;
    return options;
}

PoolingShape shapeOf(PoolingMode mode, bool channelsLast, std::vector<int64_t> xDims,
                     std::vector<int64_t> window, std::vector<int64_t> stride,
                     std::vector<int64_t> prePadding, std::vector<int64_t> postPadding) {
    PoolingShape shape;
    shape.mode = mode.first;
    shape.padding = mode.second;
    shape.channelsLast = channelsLast;
    shape.xDims = std::move(xDims);
    shape.window = std::move(window);
    shape.stride = std::move(stride);
    shape.prePadding = std::move(prePadding);
    shape.postPadding = std::move(postPadding);
    return shape;
}

// Overlapping windows (stride < window) with padding on both sides, windows that skip elements
// (stride > window) with uneven padding, tiling windows, a global pool, and a 3-D window.
std::vector<PoolingShape> smokeShapes(PoolingMode mode, bool channelsLast) {
    return {shapeOf(mode, channelsLast, {2, 16, 9, 11}, {3, 3}, {2, 2}, {1, 1}, {1, 1}),
            shapeOf(mode, channelsLast, {1, 5, 7, 13}, {2, 3}, {3, 4}, {0, 1}, {1, 2}),
            shapeOf(mode, channelsLast, {3, 3, 8, 8}, {2, 2}, {2, 2}, {0, 0}, {0, 0}),
            shapeOf(mode, channelsLast, {2, 8, 7, 7}, {7, 7}, {1, 1}, {0, 0}, {0, 0}),
            shapeOf(mode, channelsLast, {2, 3, 5, 6, 7}, {2, 3, 2}, {1, 2, 3}, {1, 0, 1}, {0, 2, 1})};
}

std::string modeName(PoolingMode mode) {
    return std::string(fb::EnumNameResampleMode(mode.first)) + "_" + fb::EnumNamePaddingMode(mode.second);
}

using PoolingCase = std::tuple<PoolingMode, fb::DataType, bool>;  // mode, type, NHWC

class Pooling : public testing::TestWithParam<PoolingCase> {};

TEST_P(Pooling, MatchesReference) {
    SKIP_IF_NO_DEVICE();
    const auto [mode, type, channelsLast] = GetParam();
    for (const PoolingShape& shape : smokeShapes(mode, channelsLast)) {
        SCOPED_TRACE(shape.name());
        expectMatchesReference(cuda_kernels_test::poolingGraph(type, shape), poolingOptions());
    }
}

INSTANTIATE_TEST_SUITE_P(Smoke, Pooling, testing::Combine(kModes, kTypes, testing::Bool()),
                         [](const auto& info) {
                             return modeName(std::get<0>(info.param)) + "_" +
                                    fb::EnumNameDataType(std::get<1>(info.param)) +
                                    (std::get<2>(info.param) ? "_nhwc" : "_nchw");
                         });

using FusedCase = std::tuple<PoolingMode, fb::DataType, bool, Epilogue>;  // mode, type, NHWC, epilogue

class PoolingFused : public testing::TestWithParam<FusedCase> {};

TEST_P(PoolingFused, MatchesReference) {
    SKIP_IF_NO_DEVICE();
    const auto [mode, type, channelsLast, epilogue] = GetParam();
    for (const PoolingShape& shape :
         {shapeOf(mode, channelsLast, {2, 16, 9, 11}, {3, 3}, {2, 2}, {1, 1}, {1, 1}),
          shapeOf(mode, channelsLast, {2, 3, 5, 6, 7}, {2, 3, 2}, {1, 2, 3}, {1, 0, 1}, {0, 2, 1})}) {
        SCOPED_TRACE(shape.name());
        expectMatchesReference(cuda_kernels_test::poolingGraph(type, shape, epilogue), poolingOptions());
    }
}

INSTANTIATE_TEST_SUITE_P(
    Smoke, PoolingFused,
    testing::Combine(testing::Values(PoolingMode{fb::ResampleMode::MAXPOOL, fb::PaddingMode::PADDING_NOT_SET},
                                     PoolingMode{fb::ResampleMode::AVGPOOL_INCLUDE_PADDING,
                                                 fb::PaddingMode::PADDING_NOT_SET}),
                     kTypes, testing::Bool(), testing::Values(Epilogue::Relu, Epilogue::AddRelu)),
    [](const auto& info) {
        return modeName(std::get<0>(info.param)) + "_" + fb::EnumNameDataType(std::get<1>(info.param)) +
               (std::get<2>(info.param) ? "_nhwc_" : "_nchw_") +
               cuda_kernels_test::epilogueName(std::get<3>(info.param));
    });

// With every element of x negative, a border window's max is what the padding contributes:
// nothing (the largest element inside), zero, or the edge element.
TEST(SmokePoolingPadding, NegativeInputsShowWhatMaxPaddingContributes) {
    SKIP_IF_NO_DEVICE();
    RunOptions options = poolingOptions();
    options.ranges[1] = {-2.0, -1.0};
    for (const fb::PaddingMode padding :
         {fb::PaddingMode::NEG_INF_PAD, fb::PaddingMode::ZERO_PAD, fb::PaddingMode::EDGE_VAL_PAD}) {
        for (const bool channelsLast : {false, true}) {
            const PoolingShape shape = shapeOf({fb::ResampleMode::MAXPOOL, padding}, channelsLast,
                                               {2, 4, 6, 5}, {3, 3}, {1, 2}, {2, 1}, {2, 2});
            SCOPED_TRACE(shape.name() + " " + fb::EnumNamePaddingMode(padding));
            expectMatchesReference(cuda_kernels_test::poolingGraph(fb::DataType::FLOAT, shape), options);
        }
    }
}

class FullPooling : public testing::TestWithParam<fb::DataType> {};

TEST_P(FullPooling, ResnetStemMaxPool) {
    SKIP_IF_NO_DEVICE();
    for (const bool channelsLast : {true, false}) {
        expectMatchesReference(cuda_kernels_test::poolingGraph(
                                   GetParam(),
                                   shapeOf({fb::ResampleMode::MAXPOOL, fb::PaddingMode::NEG_INF_PAD},
                                           channelsLast, {32, 64, 112, 112}, {3, 3}, {2, 2}, {1, 1}, {1, 1}),
                                   Epilogue::Relu),
                               poolingOptions());
    }
}

TEST_P(FullPooling, GlobalAndVolumeAveragePools) {
    SKIP_IF_NO_DEVICE();
    for (const bool channelsLast : {true, false}) {
        expectMatchesReference(
            cuda_kernels_test::poolingGraph(
                GetParam(),
                shapeOf({fb::ResampleMode::AVGPOOL_EXCLUDE_PADDING, fb::PaddingMode::PADDING_NOT_SET},
                        channelsLast, {32, 2048, 7, 7}, {7, 7}, {1, 1}, {0, 0}, {0, 0})),
            poolingOptions());
        expectMatchesReference(
            cuda_kernels_test::poolingGraph(
                GetParam(),
                shapeOf({fb::ResampleMode::AVGPOOL_INCLUDE_PADDING, fb::PaddingMode::PADDING_NOT_SET},
                        channelsLast, {4, 32, 16, 56, 56}, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1}),
                Epilogue::AddRelu),
            poolingOptions());
    }
}

INSTANTIATE_TEST_SUITE_P(Full, FullPooling, kTypes,
                         [](const auto& info) { return std::string(fb::EnumNameDataType(info.param)); });

}  // namespace
}  // namespace cuda_kernels_integration
