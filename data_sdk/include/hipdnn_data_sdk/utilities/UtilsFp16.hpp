// Upstream hipDNN's data SDK made HIP's global `half` visible through its tensor header, and
// code written for it (upstream's samples) names `half` unqualified; here it is the data SDK's
// half. CUDA's cuda_fp16.h declares a different global `half`: where it was included first,
// it is left alone.
#pragma once

#include <hipdnn_data_sdk/types/Half.hpp>

#if !defined(__CUDA_FP16_H__) && !defined(__CUDA_FP16_HPP__)
using half = hipdnn_data_sdk::types::half;
#endif
