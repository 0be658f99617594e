#include "platform/LibraryLocation.hpp"

#include <dlfcn.h>

#include <system_error>

namespace hipdnn_backend::platform {

const std::filesystem::path& backendLibraryDirectory() {
    static const std::filesystem::path directory = [] {
        Dl_info info{};
        // Any address inside this library identifies it.
        if (dladdr(reinterpret_cast<const void*>(&backendLibraryDirectory), &info) == 0 ||
            info.dli_fname == nullptr) {
            return std::filesystem::current_path();
        }
        std::error_code error;
        const std::filesystem::path library = std::filesystem::weakly_canonical(info.dli_fname, error);
        return (error ? std::filesystem::path(info.dli_fname) : library).parent_path();
    }();
    return directory;
}

}  // namespace hipdnn_backend::platform
