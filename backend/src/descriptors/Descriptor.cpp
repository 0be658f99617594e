#include "descriptors/Descriptor.hpp"

#include <fmt/format.h>

#include "core/AttributeNames.hpp"
#include "descriptors/EngineConfigDescriptor.hpp"
#include "descriptors/EngineDescriptor.hpp"
#include "descriptors/EngineHeuristicDescriptor.hpp"
#include "descriptors/ExecutionPlanDescriptor.hpp"
#include "descriptors/KnobChoiceDescriptor.hpp"
#include "descriptors/KnobInfoDescriptor.hpp"
#include "descriptors/OperationGraphDescriptor.hpp"
#include "descriptors/VariantPackDescriptor.hpp"

namespace hipdnn_backend::descriptors {

void Descriptor::setAttribute(const AttributeInput& input) {
    input.requireSaneCount();
    if (_finalized) {
        throw HipdnnException(HIPDNN_STATUS_NOT_INITIALIZED,
                              fmt::format("Cannot set {} on a finalized {}", attributeName(input.name),
                                          descriptorTypeName(_type)));
    }
    set(input);
}

void Descriptor::getAttribute(AttributeOutput& output) const {
    if (!_finalized) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
                              fmt::format("Cannot get {} from a {} that is not finalized",
                                          attributeName(output.name), descriptorTypeName(_type)));
    }
    get(output);
}

void Descriptor::finalize() {
    if (_finalized) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              fmt::format("The {} is already finalized", descriptorTypeName(_type)));
    }
    finalizeDescriptor();
    _finalized = true;
}

void Descriptor::rejectAttribute(hipdnnBackendAttributeName_t name) const {
    throw HipdnnException(
        HIPDNN_STATUS_BAD_PARAM,
        fmt::format("Attribute {} is not valid for a {}", attributeName(name), descriptorTypeName(_type)));
}

std::shared_ptr<Descriptor> createDescriptor(hipdnnBackendDescriptorType_t type) {
    switch (type) {
        case HIPDNN_BACKEND_ENGINE_DESCRIPTOR:
            return std::make_shared<EngineDescriptor>();
        case HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR:
            return std::make_shared<EngineConfigDescriptor>();
        case HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR:
            return std::make_shared<EngineHeuristicDescriptor>();
        case HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR:
            return std::make_shared<ExecutionPlanDescriptor>();
        case HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR:
            return std::make_shared<KnobChoiceDescriptor>();
        case HIPDNN_BACKEND_KNOB_INFO_DESCRIPTOR:
            return std::make_shared<KnobInfoDescriptor>();
        case HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR:
            return std::make_shared<OperationGraphDescriptor>();
        case HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR:
            return std::make_shared<VariantPackDescriptor>();
        case HIPDNN_BACKEND_INVALID_DESCRIPTOR:
            break;
        default:
            if (type > HIPDNN_BACKEND_INVALID_DESCRIPTOR &&
                type <= HIPDNN_BACKEND_OPERATION_LAYERNORM_BACKWARD_EXT_DESCRIPTOR) {
                throw HipdnnException(
                    HIPDNN_STATUS_NOT_SUPPORTED,
                    fmt::format("{} is not supported: graphs are built from serialized FlatBuffers "
                                "(hipdnnBackendCreateAndDeserializeGraph_ext)",
                                descriptorTypeName(type)));
            }
            break;
    }
    throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                          fmt::format("Invalid descriptor type {}", static_cast<int>(type)));
}

}  // namespace hipdnn_backend::descriptors
