// Times repeated calls: on a CUDA stream by events recorded through the driver API (libcuda.so.1,
// dlopen()ed as DeviceDetection does: the backend links no CUDA), or on the host's steady clock.
#pragma once

#include <functional>
#include <vector>

#include "platform/CudaDriver.hpp"

namespace hipdnn_backend::platform {

// The host time of each of `runs` calls of `run`, in milliseconds.
[[nodiscard]] std::vector<double> hostTimesMs(int runs, const std::function<void()>& run);

// The device time of each of `runs` calls of `run` on `stream` (a cudaStream_t; null: the legacy
// default stream) of the device with this ordinal, in milliseconds: an event pair recorded around
// each call, all waited for after the last, so the calls run back to back. Throws
// CudaDriverError naming the driver call that failed and its error name.
[[nodiscard]] std::vector<double> cudaStreamTimesMs(int ordinal, void* stream, int runs,
                                                    const std::function<void()>& run);

}  // namespace hipdnn_backend::platform
