#include "GraphEngine.hpp"

#include "../KernelBuild.hpp"
#include "../matmul/CublasLt.hpp"
#include "../matmul/CublasLtEngine.hpp"
#include "../matmul/CublasLtMatmul.hpp"
#include "../pointwise/PointwiseEngine.hpp"
#include "ConvolutionGemm.hpp"
#include "Cudnn.hpp"
#include "CudnnConvolution.hpp"
#include "GraphProgram.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <algorithm>
#include <numeric>
#include <set>

namespace hipdnn_cuda_kernels {

namespace {

constexpr const char* kEngineName = "CUDA_GRAPH_ENGINE";

// What an engine configuration asks of the engine.
struct GraphSettings {
    CublasLtSettings cublasLt;
    bool convolutionGemm = true;
};

GraphSettings graphSettingsFrom(const hipdnn_flatbuffers_sdk::IEngineConfig& config) {
    return {cublasLtSettingsFrom(config), config.intKnob(kGraphConvolutionGemmKnob).value_or(1) == 1};
}

// The cuBLASLt product a convolution runs as on `device`, if it is one cuBLASLt runs there.
std::optional<MatmulProgram> convolutionGemmOn(const DeviceInfo& device,
                                               const ConvolutionProgram& convolution) {
    std::string reason;
    auto program = convolutionAsMatmul(convolution, reason);
    if (program && program->a.type == ElementType::BFloat16 && device.computeCapability < 80) {
        return std::nullopt;
    }
    return program;
}

// The segments planned on the device: each anchor's execution context and each kernel's source.
struct DevicePlan {
    GraphProgram program;
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext>> anchors;  // per segment, may be null
    std::vector<std::optional<PointwisePlan>> kernels;                           // per segment
};

size_t alignUp(size_t bytes) {
    return (bytes + kWorkspaceAlignment - 1) / kWorkspaceAlignment * kWorkspaceAlignment;
}

// The operands' type of a convolution: its output's storage type when the declared one has no
// cuDNN engine.
ElementType operandTypeOf(const ConvolutionProgram& program) {
    return program.direction == ConvolutionDirection::Forward ? program.x.type : program.y.type;
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> planMatmulSegment(CudaKernelsHandle& handle,
                                                                        const MatmulProgram& program,
                                                                        const CublasLtSettings& settings,
                                                                        std::string& reason) {
    if (program.a.type == ElementType::BFloat16 && handle.device().computeCapability < 80) {
        reason = "cuBLASLt runs BFLOAT16 matmuls on sm_80 and later; the device is sm_" +
                 std::to_string(handle.device().computeCapability);
        return nullptr;
    }
    try {
        return makeCublasLtMatmul(program, settings);
    } catch (const hipdnn_plugin_sdk::PluginError& error) {
        reason = error.what();
        return nullptr;
    }
}

// Plans the convolution of segment `s`: as a cuBLASLt product where it is one and the settings ask,
// else through cuDNN; where cuDNN has no engine for a virtual output of another type than the
// operands', stores that output in the operands' type instead (analysing the graph again with that
// storage type).
bool planConvolutionSegment(CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                            size_t s, const GraphSettings& settings, MemoryVirtuals& overrides,
                            DevicePlan& plan, std::string& reason) {
    const ConvolutionProgram& convolution = *plan.program.segments[s].convolution;
    const std::string node = graph.node(plan.program.segments[s].anchor).describe();
    if (settings.convolutionGemm) {
        if (const auto gemm = convolutionGemmOn(handle.device(), convolution)) {
            plan.anchors[s] = planMatmulSegment(handle, *gemm, settings.cublasLt, reason);
            if (plan.anchors[s] == nullptr) {
                reason = node + " as a matrix product: " + reason;
                return false;
            }
            return true;
        }
    }
    plan.anchors[s] = makeCudnnConvolution(handle, convolution, reason);
    if (plan.anchors[s] != nullptr) {
        return true;
    }
    const ConvolutionTensor& output = convolution.output();
    const ElementType operands = operandTypeOf(convolution);
    if (!graph.tensor(output.uid).virtual_() || output.type == operands) {
        reason = node + ": " + reason;
        return false;
    }
    overrides[output.uid] = operands;
    auto program = analyzeGraphProgram(graph, overrides, reason);
    if (!program) {
        return false;
    }
    plan.program = std::move(*program);
    plan.anchors[s] = makeCudnnConvolution(handle, *plan.program.segments[s].convolution, reason);
    if (plan.anchors[s] == nullptr) {
        reason = node + ": " + reason;
        return false;
    }
    return true;
}

std::optional<DevicePlan> planGraph(CudaKernelsHandle& handle,
                                    const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                    const GraphSettings& settings, std::string& reason) {
    MemoryVirtuals overrides;
    auto program = analyzeGraphProgram(graph, overrides, reason);
    if (!program) {
        return std::nullopt;
    }
    DevicePlan plan{std::move(*program), {}, {}};
    const size_t count = plan.program.segments.size();
    plan.anchors.resize(count);
    plan.kernels.resize(count);
    for (size_t s = 0; s < count; ++s) {
        const GraphSegment& segment = plan.program.segments[s];
        if (segment.anchorKind == AnchorKind::Matmul) {
            plan.anchors[s] = planMatmulSegment(handle, *segment.matmul, settings.cublasLt, reason);
            if (plan.anchors[s] == nullptr) {
                reason = graph.node(segment.anchor).describe() + ": " + reason;
                return std::nullopt;
            }
        } else if (segment.anchorKind == AnchorKind::Convolution &&
                   !planConvolutionSegment(handle, graph, s, settings, overrides, plan, reason)) {
            return std::nullopt;
        }
    }
    for (size_t s = 0; s < count; ++s) {
        const GraphSegment& segment = plan.program.segments[s];
        if (!segment.kernel) {
            continue;
        }
        if (nvrtcFor(handle.device(), reason) == nullptr) {
            return std::nullopt;
        }
        auto source = generatePointwiseSource(*segment.kernel, handle.device().computeCapability, reason);
        if (!source) {
            return std::nullopt;
        }
        plan.kernels[s] = PointwisePlan{*segment.kernel, std::move(*source)};
    }
    return plan;
}

// Where each workspace tensor and the shared scratch space start.
struct WorkspaceLayout {
    std::vector<size_t> tensorOffsets;
    size_t scratchOffset = 0;
    size_t scratchBytes = 0;
    size_t totalBytes = 0;
};

WorkspaceLayout layOut(const DevicePlan& plan) {
    WorkspaceLayout layout;
    size_t offset = 0;
    for (const WorkspaceTensor& tensor : plan.program.workspaceTensors) {
        offset = alignUp(offset);
        layout.tensorOffsets.push_back(offset);
        offset += static_cast<size_t>(tensor.span) * elementSize(tensor.type);
    }
    for (const auto& anchor : plan.anchors) {
        if (anchor != nullptr) {
            layout.scratchBytes = std::max(layout.scratchBytes, anchor->workspaceSize());
        }
    }
    layout.scratchOffset = alignUp(offset);
    layout.totalBytes = layout.scratchBytes > 0 ? layout.scratchOffset + layout.scratchBytes : offset;
    return layout;
}

// Runs the steps in order on the handle's stream, each seeing the caller's buffers and the
// workspace tensors as one variant pack.
class GraphExecutionContext final : public hipdnn_plugin_sdk::IExecutionContext {
public:
    GraphExecutionContext(const CudaKernelsHandle& handle, DevicePlan plan) : _layout(layOut(plan)) {
        for (const WorkspaceTensor& tensor : plan.program.workspaceTensors) {
            _workspaceUids.push_back(tensor.uid);
        }
        for (size_t s = 0; s < plan.anchors.size(); ++s) {
            if (plan.anchors[s] != nullptr) {
                _steps.push_back(std::move(plan.anchors[s]));
            }
            if (plan.kernels[s]) {
                _steps.push_back(makePointwiseExecutionContext(handle, *plan.kernels[s], kEngineName));
            }
        }
    }

    std::size_t workspaceSize() const override { return _layout.totalBytes; }

    void execute(hipdnn_plugin_sdk::PluginHandleBase& handle, void* workspace,
                 const hipdnn_plugin_sdk::DeviceBuffers& buffers) override {
        auto* base = static_cast<char*>(workspace);
        std::vector<hipdnnPluginDeviceBuffer_t> pack;
        for (const hipdnnPluginDeviceBuffer_t& buffer : buffers) {
            if (std::find(_workspaceUids.begin(), _workspaceUids.end(), buffer.uid) == _workspaceUids.end()) {
                pack.push_back(buffer);
            }
        }
        for (size_t i = 0; i < _workspaceUids.size(); ++i) {
            pack.push_back({_workspaceUids[i], base + _layout.tensorOffsets[i]});
        }
        const hipdnn_plugin_sdk::DeviceBuffers view(pack.data(), static_cast<uint32_t>(pack.size()));
        void* scratch = _layout.scratchBytes > 0 ? base + _layout.scratchOffset : nullptr;
        for (const auto& step : _steps) {
            step->execute(handle, step->workspaceSize() > 0 ? scratch : nullptr, view);
        }
    }

private:
    WorkspaceLayout _layout;
    std::vector<int64_t> _workspaceUids;
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext>> _steps;
};

}  // namespace

GraphEngine::GraphEngine() : GraphConfigSerializedEngine(hipdnn_data_sdk::utilities::CUDA_GRAPH_ENGINE_ID) {}

bool GraphEngine::isApplicable(CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                               std::string& reason) const {
    return planGraph(handle, graph, GraphSettings{}, reason).has_value();
}

std::vector<hipdnn_flatbuffers_sdk::KnobDescription> GraphEngine::knobs(
    CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    using hipdnn_flatbuffers_sdk::IntKnobConstraint;
    using hipdnn_flatbuffers_sdk::KnobDescription;
    std::string reason;
    const auto program = analyzeGraphProgram(graph, {}, reason);
    if (!program) {
        return {};
    }
    bool convolutionGemm = false;
    bool cublasLt = false;
    for (const GraphSegment& segment : program->segments) {
        const bool gemm = segment.convolution && convolutionGemmOn(handle.device(), *segment.convolution);
        convolutionGemm = convolutionGemm || gemm;
        cublasLt = cublasLt || gemm || segment.matmul;
    }
    std::vector<KnobDescription> knobs;
    if (convolutionGemm) {
        knobs.push_back(KnobDescription::intKnob(
            std::string(kGraphConvolutionGemmKnob),
            "1: 1x1 convolutions with unit strides and no padding over channels-last tensors run as one "
            "cuBLASLt matrix product; 0: every convolution runs through cuDNN",
            1, IntKnobConstraint::oneOf({0, 1})));
    }
    if (cublasLt) {
        std::vector<int64_t> candidates(kCublasLtCandidates);
        std::iota(candidates.begin(), candidates.end(), 0);
        knobs.push_back(KnobDescription::intKnob(
            std::string(kCublasLtAlgorithmKnob),
            "index into cuBLASLt's heuristic candidates for every cuBLASLt product of the graph, best first "
            "(plan build fails when the heuristics return fewer)",
            0, IntKnobConstraint::oneOf(std::move(candidates))));
    }
    return knobs;
}

std::size_t GraphEngine::workspaceSize(CudaKernelsHandle& handle,
                                       const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                                       const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    std::string reason;
    const auto plan = planGraph(handle, graph, graphSettingsFrom(config), reason);
    if (!plan) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                             std::string(kEngineName) + " cannot run this graph: " + reason);
    }
    return layOut(*plan).totalBytes;
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> GraphEngine::contextForConfig(
    CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
    const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    std::string reason;
    auto plan = planGraph(handle, graph, graphSettingsFrom(config), reason);
    if (!plan) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                             std::string(kEngineName) + " cannot run this graph: " + reason);
    }
    return std::make_unique<GraphExecutionContext>(handle, std::move(*plan));
}

}  // namespace hipdnn_cuda_kernels
