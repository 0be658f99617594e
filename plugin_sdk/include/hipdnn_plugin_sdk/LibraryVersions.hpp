// Helpers for a plugin's hipdnnEnginePluginGetLibraryVersions_ext answer: "<library> <version>"
// entries separated by "; ", e.g. "cublasLt 13.1.0; nvrtc 13.0".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hipdnn_plugin_sdk {

// "M.m.p" of a version encoded as M * 10000 + m * 100 + p, as cudnnGetVersion() (cuDNN 9) and
// cublasLtGetVersion() report theirs: 91900 -> "9.19.0".
inline std::string decimalVersion(std::size_t encoded) {
    return std::to_string(encoded / 10000) + "." + std::to_string(encoded % 10000 / 100) + "." +
           std::to_string(encoded % 100);
}

// Appends "<library> <version>" to `versions`, after "; " when it is not empty.
inline void appendLibraryVersion(std::string& versions, std::string_view library, std::string_view version) {
    versions.append(versions.empty() ? "" : "; ").append(library).append(" ").append(version);
}

}  // namespace hipdnn_plugin_sdk
