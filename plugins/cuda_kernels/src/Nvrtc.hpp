// NVRTC, loaded at first use with dlopen so that the plugin loads (and declines graphs with a
// reason) where libnvrtc is absent: the library is large and often not installed beside the driver.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

/// The file name dlopen is asked for; the loader's search path finds it.
inline constexpr const char* kNvrtcLibraryName = "libnvrtc.so.13";

/// The NVRTC options a kernel for sm_<computeCapability> is compiled with (part of its cache key).
std::vector<std::string> nvrtcOptions(int computeCapability);

/// A CUBIN, or the reason there is none (the compiler's log for a failed compilation).
struct CompileResult {
    std::vector<uint8_t> cubin;
    std::string error;

    bool succeeded() const { return error.empty(); }
};

class Nvrtc {
public:
    /// The process-wide instance: loaded on the first call; every later call returns the same
    /// outcome. Null when the library or one of its functions cannot be found; `reason` then
    /// names the library and dlerror's text.
    static const Nvrtc* instance(std::string& reason);

    /// Opens `libraryName` and resolves the functions the plugin calls; null with `reason` when
    /// the library or a function is missing. instance() loads kNvrtcLibraryName this way.
    static std::unique_ptr<Nvrtc> load(const char* libraryName, std::string& reason);

    /// "major.minor" of the loaded library.
    const std::string& version() const { return _version; }

    /// Whether this NVRTC compiles for sm_<computeCapability> (e.g. 90).
    bool supportsArchitecture(int computeCapability) const;

    /// Compiles `source` for the real architecture sm_<computeCapability> (e.g. 90) to CUBIN.
    CompileResult compileToCubin(const std::string& source, const std::string& programName,
                                 int computeCapability) const;

    struct Functions;
    ~Nvrtc();
    Nvrtc(const Nvrtc&) = delete;
    Nvrtc& operator=(const Nvrtc&) = delete;

private:
    Nvrtc(void* library, std::unique_ptr<Functions> functions, std::string version,
          std::vector<int> architectures);

    void* _library;
    std::unique_ptr<Functions> _functions;
    std::string _version;
    std::vector<int> _architectures;
};

}  // namespace hipdnn_cuda_kernels
