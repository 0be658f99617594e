#include "CublasLtEngine.hpp"

#include "../EngineEstimates.hpp"

#include "CublasLt.hpp"
#include "CublasLtMatmul.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_plugin_sdk/KnobValidation.hpp>

#include <algorithm>

namespace hipdnn_cuda_kernels {

CublasLtSettings cublasLtSettingsFrom(const hipdnn_flatbuffers_sdk::IEngineConfig& config) {
    CublasLtSettings settings;
    settings.algorithm = static_cast<int>(config.intKnob(kCublasLtAlgorithmKnob).value_or(0));
    settings.allowTf32 = config.intKnob(kCublasLtAllowTf32Knob).value_or(0) == 1;
    const int64_t limit = config.intKnob(hipdnn_plugin_sdk::kGlobalWorkspaceSizeLimitKnob).value_or(-1);
    if (limit >= 0) {
        settings.workspaceBytes = std::min(settings.workspaceBytes, static_cast<std::size_t>(limit));
    }
    return settings;
}

std::optional<MatmulProgram> planMatmul(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                        const DeviceInfo& device, std::string& reason) {
    auto program = analyzeMatmulGraph(graph, reason);
    if (program && program->a.type == ElementType::BFloat16 && device.computeCapability < 80) {
        reason = "cuBLASLt runs BFLOAT16 matmuls on sm_80 and later; the device is sm_" +
                 std::to_string(device.computeCapability);
        return std::nullopt;
    }
    return program;
}

CublasLtEngine::CublasLtEngine()
    : GraphConfigSerializedEngine(hipdnn_data_sdk::utilities::CUBLASLT_ENGINE_ID) {}

std::optional<double> CublasLtEngine::estimatedSeconds(
    CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    return estimateEngineSeconds(id(), graph, handle.device().ceilings);
}

bool CublasLtEngine::isApplicable(CudaKernelsHandle& handle,
                                  const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                  std::string& reason) const {
    return planMatmul(graph, handle.device(), reason) && CublasLt::instance(reason) != nullptr;
}

std::vector<hipdnn_flatbuffers_sdk::KnobDescription> CublasLtEngine::knobs(
    CudaKernelsHandle& /*handle*/, const hipdnn_flatbuffers_sdk::GraphWrapper& /*graph*/) const {
    using hipdnn_flatbuffers_sdk::IntKnobConstraint;
    using hipdnn_flatbuffers_sdk::KnobDescription;
    return {
        KnobDescription::intKnob(
            std::string(kCublasLtAlgorithmKnob),
            "index into cuBLASLt's heuristic candidates, best first (plan build fails when "
            "the heuristics return fewer)",
            0, IntKnobConstraint::range(0, kCublasLtCandidates - 1)),
        KnobDescription::intKnob(std::string(kCublasLtAllowTf32Knob),
                                 "1: fp32 matmuls may compute in TF32 on tensor cores; 0: strict fp32", 0,
                                 IntKnobConstraint::range(0, 1)),
    };
}

std::size_t CublasLtEngine::workspaceSize(CudaKernelsHandle& /*handle*/,
                                          const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                                          const hipdnn_flatbuffers_sdk::GraphWrapper& /*graph*/) const {
    return cublasLtSettingsFrom(config).workspaceBytes;
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> CublasLtEngine::contextForConfig(
    CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
    const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    std::string reason;
    const auto program = planMatmul(graph, handle.device(), reason);
    if (!program) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                             "CUBLASLT_ENGINE cannot run this graph: " + reason);
    }
    return makeCublasLtMatmul(*program, cublasLtSettingsFrom(config));
}

}  // namespace hipdnn_cuda_kernels
