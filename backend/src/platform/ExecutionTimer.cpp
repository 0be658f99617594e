#include "platform/ExecutionTimer.hpp"

#include <dlfcn.h>

#include <chrono>
#include <string>
#include <utility>

#include "platform/DeviceDetection.hpp"

namespace hipdnn_backend::platform {

namespace {

// The driver API's handles are pointers (CUcontext, CUevent, CUstream), its device an int and its
// status an int (CUresult, 0 = CUDA_SUCCESS).
using Handle = void*;

class CudaDriverApi {
public:
    static const CudaDriverApi& instance() {
        static const CudaDriverApi api;
        if (!api._missing.empty()) {
            throw DeviceTimingError(api._missing);
        }
        return api;
    }

    void check(int status, const char* call) const {
        if (status == 0) {
            return;
        }
        const char* name = nullptr;
        if (getErrorName == nullptr || getErrorName(status, &name) != 0 || name == nullptr) {
            name = "an unknown error";
        }
        throw DeviceTimingError(std::string(call) + " failed with " + name + " (" + std::to_string(status) +
                                ")");
    }

    int (*deviceGet)(int*, int) = nullptr;
    int (*primaryContextRetain)(Handle*, int) = nullptr;
    int (*primaryContextRelease)(int) = nullptr;
    int (*contextPush)(Handle) = nullptr;
    int (*contextPop)(Handle*) = nullptr;
    int (*eventCreate)(Handle*, unsigned int) = nullptr;
    int (*eventRecord)(Handle, Handle) = nullptr;
    int (*eventSynchronize)(Handle) = nullptr;
    int (*eventElapsedTime)(float*, Handle, Handle) = nullptr;
    int (*eventDestroy)(Handle) = nullptr;
    int (*getErrorName)(int, const char**) = nullptr;

private:
    CudaDriverApi() {
        void* driver = initializedCudaDriver();
        if (driver == nullptr) {
            _missing = "the CUDA driver (libcuda.so.1) is not loadable or cuInit failed";
            return;
        }
        // The versioned names are the current entry points of calls whose first version the
        // driver keeps for old binaries.
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
        if (dlsym(driver, "cuEventElapsedTime_v2") != nullptr) {
            resolve(driver, eventElapsedTime, "cuEventElapsedTime_v2");
        } else {
            resolve(driver, eventElapsedTime, "cuEventElapsedTime");
        }
    }

    template <typename Function>
    void resolve(void* driver, Function& slot, const char* symbol) {
        slot = reinterpret_cast<Function>(dlsym(driver, symbol));
        if (slot == nullptr && _missing.empty()) {
            _missing = std::string("the CUDA driver (libcuda.so.1) lacks ") + symbol;
        }
    }

    std::string _missing;
};

// The device's primary context made current for the scope, and the events made in it.
class TimingScope {
public:
    TimingScope(const CudaDriverApi& api, int ordinal) : _api(api) {
        _api.check(_api.deviceGet(&_device, ordinal), "cuDeviceGet");
        _api.check(_api.primaryContextRetain(&_context, _device), "cuDevicePrimaryCtxRetain");
        if (const int status = _api.contextPush(_context); status != 0) {
            (void)_api.primaryContextRelease(_device);
            _api.check(status, "cuCtxPushCurrent");
        }
    }
    ~TimingScope() {
        for (Handle event : _events) {
            (void)_api.eventDestroy(event);
        }
        Handle popped = nullptr;
        (void)_api.contextPop(&popped);
        (void)_api.primaryContextRelease(_device);
    }
    TimingScope(const TimingScope&) = delete;
    TimingScope& operator=(const TimingScope&) = delete;

    Handle newEvent() {
        Handle event = nullptr;
        _api.check(_api.eventCreate(&event, 0), "cuEventCreate");
        _events.push_back(event);
        return event;
    }

private:
    const CudaDriverApi& _api;
    int _device = 0;
    Handle _context = nullptr;
    std::vector<Handle> _events;
};

}  // namespace

std::vector<double> hostTimesMs(int runs, const std::function<void()>& run) {
    std::vector<double> times;
    times.reserve(static_cast<size_t>(runs));
    for (int index = 0; index < runs; ++index) {
        const auto start = std::chrono::steady_clock::now();
        run();
        times.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return times;
}

std::vector<double> cudaStreamTimesMs(int ordinal, void* stream, int runs, const std::function<void()>& run) {
    const CudaDriverApi& api = CudaDriverApi::instance();
    TimingScope scope(api, ordinal);
    std::vector<std::pair<Handle, Handle>> marks;
    marks.reserve(static_cast<size_t>(runs));
    for (int index = 0; index < runs; ++index) {
        marks.emplace_back(scope.newEvent(), scope.newEvent());
    }
    for (const auto& [start, stop] : marks) {
        api.check(api.eventRecord(start, stream), "cuEventRecord");
        run();
        api.check(api.eventRecord(stop, stream), "cuEventRecord");
    }
    api.check(api.eventSynchronize(marks.back().second), "cuEventSynchronize");
    std::vector<double> times;
    times.reserve(marks.size());
    for (const auto& [start, stop] : marks) {
        float elapsed = 0;
        api.check(api.eventElapsedTime(&elapsed, start, stop), "cuEventElapsedTime");
        times.push_back(elapsed);
    }
    return times;
}

}  // namespace hipdnn_backend::platform
