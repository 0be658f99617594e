// Golden data on disk: a graph with the contents of its tensors, so a result can be checked
// against data produced elsewhere (PyTorch, another engine, hipdnn-driver --dump).
//
// A case is one folder:
//   graph.json         the graph in its JSON form (hipdnn_flatbuffers_sdk::graphToJson)
//   manifest.json      {"format": "hipdnn-golden-1", "graph": "graph.json",
//                       "tensors": [{"uid", "name", "data_type" ("FLOAT", "HALF", ...),
//                                    "dims", "strides", "file"}]}
//   tensor_<uid>.bin   raw little-endian element bytes covering the tensor's strided storage
//                      (half and bfloat16 as their 16-bit patterns)
#pragma once

#include <hipdnn_flatbuffers_sdk/data_objects/data_types_generated.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace hipdnn_test_sdk {

struct GoldenTensor {
    int64_t uid = 0;
    std::string name;
    hipdnn_flatbuffers_sdk::data_objects::DataType dataType =
        hipdnn_flatbuffers_sdk::data_objects::DataType::UNSET;
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
    /// Element bytes of the strided storage: (1 + max offset) * element size.
    std::vector<uint8_t> bytes;
};

struct GoldenCase {
    /// The serialized Graph FlatBuffer.
    std::vector<uint8_t> graph;
    std::vector<GoldenTensor> tensors;

    /// The tensor with `uid`; throws std::out_of_range naming the uid when absent.
    const GoldenTensor& tensor(int64_t uid) const;
};

/// Writes graph.json, manifest.json and one tensor_<uid>.bin per tensor into `directory`
/// (created if needed). Throws std::runtime_error naming the file on I/O errors, and
/// std::invalid_argument when a tensor's byte count does not match its dims and strides.
void saveGoldenCase(const std::filesystem::path& directory, const GoldenCase& goldenCase);

/// Reads a case written by saveGoldenCase (or by hipdnn-driver --dump). Throws
/// std::runtime_error naming the file and the problem (missing file, malformed manifest, a
/// tensor file whose size does not match its dims, strides and data type).
GoldenCase loadGoldenCase(const std::filesystem::path& directory);

}  // namespace hipdnn_test_sdk
