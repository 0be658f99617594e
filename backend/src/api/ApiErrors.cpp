// Error strings, last error and version.
#include "core/LastError.hpp"
#include "core/StatusNames.hpp"
#include "hipdnn_backend.h"

#define HIPDNN_BACKEND_STRINGIFY_IMPL(x) #x
#define HIPDNN_BACKEND_STRINGIFY(x) HIPDNN_BACKEND_STRINGIFY_IMPL(x)

extern "C" {

const char* hipdnnGetErrorString(hipdnnStatus_t status) {
    return hipdnn_backend::statusDescription(status);
}

void hipdnnGetLastErrorString(char* message, size_t max_size) {
    hipdnn_backend::copyLastError(message, max_size, /*clearAfterCopy=*/true);
}

void hipdnnPeekLastErrorString_ext(char* message, size_t max_size) {
    hipdnn_backend::copyLastError(message, max_size, /*clearAfterCopy=*/false);
}

const char* hipdnnVersionString_ext(void) {
    return HIPDNN_BACKEND_STRINGIFY(HIPDNN_BACKEND_VERSION_MAJOR) "." HIPDNN_BACKEND_STRINGIFY(
        HIPDNN_BACKEND_VERSION_MINOR) "." HIPDNN_BACKEND_STRINGIFY(HIPDNN_BACKEND_VERSION_PATCH) "."
        HIPDNN_BACKEND_STRINGIFY(HIPDNN_BACKEND_VERSION_TWEAK);
}

// MAJOR * 10000 + MINOR * 100 + PATCH.
size_t hipdnnGetVersion(void) {
    return HIPDNN_BACKEND_VERSION_MAJOR * 10000 + HIPDNN_BACKEND_VERSION_MINOR * 100 +
           HIPDNN_BACKEND_VERSION_PATCH;
}

}  // extern "C"
