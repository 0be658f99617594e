// The few CUDA driver API calls the backend makes itself (libcuda.so.1, dlopen()ed as
// DeviceDetection does: the backend links no CUDA): primary contexts, events, pointer attributes.
#pragma once

#include <stdexcept>
#include <string>

namespace hipdnn_backend::platform {

// A driver call failed, or the driver is missing; the message names the call and its error name.
struct CudaDriverError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The driver API's handles are pointers (CUcontext, CUevent, CUstream), its device an int and its
// status an int (CUresult, 0 = CUDA_SUCCESS).
using DriverHandle = void*;

class CudaDriverApi {
public:
    // Throws CudaDriverError when libcuda.so.1 is not loadable, cuInit fails or a symbol is missing.
    static const CudaDriverApi& instance();

    // Throws CudaDriverError "<call> failed with <error name> (<status>)" unless `status` is 0.
    void check(int status, const char* call) const;

    int (*deviceGet)(int*, int) = nullptr;
    int (*primaryContextRetain)(DriverHandle*, int) = nullptr;
    int (*primaryContextRelease)(int) = nullptr;
    int (*contextPush)(DriverHandle) = nullptr;
    int (*contextPop)(DriverHandle*) = nullptr;
    int (*eventCreate)(DriverHandle*, unsigned int) = nullptr;
    int (*eventRecord)(DriverHandle, DriverHandle) = nullptr;
    int (*eventSynchronize)(DriverHandle) = nullptr;
    int (*eventElapsedTime)(float*, DriverHandle, DriverHandle) = nullptr;
    int (*eventDestroy)(DriverHandle) = nullptr;
    int (*getErrorName)(int, const char**) = nullptr;
    // cuPointerGetAttributes(count, attributes, data, pointer): CUdeviceptr is an unsigned 64-bit
    // integer on every 64-bit platform.
    int (*pointerGetAttributes)(unsigned int, int*, void**, unsigned long long) = nullptr;

private:
    CudaDriverApi();

    template <typename Function>
    void resolve(void* driver, Function& slot, const char* symbol);

    std::string _missing;
};

}  // namespace hipdnn_backend::platform
