// Compiled kernels, cached in memory (per process) and on disk (across processes) by a key over
// everything that determines the CUBIN: the generated source, the architecture and compiler
// options, the NVRTC version and this plugin's version. Shared by every engine of the plugin.
//
// On disk: <cache dir>/kernels/<key>.cubin, a small header (magic, key, size, checksum) and the
// CUBIN. Files are written to a temporary name and renamed into place, so readers never see a
// partial file; a file that fails its checks is logged, recompiled and replaced.
#pragma once

#include "Nvrtc.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

/// 16 hex digits: the FNV-1a hash of the plugin version, `nvrtcVersion`, the NVRTC options for
/// sm_<computeCapability> and `source`.
std::string kernelKey(const std::string& source, int computeCapability, const std::string& nvrtcVersion);

class KernelCache {
public:
    enum class Origin { Memory, Disk, Compiled };

    struct Entry {
        std::shared_ptr<const std::vector<uint8_t>> cubin;  // null when compilation failed
        Origin origin = Origin::Compiled;
        std::string error;  // why there is no CUBIN
    };

    /// `directory`: where kernels/ lives; nullopt keeps kernels in memory only.
    explicit KernelCache(std::optional<std::filesystem::path> directory);

    /// The process-wide cache, its directory read from the environment on first use.
    static KernelCache& process();

    const std::optional<std::filesystem::path>& directory() const { return _directory; }

    /// The CUBIN of `key`: from memory, else from disk, else from `compile` (then stored in both).
    Entry obtain(const std::string& key, const std::function<CompileResult()>& compile);

    /// The file that holds (or would hold) `key`; nullopt without a directory.
    std::optional<std::filesystem::path> fileOf(const std::string& key) const;

private:
    std::shared_ptr<const std::vector<uint8_t>> readFile(const std::string& key) const;
    void writeFile(const std::string& key, const std::vector<uint8_t>& cubin) const;

    std::optional<std::filesystem::path> _directory;
    std::mutex _mutex;
    std::map<std::string, std::shared_ptr<const std::vector<uint8_t>>> _memory;
};

/// The CUBIN of `source` for sm_<computeCapability> from `cache`, compiled by `nvrtc` when no cache
/// has it; `key` receives the kernel key.
KernelCache::Entry obtainCubin(KernelCache& cache, const Nvrtc& nvrtc, const std::string& source,
                               int computeCapability, std::string& key);

}  // namespace hipdnn_cuda_kernels
