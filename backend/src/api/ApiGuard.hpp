// Wraps every C API body: logs the call, turns exceptions into a status and the thread's last
// error, logs failures. Nothing throws across the C boundary.
#pragma once

#include <cstring>
#include <new>
#include <string>

#include "core/HipdnnException.hpp"
#include "core/LastError.hpp"
#include "core/StatusNames.hpp"
#include "logging/Logger.hpp"

namespace hipdnn_backend::api {

inline hipdnnStatus_t reportFailure(const char* function, hipdnnStatus_t status,
                                    const char* message) noexcept {
    try {
        setLastError(message);
        HIPDNN_LOG_ERROR("API failure: [{}] {}: {}", function, statusName(status), message);
    } catch (...) {
        // Out of memory while reporting: the status still goes back.
    }
    return status;
}

template <class Body>
hipdnnStatus_t guardedCall(const char* function, Body&& body) noexcept {
    try {
        HIPDNN_LOG_INFO("API called: [{}]", function);
        body();
        return HIPDNN_STATUS_SUCCESS;
    } catch (const HipdnnException& error) {
        return reportFailure(function, error.status(), error.what());
    } catch (const std::bad_alloc&) {
        return reportFailure(function, HIPDNN_STATUS_ALLOC_FAILED, "Host memory allocation failed");
    } catch (const std::exception& error) {
        return reportFailure(function, HIPDNN_STATUS_INTERNAL_ERROR, error.what());
    } catch (...) {
        return reportFailure(function, HIPDNN_STATUS_INTERNAL_ERROR, "Unknown exception");
    }
}

// BAD_PARAM_NULL_POINTER naming the argument.
inline void requireNotNull(const void* pointer, const char* argument) {
    if (pointer == nullptr) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(argument) + " is null");
    }
}

// Two-call pattern for byte outputs: always writes the size; copies when the buffer is given and
// large enough. A given but too small buffer is BAD_PARAM_SIZE_INSUFFICIENT.
inline void writeBytes(const void* data, size_t size, size_t requested, size_t* byteSize, void* buffer) {
    requireNotNull(byteSize, "byte_size");
    *byteSize = size;
    if (buffer == nullptr || requested == 0) {
        return;
    }
    if (requested < size) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                              "The buffer holds " + std::to_string(requested) + " bytes but " +
                                  std::to_string(size) + " are needed");
    }
    std::memcpy(buffer, data, size);
}

}  // namespace hipdnn_backend::api
