#include "CpuReferenceEngine.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_plugin_sdk/DeviceBuffers.hpp>
#include <hipdnn_plugin_sdk/GraphContextSerialization.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <unordered_map>

namespace cpu_reference_plugin {

using hipdnn_flatbuffers_sdk::EngineConfigWrapper;
using hipdnn_flatbuffers_sdk::GraphWrapper;

CpuReferenceExecutionContext::CpuReferenceExecutionContext(
    std::shared_ptr<const hipdnn_test_sdk::CpuGraphExecutor> executor, GraphWrapper graph)
    : _executor(std::move(executor)), _graph(std::move(graph)) {}

std::vector<uint8_t> CpuReferenceExecutionContext::serialize() const {
    return hipdnn_plugin_sdk::serializeGraphContext(_graph);
}

void CpuReferenceExecutionContext::execute(hipdnn_plugin_sdk::PluginHandleBase& /*handle*/,
                                           void* /*workspace*/,
                                           const hipdnn_plugin_sdk::DeviceBuffers& buffers) {
    // Only the tensors the graph reads or writes need a buffer; pass-by-value scalars never do.
    std::unordered_map<int64_t, void*> tensorBuffers;
    for (const auto* uids : {&_graph.inputUids(), &_graph.outputUids()}) {
        for (const int64_t uid : *uids) {
            if (_graph.tensor(uid).value_type() == hipdnn_flatbuffers_sdk::data_objects::TensorValue::NONE) {
                tensorBuffers[uid] = buffers.pointer(uid);
            }
        }
    }
    try {
        _executor->execute(_graph, tensorBuffers);
    } catch (const hipdnn_test_sdk::GraphExecutionError& error) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM, error.what());
    }
}

CpuReferenceEngine::CpuReferenceEngine()
    : IEngine(hipdnn_data_sdk::utilities::CPU_REFERENCE_ENGINE_ID),
      _executor(std::make_shared<const hipdnn_test_sdk::CpuGraphExecutor>()) {}

bool CpuReferenceEngine::isApplicable(CpuReferenceHandle& /*handle*/, const GraphWrapper& graph,
                                      std::string& reason) const {
    return _executor->canExecute(graph, reason);
}

std::vector<hipdnn_flatbuffers_sdk::data_objects::BehaviorNote> CpuReferenceEngine::behaviorNotes() const {
    // Every reference accumulates sequentially per output element: bitwise reproducible.
    return {hipdnn_flatbuffers_sdk::data_objects::BehaviorNote::DETERMINISTIC,
            hipdnn_flatbuffers_sdk::data_objects::BehaviorNote::SUPPORTS_EXECUTION_PLAN_SERIALIZATION};
}

std::size_t CpuReferenceEngine::workspaceSize(CpuReferenceHandle& /*handle*/,
                                              const EngineConfigWrapper& /*config*/,
                                              const GraphWrapper& /*graph*/) const {
    return 0;
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> CpuReferenceEngine::createExecutionContext(
    CpuReferenceHandle& /*handle*/, const EngineConfigWrapper& /*config*/, const GraphWrapper& graph) const {
    return contextFor(graph);
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> CpuReferenceEngine::deserializeExecutionContext(
    CpuReferenceHandle& /*handle*/, std::span<const uint8_t> bytes) const {
    return contextFor(hipdnn_plugin_sdk::graphOfSerializedContext(bytes, name()));
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> CpuReferenceEngine::contextFor(
    const GraphWrapper& graph) const {
    std::string reason;
    if (!_executor->canExecute(graph, reason)) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, reason);
    }
    return std::make_unique<CpuReferenceExecutionContext>(_executor, graph);
}

}  // namespace cpu_reference_plugin
