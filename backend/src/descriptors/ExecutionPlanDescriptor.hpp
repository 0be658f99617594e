// EXECUTION_PLAN: a plugin execution context built from a finalized ENGINECFG. Set
// ENGINE_CONFIG (and optionally HANDLE, accepted and unused: the graph's handle is used).
// Finalize creates the context and reads its workspace size (authoritative).
// Gets: WORKSPACE_SIZE (INT64), TENSOR_UIDS_EXT (INT64 n: the non-virtual tensors a variant pack
// must provide, sorted).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "descriptors/Descriptor.hpp"
#include "descriptors/EngineConfigDescriptor.hpp"
#include "descriptors/FinalizedGraph.hpp"
#include "descriptors/VariantPackDescriptor.hpp"

namespace hipdnn_flatbuffers_sdk::data_objects {
struct TensorAttributes;
}

namespace hipdnn_backend::descriptors {

class ExecutionPlanDescriptor final : public Descriptor {
public:
    ExecutionPlanDescriptor() : Descriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR) {}
    ~ExecutionPlanDescriptor() override;

    // A finalized plan rebuilt from hipdnnBackendGetSerializedExecutionPlan_ext bytes.
    static std::shared_ptr<ExecutionPlanDescriptor> deserialize(std::shared_ptr<plugin::HandleState> handle,
                                                                const uint8_t* data, size_t size);
    // NOT_SUPPORTED when the plugin does not export the plan-serialization functions.
    std::vector<uint8_t> serialize() const;
    const std::shared_ptr<const FinalizedGraph>& graph() const noexcept { return _graph; }
    const plugin::PluginInstance& instance() const noexcept { return *_instance; }
    int64_t engineId() const noexcept { return _engineId; }
    // The EngineConfig FlatBuffer (engine id and knob settings) the plan was built from.
    const std::vector<uint8_t>& serializedConfig() const noexcept { return _serializedConfig; }

    // Checks the variant pack against the graph and runs the plan on `handle`.
    void execute(const plugin::HandleState& handle, const VariantPackDescriptor& variantPack) const;

private:
    void set(const AttributeInput& input) override;
    void get(AttributeOutput& output) const override;
    void finalizeDescriptor() override;
    void setWorkspaceSize(size_t bytes);
    // Throws naming the first missing or unexpected uid; pass-by-value scalars may be bound or not.
    void checkVariantPackUids(const VariantPackDescriptor& variantPack) const;
    // BAD_PARAM naming the tensor (or the workspace) whose memory belongs to another GPU than the
    // handle's: its plugins would read or write another device's memory.
    void checkDevicePointers(int handleOrdinal, const VariantPackDescriptor& variantPack) const;
    const hipdnn_flatbuffers_sdk::data_objects::TensorAttributes* findTensor(int64_t uid) const;
    // The tensor's name in the plan's graph; empty when it has none or is not in the graph.
    std::string tensorName(int64_t uid) const;

    std::shared_ptr<EngineConfigDescriptor> _config;
    std::shared_ptr<const FinalizedGraph> _graph;
    const plugin::PluginInstance* _instance = nullptr;  // owned by _graph->handle
    int64_t _engineId = 0;
    std::vector<uint8_t> _serializedConfig;
    hipdnnEnginePluginExecutionContext_t _context = nullptr;
    int64_t _workspaceSize = 0;
};

}  // namespace hipdnn_backend::descriptors
