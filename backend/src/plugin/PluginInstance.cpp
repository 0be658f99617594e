#include "plugin/PluginInstance.hpp"

#include <cmath>

#include <flatbuffers/flatbuffers.h>
#include <hipdnn_flatbuffers_sdk/data_objects/engine_details_generated.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/FlatbufferError.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>

#include "core/HipdnnException.hpp"
#include "logging/Logger.hpp"

namespace hipdnn_backend::plugin {

using hipdnn_plugin_sdk::pluginStatusName;

namespace {

std::string pluginErrorMessage(const EnginePlugin& plugin, const char* action, const std::string& detail) {
    return std::string("Failed to ") + action + ". " + detail + " [plugin '" + plugin.name() + "']";
}

}  // namespace

PluginInstance::PluginInstance(std::shared_ptr<const EnginePlugin> plugin, hipdnnEnginePluginHandle_t handle,
                               std::shared_ptr<const platform::DeviceContext> device)
    : _plugin(std::move(plugin)), _handle(handle), _device(std::move(device)) {}

PluginInstance::~PluginInstance() {
    const std::optional<platform::CurrentDevice> current = onDeviceForCleanup();
    const hipdnnPluginStatus_t status = _plugin->api().destroy(_handle);
    if (status != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        HIPDNN_LOG_ERROR("Failed to destroy the handle of plugin '{}'. Status: {}({}), Error: {}",
                         _plugin->name(), pluginStatusName(status), static_cast<int>(status),
                         _plugin->lastError());
    }
}

platform::CurrentDevice PluginInstance::onDevice() const {
    try {
        return platform::CurrentDevice(_device.get());
    } catch (const platform::CudaDriverError& error) {
        throw HipdnnException(
            HIPDNN_STATUS_INTERNAL_ERROR,
            pluginErrorMessage(*_plugin, "make the handle's GPU current",
                               "GPU " + std::to_string(_device->ordinal()) + ": " + error.what()));
    }
}

std::optional<platform::CurrentDevice> PluginInstance::onDeviceForCleanup() const noexcept {
    try {
        return std::optional<platform::CurrentDevice>(std::in_place, _device.get());
    } catch (const std::exception& error) {
        HIPDNN_LOG_ERROR(
            "Cannot make GPU {} current to release plugin '{}' state; releasing on the thread's "
            "current device: {}",
            _device->ordinal(), _plugin->name(), error.what());
        return std::nullopt;
    }
}

void PluginInstance::check(hipdnnPluginStatus_t status, const char* action) const {
    if (status == HIPDNN_PLUGIN_STATUS_SUCCESS) {
        return;
    }
    // The plugin's message is per thread and must be read right after the failing call.
    const std::string detail = std::string("Status: ") + pluginStatusName(status) + "(" +
                               std::to_string(static_cast<int>(status)) + "), Error: " + _plugin->lastError();
    throw HipdnnException(HIPDNN_STATUS_PLUGIN_ERROR, pluginErrorMessage(*_plugin, action, detail));
}

void PluginInstance::checkSerialization(hipdnnPluginStatus_t status, int64_t engineId, const char* what,
                                        const char* action) const {
    if (status == HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE) {
        std::string reason = _plugin->lastError();
        if (reason.empty()) {
            reason = std::string("the plugin answered ") + pluginStatusName(status);
        }
        throw HipdnnException(HIPDNN_STATUS_NOT_SUPPORTED, "Plugin '" + _plugin->name() + "' cannot " + what +
                                                               " of engine " + _plugin->engineName(engineId) +
                                                               ": " + reason);
    }
    check(status, action);
}

void PluginInstance::setStream(void* stream) const {
    const platform::CurrentDevice current = onDevice();
    check(_plugin->api().setStream(_handle, stream), "set stream");
}

bool PluginInstance::setCommunicator(void* communicator) const {
    const auto setCommunicator = _plugin->api().setCommunicator;
    if (setCommunicator == nullptr) {
        return false;
    }
    const platform::CurrentDevice current = onDevice();
    check(setCommunicator(_handle, communicator), "set communicator");
    return true;
}

ApplicableEngines PluginInstance::applicableEngines(const hipdnnPluginConstData_t& graph) const {
    const platform::CurrentDevice current = onDevice();
    const EnginePluginApi& api = _plugin->api();
    const auto capacity = static_cast<uint32_t>(_plugin->engineIds().size());
    // Room for every engine the plugin ever reported: engines dropped at load still count.
    std::vector<int64_t> ids(capacity + 64);
    uint32_t count = 0;
    check(api.getApplicableEngineIds(_handle, &graph, ids.data(), static_cast<uint32_t>(ids.size()), &count),
          "get applicable engine ids");
    if (count > ids.size()) {
        throw HipdnnException(
            HIPDNN_STATUS_PLUGIN_ERROR,
            pluginErrorMessage(*_plugin, "get applicable engine ids",
                               "The plugin reported " + std::to_string(count) + " engines for a buffer of " +
                                   std::to_string(ids.size())));
    }
    ids.resize(count);
    for (int64_t id : ids) {
        if (!_plugin->providesEngine(id)) {
            throw HipdnnException(HIPDNN_STATUS_PLUGIN_ERROR,
                                  pluginErrorMessage(*_plugin, "get applicable engine ids",
                                                     "The plugin answered engine id " +
                                                         hipdnn_data_sdk::utilities::formatEngineIdHex(id) +
                                                         ", which is not one of its engines"));
        }
    }
    return {std::move(ids), _plugin->lastError()};
}

std::optional<double> PluginInstance::estimatedSeconds(int64_t engineId,
                                                       const hipdnnPluginConstData_t& graph) const {
    const platform::CurrentDevice current = onDevice();
    const auto estimate = _plugin->api().estimateExecutionTime;
    if (estimate == nullptr) {
        return std::nullopt;
    }
    double seconds = -1.0;
    const hipdnnPluginStatus_t status =
        estimate(_handle, engineId, &graph, HIPDNN_ENGINE_PREDICTION_ENGINE, &seconds);
    if (status == HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE) {
        return std::nullopt;
    }
    if (status != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        HIPDNN_LOG_WARN(
            "Plugin '{}' failed to estimate the time of engine {} (ranked as without an estimate). "
            "Status: {}({}), Error: {}",
            _plugin->name(), _plugin->engineName(engineId), pluginStatusName(status),
            static_cast<int>(status), _plugin->lastError());
        return std::nullopt;
    }
    if (!std::isfinite(seconds) || seconds < 0.0) {
        HIPDNN_LOG_WARN(
            "Plugin '{}' estimated {} seconds for engine {}: not a finite non-negative time, "
            "ranked as without an estimate",
            _plugin->name(), seconds, _plugin->engineName(engineId));
        return std::nullopt;
    }
    return seconds;
}

std::vector<uint8_t> PluginInstance::engineDetails(int64_t engineId,
                                                   const hipdnnPluginConstData_t& graph) const {
    const platform::CurrentDevice current = onDevice();
    const EnginePluginApi& api = _plugin->api();
    hipdnnPluginConstData_t details{nullptr, 0};
    check(api.getEngineDetails(_handle, engineId, &graph, &details), "get engine details");
    std::vector<uint8_t> copy;
    std::string problem;
    if (details.ptr == nullptr || details.size == 0) {
        problem = "The plugin returned empty engine details";
    } else if (hipdnn_flatbuffers_sdk::exceedsFlatbufferSizeLimit(details.size)) {
        problem = "The plugin returned engine details of " + std::to_string(details.size) +
                  " bytes, over the FlatBuffers size limit";
    } else {
        const auto* bytes = static_cast<const uint8_t*>(details.ptr);
        flatbuffers::Verifier verifier(bytes, details.size);
        if (!hipdnn_flatbuffers_sdk::data_objects::VerifyEngineDetailsBuffer(verifier)) {
            problem = "The plugin returned engine details that fail FlatBuffer verification";
        } else if (hipdnn_flatbuffers_sdk::data_objects::GetEngineDetails(bytes)->engine_id() != engineId) {
            problem = "The plugin returned engine details for another engine id";
        } else {
            copy.assign(bytes, bytes + details.size);
        }
    }
    if (details.ptr != nullptr) {
        api.destroyEngineDetails(_handle, &details);
    }
    if (!problem.empty()) {
        throw HipdnnException(
            HIPDNN_STATUS_PLUGIN_ERROR,
            pluginErrorMessage(*_plugin, "get engine details",
                               problem + " (engine " + _plugin->engineName(engineId) + ")"));
    }
    return copy;
}

size_t PluginInstance::workspaceSize(const hipdnnPluginConstData_t& engineConfig,
                                     const hipdnnPluginConstData_t& graph) const {
    const platform::CurrentDevice current = onDevice();
    size_t size = 0;
    check(_plugin->api().getWorkspaceSize(_handle, &engineConfig, &graph, &size), "get workspace size");
    return size;
}

hipdnnEnginePluginExecutionContext_t PluginInstance::createExecutionContext(
    const hipdnnPluginConstData_t& engineConfig, const hipdnnPluginConstData_t& graph) const {
    const platform::CurrentDevice current = onDevice();
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    check(_plugin->api().createExecutionContext(_handle, &engineConfig, &graph, &context),
          "create execution context");
    if (context == nullptr) {
        throw HipdnnException(
            HIPDNN_STATUS_PLUGIN_ERROR,
            pluginErrorMessage(*_plugin, "create execution context", "The plugin returned a null context"));
    }
    return context;
}

hipdnnEnginePluginExecutionContext_t PluginInstance::createExecutionContextFromSerialized(
    int64_t engineId, const hipdnnPluginConstData_t& serialized) const {
    const platform::CurrentDevice current = onDevice();
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    checkSerialization(_plugin->api().createExecutionContextFromSerialized(_handle, &serialized, &context),
                       engineId, "rebuild the serialized execution plan",
                       "create execution context from serialized plan");
    if (context == nullptr) {
        throw HipdnnException(HIPDNN_STATUS_PLUGIN_ERROR,
                              pluginErrorMessage(*_plugin, "create execution context from serialized plan",
                                                 "The plugin returned a null context"));
    }
    return context;
}

void PluginInstance::destroyExecutionContext(hipdnnEnginePluginExecutionContext_t context) const noexcept {
    const std::optional<platform::CurrentDevice> current = onDeviceForCleanup();
    const hipdnnPluginStatus_t status = _plugin->api().destroyExecutionContext(_handle, context);
    if (status != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        HIPDNN_LOG_ERROR("Failed to destroy execution context (plugin '{}'). Status: {}({}), Error: {}",
                         _plugin->name(), pluginStatusName(status), static_cast<int>(status),
                         _plugin->lastError());
    }
}

size_t PluginInstance::workspaceSize(hipdnnEnginePluginExecutionContext_t context) const {
    const platform::CurrentDevice current = onDevice();
    size_t size = 0;
    check(_plugin->api().getWorkspaceSizeFromExecutionContext(_handle, context, &size),
          "get workspace size from execution context");
    return size;
}

std::vector<uint8_t> PluginInstance::serializeExecutionContext(
    int64_t engineId, hipdnnEnginePluginExecutionContext_t context) const {
    const platform::CurrentDevice current = onDevice();
    hipdnnPluginConstData_t serialized{nullptr, 0};
    checkSerialization(_plugin->api().serializeExecutionContext(_handle, context, &serialized), engineId,
                       "serialize the execution plan", "serialize execution context");
    const auto* bytes = static_cast<const uint8_t*>(serialized.ptr);
    std::vector<uint8_t> copy(bytes, bytes + (bytes != nullptr ? serialized.size : 0));
    if (serialized.ptr != nullptr) {
        _plugin->api().destroySerializedExecutionContext(_handle, &serialized);
    }
    return copy;
}

void PluginInstance::execute(hipdnnEnginePluginExecutionContext_t context, void* workspace,
                             const hipdnnPluginDeviceBuffer_t* buffers, uint32_t bufferCount) const {
    const platform::CurrentDevice current = onDevice();
    check(_plugin->api().executeOpGraph(_handle, context, workspace, buffers, bufferCount),
          "execute the operation graph");
}

void PluginInstance::executeWithOverrides(hipdnnEnginePluginExecutionContext_t context, void* workspace,
                                          const hipdnnPluginDeviceBuffer_t* buffers, uint32_t bufferCount,
                                          const ShapeOverrides& overrides) const {
    const platform::CurrentDevice current = onDevice();
    const auto executeWithOverrides = _plugin->api().executeOpGraphWithOverrides;
    if (executeWithOverrides == nullptr) {
        throw HipdnnException(HIPDNN_STATUS_NOT_SUPPORTED,
                              "Plugin '" + _plugin->name() +
                                  "' cannot execute with override shapes: it does not export "
                                  "hipdnnEnginePluginExecuteOpGraphWithOverrides");
    }
    std::vector<uint32_t> lengths;
    std::vector<const int64_t*> shapes;
    std::vector<const int64_t*> strides;
    size_t offset = 0;
    for (const int64_t length : overrides.lengths) {
        lengths.push_back(static_cast<uint32_t>(length));
        shapes.push_back(overrides.shapes.data() + offset);
        strides.push_back(overrides.strides.data() + offset);
        offset += static_cast<size_t>(length);
    }
    check(executeWithOverrides(_handle, context, workspace, buffers, bufferCount,
                               static_cast<uint32_t>(overrides.uids.size()), overrides.uids.data(),
                               lengths.data(), shapes.data(), strides.data()),
          "execute the operation graph with override shapes");
}

}  // namespace hipdnn_backend::plugin
