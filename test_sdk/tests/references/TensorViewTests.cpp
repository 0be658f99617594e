#include "ReferenceTestHelpers.hpp"

#include <hipdnn_test_sdk/references/Parallel.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

namespace {

using namespace reference_tests;

TEST(TensorView, PackedStridesAreRowMajor) {
    EXPECT_EQ(refs::packedStrides({2, 3, 4, 5}), (std::vector<int64_t>{60, 20, 5, 1}));
    EXPECT_EQ(refs::elementCount({2, 3, 4, 5}), 120);
}

TEST(TensorView, StridesForOrderFollowDataSdkLayouts) {
    EXPECT_EQ(refs::stridesForOrder({2, 3, 4, 5}, {3, 2, 1, 0}), (std::vector<int64_t>{60, 20, 5, 1}));
    EXPECT_EQ(refs::stridesForOrder({2, 3, 4, 5}, {3, 0, 2, 1}), (std::vector<int64_t>{60, 1, 15, 3}));
    EXPECT_THROW(refs::stridesForOrder({2, 3}, {0, 0}), std::invalid_argument);
}

TEST(TensorView, ConvertsToReadOnlyView) {
    std::vector<float> data{1, 2};
    refs::TensorView<float> mutableView{data.data(), {2}, {1}};
    const refs::TensorView<const float> readOnly = mutableView;
    EXPECT_EQ(readOnly.data, data.data());
    EXPECT_EQ(readOnly.elementCount(), 2);
}

TEST(ParallelFor, CoversEveryIndexOnce) {
    constexpr int64_t count = 100003;
    std::vector<std::atomic<int>> hits(count);
    refs::parallelFor(count, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            ++hits[static_cast<size_t>(i)];
        }
    });
    for (const auto& hit : hits) {
        ASSERT_EQ(hit.load(), 1);
    }
    EXPECT_GE(refs::referenceThreadCount(), 1u);
    EXPECT_LE(refs::referenceThreadCount(), 64u);
}

TEST(ParallelFor, RethrowsWorkerExceptions) {
    EXPECT_THROW(refs::parallelFor(1 << 20,
                                   [](int64_t begin, int64_t) {
                                       if (begin > 0) {
                                           throw std::runtime_error("worker failed");
                                       }
                                   }),
                 std::runtime_error);
}

}  // namespace
