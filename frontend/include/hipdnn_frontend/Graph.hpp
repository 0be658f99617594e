// The operation graph: tensors, operations, validation, the build lifecycle against the backend
// C API, serialization and cache keys. Long member bodies live in detail/Graph*.inl.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <hipdnn_backend.h>

#include "DeclinedEngine.hpp"
#include "Error.hpp"
#include "Knobs.hpp"
#include "Types.hpp"
#include "detail/BackendDescriptor.hpp"
#include "detail/PlanCandidate.hpp"
#include "node/BatchnormBackwardNode.hpp"
#include "node/BatchnormInferenceNode.hpp"
#include "node/BatchnormInferenceVarianceNode.hpp"
#include "node/BatchnormNode.hpp"
#include "node/ConvDgradNode.hpp"
#include "node/ConvFpropNode.hpp"
#include "node/ConvWgradNode.hpp"
#include "node/LayernormBackwardNode.hpp"
#include "node/LayernormNode.hpp"
#include "node/MatmulNode.hpp"
#include "node/PointwiseNode.hpp"
#include "node/ReductionNode.hpp"
#include "node/ResampleNode.hpp"
#include "node/RmsnormBackwardNode.hpp"
#include "node/RmsnormNode.hpp"
#include "node/SdpaBackwardNode.hpp"
#include "node/SdpaNode.hpp"

namespace hipdnn_frontend::graph {

using TensorPtr = std::shared_ptr<TensorAttributes>;

class Graph {
public:
    // ---- Configuration ----
    Graph& set_name(std::string name) {
        name_ = std::move(name);
        return *this;
    }
    // Data type of graph inputs and outputs whose type is not set.
    Graph& set_io_data_type(DataType type) {
        context_.ioDataType = type;
        return *this;
    }
    // Data type of virtual (intermediate) tensors whose type is not set.
    Graph& set_intermediate_data_type(DataType type) {
        context_.intermediateDataType = type;
        return *this;
    }
    // Accumulation type of nodes whose compute type is not set.
    Graph& set_compute_data_type(DataType type) {
        context_.computeDataType = type;
        return *this;
    }
    // Ranks this engine first when it supports the graph.
    Graph& set_preferred_engine_id_ext(int64_t engineId) {
        preferredEngineId_ = engineId;
        preferredEngineName_.reset();
        return *this;
    }
    // By name; resolved through the handle's loaded engines at build_operation_graph.
    Graph& set_preferred_engine_id_ext(const std::string& engineName) {
        preferredEngineName_ = engineName;
        preferredEngineId_.reset();
        return *this;
    }

    // Declares that execute may give this graph's tensors run-time shapes (serialized with the
    // graph, so engines that cannot honour overrides decline it).
    Graph& set_override_shape_enabled(bool enabled) {
        overrideShapeEnabled_ = enabled;
        return *this;
    }

    [[nodiscard]] const std::string& get_name() const { return name_; }
    [[nodiscard]] bool is_override_shape_enabled() const { return overrideShapeEnabled_; }
    [[nodiscard]] DataType get_io_data_type() const { return context_.ioDataType; }
    [[nodiscard]] DataType get_intermediate_data_type() const { return context_.intermediateDataType; }
    [[nodiscard]] DataType get_compute_data_type() const { return context_.computeDataType; }
    [[nodiscard]] std::optional<int64_t> get_preferred_engine_id_ext() const { return preferredEngineId_; }

    // ---- Tensors ----
    TensorPtr tensor(const TensorAttributes& attributes) {
        return std::make_shared<TensorAttributes>(attributes);
    }
    // A copy of `like` (dims, strides, type) without its uid, so the graph assigns a new one.
    TensorPtr tensor_like(const TensorPtr& like, const std::string& name = "") {
        auto copy = std::make_shared<TensorAttributes>(*like);
        copy->clear_uid().set_name(name);
        return copy;
    }

    // ---- Operations (each returns its output tensors; outputs are virtual until set_output) ----
    TensorPtr conv_fprop(const TensorPtr& x, const TensorPtr& w, ConvFpropAttributes attributes);
    TensorPtr conv_dgrad(const TensorPtr& dy, const TensorPtr& w, ConvDgradAttributes attributes);
    TensorPtr conv_wgrad(const TensorPtr& dy, const TensorPtr& x, ConvWgradAttributes attributes);
    // {Y, MEAN, INV_VARIANCE, NEXT_RUNNING_MEAN, NEXT_RUNNING_VARIANCE}; the running statistics
    // are null unless set_previous_running_stats was called.
    std::array<TensorPtr, 5> batchnorm(const TensorPtr& x, const TensorPtr& scale, const TensorPtr& bias,
                                       BatchnormAttributes attributes);
    TensorPtr batchnorm_inference(const TensorPtr& x, const TensorPtr& mean, const TensorPtr& invVariance,
                                  const TensorPtr& scale, const TensorPtr& bias,
                                  BatchnormInferenceAttributes attributes);
    TensorPtr batchnorm_inference_variance_ext(const TensorPtr& x, const TensorPtr& mean,
                                               const TensorPtr& variance, const TensorPtr& scale,
                                               const TensorPtr& bias,
                                               BatchnormInferenceVarianceAttributes attributes);
    // {DX, DSCALE, DBIAS}.
    std::array<TensorPtr, 3> batchnorm_backward(const TensorPtr& dy, const TensorPtr& x,
                                                const TensorPtr& scale,
                                                BatchnormBackwardAttributes attributes);
    TensorPtr pointwise(const TensorPtr& a, PointwiseAttributes attributes);
    TensorPtr pointwise(const TensorPtr& a, const TensorPtr& b, PointwiseAttributes attributes);
    TensorPtr pointwise(const TensorPtr& a, const TensorPtr& b, const TensorPtr& c,
                        PointwiseAttributes attributes);
    TensorPtr matmul(const TensorPtr& a, const TensorPtr& b, MatmulAttributes attributes);
    // Y's dims must be set on the returned tensor (they say which dims are reduced).
    TensorPtr reduction(const TensorPtr& x, ReductionAttributes attributes);
    // {Y, MEAN, INV_VARIANCE}; the statistics are null in the INFERENCE phase.
    std::array<TensorPtr, 3> layernorm(const TensorPtr& x, const TensorPtr& scale, const TensorPtr& bias,
                                       LayernormAttributes attributes);
    // {DX, DSCALE, DBIAS}; MEAN and INV_VARIANCE come from set_saved_mean_and_inv_variance.
    std::array<TensorPtr, 3> layernorm_backward(const TensorPtr& dy, const TensorPtr& x,
                                                const TensorPtr& scale,
                                                LayernormBackwardAttributes attributes);
    // {Y, INV_RMS}; INV_RMS is null in the INFERENCE phase.
    std::array<TensorPtr, 2> rmsnorm(const TensorPtr& x, const TensorPtr& scale,
                                     RmsnormAttributes attributes);
    // {DX, DSCALE, DBIAS}; DBIAS is null unless has_dbias(true).
    std::array<TensorPtr, 3> rmsnorm_backward(const TensorPtr& dy, const TensorPtr& x, const TensorPtr& scale,
                                              const TensorPtr& invRms, RmsnormBackwardAttributes attributes);
    // {Y, INDEX}; INDEX is null unless set_generate_index(true).
    std::array<TensorPtr, 2> resample(const TensorPtr& x, ResampleAttributes attributes);
    // {O, STATS}; STATS (B, Hq, Sq, 1, FLOAT) is null unless set_generate_stats(true).
    std::array<TensorPtr, 2> sdpa(const TensorPtr& q, const TensorPtr& k, const TensorPtr& v,
                                  SdpaAttributes attributes);
    // {DQ, DK, DV}; stats is the forward pass's STATS.
    std::array<TensorPtr, 3> sdpa_backward(const TensorPtr& q, const TensorPtr& k, const TensorPtr& v,
                                           const TensorPtr& o, const TensorPtr& dO, const TensorPtr& stats,
                                           SdpaBackwardAttributes attributes);

    // ---- Validation ----
    // Checks the whole graph and infers output dims, strides and data types. Also puts the nodes
    // in topological order.
    Error validate();

    // ---- Lifecycle ----
    Error build_operation_graph(hipdnnHandle_t handle);
    Error create_execution_plans(const std::vector<HeuristicMode>& modes = {HeuristicMode::FALLBACK});
    // One plan on one engine with knob settings (replaces any heuristic plans). Unknown knobs are
    // skipped with a warning; a value breaking its knob's constraint is an error.
    Error create_execution_plan_ext(int64_t engineId, const std::vector<KnobSetting>& knobs = {});
    Error create_execution_plan_ext(const std::string& engineName,
                                    const std::vector<KnobSetting>& knobs = {});
    // GRAPH_NOT_SUPPORTED, listing every engine asked and its reason, when no candidate can run it.
    Error check_support();
    Error check_support(hipdnnHandle_t) { return check_support(); }
    Error build_plans(BuildPlanPolicy policy = BuildPlanPolicy::HEURISTICS_CHOICE);
    Error build_plans(hipdnnHandle_t, BuildPlanPolicy policy = BuildPlanPolicy::HEURISTICS_CHOICE) {
        return build_plans(policy);
    }
    // validate + build_operation_graph + create_execution_plans + check_support + build_plans.
    Error build(hipdnnHandle_t handle, const std::vector<HeuristicMode>& modes = {HeuristicMode::FALLBACK},
                BuildPlanPolicy policy = BuildPlanPolicy::HEURISTICS_CHOICE);

    Error get_workspace_size(int64_t& size) const;
    [[nodiscard]] int64_t get_workspace_size() const;
    Error execute(hipdnnHandle_t handle, std::unordered_map<int64_t, void*>& variantPack,
                  void* workspace) const;
    Error execute(hipdnnHandle_t handle, std::unordered_map<TensorPtr, void*>& variantPack,
                  void* workspace) const;
    // With run-time shapes: overrideShapes[i] and overrideStrides[i] (of one rank) replace the
    // dims and strides of the tensor with uid overrideUids[i] for this execution only. Needs
    // set_override_shape_enabled(true), and the plan's plugin must export
    // hipdnnEnginePluginExecuteOpGraphWithOverrides; no overrides is a plain execute.
    Error execute(hipdnnHandle_t handle, std::unordered_map<int64_t, void*>& variantPack, void* workspace,
                  const std::vector<int64_t>& overrideUids,
                  const std::vector<std::vector<int64_t>>& overrideShapes,
                  const std::vector<std::vector<int64_t>>& overrideStrides) const;

    // ---- Several plans ----
    [[nodiscard]] int64_t get_execution_plan_count() const {
        return static_cast<int64_t>(candidates_.size());
    }
    Error build_plan_at_index(int64_t index);
    Error execute_plan_at_index(hipdnnHandle_t handle, std::unordered_map<int64_t, void*>& variantPack,
                                void* workspace, int64_t index) const;
    Error get_workspace_size_plan_at_index(int64_t index, int64_t& size) const;
    // The engine name of the active plan / of a candidate.
    Error get_plan_name(std::string& name) const;
    Error get_plan_name_at_index(int64_t index, std::string& name) const;
    Error get_engine_id_at_index(int64_t index, int64_t& engineId) const;
    // The knob settings a candidate plan was created with (empty for heuristic results: their
    // engine's defaults, or the settings of a tuning record).
    Error get_plan_knobs_at_index_ext(int64_t index, std::vector<KnobSetting>& knobs) const;
    // For every candidate plan so far, one more candidate per listed value of each integer or
    // string knob of its engine that publishes a list of valid values (cuDNN's
    // cudnn.engine.index and cudnn.engine.config, say), at most
    // `maxValuesPerKnob` each, the other knobs as the candidate has them: what autotune and
    // `hipdnn-driver tune` time beyond each engine's default configuration.
    Error add_knob_variants_ext(size_t maxValuesPerKnob = 64);
    // Bars engines (by name or id) from build_plans.
    Error deselect_engines(const std::vector<std::string>& engineNames);
    Error deselect_engines(const std::vector<int64_t>& engineIds);
    // Bars plans needing more workspace than `bytes` from build_plans.
    Error deselect_workspace_greater_than(int64_t bytes);

    // ---- Autotune ----
    // Builds every candidate plan of create_execution_plans that is not deselected, runs each once
    // to warm up and kAutotuneTimedRuns times on `variantPack` (hipdnnBackendTimeExecution_ext:
    // CUDA events on a GPU handle's stream, the host clock on the CPU), keeps the one with the
    // smallest median as the graph's plan and records it in the tuning database
    // (hipdnnBackendRecordTuningResult_ext; skipped when the database is off), where later
    // heuristics rank it first. `workspace` must hold the largest workspace of the plans (on the
    // CPU, nullptr lets each plan borrow its own). Outputs are overwritten.
    Error autotune(hipdnnHandle_t handle, std::unordered_map<int64_t, void*>& variantPack, void* workspace);
    static constexpr int kAutotuneTimedRuns = 5;
    // The median autotune measured for a candidate plan.
    Error get_autotune_median_ms_at_index(int64_t index, double& medianMs) const;
    // Records built plan `index` as the fastest for this graph on its handle's device
    // (hipdnnBackendRecordTuningResult_ext), for callers that time plans themselves (e.g. with
    // device events): `runnerUpMs` is the second fastest median, or 0. GRAPH_NOT_SUPPORTED when
    // the database is off or the graph has no canonical key; the message says which.
    Error record_tuning_result_at_index(int64_t index, double medianMs, double runnerUpMs,
                                        const std::string& tool) const;

    // ---- Knobs ----
    Error get_knobs_for_engine(int64_t engineId, std::vector<Knob>& knobs) const;
    Error get_knobs_for_engine(const std::string& engineName, std::vector<Knob>& knobs) const;

    // ---- Lookup ----
    // The graph's named tensors by name (deserialized graphs keep their names). Throws
    // std::invalid_argument naming a name that two tensors share.
    [[nodiscard]] std::unordered_map<std::string, TensorPtr> getTensorsByName() const;

    // ---- Why not ----
    // Engines that declined the graph in the last create_execution_plans (engine, plugin, reason).
    [[nodiscard]] const std::vector<DeclinedEngine>& get_declined_engines() const { return declined_; }

    // ---- Serialization and keys ----
    // Validates the graph first and commits the uids it assigns.
    Error serialize(std::vector<uint8_t>& data);
    Error serialize(std::string& json);
    // Serializes a graph that build_operation_graph has validated (INVALID_STATE before).
    Error serialize(std::vector<uint8_t>& data) const;
    Error serialize(std::string& json) const;
    // Rebuilds the graph from serialized bytes / JSON and, with a handle, builds the operation graph.
    Error deserialize(hipdnnHandle_t handle, const std::vector<uint8_t>& data);
    Error deserialize(hipdnnHandle_t handle, const std::string& json);
    // Hash of structure, shapes, strides, types, attributes and user-given uids (not of names or
    // uids the graph assigned), stable across runs: a key for caller-side plan caches.
    [[nodiscard]] int64_t key();

private:
    template <typename NodeT, typename Attributes>
    void addNode(Attributes attributes, std::string_view defaultPrefix);
    template <typename Attributes>
    void nameNode(Attributes& attributes, std::string_view defaultPrefix) const;
    static TensorPtr makeOutput(const std::string& nodeName, std::string_view port);

    // Every tensor the nodes touch, in node order (inputs, then outputs), without repeats.
    [[nodiscard]] std::vector<TensorPtr> collectTensors() const;
    // Uids of every tensor: user-given ones kept, the rest the smallest unused from 0.
    // Tensors are reached through shared pointers, so committing uids leaves the graph const.
    UidMap assignUids(bool commit) const;
    std::vector<uint8_t> toFlatbuffer(const UidMap& uids, bool withNames) const;
    Error fromFlatbuffer(const std::vector<uint8_t>& data);
    static Error bytesToJson(const std::vector<uint8_t>& data, std::string& json);
    void resetPlans();

    Error requireOperationGraph(std::string_view step) const;
    Error resolveEngineName(const std::string& engineName, int64_t& engineId) const;
    Error makeEngine(int64_t engineId, detail::DescriptorPtr& engine) const;
    // Appends a candidate on `engineId` with `settings` checked against the engine's knobs.
    Error addCandidate(int64_t engineId, const std::vector<KnobSetting>& settings);
    static Error knobsOf(const detail::DescriptorPtr& engine, std::vector<Knob>& knobs);
    Error finalizeConfig(detail::PlanCandidate& candidate) const;
    Error buildCandidate(detail::PlanCandidate& candidate) const;
    Error executeCandidate(const detail::PlanCandidate& candidate, hipdnnHandle_t handle,
                           std::unordered_map<int64_t, void*>& variantPack, void* workspace,
                           const detail::ShapeOverrides& overrides = {},
                           detail::TimedRuns* timed = nullptr) const;
    Error candidateAt(int64_t index, const detail::PlanCandidate*& candidate) const;
    [[nodiscard]] std::string notSupportedMessage() const;

    std::string name_;
    GraphContext context_;
    std::optional<int64_t> preferredEngineId_;
    std::optional<std::string> preferredEngineName_;
    bool overrideShapeEnabled_ = false;
    std::vector<std::shared_ptr<INode>> nodes_;

    hipdnnHandle_t handle_ = nullptr;
    detail::DescriptorPtr operationGraph_;
    std::vector<detail::PlanCandidate> candidates_;
    std::optional<size_t> activePlan_;
    std::vector<DeclinedEngine> declined_;
    std::optional<int64_t> workspaceLimit_;
};

}  // namespace hipdnn_frontend::graph

#include "detail/GraphAutotune.inl"
#include "detail/GraphLifecycle.inl"
#include "detail/GraphOperations.inl"
#include "detail/GraphSerialization.inl"
#include "detail/GraphValidation.inl"
