#pragma once

#include <filesystem>

namespace hipdnn_backend::platform {

// Directory holding the loaded libhipdnn_backend.so (found with dladdr), canonical.
const std::filesystem::path& backendLibraryDirectory();

}  // namespace hipdnn_backend::platform
