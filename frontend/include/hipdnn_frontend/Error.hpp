// Errors are values: every fallible frontend call returns an Error that the caller must look at.
#pragma once

#include <ostream>
#include <string>
#include <utility>

#include "detail/Logging.hpp"

namespace hipdnn_frontend {

enum class ErrorCode {
    OK,
    // A required tensor, dimension or parameter was never given.
    ATTRIBUTE_NOT_SET,
    // A value is present but wrong: bad shape, rank, padding, duplicate uid, cycle, ...
    INVALID_VALUE,
    // No engine accepts the graph (the message says why each engine declined).
    GRAPH_NOT_SUPPORTED,
    // A lifecycle step was called out of order (e.g. execute before build_plans).
    INVALID_STATE,
    // The backend C API failed; the message carries its status and last-error string.
    HIPDNN_BACKEND_ERROR,
};

inline const char* to_string(ErrorCode code) {
    switch (code) {
        case ErrorCode::OK:
            return "OK";
        case ErrorCode::ATTRIBUTE_NOT_SET:
            return "ATTRIBUTE_NOT_SET";
        case ErrorCode::INVALID_VALUE:
            return "INVALID_VALUE";
        case ErrorCode::GRAPH_NOT_SUPPORTED:
            return "GRAPH_NOT_SUPPORTED";
        case ErrorCode::INVALID_STATE:
            return "INVALID_STATE";
        case ErrorCode::HIPDNN_BACKEND_ERROR:
            return "HIPDNN_BACKEND_ERROR";
    }
    return "UNKNOWN";
}

inline std::ostream& operator<<(std::ostream& os, ErrorCode code) {
    return os << to_string(code);
}

struct [[nodiscard]] Error {
    ErrorCode code = ErrorCode::OK;
    std::string message;

    Error() = default;
    Error(ErrorCode errorCode, std::string errorMessage)
        : code(errorCode), message(std::move(errorMessage)) {}

    [[nodiscard]] ErrorCode get_code() const { return code; }
    [[nodiscard]] const std::string& get_message() const { return message; }
    [[nodiscard]] bool is_good() const { return code == ErrorCode::OK; }
    [[nodiscard]] bool is_bad() const { return code != ErrorCode::OK; }

    bool operator==(ErrorCode other) const { return code == other; }
    bool operator!=(ErrorCode other) const { return code != other; }
};

inline std::ostream& operator<<(std::ostream& os, const Error& error) {
    return os << to_string(error.code) << ": " << error.message;
}

// cuDNN-frontend spellings.
using error_code_t = ErrorCode;
using error_t = Error;
using error_object = Error;

}  // namespace hipdnn_frontend

// Propagates a bad Error to the caller, adding where it was noticed.
#define HIPDNN_CHECK_FRONTEND_ERROR(expr)                                                    \
    do {                                                                                     \
        ::hipdnn_frontend::Error hipdnnFrontendErr_ = (expr);                                \
        if (hipdnnFrontendErr_.is_bad()) {                                                   \
            HIPDNN_FE_LOG_INFO(#expr << " failed at " << __FILE__ << ":" << __LINE__ << ": " \
                                     << hipdnnFrontendErr_.message);                         \
            return hipdnnFrontendErr_;                                                       \
        }                                                                                    \
    } while (false)

// Returns Error{code, message} when cond holds. message may be any expression convertible to std::string.
#define HIPDNN_RETURN_FRONTEND_ERROR_IF(cond, errorCode, msg)             \
    do {                                                                  \
        if (cond) {                                                       \
            return ::hipdnn_frontend::Error{errorCode, std::string(msg)}; \
        }                                                                 \
    } while (false)
