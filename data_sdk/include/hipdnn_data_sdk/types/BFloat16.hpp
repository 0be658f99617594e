// bfloat16, bit-compatible with CUDA's __nv_bfloat16.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "hipdnn_data_sdk/types/detail/BinaryFloat.hpp"

namespace hipdnn_data_sdk::types {

using BFloat16Format = detail::BinaryFormat<8, 7, detail::SpecialValues::Ieee>;

/// bfloat16: the upper 16 bits of an IEEE binary32 (1 sign, 8 exponent, 7 mantissa bits).
/// Conversions round to nearest even (not truncation); NaN stays a quiet NaN of the same sign;
/// overflow gives infinity.
class bfloat16 : public detail::PackedFloat<bfloat16, BFloat16Format, uint16_t> {
public:
    using PackedFloat::PackedFloat;
};

static_assert(sizeof(bfloat16) == 2 && std::is_trivially_copyable_v<bfloat16> &&
              std::is_standard_layout_v<bfloat16>);

}  // namespace hipdnn_data_sdk::types

template <>
class std::numeric_limits<hipdnn_data_sdk::types::bfloat16>
    : public hipdnn_data_sdk::types::detail::BinaryFloatLimits<hipdnn_data_sdk::types::bfloat16> {};
