#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_data_sdk/utilities/Tensor.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

namespace {

using hipdnn_data_sdk::types::bfloat16;
using hipdnn_data_sdk::types::fp8_e4m3;
using hipdnn_data_sdk::types::fp8_e5m2;
using hipdnn_data_sdk::types::half;
using hipdnn_data_sdk::utilities::forEachIndex;
using hipdnn_data_sdk::utilities::offsetOf;
using hipdnn_data_sdk::utilities::Tensor;
using hipdnn_data_sdk::utilities::TensorLayout;
using ::testing::HasSubstr;
using Dims = std::vector<int64_t>;

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

template <class T>
bool isSentinel(T value) {
    if constexpr (std::numeric_limits<T>::is_integer) {
        return value == std::numeric_limits<T>::max();
    } else {
        return std::isnan(static_cast<float>(value));
    }
}

template <class T>
class DataSdkTensorTyped : public ::testing::Test {};

using ElementTypes =
    ::testing::Types<float, double, half, bfloat16, fp8_e4m3, fp8_e5m2, int8_t, uint8_t, int32_t, int64_t>;
TYPED_TEST_SUITE(DataSdkTensorTyped, ElementTypes);

TYPED_TEST(DataSdkTensorTyped, FillsAndAddressesEveryElementType) {
    using T = TypeParam;
    Tensor<T> tensor({2, 3}, Dims{4, 1});
    EXPECT_EQ(tensor.elementCount(), 6);
    EXPECT_EQ(tensor.storageElementCount(), 7);
    EXPECT_EQ(tensor.sizeInBytes(), 7 * sizeof(T));

    tensor.fillSentinel();
    for (int64_t i = 0; i < tensor.storageElementCount(); ++i) {
        EXPECT_TRUE(isSentinel(tensor.data()[i])) << i;
    }

    tensor.fill(T(3));
    for (int64_t i = 0; i < tensor.storageElementCount(); ++i) {
        EXPECT_EQ(static_cast<double>(tensor.data()[i]), 3.0) << i;
    }

    tensor.at({1, 2}) = T(5);
    EXPECT_EQ(static_cast<double>(tensor.data()[6]), 5.0);
    const Tensor<T>& constTensor = tensor;
    EXPECT_EQ(static_cast<double>(constTensor.at({1, 2})), 5.0);

    tensor.fillRandom(0, 4, 7);
    std::set<double> values;
    forEachIndex(tensor.dims(), [&](const Dims& index) {
        const auto value = static_cast<double>(tensor.at(index));
        EXPECT_GE(value, 0.0);
        EXPECT_LE(value, 4.0);
        values.insert(value);
    });
    EXPECT_GT(values.size(), 1u);
}

TEST(DataSdkTensor, ConstructsPackedFromLayout) {
    const Tensor<float> nhwc({2, 3, 4, 5}, TensorLayout::NHWC);
    EXPECT_EQ(nhwc.dims(), (Dims{2, 3, 4, 5}));
    EXPECT_EQ(nhwc.strides(), (Dims{60, 1, 15, 3}));
    EXPECT_EQ(nhwc.storageElementCount(), 120);
    EXPECT_EQ(nhwc.sizeInBytes(), 480u);
    for (int64_t i = 0; i < 120; ++i) {
        EXPECT_EQ(nhwc.data()[i], 0.0f) << "storage starts zeroed";
    }
    EXPECT_THAT(messageOf<std::invalid_argument>([] {
                    Tensor<float>({2, 3}, TensorLayout::NCHW);
                }),
                HasSubstr("NCHW"));
}

TEST(DataSdkTensor, ValidatesDimsAndStrides) {
    const std::string rank = messageOf<std::invalid_argument>([] { Tensor<float>({2, 3}, Dims{1}); });
    EXPECT_THAT(rank, HasSubstr("[2, 3]"));
    EXPECT_THAT(rank, HasSubstr("[1]"));
    EXPECT_THAT(messageOf<std::invalid_argument>([] {
                    Tensor<float>({2, 0}, Dims{1, 1});
                }),
                HasSubstr("[2, 0]"));
    EXPECT_THAT(messageOf<std::invalid_argument>([] {
                    Tensor<float>({2, 3}, Dims{-3, 1});
                }),
                HasSubstr("[-3, 1]"));
    EXPECT_THROW(Tensor<float>({int64_t{1} << 62, 4}, Dims{4, 1}), std::overflow_error);
}

TEST(DataSdkTensor, AtUsesStridesAndChecksBounds) {
    Tensor<int32_t> tensor({2, 3, 4, 5}, TensorLayout::NHWC);
    tensor.at({1, 2, 3, 4}) = 42;
    EXPECT_EQ(tensor.data()[offsetOf({1, 2, 3, 4}, tensor.strides())], 42);
    EXPECT_EQ(offsetOf({1, 2, 3, 4}, tensor.strides()), 60 + 2 + 45 + 12);
    EXPECT_THAT(messageOf<std::out_of_range>([&] { tensor.at({1, 3, 0, 0}); }), HasSubstr("[1, 3, 0, 0]"));
    EXPECT_THROW(tensor.at({0, 0, 0}), std::out_of_range);
    EXPECT_THROW(tensor.at({0, -1, 0, 0}), std::out_of_range);
}

TEST(DataSdkTensor, FillRandomIsDeterministicPerSeedAndIndependentOfLayout) {
    Tensor<float> first({2, 3, 4, 5}, TensorLayout::NCHW);
    Tensor<float> second({2, 3, 4, 5}, TensorLayout::NCHW);
    Tensor<float> channelsLast({2, 3, 4, 5}, TensorLayout::NHWC);
    Tensor<float> otherSeed({2, 3, 4, 5}, TensorLayout::NCHW);
    first.fillRandom(-1.0, 1.0, 1234);
    second.fillRandom(-1.0, 1.0, 1234);
    channelsLast.fillRandom(-1.0, 1.0, 1234);
    otherSeed.fillRandom(-1.0, 1.0, 1235);
    EXPECT_EQ(std::memcmp(first.data(), second.data(), first.sizeInBytes()), 0);
    EXPECT_NE(std::memcmp(first.data(), otherSeed.data(), first.sizeInBytes()), 0);
    forEachIndex(first.dims(),
                 [&](const Dims& index) { EXPECT_EQ(first.at(index), channelsLast.at(index)); });
}

TEST(DataSdkTensor, FillRandomMapsGeneratorOutputItself) {
    // The values follow from std::mt19937_64 alone (fully specified by the standard): the top 53
    // bits of a draw scaled to [0, 1), interpolated between the bounds, in row-major order.
    Tensor<double> tensor({3, 2}, Dims{1, 3});  // column-major storage, row-major draws
    tensor.fillRandom(10.0, 20.0, 99);
    std::mt19937_64 generator(99);
    forEachIndex(tensor.dims(), [&](const Dims& index) {
        const double unit = std::ldexp(static_cast<double>(generator() >> 11), -53);
        EXPECT_EQ(tensor.at(index), 10.0 * (1.0 - unit) + 20.0 * unit);
    });
}

TEST(DataSdkTensor, FillRandomIntegersCoverTheInclusiveRange) {
    Tensor<int8_t> tensor({1000}, Dims{1});
    tensor.fillRandom(-3, 3, 5);
    std::set<int> seen;
    for (int64_t i = 0; i < tensor.storageElementCount(); ++i) {
        seen.insert(tensor.data()[i]);
    }
    EXPECT_EQ(seen, (std::set<int>{-3, -2, -1, 0, 1, 2, 3}));

    Tensor<uint8_t> bytes({64}, Dims{1});
    bytes.fillRandom(0, 255, 5);
    EXPECT_THROW(bytes.fillRandom(0, 256, 5), std::invalid_argument);
    EXPECT_THROW(bytes.fillRandom(-1, 2, 5), std::invalid_argument);
    EXPECT_THROW(bytes.fillRandom(0.5, 2, 5), std::invalid_argument);

    Tensor<int64_t> wide({64}, Dims{1});
    wide.fillRandom(-9.0e18, 9.0e18, 5);
    std::set<int64_t> distinct(wide.data(), wide.data() + 64);
    EXPECT_EQ(distinct.size(), 64u);
}

TEST(DataSdkTensor, FillRandomRejectsReversedBounds) {
    Tensor<float> tensor({4}, Dims{1});
    EXPECT_THROW(tensor.fillRandom(1.0, -1.0, 0), std::invalid_argument);
    EXPECT_THROW(tensor.fillRandom(std::nan(""), 1.0, 0), std::invalid_argument);
    tensor.fillRandom(2.5, 2.5, 0);
    for (int64_t i = 0; i < 4; ++i) {
        EXPECT_EQ(tensor.data()[i], 2.5f);
    }
}

TEST(DataSdkTensor, FillRandomLeavesGapsAndSentinelMarksThem) {
    Tensor<half> tensor({2, 3}, Dims{4, 1});
    tensor.fillSentinel();
    tensor.fillRandom(0.0, 1.0, 3);
    int untouched = 0;
    for (int64_t i = 0; i < tensor.storageElementCount(); ++i) {
        untouched += std::isnan(static_cast<float>(tensor.data()[i])) ? 1 : 0;
    }
    EXPECT_EQ(untouched, 1);  // storage index 3 is padding between the rows
    EXPECT_TRUE(std::isnan(static_cast<float>(tensor.data()[3])));
}

}  // namespace
