// Memory descriptors built from our dims + strides, and the small numeric helpers.
#include "BatchnormPlan.hpp"
#include "BinaryPlan.hpp"
#include "ConvPlan.hpp"
#include "MemoryDesc.hpp"

#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <gtest/gtest.h>

namespace {

using namespace hipdnn_onednn;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_test_sdk::GraphBuilder;
using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

/// A one-tensor graph (a relu from uid 1 to uid 2) to get real TensorAttributes.
struct OneTensor {
    std::vector<uint8_t> bytes;
    GraphWrapper graph;

    OneTensor(std::vector<int64_t> dims, std::vector<int64_t> strides,
              fb::DataType type = fb::DataType::FLOAT)
        : bytes(GraphBuilder("t")
                    .addTensor(1, "x", type, dims, strides)
                    .addTensor(2, "y", type, dims, strides)
                    .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 1, 2)
                    .build()),
          graph(bytes.data(), bytes.size()) {}

    const fb::TensorAttributes& tensor() const { return graph.tensor(1); }
};

TEST(MemoryDesc, NchwStridesMatchPlainTag) {
    const OneTensor t({2, 3, 4, 5}, {60, 20, 5, 1});
    EXPECT_EQ(makeMemoryDesc(t.tensor()), dnnl::memory::desc({2, 3, 4, 5}, dt::f32, tag::nchw));
}

TEST(MemoryDesc, NhwcStridesMatchChannelsLastTag) {
    const OneTensor t({2, 3, 4, 5}, {60, 1, 15, 3});
    const auto desc = makeMemoryDesc(t.tensor());
    EXPECT_EQ(desc, dnnl::memory::desc({2, 3, 4, 5}, dt::f32, tag::nhwc));
    EXPECT_EQ(desc.get_size(), 2U * 3 * 4 * 5 * sizeof(float));
}

TEST(MemoryDesc, Ndhwc3dAndPaddedStridesArePreserved) {
    const OneTensor ndhwc({1, 4, 2, 3, 3}, {72, 1, 36, 12, 4});
    EXPECT_EQ(makeMemoryDesc(ndhwc.tensor()), dnnl::memory::desc({1, 4, 2, 3, 3}, dt::f32, tag::ndhwc));
    // A row pitch larger than the row: oneDNN sizes a strided descriptor as dims[0] * strides[0].
    const OneTensor padded({2, 3}, {8, 1});
    EXPECT_EQ(makeMemoryDesc(padded.tensor()).get_size(), 2U * 8U * sizeof(float));
}

TEST(MemoryDesc, Bfloat16AndUnsupportedTypes) {
    EXPECT_EQ(toDnnlDataType(fb::DataType::BFLOAT16), dt::bf16);
    EXPECT_EQ(toDnnlDataType(fb::DataType::FLOAT), dt::f32);
    EXPECT_FALSE(toDnnlDataType(fb::DataType::HALF).has_value());
    const OneTensor half({2, 2}, {2, 1}, fb::DataType::HALF);
    EXPECT_THROW(makeMemoryDesc(half.tensor()), std::invalid_argument);
}

TEST(MemoryDesc, GroupedWeightsSplitTheOutputChannels) {
    // (K=8, C/g=2, 3, 3) with 4 groups, KRSC-ordered strides.
    const std::vector<int64_t> dims{8, 2, 3, 3};
    const std::vector<int64_t> strides{18, 1, 6, 2};
    const auto grouped = makeGroupedWeightsDesc(dims, strides, 4, dt::f32);
    EXPECT_EQ(grouped.dims(), (dnnl::memory::dims{4, 2, 2, 3, 3}));
    EXPECT_EQ(grouped, dnnl::memory::desc({4, 2, 2, 3, 3}, dt::f32, {36, 18, 1, 6, 2}));
    EXPECT_EQ(makeGroupedWeightsDesc(dims, strides, 1, dt::f32), dnnl::memory::desc(dims, dt::f32, strides));
}

TEST(MemoryDesc, ChannelVectorsAndDenseBlocks) {
    const OneTensor bias({1, 16, 1, 1}, {16, 1, 16, 16});
    EXPECT_TRUE(isVectorAlong(bias.tensor(), 1, 16));
    EXPECT_FALSE(isVectorAlong(bias.tensor(), 1, 8));
    EXPECT_EQ(makeChannelDesc(bias.tensor()), dnnl::memory::desc({16}, dt::f32, tag::a));

    const OneTensor nhwc({2, 3, 4, 5}, {60, 1, 15, 3});
    EXPECT_TRUE(isDenseFrom(nhwc.tensor(), 1));
    const OneTensor gap({2, 3, 4}, {24, 8, 1});  // rows of 4 in pitches of 8
    EXPECT_FALSE(isDenseFrom(gap.tensor(), 1));
}

TEST(MemoryDesc, ScalarOperandsTakeTheDestinationRank) {
    const auto bytes = GraphBuilder("s")
                           .addTensor(1, "x", fb::DataType::FLOAT, {2, 3, 4, 5})
                           .addScalar(2, "two", fb::DataType::FLOAT, 2.0)
                           .addTensor(3, "y", fb::DataType::FLOAT, {2, 3, 4, 5})
                           .addPointwise("mul", fb::PointwiseMode::MUL, 1, 3, 2)
                           .build();
    const GraphWrapper graph(bytes.data(), bytes.size());
    EXPECT_EQ(makeOperandDesc(graph.tensor(2), 4).dims(), (dnnl::memory::dims{1, 1, 1, 1}));
    EXPECT_EQ(hipdnn_flatbuffers_sdk::passByValueNumber(graph.tensor(2)), std::optional<double>(2.0));
    EXPECT_FALSE(hipdnn_flatbuffers_sdk::passByValueNumber(graph.tensor(1)).has_value());
}

TEST(Batchnorm, UnbiasedVarianceCorrection) {
    EXPECT_FLOAT_EQ(unbiasedVariance(3.0F, 4), 4.0F);
    EXPECT_FLOAT_EQ(unbiasedVariance(3.0F, 1), 3.0F);
}

}  // namespace
