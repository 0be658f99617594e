#include "ReferenceTestHelpers.hpp"

#include <hipdnn_test_sdk/references/Matmul.hpp>

#include <gtest/gtest.h>

namespace {

using namespace reference_tests;

TEST(Matmul, HandWorked2x3Times3x2) {
    auto a = packed<float>({2, 3}, {1, 2, 3, 4, 5, 6});
    auto b = packed<float>({3, 2}, {7, 8, 9, 10, 11, 12});
    auto c = packedZeros<float>({2, 2});
    refs::matmul<float, float>(a.constView(), b.constView(), c.view());
    EXPECT_EQ(c.rowMajor(), (std::vector<float>{58, 64, 139, 154}));
    // B stored column-major gives the same product.
    StridedTensor<float> bColumnMajor({3, 2}, {1, 3}, {7, 8, 9, 10, 11, 12});
    refs::matmul<float, float>(a.constView(), bColumnMajor.constView(), c.view());
    EXPECT_EQ(c.rowMajor(), (std::vector<float>{58, 64, 139, 154}));
}

TEST(Matmul, BatchBroadcastByDivisor) {
    // A has 4 batches of 1x1, B has 2: C batch i uses B batch i / 2.
    auto a = packed<float>({4, 1, 1}, {1, 2, 3, 4});
    auto b = packed<float>({2, 1, 1}, {10, 100});
    auto c = packedZeros<float>({4, 1, 1});
    refs::matmul<float, float>(a.constView(), b.constView(), c.view());
    EXPECT_EQ(c.rowMajor(), (std::vector<float>{10, 20, 300, 400}));
    // A batch dim of 1 repeats.
    auto single = packed<float>({1, 1, 1}, {2});
    refs::matmul<float, float>(single.constView(), b.constView(), c.view());
    EXPECT_EQ(c.rowMajor(), (std::vector<float>{20, 20, 200, 200}));
    auto bad = packed<float>({3, 1, 1}, {1, 1, 1});
    EXPECT_THROW((refs::matmul<float, float>(bad.constView(), b.constView(), c.view())),
                 std::invalid_argument);
}

}  // namespace
