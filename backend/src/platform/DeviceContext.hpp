// A GPU handle's device made current around every call into its plugins, so that the CUDA runtime
// calls a plugin makes (allocations, cuDNN and cuBLASLt handles, launches) land on the handle's
// device whichever device the calling thread had current, and the thread's own choice is restored.
#pragma once

#include "platform/CudaDriver.hpp"

namespace hipdnn_backend::platform {

// The primary context of the CUDA device `ordinal` (the CUDA runtime's context of that device),
// retained for the object's life.
class DeviceContext {
public:
    // Throws CudaDriverError naming the driver call that failed.
    explicit DeviceContext(int ordinal);
    ~DeviceContext();
    DeviceContext(const DeviceContext&) = delete;
    DeviceContext& operator=(const DeviceContext&) = delete;

    int ordinal() const noexcept { return _ordinal; }
    DriverHandle context() const noexcept { return _context; }

private:
    int _ordinal;
    int _device = 0;
    DriverHandle _context = nullptr;
};

// Pushes `device`'s context for the scope (nothing for null, the CPU) and pops it at the end.
class CurrentDevice {
public:
    // Throws CudaDriverError when the context cannot be made current.
    explicit CurrentDevice(const DeviceContext* device);
    ~CurrentDevice();
    CurrentDevice(const CurrentDevice&) = delete;
    CurrentDevice& operator=(const CurrentDevice&) = delete;

private:
    const DeviceContext* _device;
};

}  // namespace hipdnn_backend::platform
