// Reduced-precision floating-point types of the data SDK: half, bfloat16, fp8_e4m3, fp8_e5m2.
// Each is trivially copyable with the bit layout of the matching CUDA type, converts from and to
// float and double only explicitly, rounds to nearest even, computes arithmetic in float and
// rounds the result back, and has a std::numeric_limits specialisation.
#pragma once

#include "hipdnn_data_sdk/types/BFloat16.hpp"
#include "hipdnn_data_sdk/types/Fp8.hpp"
#include "hipdnn_data_sdk/types/Half.hpp"
