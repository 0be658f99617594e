#include "DynamicLibrary.hpp"

namespace hipdnn_cuda_kernels {

void* openLibrary(const char* libraryName, std::string& error) {
    void* library = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        const char* text = dlerror();
        error = std::string("dlopen(\"") + libraryName +
                "\") failed: " + (text != nullptr ? text : "unknown error");
    }
    return library;
}

}  // namespace hipdnn_cuda_kernels
