// Built with the CUDA runtime when the project found CUDA; otherwise a stub that says so.
#include "Execute.hpp"

#include <stdexcept>

#ifdef HIPDNN_DIFFERENTIAL_HAVE_CUDA
#include <cuda_runtime_api.h>
#include <hipdnn_test_sdk/DeviceTensor.hpp>
#endif

namespace hipdnn_differential {

#ifdef HIPDNN_DIFFERENTIAL_HAVE_CUDA

bool gpuExecutionBuilt() {
    return true;
}

std::optional<std::string> stickyGpuError() {
    if (cudaDeviceSynchronize() == cudaSuccess) {
        return std::nullopt;
    }
    (void)cudaGetLastError();
    const cudaError_t again = cudaDeviceSynchronize();
    if (again == cudaSuccess) {
        return std::nullopt;
    }
    return std::string(cudaGetErrorName(again)) + " (" + cudaGetErrorString(again) + ")";
}

HostTensors executeOnGpu(const hipdnn_test_sdk::BackendPlan& plan, const std::vector<TensorSpec>& inputs,
                         const std::vector<TensorSpec>& outputs, const HostTensors& values) {
    std::map<int64_t, hipdnn_test_sdk::DeviceBuffer> buffers;
    std::map<int64_t, void*> pointers;
    for (const TensorSpec& tensor : inputs) {
        auto& buffer = buffers.emplace(tensor.uid, hipdnn_test_sdk::DeviceBuffer(tensor.bytes)).first->second;
        buffer.copyFromHost(values.at(tensor.uid).data());
        pointers[tensor.uid] = buffer.data();
    }
    for (const TensorSpec& tensor : outputs) {
        auto& buffer = buffers.emplace(tensor.uid, hipdnn_test_sdk::DeviceBuffer(tensor.bytes)).first->second;
        buffer.fillBytes(0xFF);  // NaN in every floating-point type
        pointers[tensor.uid] = buffer.data();
    }
    const hipdnn_test_sdk::DeviceBuffer workspace(static_cast<size_t>(plan.workspaceSize()));
    plan.execute(hipdnn_test_sdk::BackendVariantPack(pointers, workspace.data()));
    // Execution is asynchronous on the handle's (legacy default) stream; the blocking copies
    // below wait for it.
    HostTensors results;
    for (const TensorSpec& tensor : outputs) {
        std::vector<std::byte>& host = results[tensor.uid];
        host.resize(tensor.bytes);
        buffers.at(tensor.uid).copyToHost(host.data());
    }
    return results;
}

#else

bool gpuExecutionBuilt() {
    return false;
}

std::optional<std::string> stickyGpuError() {
    return std::nullopt;
}

HostTensors executeOnGpu(const hipdnn_test_sdk::BackendPlan&, const std::vector<TensorSpec>&,
                         const std::vector<TensorSpec>&, const HostTensors&) {
    throw std::logic_error("this build has no CUDA runtime");
}

#endif

}  // namespace hipdnn_differential
