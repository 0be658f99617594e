// The tuning database extension: recording a measured plan.
#include "api/ApiGuard.hpp"
#include "descriptors/DescriptorRegistry.hpp"
#include "descriptors/ExecutionPlanDescriptor.hpp"
#include "tuning/TuningLookup.hpp"

using namespace hipdnn_backend;
using namespace hipdnn_backend::api;
using namespace hipdnn_backend::descriptors;

hipdnnStatus_t hipdnnBackendRecordTuningResult_ext(hipdnnBackendDescriptor_t execution_plan, double median_ms,
                                                   double runner_up_ms, const char* tool) {
    return guardedCall(__func__, [&] {
        requireNotNull(execution_plan, "execution_plan");
        requireNotNull(tool, "tool");
        const auto plan = lookupDescriptorAs<ExecutionPlanDescriptor>(
            execution_plan, HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, "execution_plan");
        if (!plan->isFinalized()) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
                                  "The execution plan is not finalized");
        }
        tuning::recordTuningResult(*plan, median_ms, runner_up_ms, tool);
    });
}
