#include "ReferenceTestHelpers.hpp"

#include <hipdnn_test_sdk/references/Reduction.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace reference_tests;

std::vector<float> reduce(refs::ReductionMode mode, const std::vector<int64_t>& outDims) {
    // in (2, 3) = [[1, -2, 0], [3, 4, -5]]
    auto in = packed<float>({2, 3}, {1, -2, 0, 3, 4, -5});
    auto out = packedZeros<float>(outDims);
    refs::reduction<float, float>(mode, in.constView(), out.view());
    return out.rowMajor();
}

TEST(Reduction, EveryModeOverRows) {
    using M = refs::ReductionMode;
    EXPECT_EQ(reduce(M::ADD, {2, 1}), (std::vector<float>{-1, 2}));
    EXPECT_EQ(reduce(M::MUL, {2, 1}), (std::vector<float>{0, -60}));
    EXPECT_EQ(reduce(M::MUL_NO_ZEROS, {2, 1}), (std::vector<float>{-2, -60}));
    EXPECT_EQ(reduce(M::MIN_OP, {2, 1}), (std::vector<float>{-2, -5}));
    EXPECT_EQ(reduce(M::MAX_OP, {2, 1}), (std::vector<float>{1, 4}));
    EXPECT_EQ(reduce(M::AMAX, {2, 1}), (std::vector<float>{2, 5}));
    EXPECT_EQ(reduce(M::AVG, {2, 1}), (std::vector<float>{-1.0f / 3.0f, 2.0f / 3.0f}));
    EXPECT_EQ(reduce(M::NORM1, {2, 1}), (std::vector<float>{3, 12}));
    EXPECT_EQ(reduce(M::NORM2, {2, 1}), (std::vector<float>{std::sqrt(5.0f), std::sqrt(50.0f)}));
}

TEST(Reduction, ColumnsAllAndIdentity) {
    using M = refs::ReductionMode;
    EXPECT_EQ(reduce(M::ADD, {1, 3}), (std::vector<float>{4, 2, -5}));
    EXPECT_EQ(reduce(M::ADD, {1, 1}), (std::vector<float>{1}));
    EXPECT_EQ(reduce(M::ADD, {2, 3}), (std::vector<float>{1, -2, 0, 3, 4, -5}));
    auto in = packed<float>({2, 3}, {1, -2, 0, 3, 4, -5});
    auto wrong = packedZeros<float>({2, 2});
    EXPECT_THROW((refs::reduction<float, float>(M::ADD, in.constView(), wrong.view())),
                 std::invalid_argument);
}

TEST(Reduction, StridedInputMatchesPacked) {
    // The transpose of the input, read through swapped strides, reduced over its rows.
    StridedTensor<float> transposed({3, 2}, {1, 3}, {1, 3, -2, 4, 0, -5});
    auto out = packedZeros<float>({3, 1});
    refs::reduction<float, float>(refs::ReductionMode::ADD, transposed.constView(), out.view());
    EXPECT_EQ(out.rowMajor(), (std::vector<float>{4, 2, -5}));
}

}  // namespace
