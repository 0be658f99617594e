// The descriptor API: create, destroy, set/get attribute, finalize, execute.
#include "api/ApiGuard.hpp"
#include "api/HandleRegistry.hpp"
#include "descriptors/DescriptorRegistry.hpp"
#include "descriptors/ExecutionPlanDescriptor.hpp"
#include "descriptors/VariantPackDescriptor.hpp"

using namespace hipdnn_backend;
using namespace hipdnn_backend::api;
using namespace hipdnn_backend::descriptors;

extern "C" {

hipdnnStatus_t hipdnnBackendCreateDescriptor(hipdnnBackendDescriptorType_t descriptor_type,
                                             hipdnnBackendDescriptor_t* descriptor) {
    return guardedCall(__func__, [&] {
        requireNotNull(descriptor, "descriptor");
        *descriptor = registerDescriptor(createDescriptor(descriptor_type));
    });
}

hipdnnStatus_t hipdnnBackendDestroyDescriptor(hipdnnBackendDescriptor_t descriptor) {
    return guardedCall(__func__, [&] {
        requireNotNull(descriptor, "descriptor");
        unregisterDescriptor(descriptor);
    });
}

hipdnnStatus_t hipdnnBackendSetAttribute(hipdnnBackendDescriptor_t descriptor,
                                         hipdnnBackendAttributeName_t attribute_name,
                                         hipdnnBackendAttributeType_t attribute_type, int64_t element_count,
                                         const void* array_of_elements) {
    return guardedCall(__func__, [&] {
        requireNotNull(descriptor, "descriptor");
        requireNotNull(array_of_elements, "array_of_elements");
        lookupDescriptor(descriptor)
            ->setAttribute({attribute_name, attribute_type, element_count, array_of_elements});
    });
}

hipdnnStatus_t hipdnnBackendGetAttribute(hipdnnBackendDescriptor_t descriptor,
                                         hipdnnBackendAttributeName_t attribute_name,
                                         hipdnnBackendAttributeType_t attribute_type,
                                         int64_t requested_element_count, int64_t* element_count,
                                         void* array_of_elements) {
    return guardedCall(__func__, [&] {
        requireNotNull(descriptor, "descriptor");
        requireNotNull(element_count, "element_count");
        if (requested_element_count > 0) {
            requireNotNull(array_of_elements, "array_of_elements");
        }
        if (requested_element_count < 0) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "requested_element_count is negative");
        }
        AttributeOutput output{attribute_name, attribute_type, requested_element_count, element_count,
                               array_of_elements};
        lookupDescriptor(descriptor)->getAttribute(output);
    });
}

hipdnnStatus_t hipdnnBackendFinalize(hipdnnBackendDescriptor_t descriptor) {
    return guardedCall(__func__, [&] {
        requireNotNull(descriptor, "descriptor");
        lookupDescriptor(descriptor)->finalize();
    });
}

hipdnnStatus_t hipdnnBackendExecute(hipdnnHandle_t handle, hipdnnBackendDescriptor_t execution_plan,
                                    hipdnnBackendDescriptor_t variant_pack) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        requireNotNull(execution_plan, "execution_plan");
        requireNotNull(variant_pack, "variant_pack");
        const auto state = lookupHandle(handle);
        const auto plan = lookupDescriptorAs<ExecutionPlanDescriptor>(
            execution_plan, HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, "execution_plan");
        const auto pack = lookupDescriptorAs<VariantPackDescriptor>(
            variant_pack, HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, "variant_pack");
        if (!plan->isFinalized() || !pack->isFinalized()) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
                                  !plan->isFinalized() ? "The execution plan is not finalized"
                                                       : "The variant pack is not finalized");
        }
        plan->execute(*state, *pack);
    });
}

}  // extern "C"
