// The references take the schema's enums, and reject the values they do not implement (the
// schema's UNSET / NOT_SET among them) rather than guessing.
#include "ReferenceTestHelpers.hpp"

#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>
#include <hipdnn_test_sdk/references/Convolution.hpp>
#include <hipdnn_test_sdk/references/Pointwise.hpp>
#include <hipdnn_test_sdk/references/Pooling.hpp>
#include <hipdnn_test_sdk/references/Reduction.hpp>

#include <gtest/gtest.h>

#include <type_traits>

namespace {

using namespace reference_tests;
namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

static_assert(std::is_same_v<refs::ConvMode, fbs::ConvMode>);
static_assert(std::is_same_v<refs::PointwiseMode, fbs::PointwiseMode>);
static_assert(std::is_same_v<refs::ReductionMode, fbs::ReductionMode>);
static_assert(std::is_same_v<refs::ResampleMode, fbs::ResampleMode>);
static_assert(std::is_same_v<refs::PaddingMode, fbs::PaddingMode>);

TEST(ReferenceEnums, ConvolutionRejectsUnsetMode) {
    auto x = packedZeros<float>({1, 1, 3, 3});
    auto w = packedZeros<float>({1, 1, 1, 1});
    auto y = packedZeros<float>({1, 1, 3, 3});
    refs::ConvolutionParams params{{0, 0}, {0, 0}, {1, 1}, {1, 1}, refs::ConvMode::CROSS_CORRELATION};
    EXPECT_NO_THROW(refs::convolutionFprop<float>(x.constView(), w.constView(), y.view(), params));
    params.mode = refs::ConvMode::UNSET;
    EXPECT_THROW(refs::convolutionFprop<float>(x.constView(), w.constView(), y.view(), params),
                 std::invalid_argument);
}

TEST(ReferenceEnums, PointwiseRejectsUnsetMode) {
    auto x = packedZeros<float>({4});
    auto out = packedZeros<float>({4});
    refs::PointwiseParams params;
    params.mode = refs::PointwiseMode::UNSET;
    EXPECT_THROW(
        (refs::pointwise<float, float>(params, x.constView(), std::nullopt, std::nullopt, out.view())),
        std::invalid_argument);
}

TEST(ReferenceEnums, ReductionRejectsUnsetMode) {
    auto in = packedZeros<float>({2, 3});
    auto out = packedZeros<float>({2, 1});
    EXPECT_NO_THROW((refs::reduction<float, float>(refs::ReductionMode::ADD, in.constView(), out.view())));
    EXPECT_THROW((refs::reduction<float, float>(refs::ReductionMode::NOT_SET, in.constView(), out.view())),
                 std::invalid_argument);
}

TEST(ReferenceEnums, PoolingRejectsModesItDoesNotImplement) {
    auto x = packedZeros<float>({1, 1, 4, 4});
    auto y = packedZeros<float>({1, 1, 2, 2});
    const refs::PoolingParams valid{
        refs::ResampleMode::MAXPOOL, refs::PaddingMode::NEG_INF_PAD, {0, 0}, {0, 0}, {2, 2}, {2, 2}};
    EXPECT_NO_THROW(refs::poolingForward<float>(valid, x.constView(), y.view()));
    for (const auto mode :
         {refs::ResampleMode::NOT_SET, refs::ResampleMode::BILINEAR, refs::ResampleMode::NEAREST}) {
        auto params = valid;
        params.mode = mode;
        EXPECT_THROW(refs::poolingForward<float>(params, x.constView(), y.view()), std::invalid_argument)
            << fbs::EnumNameResampleMode(mode);
    }
    auto params = valid;
    params.paddingMode = refs::PaddingMode::PADDING_NOT_SET;
    EXPECT_THROW(refs::poolingForward<float>(params, x.constView(), y.view()), std::invalid_argument);
}

}  // namespace
