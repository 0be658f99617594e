// Defaults shared by graph builders, references and tests, under upstream hipDNN's names.
#pragma once

namespace hipdnn_data_sdk::utilities {

/// The batch norm epsilon upstream hipDNN's samples and tests use.
inline constexpr double BATCHNORM_DEFAULT_EPSILON = 1e-5;

}  // namespace hipdnn_data_sdk::utilities
