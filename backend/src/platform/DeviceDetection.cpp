#include "platform/DeviceDetection.hpp"

#include <dlfcn.h>

namespace hipdnn_backend::platform {

namespace {

// The probe libraries stay loaded for the life of the process: CUDA does not support being
// unloaded and reloaded, and plugins will load it anyway.
int countWithRuntime() {
    void* runtime = dlopen("libcudart.so.13", RTLD_NOW | RTLD_LOCAL);
    if (runtime == nullptr) {
        return -1;
    }
    using GetDeviceCount = int (*)(int*);
    auto getDeviceCount = reinterpret_cast<GetDeviceCount>(dlsym(runtime, "cudaGetDeviceCount"));
    int count = 0;
    if (getDeviceCount == nullptr || getDeviceCount(&count) != 0) {
        return -1;
    }
    return count;
}

int countWithDriver() {
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (driver == nullptr) {
        return 0;
    }
    using Init = int (*)(unsigned int);
    using GetCount = int (*)(int*);
    auto init = reinterpret_cast<Init>(dlsym(driver, "cuInit"));
    auto getCount = reinterpret_cast<GetCount>(dlsym(driver, "cuDeviceGetCount"));
    int count = 0;
    if (init == nullptr || getCount == nullptr || init(0) != 0 || getCount(&count) != 0) {
        return 0;
    }
    return count;
}

}  // namespace

int cudaDeviceCount() noexcept {
    static const int count = [] {
        const int runtimeCount = countWithRuntime();
        return runtimeCount >= 0 ? runtimeCount : countWithDriver();
    }();
    return count;
}

}  // namespace hipdnn_backend::platform
