// CUDA_NORM_ENGINE: layer norm and RMS norm forward, batch norm inference, training and backward,
// max and average pooling forward, the forward norms and the pooling with the pointwise nodes
// after them fused in, as kernels generated and compiled with NVRTC at plan build. Knob, offered
// for channels-last batch norm training on devices with cooperative launches:
//   cuda_norm.bn_training_kernel  int 0-3 (default 0): TrainingKernel's values in order
// The plan is a function of the graph and the knob, so a serialized plan holds both
// (GraphConfigSerializedEngine).
#pragma once

#include "../CudaKernelsHandle.hpp"
#include "NormCodegen.hpp"

#include <hipdnn_plugin_sdk/GraphContextSerialization.hpp>

#include <string_view>

namespace hipdnn_cuda_kernels {

inline constexpr std::string_view kTrainingKernelKnob = "cuda_norm.bn_training_kernel";

/// The program and kernel source of a graph for a device, or the reason the engine declines it.
struct NormPlan {
    NormProgram program;
    NormSource source;
    NormOptions options;
};
std::optional<NormPlan> planNorm(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, const DeviceInfo& device,
                                 std::string& reason, const NormOptions& options = {});

/// The options an engine configuration asks for (its knobs; the others at their defaults).
NormOptions normOptionsFrom(const hipdnn_flatbuffers_sdk::IEngineConfig& config);

class NormEngine final : public hipdnn_plugin_sdk::GraphConfigSerializedEngine<CudaKernelsHandle> {
public:
    NormEngine();

    bool isApplicable(CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                      std::string& reason) const override;
    std::vector<hipdnn_flatbuffers_sdk::KnobDescription> knobs(
        CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
    std::optional<double> estimatedSeconds(CudaKernelsHandle& handle,
                                           const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
    std::size_t workspaceSize(CudaKernelsHandle& handle,
                              const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                              const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;

protected:
    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> contextForConfig(
        CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
};

}  // namespace hipdnn_cuda_kernels
