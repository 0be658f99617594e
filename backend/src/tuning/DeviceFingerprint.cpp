#include "tuning/DeviceFingerprint.hpp"

#include <sched.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

namespace hipdnn_backend::tuning {

namespace {

// The value of the first "<field>\t: value" line, or "".
std::string cpuinfoField(std::string_view cpuinfo, std::string_view field) {
    size_t start = 0;
    while (start < cpuinfo.size()) {
        const size_t end = std::min(cpuinfo.find('\n', start), cpuinfo.size());
        const std::string_view line = cpuinfo.substr(start, end - start);
        start = end + 1;
        if (line.substr(0, field.size()) != field) {
            continue;
        }
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos) {
            continue;
        }
        const std::string_view name = line.substr(0, colon);
        if (name.find_last_not_of(" \t") + 1 != field.size()) {
            continue;  // a longer field sharing the prefix
        }
        const size_t value = line.find_first_not_of(' ', colon + 1);
        return value == std::string_view::npos ? std::string() : std::string(line.substr(value));
    }
    return {};
}

unsigned usableCpuCount() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) {
        return 0;
    }
    return static_cast<unsigned>(CPU_COUNT(&set));
}

std::string readCpuinfo() {
    std::ifstream in("/proc/cpuinfo");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

std::string cpuFingerprintFrom(std::string_view cpuinfo, unsigned usableCpus) {
    // The extensions the CPU engines choose kernels by; the rest of the flags do not change timings.
    constexpr std::array<std::string_view, 5> extensions = {"avx2", "avx512f", "avx512_bf16", "avx512_fp16",
                                                            "amx_tile"};
    const std::string model = cpuinfoField(cpuinfo, "model name");
    const std::string flags = cpuinfoField(cpuinfo, "flags");
    const auto hasFlag = [&](std::string_view flag) {
        for (size_t start = 0; start < flags.size();) {
            const size_t end = std::min(flags.find(' ', start), flags.size());
            if (std::string_view(flags).substr(start, end - start) == flag) {
                return true;
            }
            start = end + 1;
        }
        return false;
    };
    std::string fingerprint = "cpu ";
    fingerprint.append(model.empty() ? "unknown" : model);
    fingerprint.append("; isa ");
    bool anyExtension = false;
    for (const std::string_view extension : extensions) {
        if (hasFlag(extension)) {
            fingerprint.append(anyExtension ? "+" : "").append(extension);
            anyExtension = true;
        }
    }
    fingerprint.append(anyExtension ? "" : "baseline")
        .append("; threads ")
        .append(std::to_string(usableCpus));
    return fingerprint;
}

std::string gpuFingerprintFrom(const platform::CudaDeviceIdentity& identity) {
    return "gpu " + (identity.name.empty() ? std::string("unknown") : identity.name) + "; sm " +
           std::to_string(identity.computeMajor) + "." + std::to_string(identity.computeMinor) + "; driver " +
           std::to_string(identity.driverVersion / 1000) + "." +
           std::to_string(identity.driverVersion % 1000 / 10);
}

std::string deviceFingerprint(hipdnnDeviceType_ext_t device, int ordinal) {
    if (device == HIPDNN_DEVICE_TYPE_CPU_EXT) {
        static const std::string cpu = cpuFingerprintFrom(readCpuinfo(), usableCpuCount());
        return cpu;
    }
    const std::optional<platform::CudaDeviceIdentity> identity = platform::cudaDeviceIdentity(ordinal);
    return identity ? gpuFingerprintFrom(*identity) : "gpu " + std::to_string(ordinal);
}

}  // namespace hipdnn_backend::tuning
