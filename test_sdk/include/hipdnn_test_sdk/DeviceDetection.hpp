// Run-time CUDA device detection without linking CUDA: the runtime or driver library is opened
// with dlopen, so test binaries built on a machine without CUDA still run (and skip) anywhere.
#pragma once

namespace hipdnn_test_sdk {

/// Number of CUDA devices usable by this process: libcudart's cudaGetDeviceCount, else the
/// driver's cuInit + cuDeviceGetCount; 0 when neither library loads or both report an error.
/// Computed once per process.
int cudaDeviceCount();

}  // namespace hipdnn_test_sdk
