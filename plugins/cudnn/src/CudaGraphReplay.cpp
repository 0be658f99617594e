#include "CudaGraphReplay.hpp"

#include "CudnnDescriptor.hpp"

#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <cuda_runtime_api.h>

namespace hipdnn_cudnn_plugin {

namespace {

std::string cudaFailure(const char* call, cudaError_t error) {
    return std::string(call) + " failed: " + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")";
}

}  // namespace

CudaGraphReplay::~CudaGraphReplay() {
    reset();
}

void CudaGraphReplay::reset() noexcept {
    if (_executable != nullptr) {
        cudaGraphExecDestroy(_executable);
        _executable = nullptr;
    }
}

bool CudaGraphReplay::capture(cudnnHandle_t cudnn, cudnnBackendDescriptor_t plan,
                              cudnnBackendDescriptor_t variantPack, std::string& failure) {
    reset();
    cudaStream_t original = nullptr;
    checkCudnn(cudnnGetStream(cudnn, &original), "cudnnGetStream");
    // The handle's stream may be the legacy default stream, which cannot be captured.
    cudaStream_t captureStream = nullptr;
    if (const cudaError_t error = cudaStreamCreateWithFlags(&captureStream, cudaStreamNonBlocking);
        error != cudaSuccess) {
        failure = cudaFailure("cudaStreamCreateWithFlags", error);
        return false;
    }
    if (const cudnnStatus_t status = cudnnSetStream(cudnn, captureStream); status != CUDNN_STATUS_SUCCESS) {
        cudaStreamDestroy(captureStream);
        failure = "cudnnSetStream failed: " + describeCudnnStatus(status);
        return false;
    }
    cudaGraph_t graph = nullptr;
    if (const cudaError_t error = cudaStreamBeginCapture(captureStream, cudaStreamCaptureModeThreadLocal);
        error != cudaSuccess) {
        failure = cudaFailure("cudaStreamBeginCapture", error);
    } else {
        const cudnnStatus_t status = cudnnBackendExecute(cudnn, plan, variantPack);
        const cudaError_t ended = cudaStreamEndCapture(captureStream, &graph);
        if (status != CUDNN_STATUS_SUCCESS) {
            failure = "cudnnBackendExecute under stream capture failed: " + describeCudnnStatus(status);
        } else if (ended != cudaSuccess) {
            failure = cudaFailure("cudaStreamEndCapture", ended);
        } else if (const cudaError_t error = cudaGraphInstantiate(&_executable, graph, 0);
                   error != cudaSuccess) {
            failure = cudaFailure("cudaGraphInstantiate", error);
            _executable = nullptr;
        }
    }
    cudnnSetStream(cudnn, original);
    if (graph != nullptr) {
        cudaGraphDestroy(graph);
    }
    cudaStreamDestroy(captureStream);
    if (!failure.empty()) {
        // A failed capture leaves its error as the thread's last CUDA error: clear it so that no
        // unrelated later call reports it.
        cudaGetLastError();
        return false;
    }
    return true;
}

void CudaGraphReplay::launch(cudaStream_t stream) const {
    if (const cudaError_t error = cudaGraphLaunch(_executable, stream); error != cudaSuccess) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                             cudaFailure("cudaGraphLaunch", error));
    }
}

}  // namespace hipdnn_cudnn_plugin
