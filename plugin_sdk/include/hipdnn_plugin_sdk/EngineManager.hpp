// The set of engines a plugin provides.
#pragma once

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_plugin_sdk/IEngine.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnn_plugin_sdk {

/// Owns the plugin's engines, keyed by id, in the order they were added (that order is the one
/// hipdnnEnginePluginGetAllEngineIds reports). Fill it once (typically in the container's
/// getEngineManager()) and only read it afterwards: reads are then safe from any thread.
template <class THandle>
class EngineManager {
public:
    /// Throws std::invalid_argument for a null engine or an id that is already present.
    void addEngine(std::unique_ptr<IEngine<THandle>> engine) {
        if (engine == nullptr) {
            throw std::invalid_argument("EngineManager::addEngine was given a null engine");
        }
        if (hasEngine(engine->id())) {
            throw std::invalid_argument("EngineManager already has an engine with id " +
                                        hipdnn_data_sdk::utilities::formatEngineIdHex(engine->id()));
        }
        _names.push_back(engine->name());
        _engines.push_back(std::move(engine));
    }

    std::vector<int64_t> engineIds() const {
        std::vector<int64_t> ids;
        ids.reserve(_engines.size());
        for (const auto& engine : _engines) {
            ids.push_back(engine->id());
        }
        return ids;
    }

    std::size_t engineCount() const noexcept { return _engines.size(); }

    bool hasEngine(int64_t id) const noexcept { return findIndex(id) != kNotFound; }

    /// Throws PluginError(BAD_PARAM) naming the id when the plugin has no such engine.
    const IEngine<THandle>& engine(int64_t id) const { return *_engines[requireIndex(id)]; }

    /// The engine's name, captured when it was added; stable for the manager's lifetime.
    const std::string& engineName(int64_t id) const { return _names[requireIndex(id)]; }

    /// Ids of the engines that accept `graph`, in engine order. For every engine that declines,
    /// `declineReasons` receives one line "<engine name>: <reason>". An engine whose
    /// isApplicable throws (other than std::bad_alloc) counts as declining with the exception's
    /// message, so one faulty engine does not hide the others.
    std::vector<int64_t> applicableEngineIds(THandle& handle,
                                             const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                             std::vector<std::string>& declineReasons) const {
        std::vector<int64_t> applicable;
        for (std::size_t i = 0; i < _engines.size(); ++i) {
            std::string reason;
            bool accepted = false;
            try {
                accepted = _engines[i]->isApplicable(handle, graph, reason);
            } catch (const std::bad_alloc&) {
                throw;
            } catch (const std::exception& error) {
                reason = std::string("isApplicable failed: ") + error.what();
            }
            if (accepted) {
                applicable.push_back(_engines[i]->id());
            } else {
                declineReasons.push_back(_names[i] + ": " + singleLine(reason));
            }
        }
        return applicable;
    }

private:
    static constexpr std::size_t kNotFound = static_cast<std::size_t>(-1);

    std::size_t findIndex(int64_t id) const noexcept {
        for (std::size_t i = 0; i < _engines.size(); ++i) {
            if (_engines[i]->id() == id) {
                return i;
            }
        }
        return kNotFound;
    }

    std::size_t requireIndex(int64_t id) const {
        const std::size_t index = findIndex(id);
        if (index == kNotFound) {
            throw PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                              "unknown engine id " + std::to_string(id) + " (" +
                                  hipdnn_data_sdk::utilities::formatEngineIdHex(id) + ")");
        }
        return index;
    }

    // Each declining engine must stay on its own line of the reasons text.
    static std::string singleLine(std::string reason) {
        if (reason.empty()) {
            return "declined without giving a reason";
        }
        for (char& c : reason) {
            if (c == '\n' || c == '\r') {
                c = ' ';
            }
        }
        return reason;
    }

    std::vector<std::unique_ptr<IEngine<THandle>>> _engines;
    std::vector<std::string> _names;
};

}  // namespace hipdnn_plugin_sdk
