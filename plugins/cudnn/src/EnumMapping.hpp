// Mappings between hipdnn's schema enums and cuDNN's backend enums, and the names cuDNN's
// knobs and statuses are reported under. Pure functions: no cuDNN call is made.
#pragma once

#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>

#include <cudnn_graph.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace hipdnn_cudnn_plugin {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

/// The cuDNN data type of a hipdnn data type, or nullopt when cuDNN has none.
std::optional<cudnnDataType_t> toCudnnDataType(fb::DataType type);

/// Bytes that `elements` values of a cuDNN data type occupy (4-bit types pack two per byte);
/// 0 for types the plugin never creates.
size_t cudnnStorageBytes(cudnnDataType_t type, size_t elements);

/// The cuDNN pointwise mode of a hipdnn pointwise mode, or nullopt (UNSET).
std::optional<cudnnPointwiseMode_t> toCudnnPointwiseMode(fb::PointwiseMode mode);

/// True for the *_BWD activation modes, whose cuDNN ports are dy (in_0), x (in_1) and dx.
bool isActivationBackward(fb::PointwiseMode mode);

/// CONVOLUTION = 1 -> CUDNN_CONVOLUTION, CROSS_CORRELATION = 2 -> CUDNN_CROSS_CORRELATION.
std::optional<cudnnConvolutionMode_t> toCudnnConvMode(fb::ConvMode mode);

std::optional<cudnnReduceTensorOp_t> toCudnnReductionOp(fb::ReductionMode mode);

/// "SWIZZLE", "TILE_SIZE", ... for a cudnnBackendKnobType_t value ("KNOB_<n>" when unknown).
std::string knobTypeName(int64_t knobType);
/// The inverse of knobTypeName.
std::optional<int64_t> knobTypeFromName(std::string_view name);

/// "A", "B" or "FALLBACK" and back.
std::string_view heuristicModeName(cudnnBackendHeurMode_t mode);
std::optional<cudnnBackendHeurMode_t> heuristicModeFromName(std::string_view name);

}  // namespace hipdnn_cudnn_plugin
