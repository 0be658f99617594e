// Opening a shared library at first use and resolving its functions, for the CUDA libraries the
// plugin does not link (NVRTC, cuBLASLt, cuDNN): without them it still loads and declines with a reason.
#pragma once

#include <dlfcn.h>

#include <memory>
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

/// Opens `libraryName` and fills `functions` through `resolveAll(functions, resolve)`, where
/// resolve(name, function) resolves one function: the library, or null with `reason` =
/// `unavailable` + what failed (the library is closed again when a function is missing).
template <class Functions, class ResolveAll>
void* openWithFunctions(const char* libraryName, const char* unavailable, Functions& functions,
                        const ResolveAll& resolveAll, std::string& reason) {
    void* library = openLibrary(libraryName, reason);
    if (library != nullptr) {
        const auto resolve = [&](const char* name, auto& function) {
            return resolveFunction(library, libraryName, name, function, reason);
        };
        if (resolveAll(functions, resolve)) {
            return library;
        }
        dlclose(library);
    }
    reason = unavailable + reason;
    return nullptr;
}

/// The process's one `Library` (a class with `static std::unique_ptr<Library> load(const char*,
/// std::string&)`), loaded at the first call from `primary`, else from `fallback` (when not
/// null); null with `reason` naming each failure. The library is never closed: plugin handles
/// destroyed during process exit still call into it, and CUDA libraries unloaded while the runtime
/// tears down can crash.
template <class Library>
const Library* loadOnce(const char* primary, const char* fallback, std::string& reason) {
    struct Outcome {
        std::unique_ptr<Library> library;
        std::string reason;
    };
    static const Outcome& outcome = *new Outcome([&] {
        Outcome loaded;
        loaded.library = Library::load(primary, loaded.reason);
        if (loaded.library == nullptr && fallback != nullptr) {
            std::string fallbackReason;
            loaded.library = Library::load(fallback, fallbackReason);
            loaded.reason += "; " + fallbackReason;
        }
        return loaded;
    }());
    if (outcome.library == nullptr) {
        reason = outcome.reason;
    }
    return outcome.library.get();
}

}  // namespace hipdnn_cuda_kernels
