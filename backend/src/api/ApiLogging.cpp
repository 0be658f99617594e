// Logging extensions. Enum arguments are read as ints and checked before they are used as enums
// (hipdnn_data_sdk/utilities/CEnum.hpp).
#include <fmt/format.h>
#include <hipdnn_data_sdk/utilities/CEnum.hpp>

#include "api/ApiGuard.hpp"
#include "plugin/PluginManager.hpp"

using namespace hipdnn_backend;
using namespace hipdnn_backend::api;
using hipdnn_data_sdk::utilities::cEnumValue;

namespace {

bool isSeverity(int value) {
    return value >= HIPDNN_SEV_INFO && value <= HIPDNN_SEV_OFF;
}

hipdnnSeverity_t checkedSeverity(const hipdnnSeverity_t& severity, const char* argument) {
    const int value = cEnumValue(severity);
    if (!isSeverity(value)) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, fmt::format("Invalid {} {}", argument, value));
    }
    return static_cast<hipdnnSeverity_t>(value);
}

}  // namespace

extern "C" {

hipdnnStatus_t hipdnnSetUserLogCallback_ext(hipdnnUserLogCallback_t callback, hipdnnSeverity_t min_level,
                                            hipdnnLogCallbackMode_t mode, void* user_handle) {
    return guardedCall(__func__, [&] {
        requireNotNull(reinterpret_cast<const void*>(callback), "callback");
        const hipdnnSeverity_t level = checkedSeverity(min_level, "min_level");
        const int modeValue = cEnumValue(mode);
        if (modeValue != HIPDNN_LOG_CALLBACK_SYNC && modeValue != HIPDNN_LOG_CALLBACK_ASYNC) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                  fmt::format("Invalid callback mode {}", modeValue));
        }
        logging::setUserCallback(callback, level, static_cast<hipdnnLogCallbackMode_t>(modeValue),
                                 user_handle);
    });
}

// A message of a severity outside the enum is dropped.
void hipdnnLoggingCallback_ext(hipdnnSeverity_t severity, const char* message) {
    const int value = cEnumValue(severity);
    if (message != nullptr && isSeverity(value) && logging::isEnabled(static_cast<hipdnnSeverity_t>(value))) {
        logging::emit(static_cast<hipdnnSeverity_t>(value), message);
    }
}

hipdnnStatus_t hipdnnBackendSetGlobalLogLevel_ext(hipdnnSeverity_t level) {
    return guardedCall(__func__, [&] {
        const hipdnnSeverity_t checked = checkedSeverity(level, "level");
        logging::setGlobalLevel(checked);
        plugin::PluginManager::instance().forEachLoadedPlugin(
            [checked](const plugin::EnginePlugin& plugin) { plugin.forwardLogLevel(checked); });
    });
}

hipdnnStatus_t hipdnnBackendGetGlobalLogLevel_ext(hipdnnSeverity_t* level) {
    return guardedCall(__func__, [&] {
        requireNotNull(level, "level");
        *level = logging::globalLevel();
    });
}

}  // extern "C"
