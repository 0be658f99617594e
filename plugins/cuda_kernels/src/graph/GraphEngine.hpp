// CUDA_GRAPH_ENGINE: graphs the fused engines decline, run node by node on the handle's stream.
// Each segment of the graph (GraphProgram.hpp) is a matmul through cuBLASLt (no epilogue) or a
// convolution through cuDNN, then the pointwise nodes after it as one generated kernel; virtual
// tensors between segments live in the plan's workspace, followed by the scratch space the
// cuBLASLt and cuDNN calls share (they run one after another). A 1x1 convolution that is a plain
// matrix product (ConvolutionGemm.hpp) runs through cuBLASLt instead of cuDNN. Knobs, each offered
// only for graphs it applies to:
//   cuda_graph.convolution_gemm  int 0 | 1 (default 1): 1x1 convolutions as cuBLASLt products; 0: cuDNN
//   cublaslt.algorithm           int, one of 0..15 (default 0): the cuBLASLt heuristics' candidate
// The plan is a function of the graph and the engine config (global.workspace_size_limit bounds the
// cuBLASLt workspace), so a serialized plan holds both and deserializing plans again
// (GraphConfigSerializedEngine).
#pragma once

#include "../CudaKernelsHandle.hpp"

#include <hipdnn_plugin_sdk/GraphContextSerialization.hpp>

#include <string_view>

namespace hipdnn_cuda_kernels {

inline constexpr std::string_view kGraphConvolutionGemmKnob = "cuda_graph.convolution_gemm";

class GraphEngine final : public hipdnn_plugin_sdk::GraphConfigSerializedEngine<CudaKernelsHandle> {
public:
    GraphEngine();

    /// Plans every segment on the device (cuDNN's and cuBLASLt's algorithm choice, the kernels'
    /// source) without compiling, so that an accepted graph also builds.
    bool isApplicable(CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                      std::string& reason) const override;
    std::vector<hipdnn_flatbuffers_sdk::KnobDescription> knobs(
        CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
    std::size_t workspaceSize(CudaKernelsHandle& handle,
                              const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                              const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;

protected:
    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> contextForConfig(
        CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
};

}  // namespace hipdnn_cuda_kernels
