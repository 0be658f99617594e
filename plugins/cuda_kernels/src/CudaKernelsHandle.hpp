// The plugin's per-backend-handle state: the device it was created on.
#pragma once

#include "DeviceInfo.hpp"

#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>

namespace hipdnn_cuda_kernels {

class CudaKernelsHandle : public hipdnn_plugin_sdk::PluginHandleBase {
public:
    /// Throws PluginError(INTERNAL_ERROR) "no usable CUDA device: ..." where no GPU is usable, so
    /// that the backend logs and skips the plugin.
    CudaKernelsHandle() : _device(DeviceInfo::current()) {}

    const DeviceInfo& device() const noexcept { return _device; }

private:
    DeviceInfo _device;
};

}  // namespace hipdnn_cuda_kernels
