// What identifies the device a measurement was taken on, as the backend can know it without
// linking any device library. A record measured under another fingerprint is not trusted.
#pragma once

#include <string>
#include <string_view>

#include "hipdnn_backend.h"
#include "platform/DeviceDetection.hpp"

namespace hipdnn_backend::tuning {

// "cpu <model name>; isa <the vector extensions the engines key on>; threads <usable CPUs>", from
// /proc/cpuinfo (`cpuinfo` is its text) and the count of CPUs the process may run on.
[[nodiscard]] std::string cpuFingerprintFrom(std::string_view cpuinfo, unsigned usableCpus);

// "gpu <name>; sm <major>.<minor>; driver <CUDA version the driver supports>", e.g.
// "gpu NVIDIA H200; sm 9.0; driver 13.0" for driver version 13000.
[[nodiscard]] std::string gpuFingerprintFrom(const platform::CudaDeviceIdentity& identity);

// The fingerprint of a handle's device: cpuFingerprintFrom for the CPU (computed once per process);
// gpuFingerprintFrom for a GPU, or "gpu <ordinal>" when the driver cannot describe it. The versions of
// the libraries an engine runs on (cuDNN, cuBLASLt) are the plugin's to report, and a record keeps
// them apart (TuningRecord::libraries).
[[nodiscard]] std::string deviceFingerprint(hipdnnDeviceType_ext_t device, int ordinal);

}  // namespace hipdnn_backend::tuning
