// Host copies of a graph's tensors: random inputs (seeded, in ranges each operation accepts),
// sentinel-filled outputs, or inputs read from a golden-data directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

namespace hipdnn_driver {

struct HostTensor {
    int64_t uid = 0;
    std::string name;
    hipdnn_flatbuffers_sdk::data_objects::DataType dataType =
        hipdnn_flatbuffers_sdk::data_objects::DataType::UNSET;
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
    std::vector<uint8_t> bytes;  // the strided storage
};

// The non-virtual inputs the caller must provide (pass-by-value scalars excluded), filled with
// uniform values from a generator seeded with `seed` and the tensor's uid: [-1, 1] in general,
// [0.5, 2] where an operation needs positive values (variances, inverse variances, inverse RMS,
// the argument of log / sqrt / rsqrt / reciprocal / pow, divisors).
std::vector<HostTensor> makeRandomInputs(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, uint32_t seed);

// The same inputs read from a golden-data directory (graph.json + manifest.json + tensor files);
// throws std::runtime_error naming the uid when an input is missing or its dims, strides or type
// differ from the graph's.
std::vector<HostTensor> readInputs(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                   const std::filesystem::path& directory);

// The non-virtual outputs, filled with a sentinel (all bits set: NaN for floats) so that an
// element an engine never writes cannot pass validation.
std::vector<HostTensor> makeOutputs(const hipdnn_flatbuffers_sdk::GraphWrapper& graph);

}  // namespace hipdnn_driver
