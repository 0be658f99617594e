#include "IntegrationSupport.hpp"

#include <hipdnn_test_sdk/BackendRun.hpp>

#include <gtest/gtest.h>

#include <cstddef>

namespace cpu_reference_integration {

using hipdnn_test_sdk::checkBackend;

CpuReferenceSession::CpuReferenceSession() {
    // The plugin file itself, so that other plugins built next to it are not loaded.
    const char* paths[] = {CPU_REFERENCE_PLUGIN_PATH};
    checkBackend(hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE),
                 "hipdnnSetEnginePluginPaths_ext");
    checkBackend(hipdnnCreateForDevice_ext(&_handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0),
                 "hipdnnCreateForDevice_ext(CPU)");
}

CpuReferenceSession::~CpuReferenceSession() {
    if (_handle != nullptr) {
        hipdnnDestroy(_handle);
    }
}

std::string CpuReferenceSession::run(const std::vector<uint8_t>& graph,
                                     std::map<int64_t, HostTensor>& tensors) {
    std::map<int64_t, void*> pointers;
    for (auto& [uid, tensor] : tensors) {
        pointers[uid] = tensor.data();
    }
    std::vector<std::byte> workspace;
    return hipdnn_test_sdk::runThroughBackend(_handle, graph, pointers, [&](size_t bytes) {
        workspace.resize(bytes);
        return static_cast<void*>(workspace.data());
    });
}

std::pair<int64_t, std::string> CpuReferenceSession::heuristics(const std::vector<uint8_t>& graph) {
    const hipdnn_test_sdk::BackendHeuristics planned(_handle, graph);
    return {planned.resultCount(), planned.declined()};
}

}  // namespace cpu_reference_integration
