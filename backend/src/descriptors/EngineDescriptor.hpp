// ENGINE: one engine applied to one graph. Set GLOBAL_INDEX (INT64: the engine id) and
// OPERATION_GRAPH (a finalized OPERATIONGRAPH). Finalize re-checks that the engine applies and
// fetches its EngineDetails from the plugin (verified; the engine id must match).
// Gets: GLOBAL_INDEX, KNOB_INFO (fills caller-created KNOB_INFO descriptors; count with 0),
// BEHAVIOR_NOTE (INT32 values of BehaviorNote), NAME_EXT and PLUGIN_NAME_EXT (CHAR).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "descriptors/Descriptor.hpp"
#include "descriptors/FinalizedGraph.hpp"

namespace hipdnn_backend::descriptors {

class EngineDescriptor final : public Descriptor {
public:
    EngineDescriptor() : Descriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR) {}

    // A finalized engine, as the heuristics hand out.
    static std::shared_ptr<EngineDescriptor> createFinalized(std::shared_ptr<const FinalizedGraph> graph,
                                                             int64_t engineId);
    // Copies a finalized engine into this (caller-created) descriptor.
    void assignFrom(const EngineDescriptor& other);

    int64_t engineId() const noexcept { return *_engineId; }
    const std::shared_ptr<const FinalizedGraph>& graph() const noexcept { return _graph; }
    const plugin::PluginInstance& instance() const noexcept { return *_instance; }
    const std::string& name() const noexcept { return _name; }
    // Ids of the knobs the engine publishes for this graph.
    const std::vector<std::string>& knobIds() const noexcept { return _knobIds; }

private:
    void set(const AttributeInput& input) override;
    void get(AttributeOutput& output) const override;
    void finalizeDescriptor() override;

    std::optional<int64_t> _engineId;
    std::shared_ptr<const FinalizedGraph> _graph;
    const plugin::PluginInstance* _instance = nullptr;  // owned by _graph->handle
    std::vector<std::vector<uint8_t>> _knobs;           // one serialized Knob each
    std::vector<std::string> _knobIds;
    std::vector<int32_t> _behaviorNotes;
    std::string _name;
};

}  // namespace hipdnn_backend::descriptors
