#include "PlanBenchmark.hpp"

#include "CudnnExecutionContext.hpp"
#include "EnumMapping.hpp"

#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace hipdnn_cudnn_plugin {

namespace {

constexpr int kTimedBatches = 3;
constexpr int kExecutesPerBatch = 5;

void checkCuda(cudaError_t error, const std::string& call) {
    if (error != cudaSuccess) {
        cudaGetLastError();
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                             "global.benchmarking: " + call +
                                                 " failed: " + cudaGetErrorName(error) + " (" +
                                                 cudaGetErrorString(error) + ")");
    }
}

/// Device memory owned for the duration of the timing.
class ScratchBuffer {
public:
    explicit ScratchBuffer(size_t bytes) {
        if (bytes > 0) {
            checkCuda(cudaMalloc(&_data, bytes), "cudaMalloc(" + std::to_string(bytes) + " bytes)");
            // A small nonzero pattern: every float, half and bfloat16 it makes is finite.
            checkCuda(cudaMemset(_data, 0x3c, bytes), "cudaMemset");
        }
    }
    ~ScratchBuffer() {
        if (_data != nullptr) {
            cudaFree(_data);
        }
    }
    ScratchBuffer(const ScratchBuffer&) = delete;
    ScratchBuffer& operator=(const ScratchBuffer&) = delete;
    void* data() const { return _data; }

private:
    void* _data = nullptr;
};

class Event {
public:
    Event() { checkCuda(cudaEventCreate(&_event), "cudaEventCreate"); }
    ~Event() { cudaEventDestroy(_event); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return _event; }

private:
    cudaEvent_t _event = nullptr;
};

}  // namespace

std::vector<double> timePlans(cudnnHandle_t cudnn, const CudnnGraphSpec& spec,
                              const std::vector<std::shared_ptr<CudnnPlan>>& plans) {
    const PlanBindings bindings = PlanBindings::fromSpec(spec);
    VariantPackArrays arrays(bindings);
    std::vector<std::unique_ptr<ScratchBuffer>> tensors;
    for (size_t i = 0; i < bindings.deviceTensors.size(); ++i) {
        const TensorSpec& tensor = spec.tensors.at(bindings.deviceTensors[i].uid);
        tensors.push_back(
            std::make_unique<ScratchBuffer>(cudnnStorageBytes(tensor.dataType, tensor.storageElements())));
        if (tensor.timingValue) {
            const std::vector<int32_t> values(tensor.storageElements(), *tensor.timingValue);
            checkCuda(cudaMemcpy(tensors.back()->data(), values.data(), values.size() * sizeof(int32_t),
                                 cudaMemcpyHostToDevice),
                      "cudaMemcpy");
        }
        arrays.setDevice(i, tensors.back()->data());
    }
    int64_t workspaceBytes = 0;
    for (const auto& plan : plans) {
        workspaceBytes = std::max(workspaceBytes, plan->workspaceSize());
    }
    const ScratchBuffer workspace(static_cast<size_t>(bindings.internalWorkspaceBytes + workspaceBytes));
    arrays.setWorkspace(workspace.data());
    const CudnnDescriptor pack = arrays.makePack();

    cudaStream_t stream = nullptr;
    checkCudnn(cudnnGetStream(cudnn, &stream), "cudnnGetStream");
    const Event start;
    const Event stop;
    std::vector<double> milliseconds;
    for (const auto& plan : plans) {
        if (cudnnBackendExecute(cudnn, plan->get(), pack.get()) != CUDNN_STATUS_SUCCESS) {
            milliseconds.push_back(std::numeric_limits<double>::infinity());
            continue;
        }
        // Batches, not single executes: a short kernel's time would be mostly launch latency.
        std::vector<float> batches;
        for (int batch = 0; batch < kTimedBatches; ++batch) {
            checkCuda(cudaEventRecord(start.get(), stream), "cudaEventRecord");
            cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
            for (int run = 0; run < kExecutesPerBatch && status == CUDNN_STATUS_SUCCESS; ++run) {
                status = cudnnBackendExecute(cudnn, plan->get(), pack.get());
            }
            checkCuda(cudaEventRecord(stop.get(), stream), "cudaEventRecord");
            checkCuda(cudaEventSynchronize(stop.get()), "cudaEventSynchronize");
            float elapsed = 0;
            checkCuda(cudaEventElapsedTime(&elapsed, start.get(), stop.get()), "cudaEventElapsedTime");
            batches.push_back(status == CUDNN_STATUS_SUCCESS ? elapsed / kExecutesPerBatch
                                                             : std::numeric_limits<float>::infinity());
        }
        std::nth_element(batches.begin(), batches.begin() + kTimedBatches / 2, batches.end());
        milliseconds.push_back(batches[kTimedBatches / 2]);
    }
    return milliseconds;
}

}  // namespace hipdnn_cudnn_plugin
