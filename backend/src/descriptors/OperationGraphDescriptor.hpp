// OPERATIONGRAPH: a serialized graph (from the _ext deserializers) bound to a handle.
// Attributes: HANDLE (set, required), PREFERRED_ENGINE_ID_EXT (set/get), NAME_EXT (get),
// ENGINE_GLOBAL_COUNT (get: engines offered by the plugins serving the handle's device).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "descriptors/Descriptor.hpp"
#include "descriptors/FinalizedGraph.hpp"

namespace hipdnn_backend::descriptors {

class OperationGraphDescriptor final : public Descriptor {
public:
    OperationGraphDescriptor() : Descriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR) {}

    // Verifies and copies a serialized graph (BAD_PARAM naming the problem).
    void setSerializedGraph(const uint8_t* data, size_t size);
    const std::vector<uint8_t>& serializedGraph() const;
    // Null until finalized.
    std::shared_ptr<const FinalizedGraph> finalizedGraph() const noexcept { return _finalized; }

private:
    void set(const AttributeInput& input) override;
    void get(AttributeOutput& output) const override;
    void finalizeDescriptor() override;

    std::vector<uint8_t> _bytes;
    std::shared_ptr<plugin::HandleState> _handle;
    std::optional<int64_t> _preferredEngineId;
    std::shared_ptr<const FinalizedGraph> _finalized;
};

}  // namespace hipdnn_backend::descriptors
