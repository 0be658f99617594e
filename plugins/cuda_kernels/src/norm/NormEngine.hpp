// CUDA_NORM_ENGINE: layer norm and RMS norm forward, batch norm inference, training and backward,
// max and average pooling forward, the forward norms and the pooling with the pointwise nodes
// after them fused in, as kernels generated and compiled with NVRTC at plan build.
#pragma once

#include "../CudaKernelsHandle.hpp"
#include "NormCodegen.hpp"

#include <hipdnn_plugin_sdk/GraphContextSerialization.hpp>

namespace hipdnn_cuda_kernels {

/// The program and kernel source of a graph for a device, or the reason the engine declines it.
struct NormPlan {
    NormProgram program;
    NormSource source;
};
std::optional<NormPlan> planNorm(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, const DeviceInfo& device,
                                 std::string& reason);

class NormEngine final : public hipdnn_plugin_sdk::GraphSerializedEngine<CudaKernelsHandle> {
public:
    NormEngine();

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
