// The per-thread last-error message of the C API.
#pragma once

#include <cstddef>
#include <string>

namespace hipdnn_backend {

void setLastError(std::string message);
// Copies the message (truncated to maxSize - 1 characters, always terminated) into `buffer`.
void copyLastError(char* buffer, std::size_t maxSize, bool clearAfterCopy);

}  // namespace hipdnn_backend
