// IEEE 754 binary16, bit-compatible with CUDA's __half.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "hipdnn_data_sdk/types/detail/BinaryFloat.hpp"

namespace hipdnn_data_sdk::types {

using HalfFormat = detail::BinaryFormat<5, 10, detail::SpecialValues::Ieee>;

/// IEEE 754 binary16: 1 sign, 5 exponent, 10 mantissa bits. Conversions round to nearest even;
/// overflow gives infinity.
class half : public detail::PackedFloat<half, HalfFormat, uint16_t> {
public:
    using PackedFloat::PackedFloat;
};

static_assert(sizeof(half) == 2 && std::is_trivially_copyable_v<half> && std::is_standard_layout_v<half>);

}  // namespace hipdnn_data_sdk::types

template <>
class std::numeric_limits<hipdnn_data_sdk::types::half>
    : public hipdnn_data_sdk::types::detail::BinaryFloatLimits<hipdnn_data_sdk::types::half> {
public:
    static constexpr bool is_iec559 = true;
};
