// Logging extensions.
#include <fmt/format.h>

#include "api/ApiGuard.hpp"
#include "plugin/PluginManager.hpp"

using namespace hipdnn_backend;
using namespace hipdnn_backend::api;

namespace {

void requireSeverity(hipdnnSeverity_t severity, const char* argument) {
    if (severity < HIPDNN_SEV_INFO || severity > HIPDNN_SEV_OFF) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              fmt::format("Invalid {} {}", argument, static_cast<int>(severity)));
    }
}

}  // namespace

extern "C" {

hipdnnStatus_t hipdnnSetUserLogCallback_ext(hipdnnUserLogCallback_t callback, hipdnnSeverity_t min_level,
                                            hipdnnLogCallbackMode_t mode, void* user_handle) {
    return guardedCall(__func__, [&] {
        requireNotNull(reinterpret_cast<const void*>(callback), "callback");
        requireSeverity(min_level, "min_level");
        if (mode != HIPDNN_LOG_CALLBACK_SYNC && mode != HIPDNN_LOG_CALLBACK_ASYNC) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                  fmt::format("Invalid callback mode {}", static_cast<int>(mode)));
        }
        logging::setUserCallback(callback, min_level, mode, user_handle);
    });
}

void hipdnnLoggingCallback_ext(hipdnnSeverity_t severity, const char* message) {
    if (message != nullptr && logging::isEnabled(severity)) {
        logging::emit(severity, message);
    }
}

hipdnnStatus_t hipdnnBackendSetGlobalLogLevel_ext(hipdnnSeverity_t level) {
    return guardedCall(__func__, [&] {
        requireSeverity(level, "level");
        logging::setGlobalLevel(level);
        plugin::PluginManager::instance().forEachLoadedPlugin(
            [level](const plugin::EnginePlugin& plugin) { plugin.forwardLogLevel(level); });
    });
}

hipdnnStatus_t hipdnnBackendGetGlobalLogLevel_ext(hipdnnSeverity_t* level) {
    return guardedCall(__func__, [&] {
        requireNotNull(level, "level");
        *level = logging::globalLevel();
    });
}

}  // extern "C"
