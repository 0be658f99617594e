// The interface every engine of a plugin implements.
#pragma once

#include <hipdnn_flatbuffers_sdk/data_objects/engine_details_generated.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_plugin_sdk/IExecutionContext.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace hipdnn_plugin_sdk {

/// An engine: one globally unique id (the FNV-1a hash of its name) and the ability to decide
/// whether it runs a graph and to build execution contexts for it. THandle is the plugin's
/// handle type (derived from PluginHandleBase). Engines are shared by all handles of a plugin,
/// so their const methods must be safe to call from several threads.
template <class THandle>
class IEngine {
public:
    explicit IEngine(int64_t id) : _id(id) {}
    virtual ~IEngine() = default;

    IEngine(const IEngine&) = delete;
    IEngine& operator=(const IEngine&) = delete;

    int64_t id() const noexcept { return _id; }

    /// Display name reported through hipdnnEnginePluginGetEngineName. Default: the name the data
    /// SDK registry holds for id() (HIPDNN_REGISTER_ENGINE), else the id in hex.
    virtual std::string name() const {
        if (auto registered = hipdnn_data_sdk::utilities::tryGetEngineNameFromId(_id)) {
            return std::string(*registered);
        }
        return hipdnn_data_sdk::utilities::formatEngineIdHex(_id);
    }

    /// True when the engine can run `graph`; otherwise `reason` says why in one line.
    virtual bool isApplicable(THandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                              std::string& reason) const = 0;

    /// The knobs the engine understands for `graph` (global.* knobs are implied). Default: none.
    virtual std::vector<hipdnn_flatbuffers_sdk::KnobDescription> knobs(
        THandle& /*handle*/, const hipdnn_flatbuffers_sdk::GraphWrapper& /*graph*/) const {
        return {};
    }

    /// Behaviour notes published in the engine details. Default: none.
    virtual std::vector<hipdnn_flatbuffers_sdk::data_objects::BehaviorNote> behaviorNotes() const {
        return {};
    }

    /// Estimated seconds the engine needs for `graph` (one it found applicable), by which the
    /// backend ranks a device's engines: usually rooflineSeconds() (Roofline.hpp) with the
    /// efficiencies the engine reaches on such graphs. Default: no estimate (the engine ranks after
    /// those that give one, in static order).
    virtual std::optional<double> estimatedSeconds(
        THandle& /*handle*/, const hipdnn_flatbuffers_sdk::GraphWrapper& /*graph*/) const {
        return std::nullopt;
    }

    /// Workspace bytes the configuration needs for `graph`. Called only for applicable graphs
    /// and configurations whose knobs passed validation.
    virtual std::size_t workspaceSize(THandle& handle,
                                      const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                                      const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const = 0;

    /// Builds a self-contained execution context. Same preconditions as workspaceSize().
    virtual std::unique_ptr<IExecutionContext> createExecutionContext(
        THandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const = 0;

    /// Rebuilds a context from the bytes its IExecutionContext::serialize() produced. The default
    /// says the engine does not support plan serialization.
    virtual std::unique_ptr<IExecutionContext> deserializeExecutionContext(
        THandle& /*handle*/, std::span<const uint8_t> /*bytes*/) const {
        throw PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                          "engine " + name() + " does not support execution context deserialization");
    }

private:
    int64_t _id;
};

}  // namespace hipdnn_plugin_sdk
