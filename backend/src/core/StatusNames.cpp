#include "core/StatusNames.hpp"

namespace hipdnn_backend {

namespace {

struct StatusText {
    const char* name;
    const char* description;
};

StatusText statusText(hipdnnStatus_t status) noexcept {
    switch (status) {
        case HIPDNN_STATUS_SUCCESS:
            return {"HIPDNN_STATUS_SUCCESS", "HIPDNN_STATUS_SUCCESS: the operation completed successfully"};
        case HIPDNN_STATUS_NOT_INITIALIZED:
            return {"HIPDNN_STATUS_NOT_INITIALIZED",
                    "HIPDNN_STATUS_NOT_INITIALIZED: the object is not in a state that allows this call"};
        case HIPDNN_STATUS_BAD_PARAM:
            return {"HIPDNN_STATUS_BAD_PARAM", "HIPDNN_STATUS_BAD_PARAM: an argument is invalid"};
        case HIPDNN_STATUS_BAD_PARAM_NULL_POINTER:
            return {"HIPDNN_STATUS_BAD_PARAM_NULL_POINTER",
                    "HIPDNN_STATUS_BAD_PARAM_NULL_POINTER: a required pointer argument is null"};
        case HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED:
            return {"HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED",
                    "HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED: the descriptor has not been finalized"};
        case HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND:
            return {"HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND",
                    "HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND: an index or value is out of range"};
        case HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT:
            return {"HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT",
                    "HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT: the provided buffer is too small"};
        case HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH:
            return {"HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH",
                    "HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH: the stream does not match the handle"};
        case HIPDNN_STATUS_NOT_SUPPORTED:
            return {"HIPDNN_STATUS_NOT_SUPPORTED",
                    "HIPDNN_STATUS_NOT_SUPPORTED: the request is not supported"};
        case HIPDNN_STATUS_INTERNAL_ERROR:
            return {"HIPDNN_STATUS_INTERNAL_ERROR",
                    "HIPDNN_STATUS_INTERNAL_ERROR: an internal error occurred"};
        case HIPDNN_STATUS_ALLOC_FAILED:
            return {"HIPDNN_STATUS_ALLOC_FAILED", "HIPDNN_STATUS_ALLOC_FAILED: a memory allocation failed"};
        case HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED:
            return {"HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED",
                    "HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED: a host memory allocation failed"};
        case HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED:
            return {
                "HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED",
                "HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED: a device memory allocation failed"};
        case HIPDNN_STATUS_EXECUTION_FAILED:
            return {"HIPDNN_STATUS_EXECUTION_FAILED", "HIPDNN_STATUS_EXECUTION_FAILED: execution failed"};
        case HIPDNN_STATUS_PLUGIN_ERROR:
            return {"HIPDNN_STATUS_PLUGIN_ERROR",
                    "HIPDNN_STATUS_PLUGIN_ERROR: an engine plugin reported an error"};
    }
    return {"HIPDNN_STATUS_UNKNOWN", "HIPDNN_STATUS_UNKNOWN: unrecognized status code"};
}

}  // namespace

const char* statusName(hipdnnStatus_t status) noexcept {
    return statusText(status).name;
}

const char* statusDescription(hipdnnStatus_t status) noexcept {
    return statusText(status).description;
}

}  // namespace hipdnn_backend
