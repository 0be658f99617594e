#include <hipdnn_test_sdk/DeviceDetection.hpp>

#include <dlfcn.h>

#include <initializer_list>

namespace hipdnn_test_sdk {

namespace {

// Status code 0 means success for both cudaError_t and CUresult.
using RuntimeGetDeviceCount = int (*)(int*);
using DriverInit = int (*)(unsigned int);
using DriverGetDeviceCount = int (*)(int*);

void* openFirst(std::initializer_list<const char*> names) {
    for (const char* name : names) {
        if (void* library = dlopen(name, RTLD_NOW | RTLD_LOCAL)) {
            return library;
        }
    }
    return nullptr;
}

int countWithRuntime() {
    void* library = openFirst({"libcudart.so", "libcudart.so.13", "libcudart.so.12"});
    if (library == nullptr) {
        return -1;
    }
    // The library stays loaded: unloading the CUDA runtime while its context lives is unsafe.
    auto getCount = reinterpret_cast<RuntimeGetDeviceCount>(dlsym(library, "cudaGetDeviceCount"));
    int count = 0;
    if (getCount == nullptr || getCount(&count) != 0) {
        return -1;
    }
    return count;
}

int countWithDriver() {
    void* library = openFirst({"libcuda.so.1", "libcuda.so"});
    if (library == nullptr) {
        return -1;
    }
    auto init = reinterpret_cast<DriverInit>(dlsym(library, "cuInit"));
    auto getCount = reinterpret_cast<DriverGetDeviceCount>(dlsym(library, "cuDeviceGetCount"));
    int count = 0;
    if (init == nullptr || getCount == nullptr || init(0) != 0 || getCount(&count) != 0) {
        return -1;
    }
    return count;
}

}  // namespace

int cudaDeviceCount() {
    static const int count = [] {
        const int runtimeCount = countWithRuntime();
        if (runtimeCount >= 0) {
            return runtimeCount;
        }
        const int driverCount = countWithDriver();
        return driverCount > 0 ? driverCount : 0;
    }();
    return count;
}

}  // namespace hipdnn_test_sdk
