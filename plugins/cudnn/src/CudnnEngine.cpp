#include "CudnnEngine.hpp"

#include "CudnnEstimates.hpp"
#include "CudnnExecutionContext.hpp"
#include "CudnnKnobs.hpp"
#include "GraphAnalysis.hpp"

namespace hipdnn_cudnn_plugin {

namespace fbo = hipdnn_flatbuffers_sdk::data_objects;

std::optional<double> CudnnEngine::estimatedSeconds(CudnnHandle& handle,
                                                    const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    return hipdnn_plugin_sdk::estimateSeconds(
        graph, handle.ceilings(),
        [](const hipdnn_plugin_sdk::GraphClass& c) { return measuredEfficiency(c); });
}

bool CudnnEngine::isApplicable(CudnnHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                               std::string& reason) const {
    const std::shared_ptr<GraphAnalysis> analysis = handle.analysis(graph);
    if (!analysis->translated()) {
        reason = analysis->declineReason();
        return false;
    }
    if (_deterministic && !analysis->spec().nondeterminism.empty()) {
        reason = analysis->spec().nondeterminism;
        return false;
    }
    // Planning the default configuration is the only reliable test (heuristics may rank
    // configurations that then fail); the plan is cached for createExecutionContext.
    PlanRequest request;
    request.deterministic = _deterministic;
    try {
        analysis->plan(handle.cudnn(), request);
    } catch (const hipdnn_plugin_sdk::PluginError& error) {
        reason = error.what();
        return false;
    }
    return true;
}

std::vector<hipdnn_flatbuffers_sdk::KnobDescription> CudnnEngine::knobs(
    CudnnHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    return describeKnobs(*handle.analysis(graph), _deterministic);
}

std::vector<fbo::BehaviorNote> CudnnEngine::behaviorNotes() const {
    std::vector<fbo::BehaviorNote> notes = {fbo::BehaviorNote::EXTERNAL_LIBRARY_DEPENDENCY,
                                            fbo::BehaviorNote::SUPPORTS_EXECUTION_PLAN_SERIALIZATION};
    if (_deterministic) {
        notes.push_back(fbo::BehaviorNote::DETERMINISTIC);
    }
    return notes;
}

std::size_t CudnnEngine::workspaceSize(CudnnHandle& handle,
                                       const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                                       const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    const std::shared_ptr<GraphAnalysis> analysis = handle.analysis(graph);
    return static_cast<std::size_t>(
        analysis->spec().internalWorkspaceBytes +
        analysis->plan(handle.cudnn(), planRequestFrom(config, _deterministic))->workspaceSize());
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> CudnnEngine::createExecutionContext(
    CudnnHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
    const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    std::shared_ptr<GraphAnalysis> analysis = handle.analysis(graph);
    std::shared_ptr<CudnnPlan> plan = analysis->plan(handle.cudnn(), planRequestFrom(config, _deterministic));
    return std::make_unique<CudnnExecutionContext>(std::move(plan), PlanBindings::fromSpec(analysis->spec()),
                                                   std::move(analysis));
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> CudnnEngine::deserializeExecutionContext(
    CudnnHandle& handle, std::span<const uint8_t> bytes) const {
    return CudnnExecutionContext::deserialize(handle.cudnn(), bytes);
}

}  // namespace hipdnn_cudnn_plugin
