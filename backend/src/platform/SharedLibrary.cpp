#include "platform/SharedLibrary.hpp"

#include <dlfcn.h>

#include <stdexcept>

#include "platform/ElfImage.hpp"

namespace hipdnn_backend::platform {

namespace {

// dlopen of a truncated file faults (SIGBUS) instead of failing: check the file first.
const std::filesystem::path& requireCompleteSharedObject(const std::filesystem::path& path) {
    if (auto problem = elfFileProblem(path)) {
        throw std::runtime_error("not a complete ELF shared object: " + *problem);
    }
    return path;
}

}  // namespace

SharedLibrary::SharedLibrary(const std::filesystem::path& path)
    : _handle(dlopen(requireCompleteSharedObject(path).c_str(), RTLD_NOW | RTLD_LOCAL)) {
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
