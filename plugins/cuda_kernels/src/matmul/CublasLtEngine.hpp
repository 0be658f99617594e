// CUBLASLT_ENGINE: one matmul, with a bias add and relu or the tanh gelu after it, as one
// cublasLtMatmul call (the epilogue fused by cuBLASLt). The descriptors and the algorithm are chosen
// at plan build; execute enqueues on the handle's stream. Knobs:
//   cublaslt.algorithm   int (default 0): index into cublasLtMatmulAlgoGetHeuristic's candidates
//   cublaslt.allow_tf32  int 0 | 1 (default 0): fp32 graphs compute in TF32 (CUBLAS_COMPUTE_32F_FAST_TF32)
// The plan is a function of the graph and these knobs (with global.workspace_size_limit), so a
// serialized plan holds both and deserializing builds it again (GraphConfigSerializedEngine).
#pragma once

#include "../CudaKernelsHandle.hpp"
#include "MatmulProgram.hpp"

#include <hipdnn_plugin_sdk/GraphContextSerialization.hpp>

#include <cstddef>
#include <string_view>

namespace hipdnn_cuda_kernels {

inline constexpr std::string_view kCublasLtAlgorithmKnob = "cublaslt.algorithm";
inline constexpr std::string_view kCublasLtAllowTf32Knob = "cublaslt.allow_tf32";
/// Candidates asked of cuBLASLt's heuristics (the algorithm knob's range).
inline constexpr int kCublasLtCandidates = 16;
/// Workspace cuBLASLt's algorithms may use, unless global.workspace_size_limit is lower.
inline constexpr std::size_t kCublasLtWorkspaceBytes = std::size_t{32} << 20;

/// What an engine configuration asks of the engine.
struct CublasLtSettings {
    int algorithm = 0;
    bool allowTf32 = false;
    std::size_t workspaceBytes = kCublasLtWorkspaceBytes;
};
CublasLtSettings cublasLtSettingsFrom(const hipdnn_flatbuffers_sdk::IEngineConfig& config);

/// The program of `graph` on `device`, or nullopt with `reason`: the graph analysis, then what the
/// device lacks (BFLOAT16 needs sm_80).
std::optional<MatmulProgram> planMatmul(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                        const DeviceInfo& device, std::string& reason);

class CublasLtEngine final : public hipdnn_plugin_sdk::GraphConfigSerializedEngine<CudaKernelsHandle> {
public:
    CublasLtEngine();

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
