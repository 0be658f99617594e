// OCP 8-bit floating-point formats, bit-compatible with CUDA's __nv_fp8_e4m3 and __nv_fp8_e5m2.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "hipdnn_data_sdk/types/detail/BinaryFloat.hpp"

namespace hipdnn_data_sdk::types {

using Fp8E4M3Format = detail::BinaryFormat<4, 3, detail::SpecialValues::FiniteWithNan>;
using Fp8E5M2Format = detail::BinaryFormat<5, 2, detail::SpecialValues::Ieee>;

/// OCP E4M3FN: 1 sign, 4 exponent (bias 7), 3 mantissa bits; no infinities, NaN is 0x7F/0xFF,
/// largest finite value 448. Conversions round to nearest even and saturate like CUDA's
/// __NV_SATFINITE mode (the default of __nv_fp8_e4m3): finite values beyond ±448 and ±infinity
/// become ±448; NaN becomes 0x7F or 0xFF (sign kept).
class fp8_e4m3 : public detail::PackedFloat<fp8_e4m3, Fp8E4M3Format, uint8_t> {
public:
    using PackedFloat::PackedFloat;
};

/// OCP E5M2: 1 sign, 5 exponent (bias 15), 2 mantissa bits, IEEE-style infinities and NaNs,
/// largest finite value 57344. Conversions round to nearest even; overflow and ±infinity give
/// ±infinity (the type has infinities, so they are kept rather than saturated), NaN stays a
/// quiet NaN of the same sign.
class fp8_e5m2 : public detail::PackedFloat<fp8_e5m2, Fp8E5M2Format, uint8_t> {
public:
    using PackedFloat::PackedFloat;
};

static_assert(sizeof(fp8_e4m3) == 1 && std::is_trivially_copyable_v<fp8_e4m3> &&
              std::is_standard_layout_v<fp8_e4m3>);
static_assert(sizeof(fp8_e5m2) == 1 && std::is_trivially_copyable_v<fp8_e5m2> &&
              std::is_standard_layout_v<fp8_e5m2>);

}  // namespace hipdnn_data_sdk::types

template <>
class std::numeric_limits<hipdnn_data_sdk::types::fp8_e4m3>
    : public hipdnn_data_sdk::types::detail::BinaryFloatLimits<hipdnn_data_sdk::types::fp8_e4m3> {};

template <>
class std::numeric_limits<hipdnn_data_sdk::types::fp8_e5m2>
    : public hipdnn_data_sdk::types::detail::BinaryFloatLimits<hipdnn_data_sdk::types::fp8_e5m2> {};
