#include "DeviceBuffers.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "Session.hpp"

#ifdef HIPDNN_DRIVER_WITH_CUDA
#include <cuda_runtime.h>
#endif

namespace hipdnn_driver {

namespace {

constexpr size_t kAlignment = 64;

#ifdef HIPDNN_DRIVER_WITH_CUDA
void checkCuda(cudaError_t status, const std::string& what) {
    if (status != cudaSuccess) {
        throw DriverError(what + ": " + cudaGetErrorString(status));
    }
}
#endif

}  // namespace

DeviceBuffer::DeviceBuffer(bool onGpu, size_t bytes) : onGpu_(onGpu), bytes_(bytes) {
    // Zero-byte tensors still get a distinct, valid pointer.
    const size_t allocated = (std::max<size_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
    if (onGpu_) {
#ifdef HIPDNN_DRIVER_WITH_CUDA
        checkCuda(cudaMalloc(&data_, allocated), "cudaMalloc(" + std::to_string(allocated) + ")");
#else
        throw DriverError("GPU buffers need a driver built with CUDA");
#endif
    } else {
        data_ = std::aligned_alloc(kAlignment, allocated);
        if (data_ == nullptr) {
            throw DriverError("out of host memory allocating " + std::to_string(allocated) + " bytes");
        }
    }
}

DeviceBuffer::~DeviceBuffer() {
    if (data_ == nullptr) {
        return;
    }
#ifdef HIPDNN_DRIVER_WITH_CUDA
    if (onGpu_) {
        cudaFree(data_);
        return;
    }
#endif
    std::free(data_);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : onGpu_(other.onGpu_), bytes_(other.bytes_), data_(other.data_) {
    other.data_ = nullptr;
}

void DeviceBuffer::upload(const std::vector<uint8_t>& host) {
    const size_t bytes = std::min(bytes_, host.size());
#ifdef HIPDNN_DRIVER_WITH_CUDA
    if (onGpu_) {
        checkCuda(cudaMemcpy(data_, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
        return;
    }
#endif
    std::memcpy(data_, host.data(), bytes);
}

void DeviceBuffer::download(std::vector<uint8_t>& host) const {
    host.resize(bytes_);
#ifdef HIPDNN_DRIVER_WITH_CUDA
    if (onGpu_) {
        checkCuda(cudaDeviceSynchronize(), "waiting for the GPU");
        checkCuda(cudaMemcpy(host.data(), data_, bytes_, cudaMemcpyDeviceToHost),
                  "cudaMemcpy from the device");
        return;
    }
#endif
    std::memcpy(host.data(), data_, bytes_);
}

void synchronizeDevice(bool onGpu) {
#ifdef HIPDNN_DRIVER_WITH_CUDA
    if (onGpu) {
        checkCuda(cudaDeviceSynchronize(), "waiting for the GPU");
    }
#else
    static_cast<void>(onGpu);
#endif
}

Bindings bind(bool onGpu, const std::vector<HostTensor>& inputs, const std::vector<HostTensor>& outputs) {
    Bindings bindings;
    for (const auto& tensor : inputs) {
        bindings.inputs.emplace_back(onGpu, tensor.bytes.size());
        bindings.inputs.back().upload(tensor.bytes);
        bindings.variantPack[tensor.uid] = bindings.inputs.back().data();
    }
    for (const auto& tensor : outputs) {
        bindings.outputs.emplace_back(onGpu, tensor.bytes.size());
        bindings.outputs.back().upload(tensor.bytes);
        bindings.variantPack[tensor.uid] = bindings.outputs.back().data();
    }
    return bindings;
}

std::vector<HostTensor> download(const Bindings& bindings, std::vector<HostTensor> outputs) {
    for (size_t i = 0; i < outputs.size(); ++i) {
        bindings.outputs[i].download(outputs[i].bytes);
    }
    return outputs;
}

}  // namespace hipdnn_driver
