// Opening a shared library at first use and resolving its functions, for the CUDA libraries the
// plugin does not link (NVRTC, cuBLASLt): without them it still loads and declines with a reason.
#pragma once

#include <dlfcn.h>

#include <string>

namespace hipdnn_cuda_kernels {

/// dlopen(`libraryName`) with RTLD_NOW | RTLD_LOCAL; null with `error` = "dlopen(\"<name>\")
/// failed: <dlerror>".
void* openLibrary(const char* libraryName, std::string& error);

/// Resolves `name` in `library` into `function`; false with `error` = "<libraryName> lacks <name>".
template <class F>
bool resolveFunction(void* library, const char* libraryName, const char* name, F& function,
                     std::string& error) {
    function = reinterpret_cast<F>(dlsym(library, name));
    if (function == nullptr) {
        error = std::string(libraryName) + " lacks " + name;
        return false;
    }
    return true;
}

}  // namespace hipdnn_cuda_kernels
