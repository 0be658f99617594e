// Graph::autotune: time every candidate plan, keep the fastest, record it in the tuning database.
// Included by Graph.hpp.
#pragma once

#include <limits>

namespace hipdnn_frontend::graph {

inline Error Graph::autotune(hipdnnHandle_t handle, std::unordered_map<int64_t, void*>& variantPack,
                             void* workspace) {
    HIPDNN_CHECK_FRONTEND_ERROR(requireOperationGraph("autotune"));
    HIPDNN_RETURN_FRONTEND_ERROR_IF(handle == nullptr, ErrorCode::INVALID_VALUE, "autotune needs a handle");
    HIPDNN_RETURN_FRONTEND_ERROR_IF(candidates_.empty(), ErrorCode::GRAPH_NOT_SUPPORTED,
                                    notSupportedMessage());

    std::optional<size_t> fastest;
    double fastestMs = std::numeric_limits<double>::infinity();
    double runnerUpMs = 0;
    for (size_t index = 0; index < candidates_.size(); ++index) {
        auto& candidate = candidates_[index];
        if (candidate.deselected) {
            continue;
        }
        if (const Error built = buildCandidate(candidate); built.is_bad()) {
            candidate.failure = built.message;
            HIPDNN_FE_LOG_INFO("autotune: plan for engine " << candidate.engineName
                                                            << " not built: " << built.message);
            continue;
        }
        detail::TimedRuns timed{kAutotuneTimedRuns};
        HIPDNN_CHECK_FRONTEND_ERROR(executeCandidate(candidate, handle, variantPack, workspace, {}, &timed));
        candidate.medianMs = timed.medianMs;
        HIPDNN_FE_LOG_INFO("autotune: engine " << candidate.engineName << " median " << *candidate.medianMs
                                               << " ms");
        if (candidate.medianMs < fastestMs) {
            runnerUpMs = fastest ? fastestMs : 0;
            fastestMs = *candidate.medianMs;
            fastest = index;
        } else if (runnerUpMs == 0 || *candidate.medianMs < runnerUpMs) {
            runnerUpMs = *candidate.medianMs;
        }
    }
    HIPDNN_RETURN_FRONTEND_ERROR_IF(!fastest, ErrorCode::GRAPH_NOT_SUPPORTED,
                                    "autotune: no execution plan could be built. " + notSupportedMessage());
    activePlan_ = fastest;
    const Error recorded =
        record_tuning_result_at_index(static_cast<int64_t>(*fastest), fastestMs, runnerUpMs, "autotune");
    if (recorded.get_code() == ErrorCode::GRAPH_NOT_SUPPORTED) {
        HIPDNN_FE_LOG_INFO("autotune: engine " << candidates_[*fastest].engineName
                                               << " kept, not recorded: " << recorded.get_message());
        return {};
    }
    return recorded;
}

inline Error Graph::record_tuning_result_at_index(int64_t index, double medianMs, double runnerUpMs,
                                                  const std::string& tool) const {
    const detail::PlanCandidate* candidate = nullptr;
    HIPDNN_CHECK_FRONTEND_ERROR(candidateAt(index, candidate));
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        !candidate->isBuilt(), ErrorCode::INVALID_STATE,
        "plan " + std::to_string(index) + " (" + candidate->engineName + ") is not built");
    const hipdnnStatus_t recorded =
        hipdnnBackendRecordTuningResult_ext(candidate->plan.get(), medianMs, runnerUpMs, tool.c_str());
    const std::string what = "recording engine " + candidate->engineName + " in the tuning database";
    if (recorded == HIPDNN_STATUS_NOT_SUPPORTED) {
        return {ErrorCode::GRAPH_NOT_SUPPORTED, detail::backendError(recorded, what).get_message()};
    }
    return detail::checkBackend(recorded, what);
}

inline Error Graph::get_autotune_median_ms_at_index(int64_t index, double& medianMs) const {
    const detail::PlanCandidate* candidate = nullptr;
    HIPDNN_CHECK_FRONTEND_ERROR(candidateAt(index, candidate));
    HIPDNN_RETURN_FRONTEND_ERROR_IF(
        !candidate->medianMs, ErrorCode::INVALID_STATE,
        "plan " + std::to_string(index) + " (" + candidate->engineName + ") was not timed by autotune");
    medianMs = *candidate->medianMs;
    return {};
}

}  // namespace hipdnn_frontend::graph
