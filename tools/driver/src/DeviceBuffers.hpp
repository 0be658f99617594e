// Memory on the session's device: host memory (64-byte aligned) for CPU handles, CUDA device
// memory for GPU handles when the driver is built with CUDA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "Inputs.hpp"

namespace hipdnn_driver {

class DeviceBuffer {
public:
    DeviceBuffer(bool onGpu, size_t bytes);  // throws DriverError when the allocation fails
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& other) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&&) = delete;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    [[nodiscard]] void* data() const { return data_; }
    [[nodiscard]] size_t size() const { return bytes_; }
    void upload(const std::vector<uint8_t>& host);
    // Waits for the device's pending work first.
    void download(std::vector<uint8_t>& host) const;

private:
    bool onGpu_ = false;
    size_t bytes_ = 0;
    void* data_ = nullptr;
};

// Waits for everything queued on the GPU (no-op for the CPU).
void synchronizeDevice(bool onGpu);

// Device copies of the inputs and (sentinel-filled) outputs, and the variant pack naming them.
struct Bindings {
    std::vector<DeviceBuffer> inputs;
    std::vector<DeviceBuffer> outputs;
    std::unordered_map<int64_t, void*> variantPack;
};
Bindings bind(bool onGpu, const std::vector<HostTensor>& inputs, const std::vector<HostTensor>& outputs);
// The outputs' current contents, in the shapes of `outputs`.
std::vector<HostTensor> download(const Bindings& bindings, std::vector<HostTensor> outputs);

}  // namespace hipdnn_driver
