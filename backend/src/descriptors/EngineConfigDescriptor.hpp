// ENGINECFG: an engine plus knob settings. Set ENGINE (a finalized ENGINE), KNOB_CHOICES
// (finalized KNOB_CHOICE descriptors) and/or KNOB_CHOICE_SERIALIZED_VALUE (KnobSetting
// FlatBuffers); both lists are combined. Finalize checks that knob ids are unique, serializes
// the EngineConfig and asks the plugin for the workspace size. A config from ENGINEHEUR RESULTS may
// carry the knob settings a tuning record names for its engine: they apply to the knobs the caller
// leaves unset and are dropped (logged) when the plugin rejects them.
// Gets: ENGINE (copied into a caller-created ENGINE descriptor), WORKSPACE_SIZE (INT64).
#pragma once

#include <memory>
#include <vector>

#include "descriptors/Descriptor.hpp"
#include "descriptors/EngineDescriptor.hpp"
#include "descriptors/KnobValues.hpp"

namespace hipdnn_backend::descriptors {

class EngineConfigDescriptor final : public Descriptor {
public:
    EngineConfigDescriptor() : Descriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR) {}

    // Used by ENGINEHEUR RESULTS: the same as setting HIPDNN_ATTR_ENGINECFG_ENGINE.
    void setEngine(std::shared_ptr<EngineDescriptor> engine);
    // Used by ENGINEHEUR RESULTS for the engine a tuning record names.
    void setTunedChoices(std::vector<KnobChoice> choices) { _tunedChoices = std::move(choices); }
    const EngineDescriptor& engine() const noexcept { return *_engine; }
    const std::vector<uint8_t>& serializedConfig() const noexcept { return _serialized; }

private:
    void set(const AttributeInput& input) override;
    void get(AttributeOutput& output) const override;
    void finalizeDescriptor() override;
    // Serializes the EngineConfig with `choices` and asks the plugin for its workspace size.
    void serialize(const std::vector<KnobChoice>& choices);

    std::shared_ptr<EngineDescriptor> _engine;
    std::vector<KnobChoice> _descriptorChoices;
    std::vector<KnobChoice> _serializedChoices;
    std::vector<KnobChoice> _tunedChoices;
    std::vector<uint8_t> _serialized;
    int64_t _workspaceSize = 0;
};

}  // namespace hipdnn_backend::descriptors
