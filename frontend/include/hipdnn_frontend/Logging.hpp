// Upstream hipDNN's frontend logging entry point.
#pragma once

#include <cstdint>

#include <hipdnn_backend.h>

#include "detail/Logging.hpp"

namespace hipdnn_frontend {

/// Routes frontend log lines to `callback`, or back to the backend's logger when it is null (the
/// default). The backend's global level (HIPDNN_LOG_LEVEL) still decides what is logged. Always
/// returns 0: the backend is linked, so a callback is always available (upstream returns -1
/// when it cannot load one).
inline int32_t initializeFrontendLogging(hipdnnCallback_t callback = nullptr) {
    detail::logSink() = callback != nullptr ? callback : hipdnnLoggingCallback_ext;
    return 0;
}

}  // namespace hipdnn_frontend
