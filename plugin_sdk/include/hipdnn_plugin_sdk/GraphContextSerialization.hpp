// Plan serialization for engines whose execution context is a function of the graph alone (no
// knob or other state changes the plan it builds): the serialized context is the graph's
// FlatBuffer, and deserializing rebuilds the context from that graph, as the first build did.
#pragma once

#include <hipdnn_flatbuffers_sdk/FlatbufferError.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "IEngine.hpp"
#include "IExecutionContext.hpp"
#include "PluginError.hpp"

namespace hipdnn_plugin_sdk {

/// What IExecutionContext::serialize() returns for a context built from `graph` alone.
inline std::vector<uint8_t> serializeGraphContext(const hipdnn_flatbuffers_sdk::GraphWrapper& graph) {
    return {graph.data(), graph.data() + graph.size()};
}

/// The verified graph of bytes serializeGraphContext produced; PluginError(BAD_PARAM) naming the
/// engine and the graph's problem when they are not a valid graph.
inline hipdnn_flatbuffers_sdk::GraphWrapper graphOfSerializedContext(std::span<const uint8_t> bytes,
                                                                     const std::string& engineName) {
    try {
        return {bytes.data(), bytes.size()};
    } catch (const hipdnn_flatbuffers_sdk::FlatbufferError& error) {
        throw PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                          "the serialized execution context of " + engineName + " (" +
                              std::to_string(bytes.size()) + " bytes) is not a valid graph: " + error.what());
    }
}

/// A context built from its graph alone, made serializable: it runs `inner` and serializes as
/// serializeGraphContext(graph), so that the engine's deserializeExecutionContext rebuilds it from
/// graphOfSerializedContext(bytes) as the first build did.
class GraphSerializedContext final : public IExecutionContext {
public:
    GraphSerializedContext(std::unique_ptr<IExecutionContext> inner,
                           const hipdnn_flatbuffers_sdk::GraphWrapper& graph)
        : _inner(std::move(inner)), _graph(serializeGraphContext(graph)) {}

    std::size_t workspaceSize() const override { return _inner->workspaceSize(); }
    void execute(PluginHandleBase& handle, void* workspace, const DeviceBuffers& buffers) override {
        _inner->execute(handle, workspace, buffers);
    }
    std::vector<uint8_t> serialize() const override { return _graph; }

private:
    std::unique_ptr<IExecutionContext> _inner;
    std::vector<uint8_t> _graph;
};

/// An engine whose execution contexts are a function of the graph alone (no knob changes the plan
/// it builds): contextFor builds them, and they serialize as their graph, from which
/// deserializeExecutionContext builds them again.
template <class THandle>
class GraphSerializedEngine : public IEngine<THandle> {
public:
    using IEngine<THandle>::IEngine;

    std::vector<hipdnn_flatbuffers_sdk::data_objects::BehaviorNote> behaviorNotes() const override {
        return {hipdnn_flatbuffers_sdk::data_objects::BehaviorNote::SUPPORTS_EXECUTION_PLAN_SERIALIZATION};
    }

    std::unique_ptr<IExecutionContext> createExecutionContext(
        THandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& /*config*/,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const final {
        return std::make_unique<GraphSerializedContext>(contextFor(handle, graph), graph);
    }

    std::unique_ptr<IExecutionContext> deserializeExecutionContext(
        THandle& handle, std::span<const uint8_t> bytes) const final {
        const hipdnn_flatbuffers_sdk::GraphWrapper graph = graphOfSerializedContext(bytes, this->name());
        return std::make_unique<GraphSerializedContext>(contextFor(handle, graph), graph);
    }

protected:
    /// The context that runs `graph` (one the engine found applicable).
    virtual std::unique_ptr<IExecutionContext> contextFor(
        THandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const = 0;
};

}  // namespace hipdnn_plugin_sdk
