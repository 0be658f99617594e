#include "descriptors/EngineConfigDescriptor.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include <fmt/format.h>
#include <hipdnn_flatbuffers_sdk/data_objects/engine_config_generated.h>

#include "descriptors/KnobChoiceDescriptor.hpp"
#include "logging/Logger.hpp"

namespace hipdnn_backend::descriptors {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

void EngineConfigDescriptor::setEngine(std::shared_ptr<EngineDescriptor> engine) {
    if (isFinalized()) {
        throw HipdnnException(
            HIPDNN_STATUS_NOT_INITIALIZED,
            "Cannot set the engine of a finalized ENGINECFG; pass unfinalized ENGINECFG descriptors");
    }
    _engine = std::move(engine);
}

void EngineConfigDescriptor::set(const AttributeInput& input) {
    switch (input.name) {
        case HIPDNN_ATTR_ENGINECFG_ENGINE:
            _engine = std::static_pointer_cast<EngineDescriptor>(
                input.descriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, /*requireFinalized=*/true));
            return;
        case HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES: {
            std::vector<KnobChoice> choices;
            for (const auto& descriptor : input.descriptors(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, true)) {
                choices.push_back(std::static_pointer_cast<KnobChoiceDescriptor>(descriptor)->choice());
            }
            _descriptorChoices = std::move(choices);
            return;
        }
        case HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE: {
            std::vector<KnobChoice> choices;
            for (const auto& data :
                 input.values<hipdnnFlatbufferData_ext_t>(HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT)) {
                choices.push_back(parseKnobSetting(data.ptr, data.size));
            }
            _serializedChoices = std::move(choices);
            return;
        }
        default:
            rejectAttribute(input.name);
    }
}

void EngineConfigDescriptor::finalizeDescriptor() {
    if (!_engine) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "An ENGINECFG needs HIPDNN_ATTR_ENGINECFG_ENGINE");
    }
    std::vector<KnobChoice> choices = _descriptorChoices;
    choices.insert(choices.end(), _serializedChoices.begin(), _serializedChoices.end());
    std::set<std::string> seen;
    for (const KnobChoice& choice : choices) {
        if (!seen.insert(choice.knobId).second) {
            throw HipdnnException(
                HIPDNN_STATUS_BAD_PARAM,
                fmt::format("Knob '{}' is set more than once on the ENGINECFG", choice.knobId));
        }
        const auto& published = _engine->knobIds();
        if (std::find(published.begin(), published.end(), choice.knobId) == published.end()) {
            HIPDNN_LOG_WARN("Knob '{}' is not published by engine {}; passing it on unchanged", choice.knobId,
                            _engine->instance().plugin().engineName(_engine->engineId()));
        }
    }

    const size_t callerChoices = choices.size();
    for (const KnobChoice& tuned : _tunedChoices) {
        if (!seen.contains(tuned.knobId)) {
            choices.push_back(tuned);
        }
    }
    try {
        serialize(choices);
    } catch (const HipdnnException& error) {
        if (choices.size() == callerChoices) {
            throw;
        }
        // A record the plugin no longer accepts must not cost the engine its place.
        HIPDNN_LOG_WARN(
            "Engine {} rejected the knob settings of its tuning record ({}); planning with its "
            "defaults",
            _engine->instance().plugin().engineName(_engine->engineId()), error.what());
        choices.resize(callerChoices);
        serialize(choices);
    }
}

void EngineConfigDescriptor::serialize(const std::vector<KnobChoice>& choices) {
    flatbuffers::FlatBufferBuilder builder;
    std::vector<flatbuffers::Offset<fb::KnobSetting>> settings;
    for (const KnobChoice& choice : choices) {
        settings.push_back(buildKnobSetting(builder, choice));
    }
    builder.Finish(fb::CreateEngineConfigDirect(builder, _engine->engineId(), &settings));
    std::vector<uint8_t> serialized(builder.GetBufferPointer(),
                                    builder.GetBufferPointer() + builder.GetSize());

    const size_t workspace =
        _engine->instance().workspaceSize({serialized.data(), serialized.size()}, _engine->graph()->data());
    if (workspace > static_cast<size_t>(std::numeric_limits<int64_t>::max())) {
        throw HipdnnException(
            HIPDNN_STATUS_INTERNAL_ERROR,
            fmt::format("The plugin reported a workspace size of {} bytes, which overflows", workspace));
    }
    _serialized = std::move(serialized);
    _workspaceSize = static_cast<int64_t>(workspace);
}

void EngineConfigDescriptor::get(AttributeOutput& output) const {
    switch (output.name) {
        case HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE:
            output.writeSingle<int64_t>(HIPDNN_TYPE_INT64, _workspaceSize);
            return;
        case HIPDNN_ATTR_ENGINECFG_ENGINE: {
            output.requireType(HIPDNN_TYPE_BACKEND_DESCRIPTOR);
            if (output.requested == 0) {
                *output.count = 1;
                return;
            }
            const auto targets = output.callerDescriptors(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, 1);
            std::static_pointer_cast<EngineDescriptor>(targets.front())->assignFrom(*_engine);
            *output.count = 1;
            return;
        }
        default:
            rejectAttribute(output.name);
    }
}

}  // namespace hipdnn_backend::descriptors
