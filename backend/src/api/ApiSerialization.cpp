// Graph and plan (de)serialization extensions.
#include <string_view>

#include <fmt/format.h>
#include <hipdnn_flatbuffers_sdk/GraphJson.hpp>

#include "api/ApiGuard.hpp"
#include "api/HandleRegistry.hpp"
#include "descriptors/DescriptorRegistry.hpp"
#include "descriptors/ExecutionPlanDescriptor.hpp"
#include "descriptors/OperationGraphDescriptor.hpp"

using namespace hipdnn_backend;
using namespace hipdnn_backend::api;
using namespace hipdnn_backend::descriptors;

namespace {

std::shared_ptr<OperationGraphDescriptor> lookupGraph(hipdnnBackendDescriptor_t descriptor) {
    requireNotNull(descriptor, "descriptor");
    return lookupDescriptorAs<OperationGraphDescriptor>(descriptor, HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR,
                                                        "descriptor");
}

}  // namespace

extern "C" {

hipdnnStatus_t hipdnnBackendCreateAndDeserializeGraph_ext(hipdnnBackendDescriptor_t* descriptor,
                                                          const uint8_t* serialized_graph,
                                                          size_t graph_byte_size) {
    return guardedCall(__func__, [&] {
        requireNotNull(descriptor, "descriptor");
        requireNotNull(serialized_graph, "serialized_graph");
        auto graph = std::make_shared<OperationGraphDescriptor>();
        graph->setSerializedGraph(serialized_graph, graph_byte_size);
        *descriptor = registerDescriptor(std::move(graph));
    });
}

hipdnnStatus_t hipdnnBackendCreateAndDeserializeJsonGraph_ext(hipdnnBackendDescriptor_t* descriptor,
                                                              const char* json_graph, size_t json_byte_size) {
    return guardedCall(__func__, [&] {
        requireNotNull(descriptor, "descriptor");
        requireNotNull(json_graph, "json_graph");
        std::vector<uint8_t> bytes;
        try {
            bytes = hipdnn_flatbuffers_sdk::graphFromJson(std::string_view(json_graph, json_byte_size));
        } catch (const std::runtime_error& error) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                  std::string("Invalid JSON graph: ") + error.what());
        }
        auto graph = std::make_shared<OperationGraphDescriptor>();
        graph->setSerializedGraph(bytes.data(), bytes.size());
        *descriptor = registerDescriptor(std::move(graph));
    });
}

hipdnnStatus_t hipdnnBackendGetSerializedBinaryGraph_ext(hipdnnBackendDescriptor_t descriptor,
                                                         size_t requested_byte_size, size_t* byte_size,
                                                         uint8_t* buffer) {
    return guardedCall(__func__, [&] {
        const std::vector<uint8_t>& bytes = lookupGraph(descriptor)->serializedGraph();
        writeBytes(bytes.data(), bytes.size(), requested_byte_size, byte_size, buffer);
    });
}

hipdnnStatus_t hipdnnBackendGetSerializedJsonGraph_ext(hipdnnBackendDescriptor_t descriptor,
                                                       size_t requested_byte_size, size_t* byte_size,
                                                       char* buffer) {
    return guardedCall(__func__, [&] {
        const std::vector<uint8_t>& bytes = lookupGraph(descriptor)->serializedGraph();
        const std::string json = hipdnn_flatbuffers_sdk::graphToJson(bytes.data(), bytes.size());
        writeBytes(json.c_str(), json.size() + 1, requested_byte_size, byte_size, buffer);
    });
}

hipdnnStatus_t hipdnnBackendGetSerializedExecutionPlan_ext(hipdnnBackendDescriptor_t execution_plan,
                                                           size_t requested_byte_size, size_t* byte_size,
                                                           uint8_t* buffer) {
    return guardedCall(__func__, [&] {
        requireNotNull(execution_plan, "execution_plan");
        const auto plan = lookupDescriptorAs<ExecutionPlanDescriptor>(
            execution_plan, HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, "execution_plan");
        if (!plan->isFinalized()) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
                                  "The execution plan is not finalized");
        }
        const std::vector<uint8_t> bytes = plan->serialize();
        writeBytes(bytes.data(), bytes.size(), requested_byte_size, byte_size, buffer);
    });
}

hipdnnStatus_t hipdnnBackendCreateAndDeserializeExecutionPlan_ext(hipdnnHandle_t handle,
                                                                  hipdnnBackendDescriptor_t* execution_plan,
                                                                  const uint8_t* serialized_plan,
                                                                  size_t plan_byte_size) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        requireNotNull(execution_plan, "execution_plan");
        requireNotNull(serialized_plan, "serialized_plan");
        auto plan =
            ExecutionPlanDescriptor::deserialize(lookupHandle(handle), serialized_plan, plan_byte_size);
        *execution_plan = registerDescriptor(std::move(plan));
    });
}

}  // extern "C"
