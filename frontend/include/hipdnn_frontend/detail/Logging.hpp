// Frontend log lines go to the backend's logger (hipdnnLoggingCallback_ext), which applies
// HIPDNN_LOG_LEVEL, HIPDNN_LOG_FILE and user callbacks, so the frontend has no sink of its own;
// initializeFrontendLogging (Logging.hpp) may route them to another callback.
#pragma once

#include <sstream>
#include <string>

#include <hipdnn_backend.h>

namespace hipdnn_frontend::detail {

inline bool logEnabled(hipdnnSeverity_t severity) {
    hipdnnSeverity_t level = HIPDNN_SEV_OFF;
    if (hipdnnBackendGetGlobalLogLevel_ext(&level) != HIPDNN_STATUS_SUCCESS) {
        return false;
    }
    return level != HIPDNN_SEV_OFF && severity >= level;
}

inline hipdnnCallback_t& logSink() {
    static hipdnnCallback_t sink = hipdnnLoggingCallback_ext;
    return sink;
}

inline void log(hipdnnSeverity_t severity, const std::string& message) {
    const std::string line = "[hipdnn_frontend] " + message;
    logSink()(severity, line.c_str());
}

}  // namespace hipdnn_frontend::detail

// The stream expression is only evaluated when the level lets the message through.
#define HIPDNN_FE_LOG(severity, streamExpr)                                     \
    do {                                                                        \
        if (::hipdnn_frontend::detail::logEnabled(severity)) {                  \
            std::ostringstream hipdnnFeLogStream_;                              \
            hipdnnFeLogStream_ << streamExpr;                                   \
            ::hipdnn_frontend::detail::log(severity, hipdnnFeLogStream_.str()); \
        }                                                                       \
    } while (false)
#define HIPDNN_FE_LOG_INFO(streamExpr) HIPDNN_FE_LOG(HIPDNN_SEV_INFO, streamExpr)
#define HIPDNN_FE_LOG_WARN(streamExpr) HIPDNN_FE_LOG(HIPDNN_SEV_WARN, streamExpr)
#define HIPDNN_FE_LOG_ERROR(streamExpr) HIPDNN_FE_LOG(HIPDNN_SEV_ERROR, streamExpr)
