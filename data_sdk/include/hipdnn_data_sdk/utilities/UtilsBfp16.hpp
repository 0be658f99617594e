// Upstream hipDNN's data SDK made HIP's global `hip_bfloat16` visible through its tensor header,
// and code written for it (upstream's samples) names it unqualified; here it is the data SDK's
// bfloat16.
#pragma once

#include <hipdnn_data_sdk/types/BFloat16.hpp>

using hip_bfloat16 = hipdnn_data_sdk::types::bfloat16;
