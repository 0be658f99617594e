#include "GraphAnalysis.hpp"

#include "EnumMapping.hpp"
#include "GraphTranslator.hpp"
#include "PlanBenchmark.hpp"

#include <hipdnn_data_sdk/logging/CallbackLogger.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <algorithm>
#include <iterator>
#include <set>
#include <sstream>
#include <utility>

namespace hipdnn_cudnn_plugin {

namespace {

void appendFailure(std::string& failures, const std::string& message) {
    if (!failures.empty()) {
        failures += "; ";
    }
    failures += message;
}

// Building a plan can compile kernels (runtime fusion engines); trying every configuration of a
// long heuristics list would make a decline very slow, so only the best few are tried.
constexpr size_t kMaxPlanAttempts = 8;
// global.benchmarking plans and times this many configurations at most: enough for every engine
// of cuDNN 9's global index range, as PyTorch's cudnn.benchmark tries every algorithm.
constexpr size_t kMaxBenchmarkedPlans = 64;
constexpr const char* kLogComponent = "cudnn";

std::vector<KnobChoice> mergeChoices(std::vector<KnobChoice> base, const std::vector<KnobChoice>& overrides) {
    for (const KnobChoice& override : overrides) {
        auto existing = std::find_if(base.begin(), base.end(),
                                     [&](const KnobChoice& choice) { return choice.type == override.type; });
        if (existing != base.end()) {
            existing->value = override.value;
        } else {
            base.push_back(override);
        }
    }
    return base;
}

// True when a convolution or matmul reads or writes fp32 tensors: those must not silently run
// in TF32 (PyTorch's default for cuDNN convolutions is strict fp32 as well).
bool hasFloatOperands(const CudnnGraphSpec& spec, bool matmulOnly) {
    for (const OperationSpec& operation : spec.operations) {
        const bool matmul = operation.type == CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR;
        const bool convolution =
            operation.type == CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR ||
            operation.type == CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR ||
            operation.type == CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR;
        const bool math = matmul || (!matmulOnly && convolution);
        for (const TensorPort& port : operation.ports) {
            for (int64_t uid : port.uids) {
                const TensorSpec& tensor = spec.tensors.at(uid);
                if (math && !tensor.isVirtual && !tensor.workspaceOffset &&
                    tensor.dataType == CUDNN_DATA_FLOAT) {
                    return true;
                }
            }
        }
    }
    return false;
}

[[noreturn]] void notApplicable(const std::string& message) {
    throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, message);
}

}  // namespace

std::string PlanRequest::key() const {
    std::string text(heuristicModeName(mode));
    text += modeExplicit ? "!" : "?";
    text += deterministic ? "|det|" : "|any|";
    text += allowTf32 ? "tf32|" : "fp32|";
    text += engineIndex ? std::to_string(*engineIndex) : std::string("auto");
    text += engineConfig ? "|config=" + *engineConfig : std::string();
    text += benchmark ? "|timed" : "";
    for (const KnobChoice& choice : knobOverrides) {
        text += '|';
        text += std::to_string(choice.type);
        text += '=';
        text += std::to_string(choice.value);
    }
    return text;
}

GraphAnalysis::GraphAnalysis(cudnnHandle_t handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) {
    try {
        _spec = translateGraph(graph, TranslationTarget{cudnnGetVersion()});
        _hasFloatMathOperands = hasFloatOperands(_spec, false);
        _hasFloatMatmulOperands = hasFloatOperands(_spec, true);
        _operationGraph = std::make_unique<CudnnOperationGraph>(handle, _spec);
    } catch (const TranslationError& error) {
        _declineReason = error.what();
    } catch (const CudnnError& error) {
        _declineReason = error.what();
    }
}

std::vector<EngineConfigCandidate> GraphAnalysis::candidates(cudnnBackendHeurMode_t mode, bool deterministic,
                                                             bool allowTf32) {
    std::lock_guard lock(_mutex);
    auto found = _candidates.find(static_cast<int>(mode));
    if (found == _candidates.end()) {
        found =
            _candidates.emplace(static_cast<int>(mode), queryHeuristics(_operationGraph->descriptor(), mode))
                .first;
    }
    return admitted(found->second, deterministic, allowTf32);
}

std::vector<EngineConfigCandidate> GraphAnalysis::allEngines(bool deterministic, bool allowTf32) {
    std::lock_guard lock(_mutex);
    if (!_allEngines) {
        _allEngines = enumerateEngines(_operationGraph->descriptor());
    }
    return admitted(*_allEngines, deterministic, allowTf32);
}

std::vector<EngineConfigCandidate> GraphAnalysis::configurations(bool deterministic, bool allowTf32) {
    std::vector<EngineConfigCandidate> all;
    std::set<std::pair<int64_t, std::vector<KnobChoice>>> seen;
    const auto add = [&](const std::vector<EngineConfigCandidate>& listed) {
        for (const EngineConfigCandidate& candidate : listed) {
            if (seen.emplace(candidate.globalIndex, candidate.knobChoices).second) {
                all.push_back(candidate);
            }
        }
    };
    // A mode or the enumeration that fails only offers fewer configurations: a plan that needs
    // one reports the failure.
    for (cudnnBackendHeurMode_t mode : {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_B, CUDNN_HEUR_MODE_FALLBACK}) {
        try {
            add(candidates(mode, deterministic, allowTf32));
        } catch (const CudnnError&) {
        }
    }
    try {
        add(allEngines(deterministic, allowTf32));
    } catch (const CudnnError&) {
    }
    return all;
}

std::string configurationName(const EngineConfigCandidate& candidate) {
    std::string name = std::to_string(candidate.globalIndex);
    for (const KnobChoice& choice : candidate.knobChoices) {
        name += ',';
        name += knobTypeName(choice.type);
        name += '=';
        name += std::to_string(choice.value);
    }
    return name;
}

std::vector<EngineConfigCandidate> GraphAnalysis::admitted(const std::vector<EngineConfigCandidate>& all,
                                                           bool deterministic, bool allowTf32) const {
    std::vector<EngineConfigCandidate> selected;
    for (const EngineConfigCandidate& candidate : all) {
        const bool precisionOk = allowTf32 || !_hasFloatMathOperands || !candidate.reducedPrecisionForFloat;
        if ((!deterministic || !candidate.nondeterministic) && precisionOk) {
            selected.push_back(candidate);
        }
    }
    return selected;
}

std::vector<KnobInfo> GraphAnalysis::knobInfos(int64_t globalIndex) {
    std::lock_guard lock(_mutex);
    auto found = _knobInfos.find(globalIndex);
    if (found == _knobInfos.end()) {
        found =
            _knobInfos.emplace(globalIndex, queryKnobInfos(_operationGraph->descriptor(), globalIndex)).first;
    }
    return found->second;
}

std::shared_ptr<CudnnPlan> GraphAnalysis::plan(cudnnHandle_t handle, const PlanRequest& request) {
    if (!translated()) {
        notApplicable(_declineReason);
    }
    const std::string key = request.key();
    {
        std::lock_guard lock(_mutex);
        if (auto found = _plans.find(key); found != _plans.end()) {
            return found->second;
        }
        if (auto failed = _planFailures.find(key); failed != _planFailures.end()) {
            notApplicable(failed->second);
        }
    }
    try {
        std::shared_ptr<CudnnPlan> built = buildPlan(handle, request);
        std::lock_guard lock(_mutex);
        return _plans.emplace(key, std::move(built)).first->second;
    } catch (const hipdnn_plugin_sdk::PluginError& error) {
        std::lock_guard lock(_mutex);
        _planFailures.emplace(key, error.what());
        throw;
    }
}

std::shared_ptr<CudnnPlan> GraphAnalysis::buildPlan(cudnnHandle_t handle, const PlanRequest& request) {
    if (_hasFloatMatmulOperands && !request.allowTf32) {
        // Observed on H200 with cuDNN 9.19: matmul engines without the TENSOR_CORE note still
        // round fp32 operands to TF32, so strict fp32 cannot be promised.
        notApplicable(
            "fp32 matmul: cuDNN's matmul engines compute fp32 in TF32; set cudnn.allow_tf32=1 to "
            "accept TF32 [" +
            _spec.describeOperations() + "]");
    }
    if (request.engineConfig) {
        return configurationPlan(handle, request);
    }
    if (request.benchmark && !request.engineIndex) {
        if (std::shared_ptr<CudnnPlan> fastest = fastestPlan(handle, request)) {
            return fastest;
        }
    }
    std::string failures;
    if (std::shared_ptr<CudnnPlan> built = tryMode(handle, request, request.mode, failures)) {
        return built;
    }
    // Some graphs (e.g. pointwise-only ones) are ranked by the fallback heuristics alone.
    if (!request.modeExplicit && request.mode != CUDNN_HEUR_MODE_FALLBACK) {
        if (std::shared_ptr<CudnnPlan> built = tryMode(handle, request, CUDNN_HEUR_MODE_FALLBACK, failures)) {
            return built;
        }
    }
    // An index the knob lists from mode B or from the engines no heuristics ranked.
    if (request.engineIndex && !request.modeExplicit) {
        if (std::shared_ptr<CudnnPlan> built = tryMode(handle, request, CUDNN_HEUR_MODE_B, failures)) {
            return built;
        }
        if (std::shared_ptr<CudnnPlan> built = tryUnranked(handle, request, failures)) {
            return built;
        }
    }
    notApplicable(failures + " [" + _spec.describeOperations() + "]");
}

std::shared_ptr<CudnnPlan> GraphAnalysis::tryMode(cudnnHandle_t handle, const PlanRequest& request,
                                                  cudnnBackendHeurMode_t mode, std::string& failures) {
    const std::string modeName(heuristicModeName(mode));
    std::string kind = request.deterministic ? "deterministic engine configuration" : "engine configuration";
    if (_hasFloatMathOperands && !request.allowTf32) {
        kind = "full-fp32 " + kind;
    }
    const auto fail = [&](const std::string& message) {
        appendFailure(failures, message);
        return nullptr;
    };
    std::vector<EngineConfigCandidate> options;
    try {
        options = candidates(mode, request.deterministic, request.allowTf32);
    } catch (const CudnnError& error) {
        return fail("cuDNN heuristics mode " + modeName + " failed: " + error.what());
    }
    if (options.empty()) {
        return fail("cuDNN heuristics mode " + modeName + " returned no " + kind + " for this graph");
    }
    if (request.engineIndex) {
        std::string valid;
        std::vector<EngineConfigCandidate> chosen;
        for (const EngineConfigCandidate& candidate : options) {
            if (!valid.empty()) {
                valid += ", ";
            }
            valid += std::to_string(candidate.globalIndex);
            if (candidate.globalIndex == *request.engineIndex) {
                chosen.push_back(candidate);
            }
        }
        if (chosen.empty()) {
            return fail("cuDNN engine " + std::to_string(*request.engineIndex) + " is not among the " + kind +
                        "s heuristics mode " + modeName + " returns for this graph (" + valid + ")");
        }
        options = std::move(chosen);
    }
    const size_t attempts = std::min(options.size(), kMaxPlanAttempts);
    for (size_t i = 0; i < attempts; ++i) {
        const EngineConfigCandidate& candidate = options[i];
        try {
            return planFor(handle, candidate, request);
        } catch (const CudnnError& error) {
            fail("mode " + modeName + " engine " + std::to_string(candidate.globalIndex) + ": " +
                 error.what());
        }
    }
    return nullptr;
}

std::shared_ptr<CudnnPlan> GraphAnalysis::configurationPlan(cudnnHandle_t handle,
                                                            const PlanRequest& request) {
    const std::string& wanted = *request.engineConfig;
    std::string offered;
    for (const EngineConfigCandidate& candidate : configurations(request.deterministic, request.allowTf32)) {
        const std::string name = configurationName(candidate);
        if (name == wanted) {
            try {
                return planFor(handle, candidate, request);
            } catch (const CudnnError& error) {
                notApplicable("cuDNN configuration " + wanted + ": " + error.what() + " [" +
                              _spec.describeOperations() + "]");
            }
        }
        offered += offered.empty() ? "" : "; ";
        offered += name;
    }
    notApplicable("cuDNN configuration " + wanted + " is not among the " +
                  (request.deterministic ? "deterministic " : "") +
                  (_hasFloatMathOperands && !request.allowTf32 ? "full-fp32 " : "") +
                  "configurations cuDNN offers for this graph (" + offered + ") [" +
                  _spec.describeOperations() + "]");
}

std::shared_ptr<CudnnPlan> GraphAnalysis::tryUnranked(cudnnHandle_t handle, const PlanRequest& request,
                                                      std::string& failures) {
    const std::string engine = "cuDNN engine " + std::to_string(*request.engineIndex);
    try {
        for (const EngineConfigCandidate& candidate : allEngines(request.deterministic, request.allowTf32)) {
            if (candidate.globalIndex == *request.engineIndex) {
                return planFor(handle, candidate, request);
            }
        }
    } catch (const CudnnError& error) {
        appendFailure(failures, engine + " outside the heuristics' lists: " + error.what());
        return nullptr;
    }
    appendFailure(failures, engine + " is not among the engines that support this graph" +
                                (request.deterministic ? " deterministically" : "") +
                                (_hasFloatMathOperands && !request.allowTf32 ? " in full fp32" : ""));
    return nullptr;
}

std::shared_ptr<CudnnPlan> GraphAnalysis::planFor(cudnnHandle_t handle,
                                                  const EngineConfigCandidate& candidate,
                                                  const PlanRequest& request) const {
    if (request.knobOverrides.empty()) {
        return std::make_shared<CudnnPlan>(handle, *candidate.config);
    }
    const CudnnDescriptor config =
        makeEngineConfig(_operationGraph->descriptor(), candidate.globalIndex,
                         mergeChoices(candidate.knobChoices, request.knobOverrides));
    return std::make_shared<CudnnPlan>(handle, config);
}

std::shared_ptr<CudnnPlan> GraphAnalysis::fastestPlan(cudnnHandle_t handle, const PlanRequest& request) {
    // Every configuration cuDNN offers; an explicit mode keeps to its own list.
    std::vector<EngineConfigCandidate> options;
    if (!request.modeExplicit) {
        options = configurations(request.deterministic, request.allowTf32);
    } else {
        try {
            options = candidates(request.mode, request.deterministic, request.allowTf32);
        } catch (const CudnnError&) {
            // The plain path reports heuristics failures.
        }
    }
    std::vector<std::shared_ptr<CudnnPlan>> plans;
    std::vector<int64_t> engines;
    for (const EngineConfigCandidate& candidate : options) {
        if (plans.size() == kMaxBenchmarkedPlans) {
            break;
        }
        try {
            plans.push_back(planFor(handle, candidate, request));
            engines.push_back(candidate.globalIndex);
        } catch (const CudnnError&) {
            // Not every configuration builds; the others are still timed.
        }
    }
    if (plans.empty()) {
        return nullptr;
    }
    std::vector<double> milliseconds;
    try {
        milliseconds = timePlans(handle, _spec, plans);
    } catch (const hipdnn_plugin_sdk::PluginError& error) {
        HIPDNN_SDK_LOG_WARN(
            kLogComponent,
            "global.benchmarking could not time the plans, keeping the best ranked: " << error.what());
        return plans.front();
    }
    const size_t best = static_cast<size_t>(
        std::distance(milliseconds.begin(), std::min_element(milliseconds.begin(), milliseconds.end())));
    std::ostringstream timings;
    for (size_t i = 0; i < plans.size(); ++i) {
        timings << (i == 0 ? "" : ", ") << "engine " << engines[i] << " " << milliseconds[i] << " ms";
    }
    HIPDNN_SDK_LOG_INFO(kLogComponent, "global.benchmarking chose cuDNN engine " << engines[best] << " for ["
                                                                                 << _spec.describeOperations()
                                                                                 << "]: " << timings.str());
    return plans[best];
}

}  // namespace hipdnn_cudnn_plugin
