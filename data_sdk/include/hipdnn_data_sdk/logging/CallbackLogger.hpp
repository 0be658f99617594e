// Logging for code that runs inside plugins or the frontend: messages go, as
// "[component] message", to the hipdnnCallback_t the backend handed over. The state (callback
// and level) is per shared library because of hidden visibility; all of it is thread-safe.
// Without a callback, messages are dropped: the backend owns the sinks.
#pragma once

#include <atomic>
#include <sstream>
#include <string>
#include <string_view>

#include "hipdnn_data_sdk/logging/CallbackTypes.h"
#include "hipdnn_data_sdk/logging/LogLevel.hpp"

namespace hipdnn_data_sdk::logging {

namespace detail {

struct CallbackLoggerState {
    std::atomic<hipdnnCallback_t> callback{nullptr};
    std::atomic<hipdnnSeverity_t> level{logLevelFromEnvironment()};
};

inline CallbackLoggerState& callbackLoggerState() {
    static CallbackLoggerState state;
    return state;
}

}  // namespace detail

/// Where messages go; nullptr drops them.
inline void setLogCallback(hipdnnCallback_t callback) noexcept {
    detail::callbackLoggerState().callback.store(callback, std::memory_order_release);
}

inline void setLogLevel(hipdnnSeverity_t level) noexcept {
    detail::callbackLoggerState().level.store(level, std::memory_order_relaxed);
}

/// The level set last, or HIPDNN_LOG_LEVEL as read at first use.
inline hipdnnSeverity_t currentLogLevel() noexcept {
    return detail::callbackLoggerState().level.load(std::memory_order_relaxed);
}

/// True when a message of `severity` would reach a callback.
inline bool isLogEnabled(hipdnnSeverity_t severity) noexcept {
    return shouldLog(severity, currentLogLevel()) &&
           detail::callbackLoggerState().callback.load(std::memory_order_acquire) != nullptr;
}

/// Hands "[component] message" to the callback when the level lets `severity` through.
inline void log(hipdnnSeverity_t severity, std::string_view component, std::string_view message) {
    const hipdnnCallback_t callback = detail::callbackLoggerState().callback.load(std::memory_order_acquire);
    if (callback == nullptr || !shouldLog(severity, currentLogLevel())) {
        return;
    }
    std::string line;
    line.reserve(component.size() + message.size() + 3);
    line.append("[").append(component).append("] ").append(message);
    callback(severity, line.c_str());
}

}  // namespace hipdnn_data_sdk::logging

// HIPDNN_SDK_LOG_INFO(component, streamExpr) and the WARN/ERROR/FATAL variants log
// `stream << streamExpr` (e.g. "engine " << id << " declined"). Neither the component nor the
// stream expression is evaluated unless the message would be emitted.
#define HIPDNN_SDK_LOG(severity, component, streamExpr)                                     \
    do {                                                                                    \
        if (::hipdnn_data_sdk::logging::isLogEnabled(severity)) {                           \
            std::ostringstream hipdnnSdkLogStream;                                          \
            hipdnnSdkLogStream << streamExpr;                                               \
            ::hipdnn_data_sdk::logging::log(severity, component, hipdnnSdkLogStream.str()); \
        }                                                                                   \
    } while (false)

#define HIPDNN_SDK_LOG_INFO(component, streamExpr) HIPDNN_SDK_LOG(HIPDNN_SEV_INFO, component, streamExpr)
#define HIPDNN_SDK_LOG_WARN(component, streamExpr) HIPDNN_SDK_LOG(HIPDNN_SEV_WARN, component, streamExpr)
#define HIPDNN_SDK_LOG_ERROR(component, streamExpr) HIPDNN_SDK_LOG(HIPDNN_SEV_ERROR, component, streamExpr)
#define HIPDNN_SDK_LOG_FATAL(component, streamExpr) HIPDNN_SDK_LOG(HIPDNN_SEV_FATAL, component, streamExpr)
