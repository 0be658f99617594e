#include "descriptors/ExecutionPlanDescriptor.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/FlatbufferError.hpp>
#include <hipdnn_flatbuffers_sdk/SerializedPlan.hpp>

#include "api/HandleRegistry.hpp"
#include "logging/GraphDump.hpp"
#include "platform/DeviceDetection.hpp"
#include "platform/PointerLocation.hpp"

namespace hipdnn_backend::descriptors {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

ExecutionPlanDescriptor::~ExecutionPlanDescriptor() {
    if (_context != nullptr) {
        _instance->destroyExecutionContext(_context);
    }
}

void ExecutionPlanDescriptor::set(const AttributeInput& input) {
    switch (input.name) {
        case HIPDNN_ATTR_EXECUTION_PLAN_HANDLE:
            api::lookupHandle(input.single<hipdnnHandle_t>(HIPDNN_TYPE_HANDLE));
            return;
        case HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG:
            _config = std::static_pointer_cast<EngineConfigDescriptor>(
                input.descriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, /*requireFinalized=*/true));
            return;
        default:
            rejectAttribute(input.name);
    }
}

void ExecutionPlanDescriptor::setWorkspaceSize(size_t bytes) {
    if (bytes > static_cast<size_t>(std::numeric_limits<int64_t>::max())) {
        throw HipdnnException(
            HIPDNN_STATUS_INTERNAL_ERROR,
            fmt::format("The plugin reported a workspace size of {} bytes, which overflows", bytes));
    }
    _workspaceSize = static_cast<int64_t>(bytes);
}

void ExecutionPlanDescriptor::finalizeDescriptor() {
    if (!_config) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              "An EXECUTION_PLAN needs HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG");
    }
    const EngineDescriptor& engine = _config->engine();
    _graph = engine.graph();
    _instance = &engine.instance();
    _engineId = engine.engineId();
    _serializedConfig = _config->serializedConfig();
    _context = _instance->createExecutionContext({_serializedConfig.data(), _serializedConfig.size()},
                                                 _graph->data());
    setWorkspaceSize(_instance->workspaceSize(_context));
    logging::logPlanReproducer(_graph->bytes, engine.name(), _serializedConfig);
}

void ExecutionPlanDescriptor::get(AttributeOutput& output) const {
    switch (output.name) {
        case HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE:
            output.writeSingle<int64_t>(HIPDNN_TYPE_INT64, _workspaceSize);
            return;
        case HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT:
            output.write<int64_t>(HIPDNN_TYPE_INT64, _graph->boundaryUids);
            return;
        default:
            rejectAttribute(output.name);
    }
}

void ExecutionPlanDescriptor::execute(const plugin::HandleState& handle,
                                      const VariantPackDescriptor& variantPack) const {
    if (&handle != _graph->handle.get()) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            "The execution plan was built on another handle than the one passed to execute");
    }
    const auto& buffers = variantPack.buffers();
    // Both lists are sorted by uid: equal lists mean every boundary tensor is bound, and nothing
    // else; anything else goes through the detailed check.
    const bool sameUids =
        std::equal(buffers.begin(), buffers.end(), _graph->boundaryUids.begin(), _graph->boundaryUids.end(),
                   [](const hipdnnPluginDeviceBuffer_t& buffer, int64_t uid) { return buffer.uid == uid; });
    if (!sameUids) {
        checkVariantPackUids(variantPack);
    }
    for (const hipdnnPluginDeviceBuffer_t& buffer : buffers) {
        if (buffer.ptr == nullptr) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                  fmt::format("The data pointer for tensor uid {} is null", buffer.uid));
        }
    }
    if (variantPack.workspace() == nullptr && _workspaceSize > 0) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            fmt::format("The plan needs a workspace of {} bytes but the variant pack's workspace is null",
                        _workspaceSize));
    }
    // With one GPU no pointer can be another GPU's: the driver is asked only where there are several.
    if (handle.device() == HIPDNN_DEVICE_TYPE_GPU_EXT && platform::cudaDeviceCount() > 1) {
        checkDevicePointers(handle.ordinal(), variantPack);
    }
    const auto& overrides = variantPack.overrides();
    if (overrides.empty()) {
        _instance->execute(_context, variantPack.workspace(), buffers.data(),
                           static_cast<uint32_t>(buffers.size()));
    } else {
        _instance->executeWithOverrides(_context, variantPack.workspace(), buffers.data(),
                                        static_cast<uint32_t>(buffers.size()), overrides);
    }
}

const fb::TensorAttributes* ExecutionPlanDescriptor::findTensor(int64_t uid) const {
    const fb::Graph* graph = fb::GetGraph(_graph->bytes.data());
    if (graph->tensors() == nullptr) {
        return nullptr;
    }
    for (const fb::TensorAttributes* tensor : *graph->tensors()) {
        if (tensor->uid() == uid) {
            return tensor;
        }
    }
    return nullptr;
}

std::string ExecutionPlanDescriptor::tensorName(int64_t uid) const {
    const fb::TensorAttributes* tensor = findTensor(uid);
    return tensor != nullptr && tensor->name() != nullptr ? tensor->name()->str() : std::string();
}

void ExecutionPlanDescriptor::checkDevicePointers(int handleOrdinal,
                                                  const VariantPackDescriptor& variantPack) const {
    for (const hipdnnPluginDeviceBuffer_t& buffer : variantPack.buffers()) {
        if (const auto problem =
                platform::foreignDeviceProblem(platform::locatePointer(buffer.ptr), handleOrdinal)) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                  fmt::format("The data pointer for tensor uid {} ('{}') {}", buffer.uid,
                                              tensorName(buffer.uid), *problem));
        }
    }
    if (variantPack.workspace() != nullptr) {
        if (const auto problem = platform::foreignDeviceProblem(
                platform::locatePointer(variantPack.workspace()), handleOrdinal)) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "The workspace pointer " + *problem);
        }
    }
}

void ExecutionPlanDescriptor::checkVariantPackUids(const VariantPackDescriptor& variantPack) const {
    const auto& buffers = variantPack.buffers();
    for (int64_t uid : _graph->boundaryUids) {
        const bool present =
            std::any_of(buffers.begin(), buffers.end(), [uid](const auto& b) { return b.uid == uid; });
        if (!present) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                  fmt::format("The variant pack has no data pointer for tensor uid {} ('{}')",
                                              uid, tensorName(uid)));
        }
    }
    for (const auto& buffer : buffers) {
        if (std::binary_search(_graph->boundaryUids.begin(), _graph->boundaryUids.end(), buffer.uid) ||
            std::binary_search(_graph->scalarUids.begin(), _graph->scalarUids.end(), buffer.uid)) {
            continue;
        }
        const fb::TensorAttributes* tensor = findTensor(buffer.uid);
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            fmt::format("Variant pack uid {} is {}", buffer.uid,
                        tensor == nullptr ? "not a tensor of the graph"
                                          : "a virtual tensor of the graph (it takes no buffer)"));
    }
}

std::vector<uint8_t> ExecutionPlanDescriptor::serialize() const {
    const plugin::EnginePlugin& plugin = _instance->plugin();
    if (!plugin.supportsPlanSerialization()) {
        throw HipdnnException(
            HIPDNN_STATUS_NOT_SUPPORTED,
            fmt::format("Plugin '{}' does not export the execution plan serialization functions "
                        "(hipdnnEnginePluginSerializeExecutionContext, "
                        "hipdnnEnginePluginDestroySerializedExecutionContext, "
                        "hipdnnEnginePluginCreateExecutionContextFromSerialized)",
                        plugin.name()));
    }
    const std::vector<uint8_t> context = _instance->serializeExecutionContext(_engineId, _context);
    flatbuffers::FlatBufferBuilder builder;
    const auto graph = builder.CreateVector(_graph->bytes);
    const auto config = builder.CreateVector(_serializedConfig);
    const auto uids = builder.CreateVector(_graph->boundaryUids);
    const auto pluginContext = builder.CreateVector(context);
    builder.Finish(
        fb::CreateSerializedExecutionPlan(builder, hipdnn_flatbuffers_sdk::kSerializedExecutionPlanVersion,
                                          _engineId, _workspaceSize, uids, config, pluginContext, graph));
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

std::shared_ptr<ExecutionPlanDescriptor> ExecutionPlanDescriptor::deserialize(
    std::shared_ptr<plugin::HandleState> handle, const uint8_t* data, size_t size) {
    if (hipdnn_flatbuffers_sdk::exceedsFlatbufferSizeLimit(size)) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "The serialized execution plan of " +
                                                           std::to_string(size) +
                                                           " bytes exceeds the FlatBuffers size limit");
    }
    flatbuffers::Verifier verifier(data, size);
    if (!fb::VerifySerializedExecutionPlanBuffer(verifier)) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              "The serialized execution plan fails FlatBuffer verification");
    }
    const fb::SerializedExecutionPlan* serialized = fb::GetSerializedExecutionPlan(data);
    if (serialized->version() != hipdnn_flatbuffers_sdk::kSerializedExecutionPlanVersion) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            fmt::format("The serialized execution plan has layout version {}; this backend "
                        "reads version {}",
                        serialized->version(), hipdnn_flatbuffers_sdk::kSerializedExecutionPlanVersion));
    }
    if (serialized->graph() == nullptr || serialized->engine_config() == nullptr ||
        serialized->plugin_payload() == nullptr) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            "The serialized execution plan lacks its graph, engine config or plugin payload");
    }
    verifyGraphBytes(serialized->graph()->data(), serialized->graph()->size());
    const plugin::PluginInstance* instance = handle->instanceForEngine(serialized->engine_id());
    if (instance == nullptr) {
        throw HipdnnException(
            HIPDNN_STATUS_NOT_SUPPORTED,
            fmt::format("No plugin serving this handle's device provides engine {} of the plan. Plugins: {}",
                        hipdnn_data_sdk::utilities::formatEngineIdHex(serialized->engine_id()),
                        handle->describePlugins()));
    }
    if (!instance->plugin().supportsPlanSerialization()) {
        throw HipdnnException(
            HIPDNN_STATUS_NOT_SUPPORTED,
            fmt::format("Plugin '{}' cannot rebuild serialized execution plans", instance->plugin().name()));
    }
    auto plan = std::make_shared<ExecutionPlanDescriptor>();
    plan->_graph = makeFinalizedGraph({serialized->graph()->begin(), serialized->graph()->end()},
                                      std::move(handle), std::nullopt);
    plan->_instance = instance;
    plan->_engineId = serialized->engine_id();
    plan->_serializedConfig.assign(serialized->engine_config()->begin(), serialized->engine_config()->end());
    plan->_context = instance->createExecutionContextFromSerialized(
        plan->_engineId, {serialized->plugin_payload()->data(), serialized->plugin_payload()->size()});
    plan->setWorkspaceSize(instance->workspaceSize(plan->_context));
    plan->markFinalized();
    return plan;
}

}  // namespace hipdnn_backend::descriptors
