#include "descriptors/FinalizedGraph.hpp"

#include <algorithm>

#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include "core/HipdnnException.hpp"

namespace hipdnn_backend::descriptors {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

void verifyGraphBytes(const uint8_t* data, size_t size) {
    std::string error;
    if (!hipdnn_flatbuffers_sdk::GraphWrapper::tryCreate(data, size, error)) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "Invalid serialized graph: " + error);
    }
}

std::shared_ptr<const FinalizedGraph> makeFinalizedGraph(std::vector<uint8_t> bytes,
                                                         std::shared_ptr<plugin::HandleState> handle,
                                                         std::optional<int64_t> preferredOverride) {
    auto graph = std::make_shared<FinalizedGraph>();
    graph->bytes = std::move(bytes);
    graph->handle = std::move(handle);
    const fb::Graph* root = fb::GetGraph(graph->bytes.data());
    if (root->name() != nullptr) {
        graph->name = root->name()->str();
    }
    graph->preferredEngineId = preferredOverride ? preferredOverride : root->preferred_engine_id();
    if (const fb::EngineApiVersion* minimum = root->min_required_engine_api_version()) {
        graph->minimumApiVersion = {minimum->major(), minimum->minor(), minimum->patch()};
    }
    if (root->tensors() != nullptr) {
        for (const fb::TensorAttributes* tensor : *root->tensors()) {
            if (tensor->value_type() != fb::TensorValue::NONE) {
                graph->scalarUids.push_back(tensor->uid());
            } else if (!tensor->virtual_()) {
                graph->boundaryUids.push_back(tensor->uid());
            }
        }
    }
    std::sort(graph->boundaryUids.begin(), graph->boundaryUids.end());
    std::sort(graph->scalarUids.begin(), graph->scalarUids.end());
    return graph;
}

}  // namespace hipdnn_backend::descriptors
