// The build lifecycle against the backend C API: operation graph, heuristics, engine configs,
// plans, knobs and execution. Included by Graph.hpp.
#pragma once

#include <algorithm>
#include <optional>
#include <utility>

#include <hipdnn_flatbuffers_sdk/data_objects/knob_value_generated.h>
#include <hipdnn_data_sdk/utilities/Workspace.hpp>

namespace hipdnn_frontend::graph {

inline void Graph::resetPlans() {
    candidates_.clear();
    activePlan_.reset();
    declined_.clear();
}

inline Error Graph::requireOperationGraph(std::string_view step) const {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(!operationGraph_, ErrorCode::INVALID_STATE,
                                    std::string(step) + " needs build_operation_graph(handle) first");
    return {};
}

inline Error Graph::resolveEngineName(const std::string& engineName, int64_t& engineId) const {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        handle_ == nullptr, ErrorCode::INVALID_STATE,
        "engine '" + engineName + "' can be looked up only after build_operation_graph");
    const hipdnnStatus_t status = hipdnnGetEngineIdByName_ext(handle_, engineName.c_str(), &engineId);
    if (status == HIPDNN_STATUS_NOT_SUPPORTED) {
        char ignored[HIPDNN_ERROR_STRING_MAX_LENGTH];
        hipdnnGetLastErrorString(ignored, sizeof(ignored));
        return {ErrorCode::INVALID_VALUE,
                "no engine named '" + engineName + "' is loaded for this handle's device"};
    }
    return detail::checkBackend(status, "hipdnnGetEngineIdByName_ext('" + engineName + "')");
}

inline Error Graph::build_operation_graph(hipdnnHandle_t handle) {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(handle == nullptr, ErrorCode::INVALID_VALUE,
                                    "build_operation_graph needs a handle (hipdnnCreate)");
    HIPDNN_CHECK_FRONTEND_ERROR(validate());
    handle_ = handle;
    if (preferredEngineName_) {
        int64_t engineId = 0;
        HIPDNN_CHECK_FRONTEND_ERROR(resolveEngineName(*preferredEngineName_, engineId));
        preferredEngineId_ = engineId;
    }
    const auto bytes = toFlatbuffer(assignUids(/*commit=*/true), /*withNames=*/true);

    hipdnnBackendDescriptor_t raw = nullptr;
    HIPDNN_CHECK_FRONTEND_ERROR(
        detail::checkBackend(hipdnnBackendCreateAndDeserializeGraph_ext(&raw, bytes.data(), bytes.size()),
                             "hipdnnBackendCreateAndDeserializeGraph_ext"));
    auto graph = detail::adoptDescriptor(raw);
    HIPDNN_CHECK_FRONTEND_ERROR(detail::setAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE,
                                                     HIPDNN_TYPE_HANDLE, 1, &handle,
                                                     "setting the operation graph's handle"));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::finalize(graph, "finalizing the operation graph"));
    resetPlans();
    operationGraph_ = std::move(graph);
    HIPDNN_FE_LOG_INFO("built operation graph '" << name_ << "' with " << nodes_.size() << " node(s)");
    return {};
}

inline std::string Graph::notSupportedMessage() const {
    std::string text = "no engine supports graph '" + name_ + "'; engines asked and their reasons:\n";
    text += detail::formatDeclinedEngines(declined_);
    for (const auto& candidate : candidates_) {
        if (!candidate.failure.empty()) {
            text +=
                "  " + candidate.engineName + " (" + candidate.pluginName + "): " + candidate.failure + "\n";
        }
    }
    return text;
}

inline Error Graph::create_execution_plans(const std::vector<HeuristicMode>& modes) {
    HIPDNN_CHECK_FRONTEND_ERROR(requireOperationGraph("create_execution_plans"));
    resetPlans();
    for (HeuristicMode mode : modes) {
        detail::DescriptorPtr heuristics;
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::createDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, heuristics));
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::setDescriptorAttribute(heuristics, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH,
                                           operationGraph_, "setting the heuristics' graph"));
        const hipdnnBackendHeurMode_t backendMode = hipdnn_frontend::detail::toBackend(mode);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::setAttribute(heuristics, HIPDNN_ATTR_ENGINEHEUR_MODE,
                                                         HIPDNN_TYPE_HEUR_MODE, 1, &backendMode,
                                                         "setting the heuristic mode"));
        HIPDNN_CHECK_FRONTEND_ERROR(detail::finalize(heuristics, "finalizing the heuristics"));

        std::string declinedText;
        HIPDNN_CHECK_FRONTEND_ERROR(detail::getString(heuristics, HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT,
                                                      declinedText, "reading the declined engines"));
        for (auto& engine : detail::parseDeclinedEngines(declinedText)) {
            const bool known =
                std::any_of(declined_.begin(), declined_.end(), [&](const DeclinedEngine& other) {
                    return other.engine_name == engine.engine_name && other.plugin_name == engine.plugin_name;
                });
            if (!known) {
                declined_.push_back(std::move(engine));
            }
        }

        std::vector<detail::DescriptorPtr> configs;
        HIPDNN_CHECK_FRONTEND_ERROR(detail::getDescriptors(heuristics, HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                                           HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, configs,
                                                           "reading the heuristic results"));
        for (size_t rank = 0; rank < configs.size(); ++rank) {
            // The engine of a config can be read only once the config is finalized (which asks
            // the engine for its workspace); a config that fails here is reported as declined.
            detail::PlanCandidate candidate;
            candidate.engineConfig = std::move(configs[rank]);
            const Error finalized = finalizeConfig(candidate);
            if (finalized.is_bad()) {
                declined_.push_back({"heuristic result " + std::to_string(rank), "", finalized.message});
                continue;
            }
            std::vector<detail::DescriptorPtr> engines;
            HIPDNN_CHECK_FRONTEND_ERROR(detail::getDescriptors(
                candidate.engineConfig, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_BACKEND_ENGINE_DESCRIPTOR,
                engines, "reading a config's engine"));
            HIPDNN_RETURN_FRONTEND_ERROR_IF(engines.empty(), ErrorCode::HIPDNN_BACKEND_ERROR,
                                            "a heuristic result has no engine");
            HIPDNN_CHECK_FRONTEND_ERROR(detail::getInt64(engines.front(), HIPDNN_ATTR_ENGINE_GLOBAL_INDEX,
                                                         candidate.engineId, "reading the engine id"));
            const bool duplicate =
                std::any_of(candidates_.begin(), candidates_.end(),
                            [&](const auto& other) { return other.engineId == candidate.engineId; });
            if (duplicate) {
                continue;
            }
            HIPDNN_CHECK_FRONTEND_ERROR(detail::getString(engines.front(), HIPDNN_ATTR_ENGINE_NAME_EXT,
                                                          candidate.engineName, "reading the engine name"));
            HIPDNN_CHECK_FRONTEND_ERROR(detail::getString(engines.front(), HIPDNN_ATTR_ENGINE_PLUGIN_NAME_EXT,
                                                          candidate.pluginName,
                                                          "reading the engine's plugin"));
            candidates_.push_back(std::move(candidate));
        }
    }
    // The backend ranks the preferred engine first as well; keeping it first here also holds
    // when several heuristic modes were merged.
    if (preferredEngineId_) {
        std::stable_partition(candidates_.begin(), candidates_.end(), [&](const auto& candidate) {
            return candidate.engineId == *preferredEngineId_;
        });
    }
    HIPDNN_RETURN_FRONTEND_ERROR_IF(candidates_.empty(), ErrorCode::GRAPH_NOT_SUPPORTED,
                                    notSupportedMessage());
    return {};
}

inline Error Graph::makeEngine(int64_t engineId, detail::DescriptorPtr& engine) const {
    HIPDNN_CHECK_FRONTEND_ERROR(detail::createDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, engine));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::setDescriptorAttribute(
        engine, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, operationGraph_, "setting the engine's graph"));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::setAttribute(
        engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &engineId, "setting the engine id"));
    const hipdnnStatus_t status = hipdnnBackendFinalize(engine.get());
    if (status != HIPDNN_STATUS_SUCCESS) {
        Error error = detail::backendError(status, "finalizing engine " + std::to_string(engineId));
        // An engine that is not loaded or does not take this graph is "not supported", not a failure.
        if (status == HIPDNN_STATUS_NOT_SUPPORTED) {
            error.code = ErrorCode::GRAPH_NOT_SUPPORTED;
        }
        return error;
    }
    return {};
}

inline Error Graph::knobsOf(const detail::DescriptorPtr& engine, std::vector<Knob>& knobs) {
    std::vector<detail::DescriptorPtr> infos;
    HIPDNN_CHECK_FRONTEND_ERROR(detail::getDescriptors(engine, HIPDNN_ATTR_ENGINE_KNOB_INFO,
                                                       HIPDNN_BACKEND_KNOB_INFO_DESCRIPTOR, infos,
                                                       "reading the engine's knobs"));
    knobs.clear();
    for (const auto& info : infos) {
        hipdnnFlatbufferData_ext_t data{nullptr, 0};
        int64_t count = 0;
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkBackend(
            hipdnnBackendGetAttribute(info.get(), HIPDNN_ATTR_KNOB_INFO_SERIALIZED_VALUE,
                                      HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 1, &count, &data),
            "reading a serialized knob"));
        flatbuffers::Verifier verifier(static_cast<const uint8_t*>(data.ptr), data.size);
        HIPDNN_RETURN_FRONTEND_ERROR_IF(data.ptr == nullptr || !fbs::VerifyKnobBuffer(verifier),
                                        ErrorCode::HIPDNN_BACKEND_ERROR,
                                        "the backend returned a knob that is not a valid Knob FlatBuffer");
        knobs.push_back(detail::knobFromFlatbuffer(*fbs::GetKnob(data.ptr)));
    }
    return {};
}

inline Error Graph::get_knobs_for_engine(int64_t engineId, std::vector<Knob>& knobs) const {
    HIPDNN_CHECK_FRONTEND_ERROR(requireOperationGraph("get_knobs_for_engine"));
    detail::DescriptorPtr engine;
    HIPDNN_CHECK_FRONTEND_ERROR(makeEngine(engineId, engine));
    return knobsOf(engine, knobs);
}

inline Error Graph::get_knobs_for_engine(const std::string& engineName, std::vector<Knob>& knobs) const {
    int64_t engineId = 0;
    HIPDNN_CHECK_FRONTEND_ERROR(resolveEngineName(engineName, engineId));
    return get_knobs_for_engine(engineId, knobs);
}

inline Error Graph::create_execution_plan_ext(int64_t engineId, const std::vector<KnobSetting>& settings) {
    HIPDNN_CHECK_FRONTEND_ERROR(requireOperationGraph("create_execution_plan_ext"));
    resetPlans();
    return addCandidate(engineId, settings);
}

inline Error Graph::addCandidate(int64_t engineId, const std::vector<KnobSetting>& settings) {
    detail::PlanCandidate candidate;
    candidate.engineId = engineId;
    detail::DescriptorPtr engine;
    HIPDNN_CHECK_FRONTEND_ERROR(makeEngine(engineId, engine));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::getString(engine, HIPDNN_ATTR_ENGINE_NAME_EXT, candidate.engineName,
                                                  "reading the engine name"));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::getString(engine, HIPDNN_ATTR_ENGINE_PLUGIN_NAME_EXT,
                                                  candidate.pluginName, "reading the engine's plugin"));
    std::vector<Knob> knobs;
    HIPDNN_CHECK_FRONTEND_ERROR(knobsOf(engine, knobs));
    for (const auto& setting : settings) {
        auto knob =
            std::find_if(knobs.begin(), knobs.end(), [&](const Knob& k) { return k.id == setting.id; });
        if (knob == knobs.end()) {
            // global.* knobs are understood by every engine without being published.
            if (setting.id.rfind("global.", 0) == 0) {
                candidate.knobs.push_back(setting);
            } else {
                HIPDNN_FE_LOG_WARN("engine " << candidate.engineName << " has no knob '" << setting.id
                                             << "'; the setting is skipped");
            }
            continue;
        }
        if (knob->deprecated) {
            HIPDNN_FE_LOG_WARN("knob '" << setting.id << "' of engine " << candidate.engineName
                                        << " is deprecated");
        }
        HIPDNN_CHECK_FRONTEND_ERROR(validate_knob_value(*knob, setting.value));
        candidate.knobs.push_back(setting);
    }
    HIPDNN_CHECK_FRONTEND_ERROR(
        detail::createDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, candidate.engineConfig));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::setDescriptorAttribute(
        candidate.engineConfig, HIPDNN_ATTR_ENGINECFG_ENGINE, engine, "setting the config's engine"));
    candidates_.push_back(std::move(candidate));
    return {};
}

inline Error Graph::add_knob_variants_ext(size_t maxValuesPerKnob) {
    HIPDNN_CHECK_FRONTEND_ERROR(requireOperationGraph("add_knob_variants_ext"));
    const size_t existing = candidates_.size();
    for (size_t index = 0; index < existing; ++index) {
        // Copied: addCandidate grows candidates_.
        const int64_t engineId = candidates_[index].engineId;
        const std::vector<KnobSetting> base = candidates_[index].knobs;
        std::vector<Knob> knobs;
        HIPDNN_CHECK_FRONTEND_ERROR(get_knobs_for_engine(engineId, knobs));
        for (const Knob& knob : knobs) {
            const bool alreadySet = std::any_of(
                base.begin(), base.end(), [&](const KnobSetting& setting) { return setting.id == knob.id; });
            if (knob.deprecated || alreadySet) {
                continue;
            }
            std::vector<KnobValue> listed;
            if (const auto* integers = std::get_if<IntKnobConstraint>(&knob.constraint)) {
                listed.assign(integers->validValues.begin(), integers->validValues.end());
            } else if (const auto* strings = std::get_if<StringKnobConstraint>(&knob.constraint)) {
                listed.assign(strings->validValues.begin(), strings->validValues.end());
            }
            size_t added = 0;
            for (const KnobValue& value : listed) {
                if (added == maxValuesPerKnob) {
                    break;
                }
                if (value == knob.defaultValue) {
                    continue;
                }
                std::vector<KnobSetting> settings = base;
                settings.push_back({knob.id, value});
                HIPDNN_CHECK_FRONTEND_ERROR(addCandidate(engineId, settings));
                ++added;
            }
        }
    }
    return {};
}

inline Error Graph::get_plan_knobs_at_index_ext(int64_t index, std::vector<KnobSetting>& knobs) const {
    const detail::PlanCandidate* candidate = nullptr;
    HIPDNN_CHECK_FRONTEND_ERROR(candidateAt(index, candidate));
    knobs = candidate->knobs;
    return {};
}

inline Error Graph::create_execution_plan_ext(const std::string& engineName,
                                              const std::vector<KnobSetting>& knobs) {
    HIPDNN_CHECK_FRONTEND_ERROR(requireOperationGraph("create_execution_plan_ext"));
    int64_t engineId = 0;
    HIPDNN_CHECK_FRONTEND_ERROR(resolveEngineName(engineName, engineId));
    return create_execution_plan_ext(engineId, knobs);
}

inline Error Graph::finalizeConfig(detail::PlanCandidate& candidate) const {
    if (candidate.configFinalized) {
        return {};
    }
    if (!candidate.knobs.empty()) {
        // The serialized settings must stay alive until the backend has copied them.
        std::vector<std::vector<uint8_t>> buffers;
        std::vector<hipdnnFlatbufferData_ext_t> views;
        for (const auto& setting : candidate.knobs) {
            flatbuffers::FlatBufferBuilder builder;
            builder.Finish(setting.serialize(builder));
            buffers.emplace_back(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
        }
        for (const auto& buffer : buffers) {
            views.push_back({buffer.data(), buffer.size()});
        }
        HIPDNN_CHECK_FRONTEND_ERROR(
            detail::setAttribute(candidate.engineConfig, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE,
                                 HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, static_cast<int64_t>(views.size()),
                                 views.data(), "setting the knob choices"));
    }
    HIPDNN_CHECK_FRONTEND_ERROR(
        detail::finalize(candidate.engineConfig, "finalizing the config of engine " + candidate.engineName));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::getInt64(candidate.engineConfig, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE,
                                                 candidate.configWorkspaceSize,
                                                 "reading the config's workspace"));
    candidate.configFinalized = true;
    return {};
}

inline Error Graph::check_support() {
    HIPDNN_CHECK_FRONTEND_ERROR(requireOperationGraph("check_support"));
    bool anySupported = false;
    for (auto& candidate : candidates_) {
        if (candidate.deselected) {
            continue;
        }
        Error error = finalizeConfig(candidate);
        candidate.failure = error.is_good() ? std::string() : error.message;
        anySupported = anySupported || error.is_good();
    }
    HIPDNN_RETURN_FRONTEND_ERROR_IF(!anySupported, ErrorCode::GRAPH_NOT_SUPPORTED, notSupportedMessage());
    return {};
}

inline Error Graph::buildCandidate(detail::PlanCandidate& candidate) const {
    if (candidate.isBuilt()) {
        return {};
    }
    HIPDNN_CHECK_FRONTEND_ERROR(finalizeConfig(candidate));
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        workspaceLimit_ && candidate.configWorkspaceSize > *workspaceLimit_, ErrorCode::GRAPH_NOT_SUPPORTED,
        "engine " + candidate.engineName + " needs " + std::to_string(candidate.configWorkspaceSize) +
            " bytes of workspace, above the limit of " + std::to_string(*workspaceLimit_));
    detail::DescriptorPtr plan;
    HIPDNN_CHECK_FRONTEND_ERROR(detail::createDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, plan));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::setAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_HANDLE,
                                                     HIPDNN_TYPE_HANDLE, 1, &handle_,
                                                     "setting the plan's handle"));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::setDescriptorAttribute(
        plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, candidate.engineConfig, "setting the plan's config"));
    HIPDNN_CHECK_FRONTEND_ERROR(
        detail::finalize(plan, "building the plan of engine " + candidate.engineName));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::getInt64(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
                                                 candidate.workspaceSize,
                                                 "reading the plan's workspace size"));
    candidate.plan = std::move(plan);
    return {};
}

inline Error Graph::build_plans(BuildPlanPolicy policy) {
    HIPDNN_CHECK_FRONTEND_ERROR(requireOperationGraph("build_plans"));
    HIPDNN_RETURN_FRONTEND_ERROR_IF(candidates_.empty(), ErrorCode::GRAPH_NOT_SUPPORTED,
                                    notSupportedMessage());
    activePlan_.reset();
    for (size_t index = 0; index < candidates_.size(); ++index) {
        auto& candidate = candidates_[index];
        if (candidate.deselected) {
            continue;
        }
        Error error = buildCandidate(candidate);
        if (error.is_bad()) {
            candidate.failure = error.message;
            HIPDNN_FE_LOG_INFO("plan for engine " << candidate.engineName << " not built: " << error.message);
            continue;
        }
        if (!activePlan_) {
            activePlan_ = index;
        }
        if (policy == BuildPlanPolicy::HEURISTICS_CHOICE) {
            break;
        }
    }
    HIPDNN_RETURN_FRONTEND_ERROR_IF(!activePlan_, ErrorCode::GRAPH_NOT_SUPPORTED,
                                    "no execution plan could be built. " + notSupportedMessage());
    return {};
}

inline Error Graph::build(hipdnnHandle_t handle, const std::vector<HeuristicMode>& modes,
                          BuildPlanPolicy policy) {
    HIPDNN_CHECK_FRONTEND_ERROR(build_operation_graph(handle));
    HIPDNN_CHECK_FRONTEND_ERROR(create_execution_plans(modes));
    HIPDNN_CHECK_FRONTEND_ERROR(check_support());
    return build_plans(policy);
}

inline Error Graph::candidateAt(int64_t index, const detail::PlanCandidate*& candidate) const {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        index < 0 || index >= static_cast<int64_t>(candidates_.size()), ErrorCode::INVALID_VALUE,
        "plan index " + std::to_string(index) + " is out of range; the graph has " +
            std::to_string(candidates_.size()) + " plan(s)");
    candidate = &candidates_[static_cast<size_t>(index)];
    return {};
}

inline Error Graph::build_plan_at_index(int64_t index) {
    const detail::PlanCandidate* found = nullptr;
    HIPDNN_CHECK_FRONTEND_ERROR(candidateAt(index, found));
    auto& candidate = candidates_[static_cast<size_t>(index)];
    Error error = buildCandidate(candidate);
    candidate.failure = error.is_good() ? std::string() : error.message;
    if (error.is_good() && !activePlan_) {
        activePlan_ = static_cast<size_t>(index);
    }
    return error;
}

inline Error Graph::get_workspace_size_plan_at_index(int64_t index, int64_t& size) const {
    const detail::PlanCandidate* candidate = nullptr;
    HIPDNN_CHECK_FRONTEND_ERROR(candidateAt(index, candidate));
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        !candidate->isBuilt() && !candidate->configFinalized, ErrorCode::INVALID_STATE,
        "plan " + std::to_string(index) + " (" + candidate->engineName + ") is neither checked nor built");
    size = candidate->isBuilt() ? candidate->workspaceSize : candidate->configWorkspaceSize;
    return {};
}

inline Error Graph::get_workspace_size(int64_t& size) const {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(!activePlan_, ErrorCode::INVALID_STATE, "no execution plan is built");
    size = candidates_[*activePlan_].workspaceSize;
    return {};
}

inline int64_t Graph::get_workspace_size() const {
    return activePlan_ ? candidates_[*activePlan_].workspaceSize : 0;
}

inline Error Graph::get_plan_name(std::string& name) const {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(!activePlan_, ErrorCode::INVALID_STATE, "no execution plan is built");
    name = candidates_[*activePlan_].engineName;
    return {};
}

inline Error Graph::get_plan_name_at_index(int64_t index, std::string& name) const {
    const detail::PlanCandidate* candidate = nullptr;
    HIPDNN_CHECK_FRONTEND_ERROR(candidateAt(index, candidate));
    name = candidate->engineName;
    return {};
}

inline Error Graph::get_engine_id_at_index(int64_t index, int64_t& engineId) const {
    const detail::PlanCandidate* candidate = nullptr;
    HIPDNN_CHECK_FRONTEND_ERROR(candidateAt(index, candidate));
    engineId = candidate->engineId;
    return {};
}

inline Error Graph::deselect_engines(const std::vector<std::string>& engineNames) {
    for (auto& candidate : candidates_) {
        if (std::find(engineNames.begin(), engineNames.end(), candidate.engineName) != engineNames.end()) {
            candidate.deselected = true;
        }
    }
    return {};
}

inline Error Graph::deselect_engines(const std::vector<int64_t>& engineIds) {
    for (auto& candidate : candidates_) {
        if (std::find(engineIds.begin(), engineIds.end(), candidate.engineId) != engineIds.end()) {
            candidate.deselected = true;
        }
    }
    return {};
}

inline Error Graph::deselect_workspace_greater_than(int64_t bytes) {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(bytes < 0, ErrorCode::INVALID_VALUE,
                                    "workspace limit " + std::to_string(bytes) + " is negative");
    workspaceLimit_ = bytes;
    return {};
}

inline Error Graph::executeCandidate(const detail::PlanCandidate& candidate, hipdnnHandle_t handle,
                                     std::unordered_map<int64_t, void*>& variantPack, void* workspace,
                                     const detail::ShapeOverrides& overrides,
                                     detail::TimedRuns* timed) const {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(!candidate.isBuilt(), ErrorCode::INVALID_STATE,
                                    "the plan of engine " + candidate.engineName + " is not built");
    // Upstream code passes no workspace where its engines need none; on the CPU, where workspace
    // is host memory, a plan that needs one borrows it for the call instead of failing.
    std::optional<hipdnn_data_sdk::utilities::Workspace> lentWorkspace;
    if (workspace == nullptr && candidate.workspaceSize > 0 && detail::boundToCpu(handle)) {
        lentWorkspace.emplace(static_cast<size_t>(candidate.workspaceSize));
        workspace = lentWorkspace->get();
    }
    std::vector<int64_t> uids;
    std::vector<void*> pointers;
    uids.reserve(variantPack.size());
    pointers.reserve(variantPack.size());
    for (const auto& [uid, pointer] : variantPack) {
        uids.push_back(uid);
        pointers.push_back(pointer);
    }
    detail::DescriptorPtr pack;
    HIPDNN_CHECK_FRONTEND_ERROR(detail::createDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, pack));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::setAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS,
                                                     HIPDNN_TYPE_INT64, static_cast<int64_t>(uids.size()),
                                                     uids.data(), "setting the variant pack's uids"));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::setAttribute(
        pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR,
        static_cast<int64_t>(pointers.size()), pointers.data(), "setting the variant pack's pointers"));
    HIPDNN_CHECK_FRONTEND_ERROR(detail::setAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE,
                                                     HIPDNN_TYPE_VOID_PTR, 1, &workspace,
                                                     "setting the workspace"));
    if (!overrides.uids.empty()) {
        const std::pair<hipdnnBackendAttributeName_t, const std::vector<int64_t>*> attributes[] = {
            {HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_UNIQUE_IDS_EXT, &overrides.uids},
            {HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_LENGTHS_EXT, &overrides.lengths},
            {HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_SHAPES_EXT, &overrides.shapes},
            {HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_STRIDES_EXT, &overrides.strides}};
        for (const auto& [name, values] : attributes) {
            HIPDNN_CHECK_FRONTEND_ERROR(
                detail::setAttribute(pack, name, HIPDNN_TYPE_INT64, static_cast<int64_t>(values->size()),
                                     values->data(), "setting the variant pack's override shapes"));
        }
    }
    HIPDNN_CHECK_FRONTEND_ERROR(detail::finalize(pack, "finalizing the variant pack"));
    if (timed != nullptr) {
        return detail::checkBackend(hipdnnBackendTimeExecution_ext(handle, candidate.plan.get(), pack.get(),
                                                                   timed->runs, &timed->medianMs),
                                    "timing the plan of engine " + candidate.engineName);
    }
    return detail::checkBackend(hipdnnBackendExecute(handle, candidate.plan.get(), pack.get()),
                                "executing the plan of engine " + candidate.engineName);
}

inline Error Graph::execute(hipdnnHandle_t handle, std::unordered_map<int64_t, void*>& variantPack,
                            void* workspace) const {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(!activePlan_, ErrorCode::INVALID_STATE,
                                    "execute needs a built plan (build_plans or build)");
    return executeCandidate(candidates_[*activePlan_], handle, variantPack, workspace);
}

inline Error Graph::execute(hipdnnHandle_t handle, std::unordered_map<int64_t, void*>& variantPack,
                            void* workspace, const std::vector<int64_t>& overrideUids,
                            const std::vector<std::vector<int64_t>>& overrideShapes,
                            const std::vector<std::vector<int64_t>>& overrideStrides) const {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(!activePlan_, ErrorCode::INVALID_STATE,
                                    "execute needs a built plan (build_plans or build)");
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        overrideShapes.size() != overrideUids.size() || overrideStrides.size() != overrideUids.size(),
        ErrorCode::INVALID_VALUE,
        "execute: " + std::to_string(overrideUids.size()) + " override uids but " +
            std::to_string(overrideShapes.size()) + " override shapes and " +
            std::to_string(overrideStrides.size()) + " override strides");
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        !overrideUids.empty() && !overrideShapeEnabled_, ErrorCode::INVALID_STATE,
        "execute with override shapes needs set_override_shape_enabled(true) on graph '" + name_ +
            "' before it is built");
    detail::ShapeOverrides overrides;
    overrides.uids = overrideUids;
    for (size_t index = 0; index < overrideUids.size(); ++index) {
        const auto& shape = overrideShapes[index];
        const auto& stride = overrideStrides[index];
        HIPDNN_RETURN_FRONTEND_ERROR_IF(
            shape.size() != stride.size() || shape.empty(), ErrorCode::INVALID_VALUE,
            "execute: the override of tensor uid " + std::to_string(overrideUids[index]) + " has dims " +
                hipdnn_data_sdk::utilities::formatDims(shape) + " and strides " +
                hipdnn_data_sdk::utilities::formatDims(stride));
        overrides.lengths.push_back(static_cast<int64_t>(shape.size()));
        overrides.shapes.insert(overrides.shapes.end(), shape.begin(), shape.end());
        overrides.strides.insert(overrides.strides.end(), stride.begin(), stride.end());
    }
    return executeCandidate(candidates_[*activePlan_], handle, variantPack, workspace, overrides);
}

inline Error Graph::execute(hipdnnHandle_t handle, std::unordered_map<TensorPtr, void*>& variantPack,
                            void* workspace) const {
    std::unordered_map<int64_t, void*> byUid;
    for (const auto& [tensor, pointer] : variantPack) {
        HIPDNN_RETURN_FRONTEND_ERROR_IF(!tensor || !tensor->has_uid(), ErrorCode::INVALID_VALUE,
                                        "a variant pack tensor has no uid; build the graph before executing");
        byUid[tensor->get_uid()] = pointer;
    }
    return execute(handle, byUid, workspace);
}

inline Error Graph::execute_plan_at_index(hipdnnHandle_t handle,
                                          std::unordered_map<int64_t, void*>& variantPack, void* workspace,
                                          int64_t index) const {
    const detail::PlanCandidate* candidate = nullptr;
    HIPDNN_CHECK_FRONTEND_ERROR(candidateAt(index, candidate));
    return executeCandidate(*candidate, handle, variantPack, workspace);
}

}  // namespace hipdnn_frontend::graph
