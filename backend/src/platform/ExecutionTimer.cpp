#include "platform/ExecutionTimer.hpp"

#include <chrono>
#include <string>
#include <utility>

#include "platform/DeviceContext.hpp"

namespace hipdnn_backend::platform {

namespace {

// The device's context made current for the scope, and the events made in it.
class TimingScope {
public:
    TimingScope(const CudaDriverApi& api, int ordinal) : _api(api), _device(ordinal), _current(&_device) {}
    ~TimingScope() {
        for (DriverHandle event : _events) {
            (void)_api.eventDestroy(event);
        }
    }
    TimingScope(const TimingScope&) = delete;
    TimingScope& operator=(const TimingScope&) = delete;

    DriverHandle newEvent() {
        DriverHandle event = nullptr;
        _api.check(_api.eventCreate(&event, 0), "cuEventCreate");
        _events.push_back(event);
        return event;
    }

private:
    const CudaDriverApi& _api;
    DeviceContext _device;
    CurrentDevice _current;
    std::vector<DriverHandle> _events;
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
    std::vector<std::pair<DriverHandle, DriverHandle>> marks;
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
