#include "KernelModule.hpp"

#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <mutex>

namespace hipdnn_cuda_kernels {

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, message);
}

}  // namespace

LaunchShape gridStrideShape(const DeviceInfo& device, int64_t workItems, unsigned blockSize,
                            int blocksPerMultiprocessor) {
    const int64_t needed = std::max<int64_t>(1, (workItems + blockSize - 1) / blockSize);
    const int64_t resident =
        static_cast<int64_t>(std::max(1, device.multiprocessorCount)) * std::max(1, blocksPerMultiprocessor);
    return {static_cast<unsigned>(std::min(needed, resident)), blockSize};
}

std::shared_ptr<const KernelModule> KernelModule::load(const std::string& key,
                                                       const std::vector<uint8_t>& cubin,
                                                       const std::vector<std::string>& kernelNames) {
    // Loaded modules live as long as the process (or until the plugin unloads): plans of every
    // handle share them, and a module is a few kilobytes.
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const KernelModule>> loaded;
    const std::lock_guard lock(mutex);
    if (const auto found = loaded.find(key); found != loaded.end()) {
        return found->second;
    }
    std::shared_ptr<KernelModule> module(new KernelModule());
    cudaLibrary_t library = nullptr;
    if (const cudaError_t status =
            cudaLibraryLoadData(&library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
        status != cudaSuccess) {
        fail("cannot load the compiled kernel " + key + ": " +
             describeCudaError("cudaLibraryLoadData", status));
    }
    module->_library = library;
    for (const std::string& name : kernelNames) {
        cudaKernel_t kernel = nullptr;
        if (const cudaError_t status = cudaLibraryGetKernel(&kernel, library, name.c_str());
            status != cudaSuccess) {
            fail("compiled kernel " + key + " has no " + name + ": " +
                 describeCudaError("cudaLibraryGetKernel", status));
        }
        module->_kernels.emplace(name, reinterpret_cast<const void*>(kernel));
    }
    return loaded.emplace(key, std::move(module)).first->second;
}

KernelModule::~KernelModule() {
    if (_library != nullptr) {
        cudaLibraryUnload(static_cast<cudaLibrary_t>(_library));
    }
}

const void* KernelModule::kernel(const std::string& name) const {
    const auto found = _kernels.find(name);
    if (found == _kernels.end()) {
        fail("kernel module has no kernel " + name);
    }
    return found->second;
}

int KernelModule::blocksPerMultiprocessor(const DeviceInfo& device, const void* kernel, unsigned blockSize,
                                          unsigned sharedBytes) {
    // Static and dynamic shared memory together above 48 KiB need the attribute, so any dynamic
    // bytes set it: the limit is checked against the sum at launch.
    if (sharedBytes > 0) {
        if (const cudaError_t status = cudaKernelSetAttributeForDevice(
                reinterpret_cast<cudaKernel_t>(const_cast<void*>(kernel)),
                cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(sharedBytes), device.ordinal);
            status != cudaSuccess) {
            fail("cannot give a kernel " + std::to_string(sharedBytes) +
                 " bytes of shared memory: " + describeCudaError("cudaKernelSetAttributeForDevice", status));
        }
    }
    int blocks = 0;
    const cudaError_t status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, kernel, static_cast<int>(blockSize), sharedBytes);
    if (sharedBytes > 0) {
        if (status != cudaSuccess) {
            fail("no occupancy for a kernel of " + std::to_string(blockSize) + " threads and " +
                 std::to_string(sharedBytes) + " bytes of shared memory: " +
                 describeCudaError("cudaOccupancyMaxActiveBlocksPerMultiprocessor", status));
        }
        return blocks;
    }
    if (status != cudaSuccess || blocks <= 0) {
        cudaGetLastError();  // clear it: the thread limit is a sound estimate
        blocks = device.maxThreadsPerMultiprocessor / static_cast<int>(blockSize);
    }
    return std::max(1, blocks);
}

void launchKernel(const void* kernel, const LaunchShape& shape, void** arguments, void* stream) {
    const dim3 grid(shape.gridSize);
    const dim3 block(shape.blockSize);
    const auto cudaStream = static_cast<cudaStream_t>(stream);
    const cudaError_t status =
        shape.cooperative
            ? cudaLaunchCooperativeKernel(kernel, grid, block, arguments, shape.sharedBytes, cudaStream)
            : cudaLaunchKernel(kernel, grid, block, arguments, shape.sharedBytes, cudaStream);
    if (status != cudaSuccess) {
        fail("kernel launch (grid " + std::to_string(shape.gridSize) + ", block " +
             std::to_string(shape.blockSize) + ", " + std::to_string(shape.sharedBytes) +
             " bytes of shared memory) " +
             describeCudaError(shape.cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel",
                               status));
    }
}

void zeroOnStream(void* pointer, size_t bytes, void* stream) {
    if (const cudaError_t status = cudaMemsetAsync(pointer, 0, bytes, static_cast<cudaStream_t>(stream));
        status != cudaSuccess) {
        fail("cannot zero " + std::to_string(bytes) +
             " bytes of the workspace: " + describeCudaError("cudaMemsetAsync", status));
    }
}

}  // namespace hipdnn_cuda_kernels
