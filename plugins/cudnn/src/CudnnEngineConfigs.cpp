#include "CudnnEngineConfigs.hpp"

#include "EnumMapping.hpp"

#include <algorithm>

namespace hipdnn_cudnn_plugin {

namespace {

// Upper bounds for the descriptor arrays cuDNN fills.
constexpr int64_t kMaxKnobs = CUDNN_KNOB_TYPE_COUNTS;
constexpr int64_t kMaxNotes = CUDNN_NUMERICAL_NOTE_TYPE_COUNT;

EngineConfigCandidate describeCandidate(std::shared_ptr<CudnnDescriptor> config) {
    EngineConfigCandidate candidate;
    std::vector<CudnnDescriptor> engine =
        config->getDescriptors(CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_BACKEND_ENGINE_DESCRIPTOR, 1);
    candidate.globalIndex = engine.at(0).getScalar<int64_t>(CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64);
    std::vector<cudnnBackendNumericalNote_t> notes(kMaxNotes);
    const int64_t noteCount = engine.at(0).get(CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE,
                                               kMaxNotes, notes.data());
    notes.resize(static_cast<size_t>(std::min(noteCount, kMaxNotes)));
    const auto hasNote = [&](cudnnBackendNumericalNote_t note) {
        return std::find(notes.begin(), notes.end(), note) != notes.end();
    };
    candidate.nondeterministic = hasNote(CUDNN_NUMERICAL_NOTE_NONDETERMINISTIC);
    candidate.reducedPrecisionForFloat =
        hasNote(CUDNN_NUMERICAL_NOTE_TENSOR_CORE) || hasNote(CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS);
    for (const CudnnDescriptor& choice : config->getDescriptors(
             CUDNN_ATTR_ENGINECFG_KNOB_CHOICES, CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, kMaxKnobs)) {
        const auto type =
            choice.getScalar<cudnnBackendKnobType_t>(CUDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, CUDNN_TYPE_KNOB_TYPE);
        const auto value = choice.getScalar<int64_t>(CUDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, CUDNN_TYPE_INT64);
        candidate.knobChoices.push_back({static_cast<int64_t>(type), value});
    }
    candidate.config = std::move(config);
    return candidate;
}

}  // namespace

std::vector<EngineConfigCandidate> queryHeuristics(const CudnnDescriptor& operationGraph,
                                                   cudnnBackendHeurMode_t mode) {
    CudnnDescriptor heuristics(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    heuristics.setDescriptor(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, operationGraph);
    heuristics.setScalar(CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, mode);
    heuristics.finalize("ENGINEHEUR mode " + std::string(heuristicModeName(mode)));
    const int64_t count =
        heuristics.get(CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, nullptr);
    std::vector<EngineConfigCandidate> candidates;
    for (CudnnDescriptor& config : heuristics.getDescriptors(CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                                             CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, count)) {
        try {
            candidates.push_back(describeCandidate(std::make_shared<CudnnDescriptor>(std::move(config))));
        } catch (const CudnnError&) {
            // A result cuDNN cannot describe (it failed its own finalization) cannot be planned.
        }
    }
    return candidates;
}

std::vector<EngineConfigCandidate> enumerateEngines(const CudnnDescriptor& operationGraph) {
    const auto count =
        operationGraph.getScalar<int64_t>(CUDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT, CUDNN_TYPE_INT64);
    std::vector<EngineConfigCandidate> candidates;
    for (int64_t index = 0; index < count; ++index) {
        try {
            candidates.push_back(describeCandidate(
                std::make_shared<CudnnDescriptor>(makeEngineConfig(operationGraph, index, {}))));
        } catch (const CudnnError&) {
            // Most engines do not support a given graph; finalizing their ENGINE says so.
        }
    }
    return candidates;
}

std::vector<KnobInfo> queryKnobInfos(const CudnnDescriptor& operationGraph, int64_t globalIndex) {
    CudnnDescriptor engine(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
    engine.setDescriptor(CUDNN_ATTR_ENGINE_OPERATION_GRAPH, operationGraph);
    engine.setScalar(CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, globalIndex);
    engine.finalize("ENGINE " + std::to_string(globalIndex));
    std::vector<KnobInfo> infos;
    for (const CudnnDescriptor& info :
         engine.getDescriptors(CUDNN_ATTR_ENGINE_KNOB_INFO, CUDNN_BACKEND_KNOB_INFO_DESCRIPTOR, kMaxKnobs)) {
        KnobInfo knob;
        knob.type = info.getScalar<cudnnBackendKnobType_t>(CUDNN_ATTR_KNOB_INFO_TYPE, CUDNN_TYPE_KNOB_TYPE);
        knob.minimum = info.getScalar<int64_t>(CUDNN_ATTR_KNOB_INFO_MINIMUM_VALUE, CUDNN_TYPE_INT64);
        knob.maximum = info.getScalar<int64_t>(CUDNN_ATTR_KNOB_INFO_MAXIMUM_VALUE, CUDNN_TYPE_INT64);
        knob.stride = info.getScalar<int64_t>(CUDNN_ATTR_KNOB_INFO_STRIDE, CUDNN_TYPE_INT64);
        infos.push_back(knob);
    }
    return infos;
}

CudnnDescriptor makeEngineConfig(const CudnnDescriptor& operationGraph, int64_t globalIndex,
                                 const std::vector<KnobChoice>& choices) {
    CudnnDescriptor engine(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
    engine.setDescriptor(CUDNN_ATTR_ENGINE_OPERATION_GRAPH, operationGraph);
    engine.setScalar(CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, globalIndex);
    engine.finalize("ENGINE " + std::to_string(globalIndex));
    std::vector<CudnnDescriptor> choiceDescriptors;
    std::vector<cudnnBackendDescriptor_t> raw;
    for (const KnobChoice& choice : choices) {
        CudnnDescriptor& descriptor = choiceDescriptors.emplace_back(CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR);
        descriptor.setScalar(CUDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, CUDNN_TYPE_KNOB_TYPE,
                             static_cast<cudnnBackendKnobType_t>(choice.type));
        descriptor.setScalar(CUDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, CUDNN_TYPE_INT64, choice.value);
        descriptor.finalize("KNOB_CHOICE " + knobTypeName(choice.type) + "=" + std::to_string(choice.value));
        raw.push_back(descriptor.get());
    }
    CudnnDescriptor config(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    config.setDescriptor(CUDNN_ATTR_ENGINECFG_ENGINE, engine);
    if (!raw.empty()) {
        config.set(CUDNN_ATTR_ENGINECFG_KNOB_CHOICES, CUDNN_TYPE_BACKEND_DESCRIPTOR,
                   static_cast<int64_t>(raw.size()), raw.data());
    }
    config.finalize("ENGINECFG engine " + std::to_string(globalIndex));
    return config;
}

CudnnDescriptor makeVariantPack(const std::vector<int64_t>& uids, const std::vector<void*>& pointers,
                                void* workspace) {
    CudnnDescriptor pack(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    pack.set(CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, static_cast<int64_t>(uids.size()),
             uids.data());
    pack.set(CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR,
             static_cast<int64_t>(pointers.size()), pointers.data());
    pack.set(CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace);
    pack.finalize("VARIANT_PACK");
    return pack;
}

// The handle attribute is deprecated in cuDNN 9.19 but required by the cuDNN 9.14 the GPU
// machines ship, so it is set on purpose.
void CudnnPlan::setHandle(cudnnHandle_t handle) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    _plan.setScalar(CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, handle);
#pragma GCC diagnostic pop
}

CudnnPlan::CudnnPlan(cudnnHandle_t handle, const CudnnDescriptor& engineConfig) {
    setHandle(handle);
    _plan.setDescriptor(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, engineConfig);
    _plan.finalize("EXECUTION_PLAN");
    _workspaceSize = _plan.getScalar<int64_t>(CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64);
}

CudnnPlan::CudnnPlan(cudnnHandle_t handle, const std::string& json) {
    setHandle(handle);
    _plan.set(CUDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION, CUDNN_TYPE_CHAR,
              static_cast<int64_t>(json.size()), json.data());
    _plan.finalize("EXECUTION_PLAN from JSON");
    _workspaceSize = _plan.getScalar<int64_t>(CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64);
}

std::string CudnnPlan::json() const {
    const int64_t size =
        _plan.get(CUDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION, CUDNN_TYPE_CHAR, 0, nullptr);
    std::string text(static_cast<size_t>(size), '\0');
    const int64_t written =
        _plan.get(CUDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION, CUDNN_TYPE_CHAR, size, text.data());
    text.resize(static_cast<size_t>(std::min(written, size)));
    // The count includes the terminating NUL.
    while (!text.empty() && text.back() == '\0') {
        text.pop_back();
    }
    return text;
}

}  // namespace hipdnn_cudnn_plugin
