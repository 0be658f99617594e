// The GPU's ceilings: peaks from NVIDIA's per-architecture rates, bandwidth measured by copies.
#include <algorithm>
#include <optional>
#include <sstream>
#include <vector>

#include <cuda_runtime.h>

#include <hipdnn_plugin_sdk/Roofline.hpp>

#include "Ceilings.hpp"

namespace hipdnn_driver {
namespace {

void addPeaks(Ceilings& ceilings, int ordinal) {
    int smCount = 0, clockKhz = 0, major = 0, minor = 0;
    cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, ordinal);
    cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, ordinal);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ordinal);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, ordinal);
    if (smCount <= 0 || clockKhz <= 0) {
        return;
    }
    bool exact = false;
    const auto& rates = hipdnn_plugin_sdk::gpuArchitectureRates(major, minor, exact);
    auto add = [&](MathKind kind, const char* unit) {
        const int perSmPerClock = rates.perSmPerClock(kind);
        if (perSmPerClock == 0) {
            return;
        }
        Peak peak;
        peak.flops = static_cast<double>(smCount) * clockKhz * 1e3 * perSmPerClock;
        std::ostringstream method;
        method << "table for sm_" << major << minor;
        if (!exact) {
            method << " (not in the table: sm_" << rates.major << rates.minor << "'s rates)";
        }
        method << ": " << smCount << " SMs x " << clockKhz / 1000 << " MHz x " << perSmPerClock << " dense "
               << unit << " FLOP per SM per clock";
        peak.method = method.str();
        ceilings.peaks[kind] = peak;
    };
    add(MathKind::Fp32, "CUDA-core fp32");
    add(MathKind::Tf32, "tensor-core tf32");
    add(MathKind::Fp16, "tensor-core fp16");
    add(MathKind::Bf16, "tensor-core bf16");
    add(MathKind::Fp8, "tensor-core fp8");
    add(MathKind::Int8, "tensor-core int8");
}

// Milliseconds per copy of `bytes` (best of five rounds of `repeats` back-to-back copies between
// two events), or nothing when the device refuses.
std::optional<double> copyMilliseconds(size_t bytes, int repeats) {
    void* source = nullptr;
    void* destination = nullptr;
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    std::optional<double> best;
    if (cudaMalloc(&source, bytes) == cudaSuccess && cudaMalloc(&destination, bytes) == cudaSuccess &&
        cudaEventCreate(&start) == cudaSuccess && cudaEventCreate(&stop) == cudaSuccess) {
        cudaMemset(source, 1, bytes);
        cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToDevice);
        for (int round = 0; round < 5; ++round) {
            cudaEventRecord(start);
            for (int r = 0; r < repeats; ++r) {
                cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice);
            }
            cudaEventRecord(stop);
            cudaEventSynchronize(stop);
            float milliseconds = 0.0F;
            if (cudaEventElapsedTime(&milliseconds, start, stop) == cudaSuccess) {
                const double each = milliseconds / repeats;
                best = best ? std::min(*best, each) : each;
            }
        }
    }
    if (start != nullptr) {
        cudaEventDestroy(start);
    }
    if (stop != nullptr) {
        cudaEventDestroy(stop);
    }
    cudaFree(source);
    cudaFree(destination);
    return best;
}

void measureBandwidth(Ceilings& ceilings, int ordinal) {
    int l2Bytes = 0;
    cudaDeviceGetAttribute(&l2Bytes, cudaDevAttrL2CacheSize, ordinal);
    // A working set of half the L2 stays in it between repeats; 1 GiB is far beyond it.
    std::vector<size_t> workingSets;
    if (l2Bytes > 0) {
        workingSets.push_back(static_cast<size_t>(l2Bytes) / 2);
    }
    workingSets.push_back(size_t{1} << 30);
    for (size_t workingSet : workingSets) {
        const size_t bytes = workingSet / 2;
        if (const auto milliseconds = copyMilliseconds(bytes, workingSet < (size_t{1} << 30) ? 50 : 3)) {
            ceilings.bandwidths.push_back(
                {static_cast<double>(workingSet), static_cast<double>(workingSet) / (*milliseconds * 1e-3)});
        }
    }
    std::ostringstream method;
    method << "measured: device-to-device cudaMemcpy, best of 5, read + write counted, working sets "
           << l2Bytes / 2 / (1 << 20) << " MiB (half the L2) and 1 GiB";
    ceilings.bandwidthMethod = method.str();
}

}  // namespace

Ceilings measureGpuCeilings(int ordinal) {
    Ceilings ceilings;
    addPeaks(ceilings, ordinal);
    measureBandwidth(ceilings, ordinal);
    return ceilings;
}

}  // namespace hipdnn_driver
