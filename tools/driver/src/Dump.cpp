#include "Dump.hpp"

#include <cstdio>

#include <hipdnn_test_sdk/GoldenData.hpp>

namespace hipdnn_driver {

std::filesystem::path dumpDirectory(const std::string& root, size_t problemIndex,
                                    const std::string& problemLabel, const std::string& engine) {
    char prefix[16];
    std::snprintf(prefix, sizeof(prefix), "%03zu_", problemIndex);
    const std::string kind = problemLabel.substr(0, problemLabel.find(' '));
    return std::filesystem::path(root) / (prefix + kind) / engine;
}

void dumpCase(const std::filesystem::path& directory, const std::vector<uint8_t>& graph,
              const std::vector<HostTensor>& inputs, const std::vector<HostTensor>& outputs) {
    hipdnn_test_sdk::GoldenCase golden;
    golden.graph = graph;
    for (const auto* tensors : {&inputs, &outputs}) {
        for (const auto& tensor : *tensors) {
            golden.tensors.push_back(
                {tensor.uid, tensor.name, tensor.dataType, tensor.dims, tensor.strides, tensor.bytes});
        }
    }
    hipdnn_test_sdk::saveGoldenCase(directory, golden);
}

}  // namespace hipdnn_driver
