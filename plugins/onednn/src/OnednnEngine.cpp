#include "OnednnEngine.hpp"

#include "BatchnormPlan.hpp"
#include "BinaryPlan.hpp"
#include "ConvPlan.hpp"
#include "EltwisePlan.hpp"
#include "LayernormPlan.hpp"
#include "MatmulPlan.hpp"
#include "MemoryDesc.hpp"
#include "PoolingPlan.hpp"
#include "ReductionPlan.hpp"
#include "SdpaPlan.hpp"

#include <hipdnn_data_sdk/logging/CallbackLogger.hpp>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_plugin_sdk/GraphContextSerialization.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <algorithm>
#include <memory>

namespace hipdnn_onednn {

using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_plugin_sdk::PluginError;

namespace {

constexpr const char* kLogComponent = "onednn";

size_t elementSize(fb::DataType type) {
    return type == fb::DataType::BFLOAT16 ? 2 : 4;
}

/// Why oneDNN refused a primitive, in words a user can act on.
std::string explainDnnlError(const dnnl::error& error, const GraphWrapper& graph, const Stage& stage) {
    const fb::DataType type = graph.tensor(stage.outputUid).data_type();
    if (error.status == dnnl_unimplemented) {
        return std::string("oneDNN 2.6 has no ") + stageKindName(stage.kind) + " implementation for " +
               fb::EnumNameDataType(type) + " data with these shapes, layouts and fusions on this CPU" +
               (type == fb::DataType::BFLOAT16 ? " (bf16 needs AVX-512 hardware support)" : "") +
               " [dnnl_unimplemented]";
    }
    return std::string("oneDNN rejected the ") + stageKindName(stage.kind) + " primitive: " + error.what() +
           " [status " + std::to_string(static_cast<int>(error.status)) + "]";
}

/// Reads the graph's tensors during one execute: user buffers, workspace slots for virtual
/// tensors, the plan's copies of pass-by-value scalars.
class Resolver : public ExecutionBuffers {
public:
    Resolver(const hipdnn_plugin_sdk::DeviceBuffers& user, std::byte* workspace,
             const std::unordered_map<int64_t, size_t>& virtualOffsets,
             std::unordered_map<int64_t, float>& constants)
        : _user(user), _workspace(workspace), _virtualOffsets(virtualOffsets), _constants(constants) {}

    void* tensor(int64_t uid) const override {
        if (const auto slot = _virtualOffsets.find(uid); slot != _virtualOffsets.end()) {
            return _workspace + slot->second;
        }
        if (const auto constant = _constants.find(uid); constant != _constants.end()) {
            return &constant->second;
        }
        return _user.pointer(uid);
    }

private:
    const hipdnn_plugin_sdk::DeviceBuffers& _user;
    std::byte* _workspace;
    const std::unordered_map<int64_t, size_t>& _virtualOffsets;
    std::unordered_map<int64_t, float>& _constants;
};

}  // namespace

std::unique_ptr<PlanStep> buildStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                    const Stage& stage) {
    const auto node = graph.node(stage.primaryNode);
    try {
        switch (stage.kind) {
            case StageKind::ConvFwd:
                return buildConvFwdStep(engine, graph, stage);
            case StageKind::ConvBwdData:
                return buildConvBwdDataStep(engine, graph, stage);
            case StageKind::ConvBwdWeights:
                return buildConvBwdWeightsStep(engine, graph, stage);
            case StageKind::BatchnormInference:
            case StageKind::BatchnormInferenceVariance:
                return buildBatchnormInferenceStep(engine, graph, stage);
            case StageKind::BatchnormTraining:
                return buildBatchnormTrainingStep(engine, graph, stage);
            case StageKind::BatchnormBackward:
                return buildBatchnormBackwardStep(engine, graph, stage);
            case StageKind::Matmul:
                return buildMatmulStep(engine, graph, stage);
            case StageKind::Eltwise:
                return buildEltwiseStep(engine, graph, stage);
            case StageKind::Binary:
                return buildBinaryStep(engine, graph, stage);
            case StageKind::Reduction:
                return buildReductionStep(engine, graph, stage);
            case StageKind::Layernorm:
                return buildLayernormStep(engine, graph, stage);
            case StageKind::Pooling:
                return buildPoolingStep(engine, graph, stage);
            case StageKind::Attention:
                return buildSdpaStep(engine, graph, stage);
            case StageKind::AttentionBackward:
                return buildSdpaBackwardStep(engine, graph, stage);
        }
    } catch (const dnnl::error& error) {
        decline(node, explainDnnlError(error, graph, stage));
    } catch (const std::invalid_argument& error) {
        decline(node, error.what());
    }
    decline(node, "unknown stage kind");
}

OnednnExecutionContext::OnednnExecutionContext(const dnnl::engine& engine, const GraphWrapper& graph)
    : _serialized(hipdnn_plugin_sdk::serializeGraphContext(graph)), _stages(matchStages(graph)) {
    size_t privateBytes = 0;
    for (const Stage& stage : _stages) {
        _steps.push_back(buildStep(engine, graph, stage));
        _scratchpadBytes = std::max(_scratchpadBytes, _steps.back()->scratchpadBytes());
        _privateOffsets.push_back(privateBytes);
        privateBytes += _steps.back()->privateBytes();
    }
    size_t offset = _scratchpadBytes + privateBytes;
    for (const auto& step : _steps) {
        for (int64_t uid : step->boundUids()) {
            const fb::TensorAttributes& tensor = graph.tensor(uid);
            if (auto value = hipdnn_flatbuffers_sdk::passByValueNumber(tensor)) {
                _constants[uid] = static_cast<float>(*value);
            } else if (tensor.virtual_() && !_virtualOffsets.contains(uid)) {
                _virtualOffsets[uid] = offset;
                const auto count =
                    hipdnn_data_sdk::utilities::storageElementCount(dimsOf(tensor), stridesOf(tensor));
                offset += alignUp(static_cast<size_t>(count) * elementSize(tensor.data_type()));
            }
        }
    }
    // Regions are aligned relative to the base; slack lets execute align the base itself.
    _workspaceBytes = offset > 0 ? offset + kWorkspaceAlignment - 1 : 0;
}

void OnednnExecutionContext::execute(hipdnn_plugin_sdk::PluginHandleBase& handle, void* workspace,
                                     const hipdnn_plugin_sdk::DeviceBuffers& buffers) {
    auto* onednnHandle = dynamic_cast<OnednnHandle*>(&handle);
    if (onednnHandle == nullptr) {
        throw PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "execute was given a handle of another plugin");
    }
    if (_workspaceBytes > 0 && workspace == nullptr) {
        throw PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "workspace is null but the plan needs " +
                                                              std::to_string(_workspaceBytes) + " bytes");
    }
    const std::lock_guard lock(_executeMutex);
    void* aligned = workspace;
    size_t space = _workspaceBytes;
    auto* base = static_cast<std::byte*>(std::align(kWorkspaceAlignment, 1, aligned, space));
    const Resolver resolver(buffers, base, _virtualOffsets, _constants);
    for (size_t i = 0; i < _steps.size(); ++i) {
        _steps[i]->execute(onednnHandle->dnnlStream(), base, base + _scratchpadBytes + _privateOffsets[i],
                           resolver);
    }
}

OnednnEngine::OnednnEngine() : IEngine(hipdnn_data_sdk::utilities::ONEDNN_ENGINE_ID) {}

std::unique_ptr<OnednnExecutionContext> OnednnEngine::plan(OnednnHandle& handle,
                                                           const GraphWrapper& graph) const {
    try {
        return std::make_unique<OnednnExecutionContext>(handle.dnnlEngine(), graph);
    } catch (const Decline& reason) {
        throw PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                          name() + " cannot run this graph: " + reason.what());
    }
}

bool OnednnEngine::isApplicable(OnednnHandle& handle, const GraphWrapper& graph, std::string& reason) const {
    try {
        const OnednnExecutionContext context(handle.dnnlEngine(), graph);
        HIPDNN_SDK_LOG_INFO(kLogComponent,
                            "graph accepted as " << context.stages().size() << " fused stage(s)");
        return true;
    } catch (const Decline& decline) {
        reason = decline.what();
        HIPDNN_SDK_LOG_INFO(kLogComponent, "graph declined: " << reason);
        return false;
    }
}

std::vector<fb::BehaviorNote> OnednnEngine::behaviorNotes() const {
    return {fb::BehaviorNote::EXTERNAL_LIBRARY_DEPENDENCY,
            fb::BehaviorNote::SUPPORTS_EXECUTION_PLAN_SERIALIZATION};
}

size_t OnednnEngine::workspaceSize(OnednnHandle& handle,
                                   const hipdnn_flatbuffers_sdk::EngineConfigWrapper& /*config*/,
                                   const GraphWrapper& graph) const {
    return plan(handle, graph)->workspaceSize();
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> OnednnEngine::createExecutionContext(
    OnednnHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& /*config*/,
    const GraphWrapper& graph) const {
    return plan(handle, graph);
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> OnednnEngine::deserializeExecutionContext(
    OnednnHandle& handle, std::span<const uint8_t> bytes) const {
    return plan(handle, hipdnn_plugin_sdk::graphOfSerializedContext(bytes, name()));
}

}  // namespace hipdnn_onednn
