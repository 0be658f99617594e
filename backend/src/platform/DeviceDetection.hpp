// Run-time CUDA device discovery without linking CUDA: the runtime (libcudart.so.13) or the
// driver (libcuda.so.1) is dlopen()ed when present. No library or no device means no GPU.
#pragma once

#include <optional>
#include <string>

namespace hipdnn_backend::platform {

// Number of usable CUDA devices, probed once per process.
int cudaDeviceCount() noexcept;

// libcuda.so.1 after a successful cuInit (loaded once, never unloaded), or null.
void* initializedCudaDriver() noexcept;

// What the CUDA driver says of one device.
struct CudaDeviceIdentity {
    std::string name;  // e.g. "NVIDIA H200"
    int computeMajor = 0;
    int computeMinor = 0;
    int driverVersion = 0;  // e.g. 13000 for CUDA 13.0
};

// The driver's description of the device with this (runtime) ordinal; nullopt without a driver or
// such a device.
std::optional<CudaDeviceIdentity> cudaDeviceIdentity(int ordinal) noexcept;

}  // namespace hipdnn_backend::platform
