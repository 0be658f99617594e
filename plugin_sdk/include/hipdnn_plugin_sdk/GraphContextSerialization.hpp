// Plan serialization for engines whose execution context is a function of what it was built from:
// the graph alone (no knob or other state changes the plan), or the graph and the engine config
// (knobs choose the algorithm, the math mode or the workspace). The serialized context is those
// inputs — the graph's FlatBuffer, or a GraphConfigContext FlatBuffer holding both buffers — and
// deserializing verifies them and builds the context from them again, as the first build did.
#pragma once

#include <hipdnn_flatbuffers_sdk/data_objects/graph_config_context_generated.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp>
#include <hipdnn_flatbuffers_sdk/FlatbufferError.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "IEngine.hpp"
#include "IExecutionContext.hpp"
#include "KnobValidation.hpp"
#include "PluginError.hpp"

namespace hipdnn_plugin_sdk {

namespace detail {

inline PluginError badSerializedContext(const std::string& engineName, std::size_t size,
                                        const std::string& problem) {
    return PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "the serialized execution context of " + engineName +
                                                           " (" + std::to_string(size) + " bytes) " +
                                                           problem);
}

// One buffer of a GraphConfigContext, verified by its wrapper (which copies it out of the vector,
// whose bytes are only 4-byte aligned).
template <class Wrapper>
Wrapper verifiedPart(const flatbuffers::Vector<uint8_t>* part, const char* what,
                     const std::string& engineName, std::size_t size) {
    if (part == nullptr) {
        throw badSerializedContext(engineName, size, std::string("lacks its ") + what);
    }
    try {
        return Wrapper(part->data(), part->size());
    } catch (const hipdnn_flatbuffers_sdk::FlatbufferError& error) {
        throw badSerializedContext(engineName, size,
                                   std::string("holds an invalid ") + what + ": " + error.what());
    }
}

}  // namespace detail

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
        throw detail::badSerializedContext(engineName, bytes.size(),
                                           std::string("is not a valid graph: ") + error.what());
    }
}

/// The graph and engine config an execution context was built from, both verified.
struct GraphAndConfig {
    hipdnn_flatbuffers_sdk::GraphWrapper graph;
    hipdnn_flatbuffers_sdk::EngineConfigWrapper config;
};

/// What IExecutionContext::serialize() returns for a context built from `graph` and `config`: a
/// GraphConfigContext FlatBuffer holding both buffers.
inline std::vector<uint8_t> serializeGraphConfigContext(
    const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
    const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config) {
    flatbuffers::FlatBufferBuilder builder(graph.size() + config.size() + 64);
    const auto graphBytes = builder.CreateVector(graph.data(), graph.size());
    const auto configBytes = builder.CreateVector(config.data(), config.size());
    builder.Finish(
        hipdnn_flatbuffers_sdk::data_objects::CreateGraphConfigContext(builder, graphBytes, configBytes));
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

/// The verified graph and engine config of bytes serializeGraphConfigContext produced;
/// PluginError(BAD_PARAM) naming the engine and the problem when they are not a GraphConfigContext
/// holding a valid graph and a valid engine config.
inline GraphAndConfig graphAndConfigOfSerializedContext(std::span<const uint8_t> bytes,
                                                        const std::string& engineName) {
    namespace fb = hipdnn_flatbuffers_sdk::data_objects;
    std::vector<uint8_t> copy;
    try {
        copy = hipdnn_flatbuffers_sdk::copyAndVerify<fb::GraphConfigContext,
                                                     hipdnn_flatbuffers_sdk::FlatbufferError>(
            bytes.data(), bytes.size(), "graph and engine config");
    } catch (const hipdnn_flatbuffers_sdk::FlatbufferError& error) {
        throw detail::badSerializedContext(
            engineName, bytes.size(), std::string("is not a graph and engine config pair: ") + error.what());
    }
    const fb::GraphConfigContext* pair = fb::GetGraphConfigContext(copy.data());
    return {detail::verifiedPart<hipdnn_flatbuffers_sdk::GraphWrapper>(pair->graph(), "graph", engineName,
                                                                       bytes.size()),
            detail::verifiedPart<hipdnn_flatbuffers_sdk::EngineConfigWrapper>(
                pair->engine_config(), "engine config", engineName, bytes.size())};
}

/// A context made serializable: it runs `inner` and serializes as `bytes`, the inputs from which
/// its engine's deserializeExecutionContext builds it again.
class RebuildableContext final : public IExecutionContext {
public:
    RebuildableContext(std::unique_ptr<IExecutionContext> inner, std::vector<uint8_t> bytes)
        : _inner(std::move(inner)), _bytes(std::move(bytes)) {}

    std::size_t workspaceSize() const override { return _inner->workspaceSize(); }
    void execute(PluginHandleBase& handle, void* workspace, const DeviceBuffers& buffers) override {
        _inner->execute(handle, workspace, buffers);
    }
    std::vector<uint8_t> serialize() const override { return _bytes; }

private:
    std::unique_ptr<IExecutionContext> _inner;
    std::vector<uint8_t> _bytes;
};

/// An engine whose execution contexts are a function of the graph and the engine config:
/// contextForConfig builds them, and they serialize as both (serializeGraphConfigContext), from
/// which deserializeExecutionContext builds them again. Before that it checks what the plugin
/// checks before the first build: the config is this engine's (else BAD_PARAM), the engine can
/// run the graph on this handle (else NOT_APPLICABLE with the reason: the plan may come from
/// another device) and the knob settings are valid (else BAD_PARAM).
template <class THandle>
class GraphConfigSerializedEngine : public IEngine<THandle> {
public:
    using IEngine<THandle>::IEngine;

    std::vector<hipdnn_flatbuffers_sdk::data_objects::BehaviorNote> behaviorNotes() const override {
        return {hipdnn_flatbuffers_sdk::data_objects::BehaviorNote::SUPPORTS_EXECUTION_PLAN_SERIALIZATION};
    }

    std::unique_ptr<IExecutionContext> createExecutionContext(
        THandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const final {
        return std::make_unique<RebuildableContext>(contextForConfig(handle, config, graph),
                                                    serializedInputs(graph, config));
    }

    std::unique_ptr<IExecutionContext> deserializeExecutionContext(
        THandle& handle, std::span<const uint8_t> bytes) const final {
        const GraphAndConfig inputs = inputsOfSerialized(bytes);
        if (inputs.config.engineId() != this->id()) {
            throw detail::badSerializedContext(
                this->name(), bytes.size(),
                "holds the engine config of engine " +
                    hipdnn_data_sdk::utilities::tryGetEngineNameFromId(inputs.config.engineId())
                        .value_or(hipdnn_data_sdk::utilities::formatEngineIdHex(inputs.config.engineId())));
        }
        std::string reason;
        if (!this->isApplicable(handle, inputs.graph, reason)) {
            throw PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                              "engine " + this->name() +
                                  " cannot run the graph of its serialized execution context: " + reason);
        }
        try {
            validateKnobSettings(inputs.config, this->knobs(handle, inputs.graph));
        } catch (const PluginError& error) {
            if (error.status() != HIPDNN_PLUGIN_STATUS_BAD_PARAM) {
                throw;
            }
            throw detail::badSerializedContext(
                this->name(), bytes.size(),
                std::string("holds knob settings the engine refuses: ") + error.what());
        }
        return std::make_unique<RebuildableContext>(contextForConfig(handle, inputs.config, inputs.graph),
                                                    std::vector<uint8_t>(bytes.begin(), bytes.end()));
    }

protected:
    /// The context that runs `graph` with `config` (a graph the engine found applicable, knobs
    /// that passed validation).
    virtual std::unique_ptr<IExecutionContext> contextForConfig(
        THandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const = 0;

    /// The bytes a context built from `graph` and `config` serializes as, and their inverse (which
    /// verifies them). GraphSerializedEngine overrides both to serialize the graph alone.
    virtual std::vector<uint8_t> serializedInputs(
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
        const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config) const {
        return serializeGraphConfigContext(graph, config);
    }
    virtual GraphAndConfig inputsOfSerialized(std::span<const uint8_t> bytes) const {
        return graphAndConfigOfSerializedContext(bytes, this->name());
    }
};

/// An engine whose execution contexts are a function of the graph alone (no knob changes the plan
/// it builds): contextFor builds them, and they serialize as their graph (serializeGraphContext),
/// from which deserializeExecutionContext builds them again.
template <class THandle>
class GraphSerializedEngine : public GraphConfigSerializedEngine<THandle> {
public:
    using GraphConfigSerializedEngine<THandle>::GraphConfigSerializedEngine;

protected:
    /// The context that runs `graph` (one the engine found applicable).
    virtual std::unique_ptr<IExecutionContext> contextFor(
        THandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const = 0;

private:
    std::unique_ptr<IExecutionContext> contextForConfig(
        THandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& /*config*/,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const final {
        return contextFor(handle, graph);
    }

    std::vector<uint8_t> serializedInputs(
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
        const hipdnn_flatbuffers_sdk::EngineConfigWrapper& /*config*/) const final {
        return serializeGraphContext(graph);
    }

    // The config is not part of the bytes: an empty one of this engine stands for it.
    GraphAndConfig inputsOfSerialized(std::span<const uint8_t> bytes) const final {
        const std::vector<uint8_t> noKnobs = hipdnn_flatbuffers_sdk::makeEngineConfig(this->id(), {});
        return {graphOfSerializedContext(bytes, this->name()), {noKnobs.data(), noKnobs.size()}};
    }
};

}  // namespace hipdnn_plugin_sdk
