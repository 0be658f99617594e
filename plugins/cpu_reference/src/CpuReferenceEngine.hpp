// CPU_REFERENCE_ENGINE: runs any graph the test SDK's CpuGraphExecutor can run, exactly and
// slowly, in the graph's compute type. It is the validation oracle other engines are compared
// with, and the engine of last resort on the CPU.
#pragma once

#include <hipdnn_plugin_sdk/IEngine.hpp>
#include <hipdnn_plugin_sdk/IExecutionContext.hpp>
#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>
#include <hipdnn_test_sdk/CpuGraphExecutor.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace cpu_reference_plugin {

/// Per-backend-handle state: the CPU needs none beyond the base (the stream is ignored).
class CpuReferenceHandle : public hipdnn_plugin_sdk::PluginHandleBase {};

/// A built plan: its own copy of the graph and the executor that runs it. Needs no workspace:
/// the executor allocates its intermediates on the host.
class CpuReferenceExecutionContext : public hipdnn_plugin_sdk::IExecutionContext {
public:
    CpuReferenceExecutionContext(std::shared_ptr<const hipdnn_test_sdk::CpuGraphExecutor> executor,
                                 hipdnn_flatbuffers_sdk::GraphWrapper graph);

    std::size_t workspaceSize() const override { return 0; }
    /// The graph alone: CpuReferenceEngine::deserializeExecutionContext rebuilds the context from it.
    std::vector<uint8_t> serialize() const override;
    void execute(hipdnn_plugin_sdk::PluginHandleBase& handle, void* workspace,
                 const hipdnn_plugin_sdk::DeviceBuffers& buffers) override;

private:
    std::shared_ptr<const hipdnn_test_sdk::CpuGraphExecutor> _executor;
    hipdnn_flatbuffers_sdk::GraphWrapper _graph;
};

class CpuReferenceEngine : public hipdnn_plugin_sdk::IEngine<CpuReferenceHandle> {
public:
    CpuReferenceEngine();

    /// Applicable exactly when CpuGraphExecutor::canExecute() says yes; otherwise `reason` is the
    /// executor's (which node, which op, and why).
    bool isApplicable(CpuReferenceHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                      std::string& reason) const override;

    std::vector<hipdnn_flatbuffers_sdk::data_objects::BehaviorNote> behaviorNotes() const override;

    std::size_t workspaceSize(CpuReferenceHandle& handle,
                              const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                              const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;

    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> createExecutionContext(
        CpuReferenceHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;

    /// From IExecutionContext::serialize()'s bytes: BAD_PARAM when they are not a graph,
    /// NOT_APPLICABLE when the engine does not run it.
    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> deserializeExecutionContext(
        CpuReferenceHandle& handle, std::span<const uint8_t> bytes) const override;

private:
    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> contextFor(
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const;

    // Shared by every context: the registry is immutable after construction.
    std::shared_ptr<const hipdnn_test_sdk::CpuGraphExecutor> _executor;
};

}  // namespace cpu_reference_plugin
