// Shared machinery of the reduced-precision floating-point types: bit-level encoding and
// decoding of small binary formats, and a base class that gives each type its conversions,
// arithmetic (through float) and comparisons.
#pragma once

#include <bit>
#include <compare>
#include <concepts>
#include <cstdint>
#include <iosfwd>
#include <limits>

namespace hipdnn_data_sdk::types::detail {

/// How a format uses its all-ones exponent.
enum class SpecialValues {
    /// IEEE 754 style: all-ones exponent with zero mantissa is infinity, otherwise NaN.
    Ieee,
    /// OCP E4M3FN style: no infinities; only the all-ones pattern (per sign) is NaN, the rest of
    /// the all-ones exponent holds finite numbers. Overflow saturates to the largest finite value.
    FiniteWithNan,
};

/// Shifts `value` right by `shift` (1..53) bits, rounding to nearest, ties to even.
constexpr uint64_t roundShiftRightToEven(uint64_t value, int shift) {
    const uint64_t quotient = value >> shift;
    const uint64_t remainder = value & ((uint64_t{1} << shift) - 1);
    const uint64_t halfway = uint64_t{1} << (shift - 1);
    if (remainder > halfway || (remainder == halfway && (quotient & 1) != 0)) {
        return quotient + 1;
    }
    return quotient;
}

/// A binary floating-point format with a sign bit, `ExponentBits` biased exponent bits and
/// `MantissaBits` stored mantissa bits, at most 16 bits wide.
template <int ExponentBits, int MantissaBits, SpecialValues Specials>
struct BinaryFormat {
    static_assert(ExponentBits >= 2 && ExponentBits <= 8 && MantissaBits >= 1 && MantissaBits <= 10);

    static constexpr int exponentBits = ExponentBits;
    static constexpr int mantissaBits = MantissaBits;
    static constexpr SpecialValues specials = Specials;
    static constexpr int bias = (1 << (ExponentBits - 1)) - 1;

    static constexpr uint32_t signBit = uint32_t{1} << (ExponentBits + MantissaBits);
    static constexpr uint32_t mantissaMask = (uint32_t{1} << MantissaBits) - 1;
    static constexpr uint32_t exponentMask = ((uint32_t{1} << ExponentBits) - 1) << MantissaBits;
    static constexpr bool hasInfinity = Specials == SpecialValues::Ieee;

    static constexpr uint32_t maxFiniteBits =
        hasInfinity ? exponentMask - (uint32_t{1} << MantissaBits) + mantissaMask
                    : exponentMask | (mantissaMask - 1);
    static constexpr uint32_t infinityBits = exponentMask;
    static constexpr uint32_t quietNanBits =
        hasInfinity ? exponentMask | (uint32_t{1} << (MantissaBits - 1)) : exponentMask | mantissaMask;
    static constexpr uint32_t signalingNanBits = exponentMask | 1;
    static constexpr uint32_t minNormalBits = uint32_t{1} << MantissaBits;
    static constexpr uint32_t epsilonBits = static_cast<uint32_t>(bias - MantissaBits) << MantissaBits;
    /// Largest unbiased exponent of a finite value.
    static constexpr int maxExponent =
        static_cast<int>((hasInfinity ? exponentMask - minNormalBits : exponentMask) >> MantissaBits) - bias;

    static constexpr bool isNan(uint32_t bits) {
        const uint32_t magnitude = bits & ~signBit;
        return hasInfinity ? magnitude > exponentMask : magnitude == (exponentMask | mantissaMask);
    }

    /// Rounds `value` to the nearest representable value, ties to even. NaN becomes a quiet NaN
    /// of the same sign (keeping the payload's top bits where the format can hold them). Values
    /// beyond the finite range become infinity (IEEE formats) or the largest finite value of the
    /// same sign (FiniteWithNan formats, as CUDA's satfinite conversion does).
    static constexpr uint32_t encode(double value) {
        constexpr uint64_t doubleSignBit = uint64_t{1} << 63;
        constexpr uint64_t doubleInfinity = 0x7ff0000000000000;
        constexpr uint64_t doubleMantissaMask = (uint64_t{1} << 52) - 1;
        constexpr int doubleBias = 1023;
        constexpr uint32_t overflowBits = hasInfinity ? infinityBits : maxFiniteBits;

        const uint64_t bitsIn = std::bit_cast<uint64_t>(value);
        const uint32_t sign = (bitsIn & doubleSignBit) != 0 ? signBit : 0;
        const uint64_t magnitude = bitsIn & ~doubleSignBit;
        if (magnitude > doubleInfinity) {
            if constexpr (hasInfinity) {
                const auto payload =
                    static_cast<uint32_t>((magnitude & doubleMantissaMask) >> (52 - MantissaBits));
                return sign | quietNanBits | payload;
            } else {
                return sign | quietNanBits;
            }
        }
        if (magnitude == doubleInfinity) {
            return sign | overflowBits;
        }
        const auto doubleExponent = static_cast<int>(magnitude >> 52);
        if (doubleExponent == 0) {
            // Double subnormals lie far below half of every format's smallest subnormal.
            return sign;
        }
        const uint64_t significand = (magnitude & doubleMantissaMask) | (uint64_t{1} << 52);
        const int targetExponent = doubleExponent - doubleBias + bias;
        uint64_t encoded = 0;
        if (targetExponent >= 1) {
            // Adding the rounded significand (implicit bit included) to (exponent - 1) lets a
            // rounding carry step into the next binade on its own.
            encoded = (static_cast<uint64_t>(targetExponent - 1) << MantissaBits) +
                      roundShiftRightToEven(significand, 52 - MantissaBits);
        } else {
            const int shift = 52 - MantissaBits + 1 - targetExponent;
            encoded = shift > 53 ? 0 : roundShiftRightToEven(significand, shift);
        }
        return sign | (encoded > maxFiniteBits ? overflowBits : static_cast<uint32_t>(encoded));
    }

    /// Exact conversion to float (every value of these formats is a float value). NaN comes out
    /// as a quiet NaN of the same sign.
    static constexpr float decode(uint32_t bits) {
        const bool negative = (bits & signBit) != 0;
        const uint32_t magnitude = bits & ~signBit;
        const uint32_t mantissa = magnitude & mantissaMask;
        constexpr int floatMantissaBits = 23;
        constexpr uint32_t floatQuietNan = 0x7fc00000;
        constexpr uint32_t floatInfinity = 0x7f800000;
        float result = 0.0f;
        if (isNan(bits)) {
            result = std::bit_cast<float>(floatQuietNan |
                                          (hasInfinity ? mantissa << (floatMantissaBits - MantissaBits) : 0));
        } else if (hasInfinity && magnitude == infinityBits) {
            result = std::bit_cast<float>(floatInfinity);
        } else if (const uint32_t exponentField = magnitude >> MantissaBits; exponentField != 0) {
            const auto floatExponent = static_cast<uint32_t>(static_cast<int>(exponentField) - bias + 127);
            result = std::bit_cast<float>((floatExponent << floatMantissaBits) |
                                          (mantissa << (floatMantissaBits - MantissaBits)));
        } else if constexpr (ExponentBits == 8) {
            // Same exponent range as float: subnormals map onto float subnormals bit for bit.
            result = std::bit_cast<float>(mantissa << (floatMantissaBits - MantissaBits));
        } else {
            // Subnormal: mantissa * 2^(1 - bias - mantissaBits), a normal float for these formats.
            constexpr auto scaleExponent = static_cast<uint32_t>(1 - bias - MantissaBits + 127);
            result = static_cast<float>(mantissa) * std::bit_cast<float>(scaleExponent << floatMantissaBits);
        }
        return negative ? -result : result;
    }
};

/// Base of each reduced-precision type: holds the bits and provides explicit conversions,
/// arithmetic performed in float and rounded back, and comparisons performed in float.
template <class Derived, class Format, class Storage>
class PackedFloat {
public:
    using StorageType = Storage;
    using FormatType = Format;

    PackedFloat() = default;
    constexpr explicit PackedFloat(float value) : bits_(static_cast<Storage>(Format::encode(value))) {}
    constexpr explicit PackedFloat(double value) : bits_(static_cast<Storage>(Format::encode(value))) {}
    /// Integers go through double, which holds every integer up to 2^53 exactly.
    template <std::integral Integer>
    constexpr explicit PackedFloat(Integer value) : PackedFloat(static_cast<double>(value)) {}

    static constexpr Derived fromBits(Storage bits) { return std::bit_cast<Derived>(bits); }
    constexpr Storage bits() const { return bits_; }

    constexpr explicit operator float() const { return Format::decode(bits_); }
    constexpr explicit operator double() const { return static_cast<double>(Format::decode(bits_)); }

    friend constexpr Derived operator+(Derived a, Derived b) { return Derived(toFloat(a) + toFloat(b)); }
    friend constexpr Derived operator-(Derived a, Derived b) { return Derived(toFloat(a) - toFloat(b)); }
    friend constexpr Derived operator*(Derived a, Derived b) { return Derived(toFloat(a) * toFloat(b)); }
    friend constexpr Derived operator/(Derived a, Derived b) { return Derived(toFloat(a) / toFloat(b)); }
    friend constexpr Derived operator-(Derived a) { return Derived(-toFloat(a)); }
    friend constexpr Derived operator+(Derived a) { return a; }

    friend constexpr Derived& operator+=(Derived& a, Derived b) { return a = a + b; }
    friend constexpr Derived& operator-=(Derived& a, Derived b) { return a = a - b; }
    friend constexpr Derived& operator*=(Derived& a, Derived b) { return a = a * b; }
    friend constexpr Derived& operator/=(Derived& a, Derived b) { return a = a / b; }

    // Through float so that NaN compares unordered and -0 equals +0.
    friend constexpr bool operator==(Derived a, Derived b) { return toFloat(a) == toFloat(b); }
    friend constexpr std::partial_ordering operator<=>(Derived a, Derived b) {
        return toFloat(a) <=> toFloat(b);
    }

    /// Prints the value as a float (readable test failures and logs).
    template <class CharT, class Traits>
    friend std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& stream,
                                                         Derived value) {
        return stream << toFloat(value);
    }

private:
    static constexpr float toFloat(Derived value) { return static_cast<float>(value); }

    Storage bits_;
};

/// Largest k with 10^k <= value, for value >= 1.
constexpr int floorLog10(double value) {
    int exponent = 0;
    for (double power = 10.0; power <= value; power *= 10.0) {
        ++exponent;
    }
    return exponent;
}

/// Smallest k with 10^k >= value, for 0 < value <= 1.
constexpr int ceilLog10(double value) {
    int exponent = 0;
    for (double power = 0.1; power >= value; power /= 10.0) {
        --exponent;
    }
    return exponent;
}

/// std::numeric_limits members shared by the reduced-precision types.
template <class T>
struct BinaryFloatLimits {
private:
    using Format = typename T::FormatType;
    using Storage = typename T::StorageType;
    static constexpr T make(uint32_t bits) { return T::fromBits(static_cast<Storage>(bits)); }
    // log10(2) as a fraction, for the digit counts.
    static constexpr int log10TwoNumerator = 30103;
    static constexpr int log10TwoDenominator = 100000;

public:
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool is_exact = false;
    static constexpr bool has_infinity = Format::hasInfinity;
    static constexpr bool has_quiet_NaN = true;
    static constexpr bool has_signaling_NaN = Format::hasInfinity;
    static constexpr std::float_denorm_style has_denorm = std::denorm_present;
    static constexpr bool has_denorm_loss = false;
    static constexpr std::float_round_style round_style = std::round_to_nearest;
    static constexpr bool is_iec559 = false;
    static constexpr bool is_bounded = true;
    static constexpr bool is_modulo = false;
    static constexpr int digits = Format::mantissaBits + 1;
    static constexpr int digits10 = Format::mantissaBits * log10TwoNumerator / log10TwoDenominator;
    // log10(2) is irrational, so ceil(1 + digits * log10(2)) is the truncated value plus 2.
    static constexpr int max_digits10 = 2 + digits * log10TwoNumerator / log10TwoDenominator;
    static constexpr int radix = 2;
    static constexpr int min_exponent = 2 - Format::bias;
    static constexpr int max_exponent = Format::maxExponent + 1;
    static constexpr int min_exponent10 =
        ceilLog10(static_cast<double>(Format::decode(Format::minNormalBits)));
    static constexpr int max_exponent10 =
        floorLog10(static_cast<double>(Format::decode(Format::maxFiniteBits)));
    static constexpr bool traps = false;
    static constexpr bool tinyness_before = false;

    static constexpr T min() noexcept { return make(Format::minNormalBits); }
    static constexpr T max() noexcept { return make(Format::maxFiniteBits); }
    static constexpr T lowest() noexcept { return make(Format::signBit | Format::maxFiniteBits); }
    static constexpr T epsilon() noexcept { return make(Format::epsilonBits); }
    static constexpr T round_error() noexcept { return make(Format::encode(0.5)); }
    /// Zero where the format has no infinity, as the primary template does.
    static constexpr T infinity() noexcept { return make(has_infinity ? Format::infinityBits : 0); }
    static constexpr T quiet_NaN() noexcept { return make(Format::quietNanBits); }
    /// Zero where the format has no signaling NaN, as the primary template does.
    static constexpr T signaling_NaN() noexcept {
        return make(has_signaling_NaN ? Format::signalingNanBits : 0);
    }
    static constexpr T denorm_min() noexcept { return make(1); }
};

}  // namespace hipdnn_data_sdk::types::detail
