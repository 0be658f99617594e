// Log levels: parsing HIPDNN_LOG_LEVEL and deciding whether a message is emitted.
#pragma once

#include <cstdlib>
#include <string_view>

#include "hipdnn_data_sdk/logging/CallbackTypes.h"

namespace hipdnn_data_sdk::logging {

inline constexpr const char* logLevelEnvironmentVariable = "HIPDNN_LOG_LEVEL";

/// The lower-case name of `severity`, as HIPDNN_LOG_LEVEL spells it; "unknown" outside the enum.
constexpr std::string_view severityName(hipdnnSeverity_t severity) noexcept {
    switch (severity) {
        case HIPDNN_SEV_INFO:
            return "info";
        case HIPDNN_SEV_WARN:
            return "warn";
        case HIPDNN_SEV_ERROR:
            return "error";
        case HIPDNN_SEV_FATAL:
            return "fatal";
        case HIPDNN_SEV_OFF:
            return "off";
    }
    return "unknown";
}

/// "off", "info", "warn", "error" or "fatal", ignoring surrounding white space and case;
/// anything else is HIPDNN_SEV_OFF.
constexpr hipdnnSeverity_t parseLogLevel(std::string_view text) noexcept {
    constexpr std::string_view whiteSpace = " \t\n\r\f\v";
    const size_t first = text.find_first_not_of(whiteSpace);
    if (first == std::string_view::npos) {
        return HIPDNN_SEV_OFF;
    }
    text = text.substr(first, text.find_last_not_of(whiteSpace) - first + 1);
    const auto equalsIgnoringCase = [text](std::string_view lowerCase) {
        if (text.size() != lowerCase.size()) {
            return false;
        }
        for (size_t i = 0; i < text.size(); ++i) {
            const char c = text[i];
            if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != lowerCase[i]) {
                return false;
            }
        }
        return true;
    };
    for (const hipdnnSeverity_t level :
         {HIPDNN_SEV_INFO, HIPDNN_SEV_WARN, HIPDNN_SEV_ERROR, HIPDNN_SEV_FATAL}) {
        if (equalsIgnoringCase(severityName(level))) {
            return level;
        }
    }
    return HIPDNN_SEV_OFF;
}

/// The level named by HIPDNN_LOG_LEVEL; HIPDNN_SEV_OFF when it is unset or invalid.
inline hipdnnSeverity_t logLevelFromEnvironment() {
    const char* value = std::getenv(logLevelEnvironmentVariable);
    return value == nullptr ? HIPDNN_SEV_OFF : parseLogLevel(value);
}

/// True when a message of `severity` is emitted at `level`.
constexpr bool shouldLog(hipdnnSeverity_t severity, hipdnnSeverity_t level) noexcept {
    return level != HIPDNN_SEV_OFF && severity >= level;
}

}  // namespace hipdnn_data_sdk::logging
