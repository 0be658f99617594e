#include "GraphEngine.hpp"

#include "../KernelBuild.hpp"
#include "../matmul/CublasLt.hpp"
#include "../matmul/CublasLtEngine.hpp"
#include "../matmul/CublasLtMatmul.hpp"
#include "../pointwise/PointwiseEngine.hpp"
#include "Cudnn.hpp"
#include "CudnnConvolution.hpp"
#include "GraphProgram.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <algorithm>
#include <set>

namespace hipdnn_cuda_kernels {

namespace {

constexpr const char* kEngineName = "CUDA_GRAPH_ENGINE";

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

// Plans the convolution of segment `s`; where cuDNN has no engine for a virtual output of another
// type than the operands', stores that output in the operands' type instead (analysing the graph
// again with that storage type).
bool planConvolutionSegment(CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                            size_t s, MemoryVirtuals& overrides, DevicePlan& plan, std::string& reason) {
    const ConvolutionProgram& convolution = *plan.program.segments[s].convolution;
    const std::string node = graph.node(plan.program.segments[s].anchor).describe();
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
                                    const CublasLtSettings& settings, std::string& reason) {
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
            plan.anchors[s] = planMatmulSegment(handle, *segment.matmul, settings, reason);
            if (plan.anchors[s] == nullptr) {
                reason = graph.node(segment.anchor).describe() + ": " + reason;
                return std::nullopt;
            }
        } else if (segment.anchorKind == AnchorKind::Convolution &&
                   !planConvolutionSegment(handle, graph, s, overrides, plan, reason)) {
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
    return planGraph(handle, graph, CublasLtSettings{}, reason).has_value();
}

std::size_t GraphEngine::workspaceSize(CudaKernelsHandle& handle,
                                       const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                                       const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    std::string reason;
    const auto plan = planGraph(handle, graph, cublasLtSettingsFrom(config), reason);
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
    auto plan = planGraph(handle, graph, cublasLtSettingsFrom(config), reason);
    if (!plan) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                             std::string(kEngineName) + " cannot run this graph: " + reason);
    }
    return std::make_unique<GraphExecutionContext>(handle, std::move(*plan));
}

}  // namespace hipdnn_cuda_kernels
