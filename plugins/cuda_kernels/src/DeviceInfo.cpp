#include "DeviceInfo.hpp"

#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <cuda_runtime_api.h>

namespace hipdnn_cuda_kernels {

std::string describeCudaError(const char* call, int status) {
    const auto error = static_cast<cudaError_t>(status);
    return std::string(call) + " failed: " + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")";
}

namespace {

void check(cudaError_t status, const char* call) {
    if (status != cudaSuccess) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                             "no usable CUDA device: " + describeCudaError(call, status));
    }
}

int attribute(cudaDeviceAttr which, int device, const char* name) {
    int value = 0;
    check(cudaDeviceGetAttribute(&value, which, device), name);
    return value;
}

}  // namespace

DeviceInfo DeviceInfo::current() {
    int count = 0;
    check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    if (count == 0) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                             "no usable CUDA device: cudaGetDeviceCount reports 0 devices");
    }
    DeviceInfo info;
    check(cudaGetDevice(&info.ordinal), "cudaGetDevice");
    const int major =
        attribute(cudaDevAttrComputeCapabilityMajor, info.ordinal, "cudaDeviceGetAttribute(major)");
    const int minor =
        attribute(cudaDevAttrComputeCapabilityMinor, info.ordinal, "cudaDeviceGetAttribute(minor)");
    info.computeCapability = 10 * major + minor;
    info.multiprocessorCount =
        attribute(cudaDevAttrMultiProcessorCount, info.ordinal, "cudaDeviceGetAttribute(SM count)");
    info.maxThreadsPerMultiprocessor = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, info.ordinal,
                                                 "cudaDeviceGetAttribute(threads per SM)");
    info.sharedMemoryPerBlockOptin = attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, info.ordinal,
                                               "cudaDeviceGetAttribute(shared memory per block)");
    info.cooperativeLaunch = attribute(cudaDevAttrCooperativeLaunch, info.ordinal,
                                       "cudaDeviceGetAttribute(cooperative launch)") != 0;
    info.ceilings = hipdnn_plugin_sdk::gpuCeilings(
        info.multiprocessorCount,
        attribute(cudaDevAttrClockRate, info.ordinal, "cudaDeviceGetAttribute(clock)"), major, minor,
        attribute(cudaDevAttrMemoryClockRate, info.ordinal, "cudaDeviceGetAttribute(memory clock)"),
        attribute(cudaDevAttrGlobalMemoryBusWidth, info.ordinal, "cudaDeviceGetAttribute(bus width)"));
    return info;
}

}  // namespace hipdnn_cuda_kernels
