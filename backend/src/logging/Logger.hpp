// The backend's logger: one global level, a spdlog sink (HIPDNN_LOG_FILE, appended, or stderr;
// a file that cannot be opened — its directory is never created — falls back to stderr after
// one line saying why) and user callbacks. Costs one atomic load per call site when the level filters the message
// out: HIPDNN_LOG_* macros format only enabled messages.
#pragma once

#include <string_view>

#include <fmt/format.h>

#include "hipdnn_backend.h"

namespace hipdnn_backend::logging {

// True when a message of `severity` passes the global level.
bool isEnabled(hipdnnSeverity_t severity) noexcept;
hipdnnSeverity_t globalLevel() noexcept;
void setGlobalLevel(hipdnnSeverity_t level) noexcept;
// Emits to the sink and the user callbacks; call only after isEnabled().
void emit(hipdnnSeverity_t severity, std::string_view message);
// Adds, updates (same callback and userHandle) or removes (minLevel OFF) a user callback. An
// update or a removal returns once the previous registration is never called again: its queued
// asynchronous messages are dropped and a delivery in progress on another thread has finished
// (a callback may change registrations from inside a delivery, its own included).
void setUserCallback(hipdnnUserLogCallback_t callback, hipdnnSeverity_t minLevel,
                     hipdnnLogCallbackMode_t mode, void* userHandle);

}  // namespace hipdnn_backend::logging

#define HIPDNN_BACKEND_LOG(severity, ...)                                          \
    do {                                                                           \
        if (::hipdnn_backend::logging::isEnabled(severity)) {                      \
            ::hipdnn_backend::logging::emit(severity, ::fmt::format(__VA_ARGS__)); \
        }                                                                          \
    } while (false)

#define HIPDNN_LOG_INFO(...) HIPDNN_BACKEND_LOG(HIPDNN_SEV_INFO, __VA_ARGS__)
#define HIPDNN_LOG_WARN(...) HIPDNN_BACKEND_LOG(HIPDNN_SEV_WARN, __VA_ARGS__)
#define HIPDNN_LOG_ERROR(...) HIPDNN_BACKEND_LOG(HIPDNN_SEV_ERROR, __VA_ARGS__)
