// Everything the plugin learns about one graph, computed once per plugin handle and shared by
// the backend's successive calls (applicability, engine details, workspace, context): the
// translated cuDNN graph, the finalized operation graph, heuristics results per mode, engine
// knob information and the execution plans built so far.
#pragma once

#include "CudnnEngineConfigs.hpp"
#include "CudnnGraphSpec.hpp"
#include "CudnnOperationGraph.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_cudnn_plugin {

/// Which configuration to plan: the heuristics mode, optionally one engine (global index), knob
/// values that replace the heuristics' choices, and whether only deterministic engines qualify.
struct PlanRequest {
    cudnnBackendHeurMode_t mode = CUDNN_HEUR_MODE_A;
    /// False: the mode was not chosen, so FALLBACK is tried when mode A yields no plan.
    bool modeExplicit = false;
    /// Let fp32 convolutions and matmuls run on TF32 tensor cores (off: strict fp32).
    bool allowTf32 = false;
    std::optional<int64_t> engineIndex;
    /// One configuration by its configurationName (takes precedence over engineIndex).
    std::optional<std::string> engineConfig;
    std::vector<KnobChoice> knobOverrides;
    bool deterministic = false;
    /// global.benchmarking: time the ranked configurations and keep the fastest (ignored when an
    /// engine index or configuration is chosen).
    bool benchmark = false;

    std::string key() const;
};

/// A configuration as the cudnn.engine.config knob names it: "<global index>[,<KNOB>=<value>...]"
/// with cuDNN's knob type names (e.g. "70,TILE_SIZE=2,SPLIT_K_SLC=1").
std::string configurationName(const EngineConfigCandidate& candidate);

class GraphAnalysis {
public:
    /// Translates and finalizes the graph; a graph cuDNN cannot express is recorded, not thrown.
    GraphAnalysis(cudnnHandle_t handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph);

    /// False when translation or the operation graph failed; declineReason() says why.
    bool translated() const noexcept { return _operationGraph != nullptr; }
    const std::string& declineReason() const noexcept { return _declineReason; }
    const CudnnGraphSpec& spec() const noexcept { return _spec; }

    /// Heuristics results for `mode` (cached), restricted to deterministic engines and, unless
    /// TF32 is allowed, to full-precision engines for fp32 convolution/matmul operands.
    std::vector<EngineConfigCandidate> candidates(cudnnBackendHeurMode_t mode, bool deterministic,
                                                  bool allowTf32);
    /// Every engine that supports the graph (enumerateEngines, cached), filtered as candidates().
    std::vector<EngineConfigCandidate> allEngines(bool deterministic, bool allowTf32);
    /// Every distinct configuration (engine and knob choices) cuDNN offers for the graph, in the
    /// order global.benchmarking times them: those heuristics modes A, B and FALLBACK rank (they
    /// propose different knob choices for the same engines), then the engines no mode ranked.
    std::vector<EngineConfigCandidate> configurations(bool deterministic, bool allowTf32);
    /// The knobs of engine `globalIndex` (cached).
    std::vector<KnobInfo> knobInfos(int64_t globalIndex);

    /// The execution plan for `request` (cached). Throws PluginError(NOT_APPLICABLE) carrying
    /// cuDNN's reasons when no configuration can be planned.
    std::shared_ptr<CudnnPlan> plan(cudnnHandle_t handle, const PlanRequest& request);

private:
    /// The configurations of `all` that `deterministic` and `allowTf32` admit.
    std::vector<EngineConfigCandidate> admitted(const std::vector<EngineConfigCandidate>& all,
                                                bool deterministic, bool allowTf32) const;
    std::shared_ptr<CudnnPlan> buildPlan(cudnnHandle_t handle, const PlanRequest& request);
    std::shared_ptr<CudnnPlan> tryMode(cudnnHandle_t handle, const PlanRequest& request,
                                       cudnnBackendHeurMode_t mode, std::string& failures);
    /// The plan of the requested configuration (throws NOT_APPLICABLE naming the offered ones).
    std::shared_ptr<CudnnPlan> configurationPlan(cudnnHandle_t handle, const PlanRequest& request);
    /// The plan of the requested engine index among the engines no heuristics mode ranked (null,
    /// with the reason appended to `failures`, when it is not one of them or fails to build).
    std::shared_ptr<CudnnPlan> tryUnranked(cudnnHandle_t handle, const PlanRequest& request,
                                           std::string& failures);
    /// The fastest of the first configurations the request's heuristics rank (null when none
    /// can be planned).
    std::shared_ptr<CudnnPlan> fastestPlan(cudnnHandle_t handle, const PlanRequest& request);
    /// The plan of one ranked configuration with the request's knob overrides (throws CudnnError).
    std::shared_ptr<CudnnPlan> planFor(cudnnHandle_t handle, const EngineConfigCandidate& candidate,
                                       const PlanRequest& request) const;

    std::mutex _mutex;
    CudnnGraphSpec _spec;
    std::unique_ptr<CudnnOperationGraph> _operationGraph;
    std::string _declineReason;
    bool _hasFloatMathOperands = false;
    bool _hasFloatMatmulOperands = false;
    std::map<int, std::vector<EngineConfigCandidate>> _candidates;
    std::optional<std::vector<EngineConfigCandidate>> _allEngines;
    std::map<int64_t, std::vector<KnobInfo>> _knobInfos;
    std::map<std::string, std::shared_ptr<CudnnPlan>> _plans;
    std::map<std::string, std::string> _planFailures;
};

}  // namespace hipdnn_cudnn_plugin
