// An engine made of an ordered list of plan builders.
#pragma once

#include <hipdnn_plugin_sdk/IEngine.hpp>
#include <hipdnn_plugin_sdk/IPlanBuilder.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hipdnn_plugin_sdk {

/// The first builder (in list order) that accepts a graph provides the knobs, the workspace
/// size and the execution context; when none accepts it, the decline reason lists every
/// builder's reason as "<builder>: <reason>" separated by "; ".
template <class THandle>
class PlanBuilderEngine : public IEngine<THandle> {
public:
    /// Throws std::invalid_argument when `builders` is empty or holds a null builder.
    PlanBuilderEngine(int64_t id, std::vector<std::unique_ptr<IPlanBuilder<THandle>>> builders)
        : IEngine<THandle>(id), _builders(std::move(builders)) {
        if (_builders.empty()) {
            throw std::invalid_argument("PlanBuilderEngine needs at least one plan builder");
        }
        for (const auto& builder : _builders) {
            if (builder == nullptr) {
                throw std::invalid_argument("PlanBuilderEngine was given a null plan builder");
            }
        }
    }

    bool isApplicable(THandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                      std::string& reason) const override {
        return selectBuilder(handle, graph, reason) != nullptr;
    }

    std::vector<hipdnn_flatbuffers_sdk::KnobDescription> knobs(
        THandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override {
        return requireBuilder(handle, graph).knobs(handle, graph);
    }

    std::size_t workspaceSize(THandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                              const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override {
        return requireBuilder(handle, graph).workspaceSize(handle, config, graph);
    }

    std::unique_ptr<IExecutionContext> createExecutionContext(
        THandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override {
        return requireBuilder(handle, graph).buildExecutionContext(handle, config, graph);
    }

    std::size_t builderCount() const noexcept { return _builders.size(); }

private:
    const IPlanBuilder<THandle>* selectBuilder(THandle& handle,
                                               const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                               std::string& reason) const {
        std::string combined;
        for (const auto& builder : _builders) {
            std::string builderReason;
            if (builder->isApplicable(handle, graph, builderReason)) {
                return builder.get();
            }
            if (!combined.empty()) {
                combined += "; ";
            }
            combined += builder->name() + ": " + (builderReason.empty() ? "declined" : builderReason);
        }
        reason = std::move(combined);
        return nullptr;
    }

    const IPlanBuilder<THandle>& requireBuilder(THandle& handle,
                                                const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
        std::string reason;
        const IPlanBuilder<THandle>* builder = selectBuilder(handle, graph, reason);
        if (builder == nullptr) {
            throw PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                              "engine " + this->name() + " cannot run this graph: " + reason);
        }
        return *builder;
    }

    std::vector<std::unique_ptr<IPlanBuilder<THandle>>> _builders;
};

}  // namespace hipdnn_plugin_sdk
