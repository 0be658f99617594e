#include <hipdnn_test_sdk/GoldenData.hpp>

#include <hipdnn_test_sdk/ElementAccess.hpp>
#include <hipdnn_test_sdk/FileReading.hpp>

#include "IndexIteration.hpp"

#include <hipdnn_flatbuffers_sdk/GraphJson.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace hipdnn_test_sdk {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
namespace fs = std::filesystem;

namespace {

constexpr const char* formatTag = "hipdnn-golden-1";

// Graph and manifest files: regular files of at most kMaxGraphFileBytes, checked before reading.
std::vector<uint8_t> readFile(const fs::path& path, std::string_view what) {
    try {
        return readRegularFile(path, kMaxGraphFileBytes, what);
    } catch (const std::runtime_error& error) {
        throw std::runtime_error(std::string("golden data: ") + error.what());
    }
}

// A tensor file holds exactly its tensor's bytes; its size is checked before anything is read.
std::vector<uint8_t> readTensorFile(const fs::path& file, std::uintmax_t needed, int64_t uid) {
    const std::string what = "tensor file of uid " + std::to_string(uid);
    try {
        checkRegularFile(file, std::numeric_limits<std::uintmax_t>::max(), what);
        const std::uintmax_t size = fs::file_size(file);
        if (size != needed) {
            throw std::runtime_error(file.string() + " has " + std::to_string(size) +
                                     " bytes but tensor uid " + std::to_string(uid) + " needs " +
                                     std::to_string(needed));
        }
        return readRegularFileOfSize(file, needed, what);
    } catch (const std::runtime_error& error) {
        throw std::runtime_error(std::string("golden data: ") + error.what());
    }
}

void writeFile(const fs::path& path, const void* data, size_t size) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) {
        throw std::runtime_error("golden data: cannot write " + path.string());
    }
}

fb::DataType parseDataType(const std::string& name, const fs::path& manifest) {
    for (const auto value : fb::EnumValuesDataType()) {
        if (name == fb::EnumNameDataType(value)) {
            return value;
        }
    }
    throw std::runtime_error("golden data: " + manifest.string() + " names unknown data type '" + name + "'");
}

size_t expectedByteCount(const GoldenTensor& tensor) {
    return static_cast<size_t>(detail::storageElementCountOf(tensor.dims, tensor.strides)) *
           dataTypeSize(tensor.dataType);
}

// The byte count of a tensor described by a manifest, whose dims and strides are not yet trusted:
// dims > 0, strides >= 0, one entry each, and a size that fits in memory at all.
std::uintmax_t checkedByteCount(const GoldenTensor& tensor, const fs::path& manifest) {
    const std::string label =
        "golden data: " + manifest.string() + ": tensor uid " + std::to_string(tensor.uid);
    if (tensor.dims.empty() || tensor.dims.size() != tensor.strides.size()) {
        throw std::runtime_error(label + " has " + std::to_string(tensor.dims.size()) + " dims and " +
                                 std::to_string(tensor.strides.size()) + " strides");
    }
    int64_t lastOffset = 0;
    for (size_t i = 0; i < tensor.dims.size(); ++i) {
        int64_t extent = 0;
        if (tensor.dims[i] <= 0 || tensor.strides[i] < 0 ||
            __builtin_mul_overflow(tensor.dims[i] - 1, tensor.strides[i], &extent) ||
            __builtin_add_overflow(lastOffset, extent, &lastOffset)) {
            throw std::runtime_error(label + " has dims[" + std::to_string(i) +
                                     "] = " + std::to_string(tensor.dims[i]) + " and strides[" +
                                     std::to_string(i) + "] = " + std::to_string(tensor.strides[i]) +
                                     "; dims must be > 0, strides >= 0 and the size must fit in int64");
        }
    }
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(static_cast<uint64_t>(lastOffset) + 1, dataTypeSize(tensor.dataType),
                               &bytes) ||
        bytes > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        throw std::runtime_error(label + " is too large: its size in bytes overflows int64");
    }
    return bytes;
}

}  // namespace

const GoldenTensor& GoldenCase::tensor(int64_t uid) const {
    for (const auto& candidate : tensors) {
        if (candidate.uid == uid) {
            return candidate;
        }
    }
    throw std::out_of_range("golden case has no tensor with uid " + std::to_string(uid));
}

void saveGoldenCase(const fs::path& directory, const GoldenCase& goldenCase) {
    fs::create_directories(directory);
    const std::string graphJson =
        hipdnn_flatbuffers_sdk::graphToJson(goldenCase.graph.data(), goldenCase.graph.size());
    writeFile(directory / "graph.json", graphJson.data(), graphJson.size());

    nlohmann::json manifest;
    manifest["format"] = formatTag;
    manifest["graph"] = "graph.json";
    manifest["tensors"] = nlohmann::json::array();
    for (const auto& tensor : goldenCase.tensors) {
        if (tensor.bytes.size() != expectedByteCount(tensor)) {
            throw std::invalid_argument("golden data: tensor uid " + std::to_string(tensor.uid) + " '" +
                                        tensor.name + "' has " + std::to_string(tensor.bytes.size()) +
                                        " bytes but its dims, " + "strides and type need " +
                                        std::to_string(expectedByteCount(tensor)));
        }
        const std::string file = "tensor_" + std::to_string(tensor.uid) + ".bin";
        writeFile(directory / file, tensor.bytes.data(), tensor.bytes.size());
        manifest["tensors"].push_back({{"uid", tensor.uid},
                                       {"name", tensor.name},
                                       {"data_type", fb::EnumNameDataType(tensor.dataType)},
                                       {"dims", tensor.dims},
                                       {"strides", tensor.strides},
                                       {"file", file}});
    }
    const std::string text = manifest.dump(2);
    writeFile(directory / "manifest.json", text.data(), text.size());
}

GoldenCase loadGoldenCase(const fs::path& directory) {
    const fs::path manifestPath = directory / "manifest.json";
    const auto manifestBytes = readFile(manifestPath, "golden-data manifest");
    GoldenCase goldenCase;
    try {
        const auto manifest = nlohmann::json::parse(manifestBytes.begin(), manifestBytes.end());
        if (manifest.value("format", std::string()) != formatTag) {
            throw std::runtime_error("golden data: " + manifestPath.string() + " is not a " + formatTag +
                                     " manifest");
        }
        const auto graphBytes = readFile(directory / manifest.at("graph").get<std::string>(), "graph file");
        goldenCase.graph = hipdnn_flatbuffers_sdk::graphFromJson(
            std::string_view(reinterpret_cast<const char*>(graphBytes.data()), graphBytes.size()));
        for (const auto& entry : manifest.at("tensors")) {
            GoldenTensor tensor;
            tensor.uid = entry.at("uid").get<int64_t>();
            tensor.name = entry.at("name").get<std::string>();
            tensor.dataType = parseDataType(entry.at("data_type").get<std::string>(), manifestPath);
            tensor.dims = entry.at("dims").get<std::vector<int64_t>>();
            tensor.strides = entry.at("strides").get<std::vector<int64_t>>();
            const fs::path file = directory / entry.at("file").get<std::string>();
            tensor.bytes = readTensorFile(file, checkedByteCount(tensor, manifestPath), tensor.uid);
            goldenCase.tensors.push_back(std::move(tensor));
        }
    } catch (const nlohmann::json::exception& error) {
        throw std::runtime_error("golden data: malformed " + manifestPath.string() + ": " + error.what());
    }
    return goldenCase;
}

}  // namespace hipdnn_test_sdk
