// The engine of the troubleshooting plugins. Those plugins exist to fail at load time or at
// handle creation; should one ever get that far, its engine runs nothing.
#pragma once

#include <hipdnn_plugin_sdk/IEngine.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace example_troubleshooting {

template <class THandle>
class DecliningEngine : public hipdnn_plugin_sdk::IEngine<THandle> {
public:
    explicit DecliningEngine(int64_t id) : hipdnn_plugin_sdk::IEngine<THandle>(id) {}

    bool isApplicable(THandle& /*handle*/, const hipdnn_flatbuffers_sdk::GraphWrapper& /*graph*/,
                      std::string& reason) const override {
        reason = "this plugin only reproduces a troubleshooting case of the plugin guide";
        return false;
    }

    std::size_t workspaceSize(THandle& /*handle*/,
                              const hipdnn_flatbuffers_sdk::EngineConfigWrapper& /*config*/,
                              const hipdnn_flatbuffers_sdk::GraphWrapper& /*graph*/) const override {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, "runs no graph");
    }

    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> createExecutionContext(
        THandle& /*handle*/, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& /*config*/,
        const hipdnn_flatbuffers_sdk::GraphWrapper& /*graph*/) const override {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, "runs no graph");
    }
};

}  // namespace example_troubleshooting
