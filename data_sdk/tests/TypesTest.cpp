// Exhaustive checks of the reduced-precision types against references built independently:
// values from sign/exponent/mantissa with std::ldexp, rounding by searching the nearest
// representable value with exact double arithmetic.
#include <hipdnn_data_sdk/types.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using hipdnn_data_sdk::types::bfloat16;
using hipdnn_data_sdk::types::fp8_e4m3;
using hipdnn_data_sdk::types::fp8_e5m2;
using hipdnn_data_sdk::types::half;

/// The formats as the standards describe them, written out independently of the implementation.
struct FormatSpec {
    int exponentBits;
    int mantissaBits;
    bool hasInfinity;  // false: no infinities, NaN only when exponent and mantissa are all ones
};

template <class T>
constexpr FormatSpec specOf = {};
template <>
constexpr FormatSpec specOf<half> = {5, 10, true};
template <>
constexpr FormatSpec specOf<bfloat16> = {8, 7, true};
template <>
constexpr FormatSpec specOf<fp8_e4m3> = {4, 3, false};
template <>
constexpr FormatSpec specOf<fp8_e5m2> = {5, 2, true};

template <class T>
struct Reference {
    static constexpr FormatSpec spec = specOf<T>;
    static constexpr int width = 1 + spec.exponentBits + spec.mantissaBits;
    static constexpr uint32_t patternCount = uint32_t{1} << width;
    static constexpr uint32_t signBit = uint32_t{1} << (width - 1);
    static constexpr uint32_t allOnesExponent = (uint32_t{1} << spec.exponentBits) - 1;
    static constexpr uint32_t allOnesMantissa = (uint32_t{1} << spec.mantissaBits) - 1;
    static constexpr int bias = (1 << (spec.exponentBits - 1)) - 1;

    static uint32_t exponentOf(uint32_t bits) { return (bits >> spec.mantissaBits) & allOnesExponent; }
    static uint32_t mantissaOf(uint32_t bits) { return bits & allOnesMantissa; }
    static bool negative(uint32_t bits) { return (bits & signBit) != 0; }

    static bool isNan(uint32_t bits) {
        if (spec.hasInfinity) {
            return exponentOf(bits) == allOnesExponent && mantissaOf(bits) != 0;
        }
        return exponentOf(bits) == allOnesExponent && mantissaOf(bits) == allOnesMantissa;
    }
    static bool isInfinity(uint32_t bits) {
        return spec.hasInfinity && exponentOf(bits) == allOnesExponent && mantissaOf(bits) == 0;
    }

    /// Value of a finite pattern.
    static double value(uint32_t bits) {
        const uint32_t exponent = exponentOf(bits);
        const auto mantissa = static_cast<double>(mantissaOf(bits));
        const double magnitude = exponent == 0
                                     ? std::ldexp(mantissa, 1 - bias - spec.mantissaBits)
                                     : std::ldexp(std::ldexp(1.0, spec.mantissaBits) + mantissa,
                                                  static_cast<int>(exponent) - bias - spec.mantissaBits);
        return negative(bits) ? -magnitude : magnitude;
    }

    /// Non-negative finite values with their patterns, ascending. IEEE formats end with a virtual
    /// point at 2^(emax+1) standing for infinity: with an unbounded exponent that is where
    /// rounding would go, and its mantissa is even, so ties above the largest finite value go to
    /// infinity.
    static const std::vector<std::pair<double, uint32_t>>& table() {
        static const std::vector<std::pair<double, uint32_t>> entries = [] {
            std::vector<std::pair<double, uint32_t>> result;
            for (uint32_t bits = 0; bits < signBit; ++bits) {
                if (!isNan(bits) && !isInfinity(bits)) {
                    result.emplace_back(value(bits), bits);
                }
            }
            std::sort(result.begin(), result.end());
            if (spec.hasInfinity) {
                const uint32_t infinityBits = allOnesExponent << spec.mantissaBits;
                result.emplace_back(std::ldexp(1.0, static_cast<int>(allOnesExponent) - bias), infinityBits);
            }
            return result;
        }();
        return entries;
    }

    /// Nearest representable pattern to a non-NaN `x`, ties to the even pattern. Formats
    /// without infinity saturate to the largest finite value (CUDA's satfinite).
    static uint32_t round(double x) {
        const uint32_t sign = std::signbit(x) ? signBit : 0;
        const double magnitude = std::fabs(x);
        const auto& entries = table();
        if (magnitude >= entries.back().first) {
            return sign | entries.back().second;
        }
        const auto upper = std::upper_bound(entries.begin(), entries.end(), magnitude,
                                            [](double v, const auto& entry) { return v < entry.first; });
        const auto lower = std::prev(upper);
        if (magnitude == lower->first) {
            return sign | lower->second;
        }
        const double belowDistance = magnitude - lower->first;
        const double aboveDistance = upper->first - magnitude;
        if (belowDistance != aboveDistance) {
            return sign | (belowDistance < aboveDistance ? lower->second : upper->second);
        }
        return sign | ((lower->second & 1) == 0 ? lower->second : upper->second);
    }
};

template <class T>
uint32_t bitsOf(T value) {
    return value.bits();
}

template <class T>
class DataSdkTypesExhaustive : public ::testing::Test {};

using AllTypes = ::testing::Types<half, bfloat16, fp8_e4m3, fp8_e5m2>;
TYPED_TEST_SUITE(DataSdkTypesExhaustive, AllTypes);

TYPED_TEST(DataSdkTypesExhaustive, EveryPatternConvertsToItsExactValue) {
    using T = TypeParam;
    using R = Reference<T>;
    for (uint32_t bits = 0; bits < R::patternCount; ++bits) {
        const T value = T::fromBits(static_cast<typename T::StorageType>(bits));
        ASSERT_EQ(bitsOf(value), bits);
        const auto asFloat = static_cast<float>(value);
        const auto asDouble = static_cast<double>(value);
        if (R::isNan(bits)) {
            ASSERT_TRUE(std::isnan(asFloat)) << std::hex << bits;
            ASSERT_TRUE(std::isnan(asDouble)) << std::hex << bits;
            ASSERT_EQ(std::signbit(asFloat), R::negative(bits)) << std::hex << bits;
        } else if (R::isInfinity(bits)) {
            ASSERT_EQ(asFloat, R::negative(bits) ? -INFINITY : INFINITY) << std::hex << bits;
            ASSERT_EQ(asDouble, R::negative(bits) ? -HUGE_VAL : HUGE_VAL) << std::hex << bits;
        } else {
            ASSERT_EQ(asDouble, R::value(bits)) << std::hex << bits;
            ASSERT_EQ(asFloat, static_cast<float>(R::value(bits))) << std::hex << bits;
            ASSERT_EQ(std::signbit(asFloat), R::negative(bits)) << std::hex << bits;
        }
    }
}

TYPED_TEST(DataSdkTypesExhaustive, EveryNonNanPatternRoundTrips) {
    using T = TypeParam;
    using R = Reference<T>;
    for (uint32_t bits = 0; bits < R::patternCount; ++bits) {
        if (R::isNan(bits)) {
            continue;
        }
        const T value = T::fromBits(static_cast<typename T::StorageType>(bits));
        ASSERT_EQ(bitsOf(T(static_cast<float>(value))), bits) << std::hex << bits;
        ASSERT_EQ(bitsOf(T(static_cast<double>(value))), bits) << std::hex << bits;
    }
}

TYPED_TEST(DataSdkTypesExhaustive, NanStaysQuietNanWithItsSign) {
    using T = TypeParam;
    using R = Reference<T>;
    const uint32_t quietBit =
        R::spec.hasInfinity ? uint32_t{1} << (R::spec.mantissaBits - 1) : R::allOnesMantissa;
    for (uint32_t bits = 0; bits < R::patternCount; ++bits) {
        if (!R::isNan(bits)) {
            continue;
        }
        const T value = T::fromBits(static_cast<typename T::StorageType>(bits));
        const uint32_t back = bitsOf(T(static_cast<float>(value)));
        ASSERT_TRUE(R::isNan(back)) << std::hex << bits;
        ASSERT_EQ(back & quietBit, quietBit) << std::hex << bits;
        ASSERT_EQ(R::negative(back), R::negative(bits)) << std::hex << bits;
    }
    for (const float nan : {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::signaling_NaN(), std::bit_cast<float>(0x7f800001u)}) {
        const uint32_t fromFloat = bitsOf(T(nan));
        EXPECT_TRUE(R::isNan(fromFloat)) << nan;
        EXPECT_EQ(fromFloat & quietBit, quietBit);
        EXPECT_EQ(R::negative(fromFloat), std::signbit(nan));
        EXPECT_TRUE(R::isNan(bitsOf(T(static_cast<double>(nan)))));
    }
}

/// Checks float and double conversions of `x` against the reference rounding.
template <class T>
void expectRoundsLikeReference(double x) {
    const uint32_t expectedFromDouble = Reference<T>::round(x);
    ASSERT_EQ(bitsOf(T(x)), expectedFromDouble) << "double " << std::hexfloat << x;
    const auto asFloat = static_cast<float>(x);
    ASSERT_EQ(bitsOf(T(asFloat)), Reference<T>::round(asFloat)) << "float " << std::hexfloat << asFloat;
}

TYPED_TEST(DataSdkTypesExhaustive, RoundsValuesAroundEveryMidpointToNearestEven) {
    using T = TypeParam;
    const auto& entries = Reference<T>::table();
    for (size_t i = 0; i + 1 < entries.size(); ++i) {
        const double low = entries[i].first;
        const double high = entries[i + 1].first;
        const double midpoint = (low + high) / 2;  // exact: one more bit than the format holds
        const auto midpointAsFloat = static_cast<float>(midpoint);
        for (const double x :
             {low, midpoint, std::nextafter(midpoint, 0.0), std::nextafter(midpoint, HUGE_VAL),
              static_cast<double>(std::nextafter(midpointAsFloat, 0.0f)),
              static_cast<double>(std::nextafter(midpointAsFloat, HUGE_VALF)),
              // Rounding these through float first would land on the midpoint.
              midpoint + std::ldexp(midpoint, -40), midpoint - std::ldexp(midpoint, -40)}) {
            ASSERT_NO_FATAL_FAILURE(expectRoundsLikeReference<T>(x));
            ASSERT_NO_FATAL_FAILURE(expectRoundsLikeReference<T>(-x));
        }
    }
}

TYPED_TEST(DataSdkTypesExhaustive, RoundsRandomAndExtremeFloatsLikeReference) {
    using T = TypeParam;
    std::mt19937 generator(20240611);
    for (int i = 0; i < 200000; ++i) {
        const auto x = std::bit_cast<float>(static_cast<uint32_t>(generator()));
        if (!std::isnan(x)) {
            ASSERT_NO_FATAL_FAILURE(expectRoundsLikeReference<T>(x));
        }
    }
    for (const double x :
         {0.0, -0.0, HUGE_VAL, -HUGE_VAL, 1e300, -1e300, 1e-300, std::numeric_limits<double>::denorm_min(),
          std::numeric_limits<double>::min(), static_cast<double>(std::numeric_limits<float>::max()),
          static_cast<double>(std::numeric_limits<float>::denorm_min())}) {
        ASSERT_NO_FATAL_FAILURE(expectRoundsLikeReference<T>(x));
    }
}

TEST(DataSdkTypes, HaveCudaBitLayouts) {
    EXPECT_EQ(half(1.0f).bits(), 0x3c00);
    EXPECT_EQ(half(-2.0f).bits(), 0xc000);
    EXPECT_EQ(bfloat16(1.0f).bits(), 0x3f80);
    EXPECT_EQ(bfloat16(-2.0f).bits(), 0xc000);
    EXPECT_EQ(fp8_e4m3(1.0f).bits(), 0x38);
    EXPECT_EQ(fp8_e4m3(-2.0f).bits(), 0xc0);
    EXPECT_EQ(fp8_e5m2(1.0f).bits(), 0x3c);
    EXPECT_EQ(fp8_e5m2(-2.0f).bits(), 0xc0);
}

TEST(DataSdkTypes, AreTriviallyCopyableWithExplicitConversionsOnly) {
    static_assert(std::is_trivially_copyable_v<half> && sizeof(half) == 2);
    static_assert(std::is_trivially_copyable_v<bfloat16> && sizeof(bfloat16) == 2);
    static_assert(std::is_trivially_copyable_v<fp8_e4m3> && sizeof(fp8_e4m3) == 1);
    static_assert(std::is_trivially_copyable_v<fp8_e5m2> && sizeof(fp8_e5m2) == 1);
    static_assert(std::is_trivially_default_constructible_v<half>);
    static_assert(!std::is_convertible_v<float, half> && !std::is_convertible_v<half, float>);
    static_assert(!std::is_convertible_v<double, bfloat16> && !std::is_convertible_v<bfloat16, double>);
    static_assert(!std::is_convertible_v<int, fp8_e4m3> && std::is_constructible_v<fp8_e4m3, int>);
    static_assert(std::is_constructible_v<half, float> && std::is_constructible_v<float, half>);
    static_assert(half(1.5f).bits() == 0x3e00, "conversions are constexpr");
    EXPECT_EQ(half(3).bits(), half(3.0f).bits());
    EXPECT_EQ(bfloat16(int64_t{-7}).bits(), bfloat16(-7.0f).bits());
    EXPECT_EQ(half{}.bits(), 0);
}

TEST(DataSdkTypes, DoubleConversionRoundsOnce) {
    // 1 + 2^-11 + 2^-40 lies above the midpoint between 1 and 1 + 2^-10; through float it would
    // collapse onto the midpoint and round down to even.
    const double justAboveMidpoint = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
    EXPECT_EQ(half(justAboveMidpoint).bits(), 0x3c01);
    EXPECT_EQ(half(static_cast<float>(justAboveMidpoint)).bits(), 0x3c00);
    const double bfloatJustAboveMidpoint = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
    EXPECT_EQ(bfloat16(bfloatJustAboveMidpoint).bits(), 0x3f81);
}

TEST(DataSdkTypes, OverflowAndSaturation) {
    EXPECT_EQ(half(65519.0f).bits(), 0x7bff);
    EXPECT_EQ(half(65520.0f).bits(), 0x7c00);
    EXPECT_EQ(half(-1e6f).bits(), 0xfc00);
    EXPECT_EQ(bfloat16(std::numeric_limits<float>::max()).bits(), 0x7f80);
    EXPECT_EQ(fp8_e4m3(464.0f).bits(), 0x7e);
    EXPECT_EQ(fp8_e4m3(1e9f).bits(), 0x7e);
    EXPECT_EQ(fp8_e4m3(-INFINITY).bits(), 0xfe);
    EXPECT_EQ(fp8_e5m2(61440.0f).bits(), 0x7c);
    EXPECT_EQ(fp8_e5m2(61439.0f).bits(), 0x7b);
    EXPECT_EQ(fp8_e5m2(-INFINITY).bits(), 0xfc);
}

TEST(DataSdkTypes, ArithmeticRoundsFloatResultBack) {
    EXPECT_EQ((half(1.0f) + half(2.0f)).bits(), half(3.0f).bits());
    EXPECT_EQ((half(1.0f) / half(3.0f)).bits(), 0x3555);
    EXPECT_EQ((half(65504.0f) + half(16.0f)).bits(), 0x7c00);  // 65520 ties to even: infinity
    EXPECT_EQ((half(1.0f) + half(std::ldexp(1.0f, -11))).bits(), 0x3c00);
    EXPECT_EQ((half(5.0f) - half(7.0f)).bits(), half(-2.0f).bits());
    EXPECT_EQ((half(1.5f) * half(-4.0f)).bits(), half(-6.0f).bits());
    EXPECT_EQ((bfloat16(1.0f) + bfloat16(std::ldexp(1.0f, -8))).bits(), 0x3f80);
    EXPECT_EQ((bfloat16(1.0f) + bfloat16(3 * std::ldexp(1.0f, -9))).bits(), 0x3f81);
    EXPECT_EQ((fp8_e4m3(448.0f) + fp8_e4m3(448.0f)).bits(), 0x7e);
    EXPECT_EQ((fp8_e4m3(-448.0f) * fp8_e4m3(2.0f)).bits(), 0xfe);
    EXPECT_EQ((fp8_e4m3(1.0f) + fp8_e4m3(0.0625f)).bits(), 0x38);  // 1.0625 ties to even: 1
    EXPECT_EQ((fp8_e5m2(57344.0f) * fp8_e5m2(2.0f)).bits(), 0x7c);
    EXPECT_EQ((-half(1.5f)).bits(), 0xbe00);
    EXPECT_EQ((-fp8_e4m3(0.0f)).bits(), 0x80);
    EXPECT_EQ((+bfloat16(2.0f)).bits(), 0x4000);

    half accumulator(1.0f);
    accumulator += half(2.0f);
    EXPECT_EQ(static_cast<float>(accumulator), 3.0f);
    accumulator *= half(4.0f);
    EXPECT_EQ(static_cast<float>(accumulator), 12.0f);
    accumulator -= half(2.0f);
    EXPECT_EQ(static_cast<float>(accumulator), 10.0f);
    accumulator /= half(4.0f);
    EXPECT_EQ(static_cast<float>(accumulator), 2.5f);
}

TEST(DataSdkTypes, ComparisonsFollowFloatSemantics) {
    const half nan = std::numeric_limits<half>::quiet_NaN();
    EXPECT_TRUE(half(1.0f) < half(2.0f));
    EXPECT_TRUE(half(2.0f) >= half(2.0f));
    EXPECT_TRUE(half(-0.0f) == half(0.0f));
    EXPECT_FALSE(nan == nan);
    EXPECT_TRUE(nan != nan);
    EXPECT_FALSE(nan < half(1.0f));
    EXPECT_FALSE(nan >= half(1.0f));
    EXPECT_EQ(nan <=> nan, std::partial_ordering::unordered);
    EXPECT_TRUE(fp8_e5m2(-INFINITY) < fp8_e5m2(-57344.0f));
    EXPECT_TRUE(bfloat16(3.0f) > bfloat16(2.0f));
    EXPECT_TRUE(fp8_e4m3(0.5f) <= fp8_e4m3(0.5f));
}

template <class T>
void expectLimits(double max, double minNormal, double epsilon, double denormMin, bool hasInfinity) {
    using Limits = std::numeric_limits<T>;
    static_assert(Limits::is_specialized && Limits::is_signed && !Limits::is_integer);
    EXPECT_EQ(static_cast<double>(Limits::max()), max);
    EXPECT_EQ(static_cast<double>(Limits::lowest()), -max);
    EXPECT_EQ(static_cast<double>(Limits::min()), minNormal);
    EXPECT_EQ(static_cast<double>(Limits::epsilon()), epsilon);
    EXPECT_EQ(static_cast<double>(Limits::denorm_min()), denormMin);
    EXPECT_EQ(static_cast<double>(Limits::round_error()), 0.5);
    EXPECT_TRUE(std::isnan(static_cast<float>(Limits::quiet_NaN())));
    EXPECT_EQ(Limits::has_infinity, hasInfinity);
    if (hasInfinity) {
        EXPECT_EQ(static_cast<float>(Limits::infinity()), INFINITY);
        EXPECT_TRUE(std::isnan(static_cast<float>(Limits::signaling_NaN())));
    }
    // epsilon is the gap between 1 and the next value; denorm_min is the first pattern above 0.
    const T one(1.0f);
    const auto next = T::fromBits(static_cast<typename T::StorageType>(one.bits() + 1));
    EXPECT_EQ(static_cast<double>(next) - 1.0, epsilon);
    EXPECT_EQ(static_cast<double>(T::fromBits(1)), denormMin);
    // Values just above the largest finite value round back to it.
    EXPECT_EQ(T(std::nextafter(max, HUGE_VAL)).bits(), Limits::max().bits());
    EXPECT_EQ(Limits::digits, specOf<T>.mantissaBits + 1);
    EXPECT_EQ(std::ldexp(0.5, Limits::min_exponent), minNormal);
    EXPECT_LT(max, std::ldexp(1.0, Limits::max_exponent));
    EXPECT_GE(max, std::ldexp(1.0, Limits::max_exponent - 1));
    EXPECT_EQ(Limits::max_exponent10, static_cast<int>(std::floor(std::log10(max))));
    EXPECT_EQ(Limits::min_exponent10, static_cast<int>(std::ceil(std::log10(minNormal))));
    EXPECT_EQ(Limits::digits10, static_cast<int>(std::floor((Limits::digits - 1) * std::log10(2.0))));
    EXPECT_EQ(Limits::max_digits10, static_cast<int>(std::ceil(1 + Limits::digits * std::log10(2.0))));
}

TEST(DataSdkTypes, NumericLimits) {
    expectLimits<half>(65504.0, std::ldexp(1.0, -14), std::ldexp(1.0, -10), std::ldexp(1.0, -24), true);
    expectLimits<bfloat16>(static_cast<double>(std::bit_cast<float>(0x7f7f0000u)), std::ldexp(1.0, -126),
                           std::ldexp(1.0, -7), std::ldexp(1.0, -133), true);
    expectLimits<fp8_e4m3>(448.0, std::ldexp(1.0, -6), 0.125, std::ldexp(1.0, -9), false);
    expectLimits<fp8_e5m2>(57344.0, std::ldexp(1.0, -14), 0.25, std::ldexp(1.0, -16), true);
    EXPECT_TRUE(std::numeric_limits<half>::is_iec559);
    EXPECT_EQ(std::numeric_limits<fp8_e4m3>::quiet_NaN().bits(), 0x7f);
    EXPECT_EQ(std::numeric_limits<fp8_e5m2>::infinity().bits(), 0x7c);
    EXPECT_EQ(std::numeric_limits<bfloat16>::quiet_NaN().bits(), 0x7fc0);
}

}  // namespace
