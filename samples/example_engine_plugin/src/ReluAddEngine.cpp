#include "ReluAddEngine.hpp"

#include "ReluAddKernels.hpp"

#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>
#include <hipdnn_data_sdk/utilities/Tensor.hpp>

#include <string_view>
#include <utility>

namespace example_plugin {

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::NodeWrapper;

// Virtual tensors start on cache-line boundaries inside the workspace.
constexpr std::size_t kWorkspaceAlignment = 64;

std::vector<int64_t> dimsOf(const fb::TensorAttributes& tensor) {
    return {tensor.dims()->begin(), tensor.dims()->end()};
}

std::vector<int64_t> stridesOf(const fb::TensorAttributes& tensor) {
    return {tensor.strides()->begin(), tensor.strides()->end()};
}

std::string describeTensor(const fb::TensorAttributes& tensor) {
    const std::string_view name =
        tensor.name() != nullptr ? tensor.name()->string_view() : std::string_view();
    return "tensor " + std::to_string(tensor.uid()) + " '" + std::string(name) + "'";
}

// Builds the plan node by node. Every rejection names the node (NodeWrapper::describe()), so the
// reason the backend shows the user points at the part of the graph the engine cannot run.
class PlanBuilder {
public:
    explicit PlanBuilder(const GraphWrapper& graph) : _graph(graph) {}

    std::optional<ReluAddPlan> build(std::string& reason) {
        if (_graph.nodeCount() == 0) {
            reason = "the graph has no nodes";
            return std::nullopt;
        }
        for (std::size_t i = 0; i < _graph.nodeCount(); ++i) {
            if (!addNode(_graph.node(i), reason)) {
                return std::nullopt;
            }
        }
        return std::move(_plan);
    }

private:
    bool addNode(const NodeWrapper& node, std::string& reason) {
        const auto* pointwise = node.attributesAs<fb::PointwiseAttributes>();
        if (pointwise == nullptr) {
            reason = node.describe() + ": only pointwise RELU_FWD and ADD nodes are supported";
            return false;
        }
        const fb::PointwiseMode mode = pointwise->operation();
        if (mode != fb::PointwiseMode::RELU_FWD && mode != fb::PointwiseMode::ADD) {
            reason = node.describe() + ": pointwise mode " + fb::EnumNamePointwiseMode(mode) +
                     " is not supported (only RELU_FWD and ADD)";
            return false;
        }
        if (mode == fb::PointwiseMode::RELU_FWD &&
            (pointwise->relu_lower_clip().has_value() || pointwise->relu_upper_clip().has_value() ||
             pointwise->relu_lower_clip_slope().has_value())) {
            reason = node.describe() + ": RELU_FWD with clip or slope parameters is not supported";
            return false;
        }
        // UNSET on the node and the graph means float.
        const fb::DataType computeType = node.node().compute_data_type() != fb::DataType::UNSET
                                             ? node.node().compute_data_type()
                                             : _graph.graph().compute_data_type();
        if (computeType != fb::DataType::FLOAT && computeType != fb::DataType::UNSET) {
            reason = node.describe() + ": compute type " + fb::EnumNameDataType(computeType) +
                     " is not supported (only FLOAT)";
            return false;
        }

        ReluAddPlan::Step step{
            mode == fb::PointwiseMode::RELU_FWD ? ReluAddPlan::Operation::Relu : ReluAddPlan::Operation::Add,
            {pointwise->in_0_tensor_uid()},
            pointwise->out_0_tensor_uid()};
        if (step.operation == ReluAddPlan::Operation::Add) {
            if (!pointwise->in_1_tensor_uid().has_value()) {
                reason = node.describe() + ": ADD has no in_1 tensor";
                return false;
            }
            step.inputUids.push_back(*pointwise->in_1_tensor_uid());
        }

        const std::vector<int64_t> outputDims = dimsOf(_graph.tensor(step.outputUid));
        for (int64_t uid : step.inputUids) {
            const std::vector<int64_t> inputDims = dimsOf(_graph.tensor(uid));
            const bool shapeOk = step.operation == ReluAddPlan::Operation::Relu
                                     ? inputDims == outputDims
                                     : broadcastsTo(inputDims, outputDims);
            if (!shapeOk) {
                reason = node.describe() + ": " + describeTensor(_graph.tensor(uid)) +
                         (step.operation == ReluAddPlan::Operation::Relu
                              ? " does not have the output's dims"
                              : " does not broadcast to the output (same rank, each dim equal or 1)");
                return false;
            }
        }
        std::vector<int64_t> uids = step.inputUids;
        uids.push_back(step.outputUid);
        for (int64_t uid : uids) {
            if (!placeTensor(node, _graph.tensor(uid), reason)) {
                return false;
            }
        }
        _plan.steps.push_back(std::move(step));
        return true;
    }

    bool placeTensor(const NodeWrapper& node, const fb::TensorAttributes& tensor, std::string& reason) {
        if (tensor.data_type() != fb::DataType::FLOAT) {
            reason = node.describe() + ": " + describeTensor(tensor) + " is " +
                     fb::EnumNameDataType(tensor.data_type()) + " (only FLOAT is supported)";
            return false;
        }
        if (tensor.value() != nullptr) {
            reason = node.describe() + ": " + describeTensor(tensor) +
                     " is a pass-by-value scalar (not supported)";
            return false;
        }
        if (_plan.tensors.contains(tensor.uid())) {
            return true;
        }
        ReluAddPlan::TensorPlacement placement{dimsOf(tensor), stridesOf(tensor), std::nullopt};
        if (tensor.virtual_()) {
            const auto elements = static_cast<std::size_t>(
                hipdnn_data_sdk::utilities::storageElementCount(placement.dims, placement.strides));
            placement.workspaceOffset = _plan.workspaceBytes;
            const std::size_t bytes = elements * sizeof(float);
            _plan.workspaceBytes +=
                (bytes + kWorkspaceAlignment - 1) / kWorkspaceAlignment * kWorkspaceAlignment;
        }
        _plan.tensors.emplace(tensor.uid(), std::move(placement));
        return true;
    }

    const GraphWrapper& _graph;
    ReluAddPlan _plan;
};

}  // namespace

std::optional<ReluAddPlan> planReluAddGraph(const GraphWrapper& graph, std::string& reason) {
    return PlanBuilder(graph).build(reason);
}

void ReluAddExecutionContext::execute(hipdnn_plugin_sdk::PluginHandleBase& /*handle*/, void* workspace,
                                      const hipdnn_plugin_sdk::DeviceBuffers& buffers) {
    auto addressOf = [&](int64_t uid) -> float* {
        const ReluAddPlan::TensorPlacement& placement = _plan.tensors.at(uid);
        if (placement.workspaceOffset) {
            return reinterpret_cast<float*>(static_cast<std::byte*>(workspace) + *placement.workspaceOffset);
        }
        return static_cast<float*>(buffers.pointer(uid));
    };
    auto input = [&](int64_t uid) {
        const ReluAddPlan::TensorPlacement& placement = _plan.tensors.at(uid);
        return ConstTensorView{addressOf(uid), placement.dims, placement.strides};
    };
    for (const ReluAddPlan::Step& step : _plan.steps) {
        const ReluAddPlan::TensorPlacement& placement = _plan.tensors.at(step.outputUid);
        const TensorView output{addressOf(step.outputUid), placement.dims, placement.strides};
        if (step.operation == ReluAddPlan::Operation::Relu) {
            reluForward(input(step.inputUids[0]), output);
        } else {
            addBroadcast(input(step.inputUids[0]), input(step.inputUids[1]), output);
        }
    }
}

bool ReluAddEngine::isApplicable(ExampleHandle& /*handle*/, const GraphWrapper& graph,
                                 std::string& reason) const {
    return planReluAddGraph(graph, reason).has_value();
}

std::size_t ReluAddEngine::workspaceSize(ExampleHandle& /*handle*/,
                                         const hipdnn_flatbuffers_sdk::EngineConfigWrapper& /*config*/,
                                         const GraphWrapper& graph) const {
    std::string reason;
    const std::optional<ReluAddPlan> plan = planReluAddGraph(graph, reason);
    if (!plan) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, reason);
    }
    return plan->workspaceBytes;
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> ReluAddEngine::createExecutionContext(
    ExampleHandle& /*handle*/, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& /*config*/,
    const GraphWrapper& graph) const {
    std::string reason;
    std::optional<ReluAddPlan> plan = planReluAddGraph(graph, reason);
    if (!plan) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, reason);
    }
    return std::make_unique<ReluAddExecutionContext>(std::move(*plan));
}

}  // namespace example_plugin
