// A dlopen()ed library, closed when the object goes away. The only place that calls dl*.
#pragma once

#include <filesystem>
#include <string>

namespace hipdnn_backend::platform {

class SharedLibrary {
public:
    // RTLD_NOW | RTLD_LOCAL: every dependency resolves at load time and the library's symbols
    // stay private to it. The file is checked first to be a complete ELF shared object for this
    // machine (see ElfImage.hpp). Throws std::runtime_error carrying the problem or dlerror().
    explicit SharedLibrary(const std::filesystem::path& path);
    ~SharedLibrary();
    SharedLibrary(const SharedLibrary&) = delete;
    SharedLibrary& operator=(const SharedLibrary&) = delete;

    // Null when the library does not export `name`.
    void* findSymbol(const char* name) const noexcept;

    template <class FunctionPointer>
    FunctionPointer find(const char* name) const noexcept {
        return reinterpret_cast<FunctionPointer>(findSymbol(name));
    }

private:
    void* _handle;
};

}  // namespace hipdnn_backend::platform
