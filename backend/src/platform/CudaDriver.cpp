#include "platform/CudaDriver.hpp"

#include <dlfcn.h>

#include "platform/DeviceDetection.hpp"

namespace hipdnn_backend::platform {

const CudaDriverApi& CudaDriverApi::instance() {
    static const CudaDriverApi api;
    if (!api._missing.empty()) {
        throw CudaDriverError(api._missing);
    }
    return api;
}

void CudaDriverApi::check(int status, const char* call) const {
    if (status == 0) {
        return;
    }
    const char* name = nullptr;
    if (getErrorName == nullptr || getErrorName(status, &name) != 0 || name == nullptr) {
        name = "an unknown error";
    }
    throw CudaDriverError(std::string(call) + " failed with " + name + " (" + std::to_string(status) + ")");
}

CudaDriverApi::CudaDriverApi() {
    void* driver = initializedCudaDriver();
    if (driver == nullptr) {
        _missing = "the CUDA driver (libcuda.so.1) is not loadable or cuInit failed";
        return;
    }
    // The versioned names are the current entry points of calls whose first version the driver
    // keeps for old binaries.
    resolve(driver, deviceGet, "cuDeviceGet");
    resolve(driver, primaryContextRetain, "cuDevicePrimaryCtxRetain");
    resolve(driver, primaryContextRelease, "cuDevicePrimaryCtxRelease_v2");
    resolve(driver, contextPush, "cuCtxPushCurrent_v2");
    resolve(driver, contextPop, "cuCtxPopCurrent_v2");
    resolve(driver, eventCreate, "cuEventCreate");
    resolve(driver, eventRecord, "cuEventRecord");
    resolve(driver, eventSynchronize, "cuEventSynchronize");
    resolve(driver, eventDestroy, "cuEventDestroy_v2");
    resolve(driver, getErrorName, "cuGetErrorName");
    resolve(driver, pointerGetAttributes, "cuPointerGetAttributes");
    if (dlsym(driver, "cuEventElapsedTime_v2") != nullptr) {
        resolve(driver, eventElapsedTime, "cuEventElapsedTime_v2");
    } else {
        resolve(driver, eventElapsedTime, "cuEventElapsedTime");
    }
}

template <typename Function>
void CudaDriverApi::resolve(void* driver, Function& slot, const char* symbol) {
    slot = reinterpret_cast<Function>(dlsym(driver, symbol));
    if (slot == nullptr && _missing.empty()) {
        _missing = std::string("the CUDA driver (libcuda.so.1) lacks ") + symbol;
    }
}

}  // namespace hipdnn_backend::platform
