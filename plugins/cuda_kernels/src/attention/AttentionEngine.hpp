// CUDA_SDPA_ENGINE: scaled dot-product attention forward and backward (one node) in fp32 compute
// for fp32, fp16 and bf16 tensors, as kernels generated and compiled with NVRTC at plan build.
#pragma once

#include "../CudaKernelsHandle.hpp"
#include "AttentionCodegen.hpp"

#include <hipdnn_plugin_sdk/GraphContextSerialization.hpp>

namespace hipdnn_cuda_kernels {

/// The program and kernel source of a graph for a device, or the reason the engine declines it.
struct AttentionPlan {
    AttentionProgram program;
    AttentionSource source;
};
std::optional<AttentionPlan> planAttention(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                           const DeviceInfo& device, std::string& reason);

class AttentionEngine final : public hipdnn_plugin_sdk::GraphSerializedEngine<CudaKernelsHandle> {
public:
    AttentionEngine();

    bool isApplicable(CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                      std::string& reason) const override;
    std::size_t workspaceSize(CudaKernelsHandle& handle,
                              const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                              const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;

protected:
    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> contextFor(
        CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
};

}  // namespace hipdnn_cuda_kernels
