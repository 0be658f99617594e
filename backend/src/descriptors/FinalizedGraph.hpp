// An immutable, verified operation graph bound to a handle: what engines, configurations and
// plans share once an OPERATIONGRAPH descriptor is finalized.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>

#include "plugin/ApiVersion.hpp"
#include "plugin/HandleState.hpp"

namespace hipdnn_backend::descriptors {

struct FinalizedGraph {
    // Verified bytes: exactly what plugins receive.
    std::vector<uint8_t> bytes;
    std::shared_ptr<plugin::HandleState> handle;
    std::string name;
    std::optional<int64_t> preferredEngineId;
    plugin::ApiVersion minimumApiVersion;
    // Uids of the non-virtual tensors that hold data (those a variant pack must provide), sorted.
    std::vector<int64_t> boundaryUids;
    // Uids of pass-by-value scalars: their value is in the graph, so a buffer is optional.
    std::vector<int64_t> scalarUids;

    hipdnnPluginConstData_t data() const noexcept { return {bytes.data(), bytes.size()}; }
};

// Reads the graph's properties from already verified bytes. `preferredOverride` (the
// OPERATIONGRAPH attribute) wins over the graph's own preferred_engine_id.
std::shared_ptr<const FinalizedGraph> makeFinalizedGraph(std::vector<uint8_t> bytes,
                                                         std::shared_ptr<plugin::HandleState> handle,
                                                         std::optional<int64_t> preferredOverride);

// Verifies a serialized graph (FlatBuffer verifier + graph contract); BAD_PARAM naming the problem.
void verifyGraphBytes(const uint8_t* data, size_t size);

}  // namespace hipdnn_backend::descriptors
