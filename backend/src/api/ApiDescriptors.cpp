// The descriptor API: create, destroy, set/get attribute, finalize, execute, time.
#include <algorithm>
#include <vector>

#include "api/ApiGuard.hpp"
#include "api/HandleRegistry.hpp"
#include "descriptors/DescriptorRegistry.hpp"
#include "descriptors/ExecutionPlanDescriptor.hpp"
#include "descriptors/VariantPackDescriptor.hpp"
#include "platform/ExecutionTimer.hpp"

using namespace hipdnn_backend;
using namespace hipdnn_backend::api;
using namespace hipdnn_backend::descriptors;

namespace {

// A plan, a variant pack and a handle checked for hipdnnBackendExecute.
struct Execution {
    std::shared_ptr<plugin::HandleState> handle;
    std::shared_ptr<ExecutionPlanDescriptor> plan;
    std::shared_ptr<VariantPackDescriptor> pack;
};

Execution executionOf(hipdnnHandle_t handle, hipdnnBackendDescriptor_t executionPlan,
                      hipdnnBackendDescriptor_t variantPack) {
    requireNotNull(handle, "handle");
    requireNotNull(executionPlan, "execution_plan");
    requireNotNull(variantPack, "variant_pack");
    Execution execution{lookupHandle(handle),
                        lookupDescriptorAs<ExecutionPlanDescriptor>(
                            executionPlan, HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, "execution_plan"),
                        lookupDescriptorAs<VariantPackDescriptor>(
                            variantPack, HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, "variant_pack")};
    if (!execution.plan->isFinalized() || !execution.pack->isFinalized()) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
                              !execution.plan->isFinalized() ? "The execution plan is not finalized"
                                                             : "The variant pack is not finalized");
    }
    return execution;
}

}  // namespace

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
        const Execution execution = executionOf(handle, execution_plan, variant_pack);
        execution.plan->execute(*execution.handle, *execution.pack);
    });
}

hipdnnStatus_t hipdnnBackendTimeExecution_ext(hipdnnHandle_t handle, hipdnnBackendDescriptor_t execution_plan,
                                              hipdnnBackendDescriptor_t variant_pack, int32_t runs,
                                              double* median_ms) {
    return guardedCall(__func__, [&] {
        requireNotNull(median_ms, "median_ms");
        constexpr int32_t kMaximumRuns = 10000;
        if (runs < 1 || runs > kMaximumRuns) {
            throw HipdnnException(
                HIPDNN_STATUS_BAD_PARAM,
                "runs must be in [1, " + std::to_string(kMaximumRuns) + "], got " + std::to_string(runs));
        }
        const Execution execution = executionOf(handle, execution_plan, variant_pack);
        const auto run = [&] { execution.plan->execute(*execution.handle, *execution.pack); };
        run();  // first touch of buffers, lazy initialization in the engine
        std::vector<double> times;
        if (execution.handle->device() == HIPDNN_DEVICE_TYPE_CPU_EXT) {
            times = platform::hostTimesMs(runs, run);
        } else {
            try {
                times = platform::cudaStreamTimesMs(execution.handle->ordinal(), execution.handle->stream(),
                                                    runs, run);
            } catch (const platform::CudaDriverError& error) {
                throw HipdnnException(HIPDNN_STATUS_NOT_SUPPORTED,
                                      std::string("Cannot time the handle's stream: ") + error.what());
            }
        }
        const auto middle = times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2);
        std::nth_element(times.begin(), middle, times.end());
        *median_ms = *middle;
    });
}

}  // extern "C"
