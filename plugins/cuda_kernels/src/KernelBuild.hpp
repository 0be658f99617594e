// What every engine of the plugin does with generated source: check that NVRTC can compile for the
// device, then compile (or take from the kernel cache) and load it, logging where it came from.
#pragma once

#include "DeviceInfo.hpp"
#include "KernelModule.hpp"
#include "Nvrtc.hpp"

#include <memory>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

/// The process's NVRTC when it compiles for `device`; null with `reason` naming what is missing.
const Nvrtc* nvrtcFor(const DeviceInfo& device, std::string& reason);

/// The module of `source` with `kernelNames` for `device`. Throws PluginError: NOT_APPLICABLE when
/// NVRTC is unusable, INTERNAL_ERROR when the source fails to compile or load; `engine` names the
/// engine in messages and in the log line that says where the kernel came from and how long it took.
std::shared_ptr<const KernelModule> buildKernelModule(const char* engine, const DeviceInfo& device,
                                                      const std::string& source,
                                                      const std::vector<std::string>& kernelNames);

}  // namespace hipdnn_cuda_kernels
