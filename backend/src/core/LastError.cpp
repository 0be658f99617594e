#include "core/LastError.hpp"

#include <algorithm>
#include <cstring>

#include "hipdnn_backend.h"

namespace hipdnn_backend {

namespace {
thread_local std::string t_lastError;
}

void setLastError(std::string message) {
    if (message.size() >= HIPDNN_ERROR_STRING_MAX_LENGTH) {
        message.resize(HIPDNN_ERROR_STRING_MAX_LENGTH - 1);
    }
    t_lastError = std::move(message);
}

void copyLastError(char* buffer, std::size_t maxSize, bool clearAfterCopy) {
    if (buffer == nullptr || maxSize == 0) {
        return;
    }
    const std::size_t length = std::min(t_lastError.size(), maxSize - 1);
    std::memcpy(buffer, t_lastError.data(), length);
    buffer[length] = '\0';
    if (clearAfterCopy) {
        t_lastError.clear();
    }
}

}  // namespace hipdnn_backend
