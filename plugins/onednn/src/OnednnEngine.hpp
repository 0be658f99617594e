// The ONEDNN_ENGINE engine: graphs partitioned into fused stages, each run by a oneDNN primitive
// created at plan time.
#pragma once

#include "FusionMatcher.hpp"
#include "PlanStep.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_plugin_sdk/IEngine.hpp>
#include <hipdnn_plugin_sdk/IExecutionContext.hpp>
#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace hipdnn_onednn {

/// Per backend handle: one oneDNN CPU engine and one in-order stream. oneDNN's threading runtime
/// (OpenMP in Debian's build) parallelizes each primitive.
class OnednnHandle : public hipdnn_plugin_sdk::PluginHandleBase {
public:
    OnednnHandle() : _engine(dnnl::engine::kind::cpu, 0), _stream(_engine) {}

    const dnnl::engine& dnnlEngine() const { return _engine; }
    dnnl::stream& dnnlStream() { return _stream; }

private:
    dnnl::engine _engine;
    dnnl::stream _stream;
};

/// Every primitive of a graph, created once; execute binds the user's pointers and runs them.
/// Workspace layout, from the first 64-byte boundary of the user's workspace (the reported size
/// includes the slack, so any pointer works): [shared scratchpad][each step's private
/// area][virtual tensors].
class OnednnExecutionContext : public hipdnn_plugin_sdk::IExecutionContext {
public:
    /// Throws Decline naming the node when a stage cannot be built.
    OnednnExecutionContext(const dnnl::engine& engine, const hipdnn_flatbuffers_sdk::GraphWrapper& graph);

    size_t workspaceSize() const override { return _workspaceBytes; }

    /// The graph the context was built from: OnednnEngine::deserializeExecutionContext builds the
    /// same primitives from it (no knob changes the plan).
    std::vector<uint8_t> serialize() const override { return _serialized; }

    void execute(hipdnn_plugin_sdk::PluginHandleBase& handle, void* workspace,
                 const hipdnn_plugin_sdk::DeviceBuffers& buffers) override;

    /// The stages the graph was partitioned into (for logs and tests).
    const std::vector<Stage>& stages() const { return _stages; }

private:
    std::vector<uint8_t> _serialized;
    std::vector<Stage> _stages;
    std::vector<std::unique_ptr<PlanStep>> _steps;
    std::vector<size_t> _privateOffsets;                  // per step
    std::unordered_map<int64_t, size_t> _virtualOffsets;  // uid -> workspace offset
    std::unordered_map<int64_t, float> _constants;        // pass-by-value scalars
    size_t _scratchpadBytes = 0;
    size_t _workspaceBytes = 0;
    // Executes rebind the shared memory objects, so one context runs one execute at a time.
    std::mutex _executeMutex;
};

/// Builds the oneDNN step for one stage (dispatch on its kind).
std::unique_ptr<PlanStep> buildStep(const dnnl::engine& engine,
                                    const hipdnn_flatbuffers_sdk::GraphWrapper& graph, const Stage& stage);

class OnednnEngine : public hipdnn_plugin_sdk::IEngine<OnednnHandle> {
public:
    OnednnEngine();

    bool isApplicable(OnednnHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                      std::string& reason) const override;

    std::vector<hipdnn_flatbuffers_sdk::data_objects::BehaviorNote> behaviorNotes() const override;

    size_t workspaceSize(OnednnHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                         const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;

    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> createExecutionContext(
        OnednnHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;

    /// From IExecutionContext::serialize()'s bytes: BAD_PARAM when they are not a graph,
    /// NOT_APPLICABLE when the engine does not run it.
    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> deserializeExecutionContext(
        OnednnHandle& handle, std::span<const uint8_t> bytes) const override;

private:
    /// Plans the graph; Decline becomes PluginError(NOT_APPLICABLE).
    std::unique_ptr<OnednnExecutionContext> plan(OnednnHandle& handle,
                                                 const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const;
};

}  // namespace hipdnn_onednn
