#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

namespace {

using hipdnn_data_sdk::utilities::broadcastsTo;
using hipdnn_data_sdk::utilities::elementCount;
using hipdnn_data_sdk::utilities::extractStrideOrder;
using hipdnn_data_sdk::utilities::forEachIndex;
using hipdnn_data_sdk::utilities::forEachIndexInStrideOrder;
using hipdnn_data_sdk::utilities::generatePackedStrides;
using hipdnn_data_sdk::utilities::layoutFromStrides;
using hipdnn_data_sdk::utilities::offsetOf;
using hipdnn_data_sdk::utilities::packedStrides;
using hipdnn_data_sdk::utilities::SlidingWindow;
using hipdnn_data_sdk::utilities::storageElementCount;
using hipdnn_data_sdk::utilities::TensorLayout;
using ::testing::HasSubstr;
using Dims = std::vector<int64_t>;

/// Runs `action`, expects it to throw `Exception`, and returns the message.
template <class Exception, class Action>
std::string messageOf(Action&& action) {
    try {
        action();
    } catch (const Exception& error) {
        return error.what();
    }
    ADD_FAILURE() << "no exception thrown";
    return {};
}

TEST(DataSdkShape, LayoutConstants) {
    EXPECT_EQ(TensorLayout::NCL.name, "NCL");
    EXPECT_EQ(TensorLayout::NCL.strideOrder, (Dims{2, 1, 0}));
    EXPECT_EQ(TensorLayout::NLC.strideOrder, (Dims{2, 0, 1}));
    EXPECT_EQ(TensorLayout::NCHW.strideOrder, (Dims{3, 2, 1, 0}));
    EXPECT_EQ(TensorLayout::NHWC.name, "NHWC");
    EXPECT_EQ(TensorLayout::NHWC.strideOrder, (Dims{3, 0, 2, 1}));
    EXPECT_EQ(TensorLayout::NCDHW.strideOrder, (Dims{4, 3, 2, 1, 0}));
    EXPECT_EQ(TensorLayout::NDHWC.strideOrder, (Dims{4, 0, 3, 2, 1}));
}

TEST(DataSdkShape, GeneratePackedStrides) {
    EXPECT_EQ(generatePackedStrides({2, 3, 4, 5}, TensorLayout::NCHW.strideOrder), (Dims{60, 20, 5, 1}));
    EXPECT_EQ(generatePackedStrides({2, 3, 4, 5}, TensorLayout::NHWC.strideOrder), (Dims{60, 1, 15, 3}));
    EXPECT_EQ(generatePackedStrides({2, 3, 4}, TensorLayout::NLC.strideOrder), (Dims{12, 1, 3}));
    EXPECT_EQ(generatePackedStrides({2, 3, 4, 5, 6}, TensorLayout::NDHWC.strideOrder),
              (Dims{360, 1, 90, 18, 3}));
    EXPECT_EQ(packedStrides({2, 3, 4}), (Dims{12, 4, 1}));
    EXPECT_EQ(packedStrides({}), Dims{});

    EXPECT_THAT(messageOf<std::invalid_argument>([] {
                    generatePackedStrides({2, 3}, {0, 0});
                }),
                HasSubstr("[0, 0]"));
    EXPECT_THAT(messageOf<std::invalid_argument>([] {
                    generatePackedStrides({2, 3}, {1, 0, 2});
                }),
                HasSubstr("[1, 0, 2]"));
    EXPECT_THAT(messageOf<std::invalid_argument>([] {
                    generatePackedStrides({2, 0}, {1, 0});
                }),
                HasSubstr("[2, 0]"));
    EXPECT_THAT(messageOf<std::overflow_error>([] {
                    generatePackedStrides({int64_t{1} << 62, 8}, {0, 1});
                }),
                HasSubstr("overflow"));
}

TEST(DataSdkShape, ExtractStrideOrder) {
    EXPECT_EQ(extractStrideOrder({60, 1, 15, 3}), (Dims{3, 0, 2, 1}));
    EXPECT_EQ(extractStrideOrder({60, 20, 5, 1}), (Dims{3, 2, 1, 0}));
    // Equal strides (a dim of size 1): the later dim counts as faster.
    EXPECT_EQ(extractStrideOrder({4, 1, 1}), (Dims{2, 1, 0}));
    EXPECT_EQ(extractStrideOrder({}), Dims{});
}

TEST(DataSdkShape, LayoutFromStrides) {
    EXPECT_EQ(layoutFromStrides({2, 3, 4, 5}, {60, 1, 15, 3}), "NHWC");
    EXPECT_EQ(layoutFromStrides({2, 3, 4, 5}, {60, 20, 5, 1}), "NCHW");
    EXPECT_EQ(layoutFromStrides({2, 3, 4}, {12, 1, 3}), "NLC");
    EXPECT_EQ(layoutFromStrides({2, 3, 4}, {12, 4, 1}), "NCL");
    EXPECT_EQ(layoutFromStrides({2, 3, 4, 5, 6}, {360, 120, 30, 6, 1}), "NCDHW");
    EXPECT_EQ(layoutFromStrides({2, 3, 4, 5, 6}, {360, 1, 90, 18, 3}), "NDHWC");
    EXPECT_EQ(layoutFromStrides({1, 1, 1, 1}, {1, 1, 1, 1}), "NCHW");
    EXPECT_EQ(layoutFromStrides({2, 3, 4, 5}, {120, 20, 5, 1}), std::nullopt);  // padded
    EXPECT_EQ(layoutFromStrides({2, 3}, {3, 1}), std::nullopt);
    EXPECT_THROW(layoutFromStrides({2, 3}, {3}), std::invalid_argument);
}

TEST(DataSdkShape, ElementCount) {
    EXPECT_EQ(elementCount({2, 3, 4}), 24);
    EXPECT_EQ(elementCount({}), 1);
    EXPECT_THAT(messageOf<std::invalid_argument>([] { elementCount({2, -1}); }), HasSubstr("[2, -1]"));
    EXPECT_THAT(messageOf<std::overflow_error>([] {
                    elementCount({int64_t{1} << 32, int64_t{1} << 32});
                }),
                HasSubstr("[4294967296, 4294967296]"));
}

TEST(DataSdkShape, StorageElementCount) {
    EXPECT_EQ(storageElementCount({2, 3, 4, 5}, {60, 1, 15, 3}), 120);
    EXPECT_EQ(storageElementCount({2, 3}, {4, 1}), 7);  // rows padded to 4
    EXPECT_EQ(storageElementCount({3, 4}, {0, 1}), 4);  // broadcast rows
    EXPECT_EQ(storageElementCount({}, {}), 1);

    const std::string overflow = messageOf<std::overflow_error>([] {
        storageElementCount({int64_t{1} << 62, 4}, {4, 1});
    });
    EXPECT_THAT(overflow, HasSubstr("[4611686018427387904, 4]"));
    EXPECT_THAT(overflow, HasSubstr("[4, 1]"));
    EXPECT_THROW(storageElementCount({int64_t{1} << 62, 2}, {1, int64_t{1} << 62}), std::overflow_error);

    const std::string rankMismatch = messageOf<std::invalid_argument>([] {
        storageElementCount({2, 3}, {1});
    });
    EXPECT_THAT(rankMismatch, HasSubstr("[2, 3]"));
    EXPECT_THAT(rankMismatch, HasSubstr("[1]"));
    EXPECT_THAT(messageOf<std::invalid_argument>([] {
                    storageElementCount({2, 3}, {3, -1});
                }),
                HasSubstr("[3, -1]"));
    EXPECT_THAT(messageOf<std::invalid_argument>([] {
                    storageElementCount({0, 3}, {3, 1});
                }),
                HasSubstr("[0, 3]"));
}

TEST(DataSdkShape, ForEachIndexIsRowMajor) {
    std::vector<Dims> visited;
    forEachIndex({2, 3}, [&](const Dims& index) { visited.push_back(index); });
    EXPECT_EQ(visited, (std::vector<Dims>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));

    visited.clear();
    forEachIndex({}, [&](const Dims& index) { visited.push_back(index); });
    EXPECT_EQ(visited, std::vector<Dims>{Dims{}});
}

TEST(DataSdkShape, ForEachIndexInStrideOrderFollowsMemory) {
    const Dims dims{2, 3, 4, 5};
    const Dims strides = generatePackedStrides(dims, TensorLayout::NHWC.strideOrder);
    std::vector<int64_t> offsets;
    std::set<Dims> indices;
    forEachIndexInStrideOrder(dims, strides, [&](const Dims& index) {
        offsets.push_back(offsetOf(index, strides));
        indices.insert(index);
    });
    ASSERT_EQ(offsets.size(), 120u);
    for (size_t i = 0; i < offsets.size(); ++i) {
        EXPECT_EQ(offsets[i], static_cast<int64_t>(i));
    }
    EXPECT_EQ(indices.size(), 120u);
    EXPECT_THROW(forEachIndexInStrideOrder(dims, {1, 2}, [](const Dims&) {}), std::invalid_argument);
}

TEST(DataSdkShape, OffsetOf) {
    EXPECT_EQ(offsetOf({1, 2, 3}, {12, 4, 1}), 23);
    EXPECT_EQ(offsetOf({}, {}), 0);
    EXPECT_THROW(offsetOf({1, 2}, {1}), std::invalid_argument);
}

// A huge dilation overflowed int64_t inside the graph contract's check of a convolution (found
// by the onednn plugin fuzzer under UBSan); such a window has no output length.
TEST(DataSdkShape, SlidingWindowOutputLengthOfOverflowingValuesIsNullopt) {
    constexpr int64_t kHuge = std::numeric_limits<int64_t>::max() / 2 + 1;
    EXPECT_EQ((SlidingWindow{8, 3, 0, 0, 1, kHuge}.outputLength()), std::nullopt);
    EXPECT_EQ((SlidingWindow{8, std::numeric_limits<int64_t>::max(), 0, 0, 1, 3}.outputLength()), std::nullopt);
    EXPECT_EQ((SlidingWindow{std::numeric_limits<int64_t>::max(), 3, 1, 1, 1, 1}.outputLength()),
              std::nullopt);
}

TEST(DataSdkShape, SlidingWindowOutputLength) {
    // ResNet's 7x7 stride-2 stem: (224 + 3 + 3 - 7) / 2 + 1 = 112.
    EXPECT_EQ((SlidingWindow{224, 7, 3, 3, 2, 1}.outputLength()), 112);
    // Dilation 2 makes a 3-tap window cover 5 elements.
    const SlidingWindow dilated{8, 3, 0, 0, 1, 2};
    EXPECT_EQ(dilated.extent(), 5);
    EXPECT_EQ(dilated.outputLength(), 4);
    EXPECT_EQ(dilated.formula(), "(8 + 0 + 0 - (2 * (3 - 1) + 1)) / 1 + 1");
    EXPECT_EQ((SlidingWindow{8, 3, 1, 1, 1, 1}.formula(false)), "(8 + 1 + 1 - 3) / 1 + 1");
    // Asymmetric padding and a stride that leaves a remainder round down.
    EXPECT_EQ((SlidingWindow{7, 2, 0, 1, 3, 1}.outputLength()), 3);
    EXPECT_EQ((SlidingWindow{2, 3, 0, 0, 1, 1}.outputLength()), std::nullopt);
    EXPECT_EQ((SlidingWindow{8, 3, 0, 0, 0, 1}.outputLength()), std::nullopt);
}

TEST(DataSdkShape, BroadcastsTo) {
    EXPECT_TRUE(broadcastsTo({1, 8, 1, 1}, {2, 8, 4, 4}));
    EXPECT_TRUE(broadcastsTo({4}, {2, 8, 4, 4}));
    EXPECT_TRUE(broadcastsTo({2, 8, 4, 4}, {2, 8, 4, 4}));
    EXPECT_FALSE(broadcastsTo({3, 1, 1}, {2, 8, 4, 4}));
    EXPECT_FALSE(broadcastsTo({1, 2, 8, 4, 4}, {2, 8, 4, 4}));
    EXPECT_FALSE(broadcastsTo({8, 1}, {2, 8, 4, 4}));
}

}  // namespace
