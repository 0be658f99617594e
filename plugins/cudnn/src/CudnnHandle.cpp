#include "CudnnHandle.hpp"

#include "CudnnDescriptor.hpp"
#include "GraphAnalysis.hpp"

#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <cuda_runtime_api.h>

namespace hipdnn_cudnn_plugin {

namespace {

// Graphs whose analyses stay cached per handle; older ones are dropped (contexts keep theirs).
constexpr size_t kMaxCachedAnalyses = 64;

[[noreturn]] void noDevice(const std::string& message) {
    throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, message);
}

}  // namespace

CudnnHandle::CudnnHandle() {
    int deviceCount = 0;
    const cudaError_t error = cudaGetDeviceCount(&deviceCount);
    if (error != cudaSuccess) {
        noDevice(std::string("no CUDA device: cudaGetDeviceCount failed with ") + cudaGetErrorName(error) +
                 " (" + cudaGetErrorString(error) + ")");
    }
    if (deviceCount == 0) {
        noDevice("no CUDA device: cudaGetDeviceCount reports 0 devices");
    }
    const cudnnStatus_t status = cudnnCreate(&_cudnn);
    if (status != CUDNN_STATUS_SUCCESS) {
        _cudnn = nullptr;
        noDevice("cudnnCreate failed with " + describeCudnnStatus(status) + " (cuDNN " +
                 std::to_string(cudnnGetVersion()) + ")");
    }
    // An attribute the device does not report leaves its ceiling at 0: no estimate, not an error.
    int device = 0;
    cudaGetDevice(&device);
    auto attribute = [device](cudaDeviceAttr which) {
        int value = 0;
        return cudaDeviceGetAttribute(&value, which, device) == cudaSuccess ? value : 0;
    };
    _ceilings = hipdnn_plugin_sdk::gpuCeilings(
        attribute(cudaDevAttrMultiProcessorCount), attribute(cudaDevAttrClockRate),
        attribute(cudaDevAttrComputeCapabilityMajor), attribute(cudaDevAttrComputeCapabilityMinor),
        attribute(cudaDevAttrMemoryClockRate), attribute(cudaDevAttrGlobalMemoryBusWidth));
}

CudnnHandle::~CudnnHandle() {
    {
        // Plans and operation graphs reference the cuDNN handle: release them first.
        std::lock_guard lock(_mutex);
        _analyses.clear();
    }
    if (_cudnn != nullptr) {
        cudnnDestroy(_cudnn);
    }
}

void CudnnHandle::setStream(hipdnnPluginStream_t stream) {
    const cudnnStatus_t status = cudnnSetStream(_cudnn, static_cast<cudaStream_t>(stream));
    if (status != CUDNN_STATUS_SUCCESS) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                             "cudnnSetStream failed: " + describeCudnnStatus(status));
    }
    PluginHandleBase::setStream(stream);
}

std::shared_ptr<GraphAnalysis> CudnnHandle::analysis(const hipdnn_flatbuffers_sdk::GraphWrapper& graph) {
    std::string key(reinterpret_cast<const char*>(graph.data()), graph.size());
    {
        std::lock_guard lock(_mutex);
        if (auto found = _analyses.find(key); found != _analyses.end()) {
            return found->second;
        }
    }
    // Translation and finalization run unlocked: they may take a while and need no shared state.
    auto created = std::make_shared<GraphAnalysis>(_cudnn, graph);
    std::lock_guard lock(_mutex);
    if (_analyses.size() >= kMaxCachedAnalyses) {
        _analyses.clear();
    }
    return _analyses.emplace(std::move(key), std::move(created)).first->second;
}

}  // namespace hipdnn_cudnn_plugin
