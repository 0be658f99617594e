// What identifies the device a measurement was taken on, as the backend can know it without
// linking any device library. A record measured under another fingerprint is not trusted.
#pragma once

#include <string>
#include <string_view>

#include "hipdnn_backend.h"

namespace hipdnn_backend::tuning {

// "cpu <model name>; isa <the vector extensions the engines key on>; threads <usable CPUs>", from
// /proc/cpuinfo (`cpuinfo` is its text) and the count of CPUs the process may run on.
[[nodiscard]] std::string cpuFingerprintFrom(std::string_view cpuinfo, unsigned usableCpus);

// The fingerprint of a handle's device: cpuFingerprintFrom for the CPU (computed once per process);
// "gpu <ordinal>" for a GPU (the name, SM version and library versions need CUDA, which the
// backend does not link; a GPU plugin's version in the record separates its builds).
[[nodiscard]] std::string deviceFingerprint(hipdnnDeviceType_ext_t device, int ordinal);

}  // namespace hipdnn_backend::tuning
