#include "descriptors/EngineDescriptor.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <hipdnn_flatbuffers_sdk/data_objects/engine_details_generated.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include "descriptors/DescriptorRegistry.hpp"
#include "descriptors/KnobInfoDescriptor.hpp"
#include "descriptors/KnobValues.hpp"
#include "descriptors/OperationGraphDescriptor.hpp"

namespace hipdnn_backend::descriptors {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

std::shared_ptr<EngineDescriptor> EngineDescriptor::createFinalized(
    std::shared_ptr<const FinalizedGraph> graph, int64_t engineId) {
    auto engine = std::make_shared<EngineDescriptor>();
    engine->_graph = std::move(graph);
    engine->_engineId = engineId;
    engine->finalize();
    return engine;
}

void EngineDescriptor::assignFrom(const EngineDescriptor& other) {
    if (isFinalized()) {
        throw HipdnnException(HIPDNN_STATUS_NOT_INITIALIZED,
                              "The ENGINE descriptor to fill is already finalized; pass a new one");
    }
    _engineId = other._engineId;
    _graph = other._graph;
    _instance = other._instance;
    _knobs = other._knobs;
    _knobIds = other._knobIds;
    _behaviorNotes = other._behaviorNotes;
    _name = other._name;
    markFinalized();
}

void EngineDescriptor::set(const AttributeInput& input) {
    switch (input.name) {
        case HIPDNN_ATTR_ENGINE_GLOBAL_INDEX:
            _engineId = input.single<int64_t>(HIPDNN_TYPE_INT64);
            return;
        case HIPDNN_ATTR_ENGINE_OPERATION_GRAPH: {
            auto graph = std::static_pointer_cast<OperationGraphDescriptor>(
                input.descriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, /*requireFinalized=*/true));
            _graph = graph->finalizedGraph();
            return;
        }
        default:
            rejectAttribute(input.name);
    }
}

void EngineDescriptor::finalizeDescriptor() {
    if (!_engineId || !_graph) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            "An ENGINE needs HIPDNN_ATTR_ENGINE_GLOBAL_INDEX and HIPDNN_ATTR_ENGINE_OPERATION_GRAPH");
    }
    const int64_t id = *_engineId;
    const plugin::PluginInstance* instance = _graph->handle->instanceForEngine(id);
    if (instance == nullptr) {
        throw HipdnnException(
            HIPDNN_STATUS_NOT_SUPPORTED,
            fmt::format("No plugin serving this handle's device provides engine {}. Plugins: {}",
                        hipdnn_data_sdk::utilities::formatEngineIdHex(id),
                        _graph->handle->describePlugins()));
    }
    const hipdnnPluginConstData_t graphData = _graph->data();
    const plugin::ApplicableEngines applicable = instance->applicableEngines(graphData);
    if (std::find(applicable.engineIds.begin(), applicable.engineIds.end(), id) ==
        applicable.engineIds.end()) {
        throw HipdnnException(
            HIPDNN_STATUS_NOT_SUPPORTED,
            fmt::format("Engine {} does not apply to graph '{}'{}{}", instance->plugin().engineName(id),
                        _graph->name, applicable.declineText.empty() ? "" : ": ", applicable.declineText));
    }

    const std::vector<uint8_t> details = instance->engineDetails(id, graphData);
    const fb::EngineDetails* parsed = fb::GetEngineDetails(details.data());
    _knobs.clear();
    _knobIds.clear();
    if (parsed->knobs() != nullptr) {
        for (const fb::Knob* knob : *parsed->knobs()) {
            _knobs.push_back(copyKnob(*knob));
            _knobIds.push_back(knob->knob_id() != nullptr ? knob->knob_id()->str() : std::string());
        }
    }
    _behaviorNotes.clear();
    if (parsed->behavior_notes() != nullptr) {
        for (auto note : *parsed->behavior_notes()) {
            _behaviorNotes.push_back(static_cast<int32_t>(note));
        }
    }
    _instance = instance;
    _name = instance->plugin().engineName(id);
}

void EngineDescriptor::get(AttributeOutput& output) const {
    switch (output.name) {
        case HIPDNN_ATTR_ENGINE_GLOBAL_INDEX:
            output.writeSingle<int64_t>(HIPDNN_TYPE_INT64, *_engineId);
            return;
        case HIPDNN_ATTR_ENGINE_KNOB_INFO: {
            output.requireType(HIPDNN_TYPE_BACKEND_DESCRIPTOR);
            if (output.requested == 0) {
                *output.count = static_cast<int64_t>(_knobs.size());
                return;
            }
            const auto targets = output.callerDescriptors(HIPDNN_BACKEND_KNOB_INFO_DESCRIPTOR, _knobs.size());
            const size_t filled = targets.size();
            for (size_t index = 0; index < filled; ++index) {
                std::static_pointer_cast<KnobInfoDescriptor>(targets[index])->fill(_knobs[index]);
            }
            *output.count = static_cast<int64_t>(filled);
            return;
        }
        case HIPDNN_ATTR_ENGINE_BEHAVIOR_NOTE:
            output.write<int32_t>(HIPDNN_TYPE_INT32, _behaviorNotes);
            return;
        case HIPDNN_ATTR_ENGINE_NAME_EXT:
            output.writeText(_name);
            return;
        case HIPDNN_ATTR_ENGINE_PLUGIN_NAME_EXT:
            output.writeText(_instance->plugin().name());
            return;
        default:
            rejectAttribute(output.name);
    }
}

}  // namespace hipdnn_backend::descriptors
