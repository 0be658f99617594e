// Logging types shared by the backend, the frontend and plugins. Plain C so that the plugin ABI
// can carry them.
#ifndef HIPDNN_DATA_SDK_LOGGING_CALLBACK_TYPES_H
#define HIPDNN_DATA_SDK_LOGGING_CALLBACK_TYPES_H

#include <hipdnn_data_sdk/CEnum.h>

#ifdef __cplusplus
extern "C" {
#endif

// Guarded as upstream's is, so that a header repeating these definitions may come first.
#ifndef HIPDNN_CALLBACK_TYPES_DEFINED
#define HIPDNN_CALLBACK_TYPES_DEFINED

/// Message severities. A message is emitted when the level is not OFF and severity >= level.
typedef enum HIPDNN_C_ENUM_BASE {
    HIPDNN_SEV_INFO = 0,
    HIPDNN_SEV_WARN = 1,
    HIPDNN_SEV_ERROR = 2,
    HIPDNN_SEV_FATAL = 3,
    HIPDNN_SEV_OFF = 4,
} hipdnnSeverity_t;

/// Callback through which plugins and SDK code hand log lines to the backend's logger.
typedef void (*hipdnnCallback_t)(hipdnnSeverity_t severity, const char* message);

/// User data handed back to a user log callback; with the callback it identifies the
/// registration (hipdnnSetUserLogCallback_ext).
typedef void* hipdnnUserLogCallbackHandle_t;

/// A user log callback. The message names its component; the callback should return promptly.
typedef void (*hipdnnUserLogCallback_t)(hipdnnUserLogCallbackHandle_t userHandle, hipdnnSeverity_t severity,
                                        const char* message);

#endif

#ifdef __cplusplus
}
#endif

#endif
