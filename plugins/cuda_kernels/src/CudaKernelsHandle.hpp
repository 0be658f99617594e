// The plugin's per-backend-handle state: the device it was created on, and the cuDNN handle
// CUDA_GRAPH_ENGINE's convolutions run on (created at first use, bound to the handle's stream).
#pragma once

#include "DeviceInfo.hpp"

#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>

#include <cudnn_graph.h>

#include <mutex>
#include <string>

namespace hipdnn_cuda_kernels {

class CudaKernelsHandle : public hipdnn_plugin_sdk::PluginHandleBase {
public:
    /// Throws PluginError(INTERNAL_ERROR) "no usable CUDA device: ..." where no GPU is usable, so
    /// that the backend logs and skips the plugin.
    CudaKernelsHandle() : _device(DeviceInfo::current()) {}
    ~CudaKernelsHandle() override;
    CudaKernelsHandle(const CudaKernelsHandle&) = delete;
    CudaKernelsHandle& operator=(const CudaKernelsHandle&) = delete;

    const DeviceInfo& device() const noexcept { return _device; }

    /// The cuDNN handle, created on the first call and set to the handle's stream; null with
    /// `reason` when cuDNN is not available or cudnnCreate fails (the outcome is kept).
    cudnnHandle_t cudnn(std::string& reason);

    /// Also rebinds the cuDNN handle, so that convolutions run on the handle's stream.
    void setStream(hipdnnPluginStream_t stream) override;

private:
    DeviceInfo _device;
    std::mutex _cudnnMutex;
    bool _cudnnTried = false;
    cudnnHandle_t _cudnn = nullptr;
    std::string _cudnnError;
};

}  // namespace hipdnn_cuda_kernels
