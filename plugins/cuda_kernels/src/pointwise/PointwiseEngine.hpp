// CUDA_POINTWISE_ENGINE: any graph of pointwise nodes as one kernel, generated and compiled with
// NVRTC when the plan is built (cached in memory and on disk).
#pragma once

#include "../CudaKernelsHandle.hpp"
#include "PointwiseCodegen.hpp"

#include <hipdnn_plugin_sdk/GraphContextSerialization.hpp>

namespace hipdnn_cuda_kernels {

/// The program and kernel source of a graph for a device, or the reason the engine declines it.
struct PointwisePlan {
    PointwiseProgram program;
    PointwiseSource source;
};
std::optional<PointwisePlan> planPointwise(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                           int computeCapability, std::string& reason);

/// The execution context that runs `plan`'s kernel (compiled or taken from the cache, logged as
/// `engineName`'s) on the handle's stream; it needs no workspace.
std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> makePointwiseExecutionContext(
    const CudaKernelsHandle& handle, const PointwisePlan& plan, const char* engineName);

class PointwiseEngine final : public hipdnn_plugin_sdk::GraphSerializedEngine<CudaKernelsHandle> {
public:
    PointwiseEngine();

    bool isApplicable(CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                      std::string& reason) const override;
    std::optional<double> estimatedSeconds(CudaKernelsHandle& handle,
                                           const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
    std::size_t workspaceSize(CudaKernelsHandle& handle,
                              const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                              const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;

protected:
    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> contextFor(
        CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
};

}  // namespace hipdnn_cuda_kernels
