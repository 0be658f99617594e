#include "Session.hpp"

#include <regex>
#include <thread>

#ifdef HIPDNN_DRIVER_WITH_CUDA
#include <cuda_runtime.h>
#endif

namespace hipdnn_driver {

std::string backendFailure(const std::string& what, hipdnnStatus_t status) {
    char message[HIPDNN_ERROR_STRING_MAX_LENGTH] = {};
    hipdnnGetLastErrorString(message, sizeof(message));
    return what + ": " + hipdnnGetErrorString(status) +
           (message[0] != '\0' ? std::string(": ") + message : "");
}

namespace {

hipdnnHandle_t createHandle(hipdnnDeviceType_ext_t type, int ordinal) {
    hipdnnHandle_t handle = nullptr;
    const hipdnnStatus_t status = hipdnnCreateForDevice_ext(&handle, type, ordinal);
    if (status != HIPDNN_STATUS_SUCCESS) {
        throw DriverError(backendFailure(type == HIPDNN_DEVICE_TYPE_CPU_EXT
                                             ? std::string("creating a CPU handle")
                                             : "creating a handle on GPU " + std::to_string(ordinal),
                                         status));
    }
    return handle;
}

// Two-call string getter of hipdnnGetEngineInfo_ext: sizes first, then the strings.
EngineInfo engineInfoAt(hipdnnHandle_t handle, size_t index) {
    EngineInfo info;
    size_t nameLength = 0;
    size_t pluginLength = 0;
    size_t pathLength = 0;
    hipdnnStatus_t status = hipdnnGetEngineInfo_ext(handle, index, &info.id, nullptr, &nameLength, nullptr,
                                                    &pluginLength, nullptr, &pathLength);
    if (status != HIPDNN_STATUS_SUCCESS) {
        throw DriverError(backendFailure("hipdnnGetEngineInfo_ext(" + std::to_string(index) + ")", status));
    }
    std::string name(nameLength, '\0');
    std::string plugin(pluginLength, '\0');
    std::string path(pathLength, '\0');
    status = hipdnnGetEngineInfo_ext(handle, index, &info.id, name.data(), &nameLength, plugin.data(),
                                     &pluginLength, path.data(), &pathLength);
    if (status != HIPDNN_STATUS_SUCCESS) {
        throw DriverError(backendFailure("hipdnnGetEngineInfo_ext(" + std::to_string(index) + ")", status));
    }
    info.name = name.c_str();
    info.pluginName = plugin.c_str();
    info.pluginPath = path.c_str();
    return info;
}

}  // namespace

Session::Session(const std::string& device) {
    std::smatch match;
    static const std::regex pattern("(cpu|gpu)(:([0-9]+))?");
    if (!device.empty() && !std::regex_match(device, match, pattern)) {
        throw DriverError("--device '" + device + "' is not cpu, gpu or gpu:N");
    }
    const bool wantsGpu = !device.empty() && match[1] == "gpu";
#ifndef HIPDNN_DRIVER_WITH_CUDA
    if (wantsGpu) {
        throw DriverError("--device " + device +
                          ": hipdnn-driver was built without CUDA; only --device cpu works");
    }
    // Without CUDA the driver cannot place buffers on a GPU, so the default is the CPU.
    handle_ = createHandle(HIPDNN_DEVICE_TYPE_CPU_EXT, 0);
#else
    if (device.empty()) {
        const hipdnnStatus_t status = hipdnnCreate(&handle_);
        if (status != HIPDNN_STATUS_SUCCESS) {
            throw DriverError(backendFailure("hipdnnCreate", status));
        }
    } else {
        handle_ = createHandle(wantsGpu ? HIPDNN_DEVICE_TYPE_GPU_EXT : HIPDNN_DEVICE_TYPE_CPU_EXT,
                               match[3].matched ? std::stoi(match[3].str()) : 0);
    }
#endif
    hipdnnDeviceType_ext_t type = HIPDNN_DEVICE_TYPE_CPU_EXT;
    const hipdnnStatus_t status = hipdnnGetDevice_ext(handle_, &type, &ordinal_);
    if (status != HIPDNN_STATUS_SUCCESS) {
        hipdnnDestroy(handle_);
        throw DriverError(backendFailure("hipdnnGetDevice_ext", status));
    }
    isGpu_ = type == HIPDNN_DEVICE_TYPE_GPU_EXT;
#ifdef HIPDNN_DRIVER_WITH_CUDA
    if (isGpu_ && cudaSetDevice(ordinal_) != cudaSuccess) {
        hipdnnDestroy(handle_);
        throw DriverError("cudaSetDevice(" + std::to_string(ordinal_) + ") failed");
    }
#endif
}

int Session::gpuCount() {
#ifdef HIPDNN_DRIVER_WITH_CUDA
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
#else
    return 0;
#endif
}

Session::~Session() {
    if (cpuHandle_ != nullptr) {
        hipdnnDestroy(cpuHandle_);
    }
    hipdnnDestroy(handle_);
}

hipdnnHandle_t Session::referenceHandle() {
    if (!isGpu_) {
        return handle_;
    }
    if (cpuHandle_ == nullptr) {
        cpuHandle_ = createHandle(HIPDNN_DEVICE_TYPE_CPU_EXT, 0);
    }
    return cpuHandle_;
}

std::string Session::deviceDescription() const {
    if (!isGpu_) {
        return "CPU (" + std::to_string(std::thread::hardware_concurrency()) + " hardware threads)";
    }
    std::string description = "GPU " + std::to_string(ordinal_);
#ifdef HIPDNN_DRIVER_WITH_CUDA
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, ordinal_) == cudaSuccess) {
        description += std::string(" (") + properties.name + ")";
    }
#endif
    return description;
}

std::vector<EngineInfo> Session::engines() const {
    size_t count = 0;
    const hipdnnStatus_t status = hipdnnGetEngineCount_ext(handle_, &count);
    if (status != HIPDNN_STATUS_SUCCESS) {
        throw DriverError(backendFailure("hipdnnGetEngineCount_ext", status));
    }
    std::vector<EngineInfo> engines;
    for (size_t index = 0; index < count; ++index) {
        engines.push_back(engineInfoAt(handle_, index));
    }
    return engines;
}

std::vector<std::string> Session::loadedPluginPaths() const {
    size_t count = 0;
    size_t maxLength = 0;
    hipdnnStatus_t status = hipdnnGetLoadedEnginePluginPaths_ext(handle_, &count, nullptr, &maxLength);
    if (status != HIPDNN_STATUS_SUCCESS) {
        throw DriverError(backendFailure("hipdnnGetLoadedEnginePluginPaths_ext", status));
    }
    std::vector<std::string> storage(count, std::string(maxLength, '\0'));
    std::vector<char*> pointers;
    for (auto& text : storage) {
        pointers.push_back(text.data());
    }
    status = hipdnnGetLoadedEnginePluginPaths_ext(handle_, &count, pointers.data(), &maxLength);
    if (status != HIPDNN_STATUS_SUCCESS) {
        throw DriverError(backendFailure("hipdnnGetLoadedEnginePluginPaths_ext", status));
    }
    std::vector<std::string> paths;
    for (size_t i = 0; i < count && i < storage.size(); ++i) {
        paths.emplace_back(storage[i].c_str());
    }
    return paths;
}

const Ceilings& Session::ceilings() {
    if (!ceilings_) {
#ifdef HIPDNN_DRIVER_WITH_CUDA
        ceilings_ = isGpu_ ? measureGpuCeilings(ordinal_) : measureCpuCeilings();
#else
        ceilings_ = measureCpuCeilings();
#endif
    }
    return *ceilings_;
}

}  // namespace hipdnn_driver
