#include "platform/DeviceDetection.hpp"

#include <dlfcn.h>

#include <array>

namespace hipdnn_backend::platform {

void* initializedCudaDriver() noexcept {
    static void* const driver = []() -> void* {
        void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            return nullptr;
        }
        using Init = int (*)(unsigned int);
        auto init = reinterpret_cast<Init>(dlsym(library, "cuInit"));
        return init != nullptr && init(0) == 0 ? library : nullptr;
    }();
    return driver;
}

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
    void* driver = initializedCudaDriver();
    if (driver == nullptr) {
        return 0;
    }
    using GetCount = int (*)(int*);
    auto getCount = reinterpret_cast<GetCount>(dlsym(driver, "cuDeviceGetCount"));
    int count = 0;
    if (getCount == nullptr || getCount(&count) != 0) {
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

std::optional<CudaDeviceIdentity> cudaDeviceIdentity(int ordinal) noexcept {
    void* driver = initializedCudaDriver();
    if (driver == nullptr) {
        return std::nullopt;
    }
    // CUdevice is an int; CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR are 75 / 76.
    constexpr int kComputeCapabilityMajor = 75;
    constexpr int kComputeCapabilityMinor = 76;
    using GetDevice = int (*)(int*, int);
    using GetName = int (*)(char*, int, int);
    using GetAttribute = int (*)(int*, int, int);
    using GetDriverVersion = int (*)(int*);
    auto getDevice = reinterpret_cast<GetDevice>(dlsym(driver, "cuDeviceGet"));
    auto getName = reinterpret_cast<GetName>(dlsym(driver, "cuDeviceGetName"));
    auto getAttribute = reinterpret_cast<GetAttribute>(dlsym(driver, "cuDeviceGetAttribute"));
    auto getDriverVersion = reinterpret_cast<GetDriverVersion>(dlsym(driver, "cuDriverGetVersion"));
    if (getDevice == nullptr || getName == nullptr || getAttribute == nullptr ||
        getDriverVersion == nullptr) {
        return std::nullopt;
    }
    int device = 0;
    std::array<char, 256> name{};
    CudaDeviceIdentity identity;
    if (getDevice(&device, ordinal) != 0 ||
        getName(name.data(), static_cast<int>(name.size()), device) != 0 ||
        getAttribute(&identity.computeMajor, kComputeCapabilityMajor, device) != 0 ||
        getAttribute(&identity.computeMinor, kComputeCapabilityMinor, device) != 0 ||
        getDriverVersion(&identity.driverVersion) != 0) {
        return std::nullopt;
    }
    identity.name = name.data();
    return identity;
}

}  // namespace hipdnn_backend::platform
