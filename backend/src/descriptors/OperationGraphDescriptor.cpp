#include "descriptors/OperationGraphDescriptor.hpp"

#include "api/HandleRegistry.hpp"
#include "logging/GraphDump.hpp"

namespace hipdnn_backend::descriptors {

void OperationGraphDescriptor::setSerializedGraph(const uint8_t* data, size_t size) {
    verifyGraphBytes(data, size);
    _bytes.assign(data, data + size);
}

const std::vector<uint8_t>& OperationGraphDescriptor::serializedGraph() const {
    if (_bytes.empty()) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              "The OPERATIONGRAPH descriptor holds no graph (create it with "
                              "hipdnnBackendCreateAndDeserializeGraph_ext)");
    }
    return _bytes;
}

void OperationGraphDescriptor::set(const AttributeInput& input) {
    switch (input.name) {
        case HIPDNN_ATTR_OPERATIONGRAPH_HANDLE:
            _handle = api::lookupHandle(input.single<hipdnnHandle_t>(HIPDNN_TYPE_HANDLE));
            return;
        case HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT:
            _preferredEngineId = input.single<int64_t>(HIPDNN_TYPE_INT64);
            return;
        case HIPDNN_ATTR_OPERATIONGRAPH_OPS:
            throw HipdnnException(
                HIPDNN_STATUS_NOT_SUPPORTED,
                "HIPDNN_ATTR_OPERATIONGRAPH_OPS is not supported: graphs are built from serialized "
                "FlatBuffers (hipdnnBackendCreateAndDeserializeGraph_ext)");
        default:
            rejectAttribute(input.name);
    }
}

void OperationGraphDescriptor::get(AttributeOutput& output) const {
    switch (output.name) {
        case HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT:
            output.writeText(_finalized->name);
            return;
        case HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT:
            if (!_finalized->preferredEngineId) {
                throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "The graph has no preferred engine id");
            }
            output.writeSingle<int64_t>(HIPDNN_TYPE_INT64, *_finalized->preferredEngineId);
            return;
        case HIPDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT: {
            int64_t engines = 0;
            for (const auto& instance : _finalized->handle->instances()) {
                engines += static_cast<int64_t>(instance->plugin().engineIds().size());
            }
            output.writeSingle<int64_t>(HIPDNN_TYPE_INT64, engines);
            return;
        }
        default:
            rejectAttribute(output.name);
    }
}

void OperationGraphDescriptor::finalizeDescriptor() {
    serializedGraph();  // a descriptor created empty cannot finalize
    if (!_handle) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            "HIPDNN_ATTR_OPERATIONGRAPH_HANDLE must be set before finalizing the OPERATIONGRAPH");
    }
    _finalized = makeFinalizedGraph(_bytes, _handle, _preferredEngineId);
    logging::dumpGraphIfRequested(_bytes);
}

}  // namespace hipdnn_backend::descriptors
