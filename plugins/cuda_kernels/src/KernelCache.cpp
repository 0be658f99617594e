#include "KernelCache.hpp"

#include <hipdnn_data_sdk/logging/CallbackLogger.hpp>
#include <hipdnn_data_sdk/utilities/CacheDirectory.hpp>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <unistd.h>

#include <array>
#include <atomic>
#include <fstream>

namespace hipdnn_cuda_kernels {

namespace {

constexpr const char* kLogComponent = "cuda_kernels";
constexpr std::array<char, 8> kMagic = {'H', 'D', 'N', 'N', 'C', 'U', 'B', '1'};

// magic, key (as the 64-bit value its hex spells), payload size, payload checksum.
struct FileHeader {
    std::array<char, 8> magic;
    uint64_t key;
    uint64_t size;
    uint64_t checksum;
};

uint64_t checksumOf(const std::vector<uint8_t>& bytes) {
    return hipdnn_data_sdk::utilities::fnv1aHash(
        std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

std::string hex16(uint64_t value) {
    std::string text(16, '0');
    constexpr std::string_view digits = "0123456789abcdef";
    for (int position = 15; position >= 0; --position) {
        text[static_cast<size_t>(position)] = digits[value & 0xf];
        value >>= 4;
    }
    return text;
}

}  // namespace

std::string kernelKey(const std::string& source, int computeCapability, const std::string& nvrtcVersion) {
    std::string material =
        std::string("cuda_kernels ") + HIPDNN_CUDA_KERNELS_VERSION + "\nnvrtc " + nvrtcVersion;
    for (const std::string& option : nvrtcOptions(computeCapability)) {
        material += " ";
        material += option;
    }
    material += "\n";
    material += source;
    return hex16(hipdnn_data_sdk::utilities::fnv1aHash(material));
}

KernelCache::KernelCache(std::optional<std::filesystem::path> directory) : _directory(std::move(directory)) {}

KernelCache& KernelCache::process() {
    static KernelCache cache(hipdnn_data_sdk::utilities::cacheDirectoryFromEnvironment());
    return cache;
}

std::optional<std::filesystem::path> KernelCache::fileOf(const std::string& key) const {
    if (!_directory) {
        return std::nullopt;
    }
    return *_directory / "kernels" / (key + ".cubin");
}

KernelCache::Entry KernelCache::obtain(const std::string& key,
                                       const std::function<CompileResult()>& compile) {
    {
        const std::lock_guard lock(_mutex);
        if (const auto found = _memory.find(key); found != _memory.end()) {
            return {found->second, Origin::Memory, {}};
        }
    }
    Entry entry;
    entry.cubin = readFile(key);
    entry.origin = Origin::Disk;
    if (entry.cubin == nullptr) {
        CompileResult compiled = compile();
        if (!compiled.succeeded()) {
            return {nullptr, Origin::Compiled, std::move(compiled.error)};
        }
        writeFile(key, compiled.cubin);
        entry.cubin = std::make_shared<const std::vector<uint8_t>>(std::move(compiled.cubin));
        entry.origin = Origin::Compiled;
    }
    const std::lock_guard lock(_mutex);
    _memory.emplace(key, entry.cubin);
    return entry;
}

std::shared_ptr<const std::vector<uint8_t>> KernelCache::readFile(const std::string& key) const {
    const auto file = fileOf(key);
    if (!file) {
        return nullptr;
    }
    std::ifstream in(*file, std::ios::binary);
    if (!in) {
        return nullptr;  // not cached yet
    }
    const auto corrupt = [&](const std::string& why) -> std::shared_ptr<const std::vector<uint8_t>> {
        HIPDNN_SDK_LOG_WARN(kLogComponent, "kernel cache file " << file->string() << " is corrupt (" << why
                                                                << "); compiling the kernel again");
        return nullptr;
    };
    FileHeader header{};
    if (!in.read(reinterpret_cast<char*>(&header), sizeof(header))) {
        return corrupt("shorter than its header");
    }
    if (header.magic != kMagic) {
        return corrupt("bad magic");
    }
    if (hex16(header.key) != key) {
        return corrupt("it holds key " + hex16(header.key));
    }
    std::error_code error;
    const auto fileSize = std::filesystem::file_size(*file, error);
    if (error || fileSize != sizeof(header) + header.size) {
        return corrupt("size does not match its header");
    }
    auto cubin = std::make_shared<std::vector<uint8_t>>(header.size);
    if (!in.read(reinterpret_cast<char*>(cubin->data()), static_cast<std::streamsize>(header.size))) {
        return corrupt("truncated");
    }
    if (checksumOf(*cubin) != header.checksum) {
        return corrupt("checksum mismatch");
    }
    return cubin;
}

void KernelCache::writeFile(const std::string& key, const std::vector<uint8_t>& cubin) const {
    const auto file = fileOf(key);
    if (!file) {
        return;
    }
    // A failure to write only costs the next process a compilation: log it and go on.
    std::error_code error;
    std::filesystem::create_directories(file->parent_path(), error);
    if (error) {
        HIPDNN_SDK_LOG_WARN(kLogComponent, "cannot create kernel cache directory "
                                               << file->parent_path().string() << ": " << error.message());
        return;
    }
    static std::atomic<uint64_t> counter{0};
    const std::filesystem::path temporary =
        file->string() + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        FileHeader header{kMagic, 0, cubin.size(), checksumOf(cubin)};
        header.key = std::stoull(key, nullptr, 16);
        out.write(reinterpret_cast<const char*>(&header), sizeof(header));
        out.write(reinterpret_cast<const char*>(cubin.data()), static_cast<std::streamsize>(cubin.size()));
        out.close();
        if (!out) {
            HIPDNN_SDK_LOG_WARN(kLogComponent, "cannot write kernel cache file " << temporary.string());
            std::filesystem::remove(temporary, error);
            return;
        }
    }
    std::filesystem::rename(temporary, *file, error);
    if (error) {
        HIPDNN_SDK_LOG_WARN(kLogComponent, "cannot rename " << temporary.string() << " to " << file->string()
                                                            << ": " << error.message());
        std::filesystem::remove(temporary, error);
    }
}

KernelCache::Entry obtainCubin(KernelCache& cache, const Nvrtc& nvrtc, const std::string& source,
                               int computeCapability, std::string& key) {
    key = kernelKey(source, computeCapability, nvrtc.version());
    return cache.obtain(
        key, [&] { return nvrtc.compileToCubin(source, "hipdnn_" + key + ".cu", computeCapability); });
}

}  // namespace hipdnn_cuda_kernels
