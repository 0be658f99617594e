// A loaded CUBIN (through the CUDA runtime's library API, so libcuda is not linked) and the launch
// of its kernels.
#pragma once

#include "DeviceInfo.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

/// Grid and block of a one-dimensional grid-stride launch.
struct LaunchShape {
    unsigned gridSize = 1;
    unsigned blockSize = 1;
    unsigned sharedBytes = 0;  // dynamic shared memory per block
    bool cooperative = false;  // every block resident at once, or the launch fails
};

/// Enough blocks to keep every multiprocessor full (`blocksPerMultiprocessor` resident blocks
/// each), never more than `workItems` needs; a grid-stride loop covers the rest.
LaunchShape gridStrideShape(const DeviceInfo& device, int64_t workItems, unsigned blockSize,
                            int blocksPerMultiprocessor);

class KernelModule {
public:
    /// The module of `key`, loaded from `cubin` on first use in the process (later calls return it).
    /// Throws PluginError(INTERNAL_ERROR) naming the CUDA error when the CUBIN does not load.
    static std::shared_ptr<const KernelModule> load(const std::string& key, const std::vector<uint8_t>& cubin,
                                                    const std::vector<std::string>& kernelNames);

    ~KernelModule();
    KernelModule(const KernelModule&) = delete;
    KernelModule& operator=(const KernelModule&) = delete;

    /// The kernel `name` (one of those given to load) as cudaLaunchKernel takes it.
    const void* kernel(const std::string& name) const;

    /// Resident blocks of `blockSize` threads with `sharedBytes` of dynamic shared memory each per
    /// multiprocessor for `kernel`. With dynamic shared memory, first lets `kernel` use
    /// `sharedBytes` on `device` (static and dynamic together may pass the 48 KiB a kernel may use
    /// by default). Without dynamic shared memory: the occupancy
    /// calculator's answer, else the device's thread limit divided by `blockSize` (at least 1).
    /// With it: the calculator's answer (0: none fit). Throws PluginError(INTERNAL_ERROR) naming the
    /// CUDA error when the device refuses the size or, with dynamic shared memory, the calculator
    /// fails (the thread limit ignores shared memory, so it is no estimate then).
    static int blocksPerMultiprocessor(const DeviceInfo& device, const void* kernel, unsigned blockSize,
                                       unsigned sharedBytes = 0);

private:
    KernelModule() = default;

    void* _library = nullptr;  // cudaLibrary_t
    std::map<std::string, const void*> _kernels;
};

/// Launches `kernel` on `stream` (a cudaStream_t), cooperatively where the shape asks; throws
/// PluginError(INTERNAL_ERROR) on failure.
void launchKernel(const void* kernel, const LaunchShape& shape, void** arguments, void* stream);

/// Queues setting `bytes` bytes at `pointer` (device memory) to zero on `stream`; throws
/// PluginError(INTERNAL_ERROR) on failure.
void zeroOnStream(void* pointer, size_t bytes, void* stream);

}  // namespace hipdnn_cuda_kernels
