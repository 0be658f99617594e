#include "platform/SharedLibrary.hpp"

#include <dlfcn.h>

#include <stdexcept>

namespace hipdnn_backend::platform {

SharedLibrary::SharedLibrary(const std::filesystem::path& path)
    : _handle(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    if (_handle == nullptr) {
        const char* error = dlerror();
        throw std::runtime_error(error != nullptr ? error : "dlopen failed without a message");
    }
}

SharedLibrary::~SharedLibrary() {
    dlclose(_handle);
}

void* SharedLibrary::findSymbol(const char* name) const noexcept {
    return dlsym(_handle, name);
}

}  // namespace hipdnn_backend::platform
