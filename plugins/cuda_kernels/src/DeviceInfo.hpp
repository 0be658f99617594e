// What kernel generation and launch shapes depend on, read once per handle from the current device.
#pragma once

#include <string>

#include <hipdnn_plugin_sdk/Roofline.hpp>

namespace hipdnn_cuda_kernels {

struct DeviceInfo {
    int ordinal = 0;
    int computeCapability = 0;  // major * 10 + minor: 90 for sm_90
    int multiprocessorCount = 0;
    int maxThreadsPerMultiprocessor = 0;
    int sharedMemoryPerBlockOptin = 0;  // bytes a block may use when its kernel asks for them
    bool cooperativeLaunch = false;     // launches whose blocks are all resident at once
    // Theoretical peaks and bandwidth, which the engines' estimated times scale.
    hipdnn_plugin_sdk::DeviceCeilings ceilings{};

    /// The current CUDA device's properties. Throws PluginError(INTERNAL_ERROR) naming the failing
    /// call and CUDA's error when no device is usable.
    static DeviceInfo current();
};

/// "CUDA call failed: cudaErrorX (message)" text for `status` (a cudaError_t).
std::string describeCudaError(const char* call, int status);

}  // namespace hipdnn_cuda_kernels
