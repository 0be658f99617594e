// Run-time CUDA device discovery without linking CUDA: the runtime (libcudart.so.13) or the
// driver (libcuda.so.1) is dlopen()ed when present. No library or no device means no GPU.
#pragma once

namespace hipdnn_backend::platform {

// Number of usable CUDA devices, probed once per process.
int cudaDeviceCount() noexcept;

}  // namespace hipdnn_backend::platform
