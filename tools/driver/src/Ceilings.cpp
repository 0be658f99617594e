#include "Ceilings.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include <immintrin.h>

#ifdef HIPDNN_DRIVER_WITH_CUDA
#include <cuda_runtime.h>
#endif

namespace hipdnn_driver {
namespace {

using Clock = std::chrono::steady_clock;

// Twelve independent multiply-add chains per thread hide the FMA latency (4 cycles) on both FMA
// ports; each function returns the lanes' sum so the compiler cannot drop the work.
constexpr int kChains = 12;

__attribute__((target("avx512f"))) float fmaChainsAvx512(int64_t iterations) {
    __m512 acc[kChains];
    for (int j = 0; j < kChains; ++j) {
        acc[j] = _mm512_set1_ps(1.0F + 0.001F * static_cast<float>(j));
    }
    const __m512 factor = _mm512_set1_ps(0.9999999F);
    const __m512 offset = _mm512_set1_ps(1e-7F);
    for (int64_t i = 0; i < iterations; ++i) {
        for (int j = 0; j < kChains; ++j) {
            acc[j] = _mm512_fmadd_ps(acc[j], factor, offset);
        }
    }
    // Stored and summed by hand: GCC 12 warns falsely inside _mm512_reduce_add_ps.
    alignas(64) float lanes[16];
    float sum = 0.0F;
    for (int j = 0; j < kChains; ++j) {
        _mm512_store_ps(lanes, acc[j]);
        for (float lane : lanes) {
            sum += lane;
        }
    }
    return sum;
}

__attribute__((target("avx2,fma"))) float fmaChainsAvx2(int64_t iterations) {
    __m256 acc[kChains];
    for (int j = 0; j < kChains; ++j) {
        acc[j] = _mm256_set1_ps(1.0F + 0.001F * static_cast<float>(j));
    }
    const __m256 factor = _mm256_set1_ps(0.9999999F);
    const __m256 offset = _mm256_set1_ps(1e-7F);
    for (int64_t i = 0; i < iterations; ++i) {
        for (int j = 0; j < kChains; ++j) {
            acc[j] = _mm256_fmadd_ps(acc[j], factor, offset);
        }
    }
    alignas(32) float lanes[8];
    float sum = 0.0F;
    for (int j = 0; j < kChains; ++j) {
        _mm256_store_ps(lanes, acc[j]);
        for (float lane : lanes) {
            sum += lane;
        }
    }
    return sum;
}

float mulAddChainsSse2(int64_t iterations) {
    __m128 acc[kChains];
    for (int j = 0; j < kChains; ++j) {
        acc[j] = _mm_set1_ps(1.0F + 0.001F * static_cast<float>(j));
    }
    const __m128 factor = _mm_set1_ps(0.9999999F);
    const __m128 offset = _mm_set1_ps(1e-7F);
    for (int64_t i = 0; i < iterations; ++i) {
        for (int j = 0; j < kChains; ++j) {
            acc[j] = _mm_add_ps(_mm_mul_ps(acc[j], factor), offset);
        }
    }
    alignas(16) float lanes[4];
    float sum = 0.0F;
    for (int j = 0; j < kChains; ++j) {
        _mm_store_ps(lanes, acc[j]);
        for (float lane : lanes) {
            sum += lane;
        }
    }
    return sum;
}

struct FmaKernel {
    const char* isa;
    int lanes;
    float (*run)(int64_t);
};

FmaKernel widestKernel() {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        return {"AVX-512 FMA", 16, fmaChainsAvx512};
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        return {"AVX2 FMA", 8, fmaChainsAvx2};
    }
    return {"SSE2 multiply-add", 4, mulAddChainsSse2};
}

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

void measurePeak(Ceilings& ceilings) {
    const FmaKernel kernel = widestKernel();
    // Calibrate on one thread to about 0.1 s of work per thread.
    int64_t iterations = 1 << 16;
    volatile float sink = 0.0F;
    for (;;) {
        const auto start = Clock::now();
        sink = sink + kernel.run(iterations);
        const double seconds = secondsSince(start);
        if (seconds > 0.02) {
            iterations = static_cast<int64_t>(static_cast<double>(iterations) * 0.1 / seconds) + 1;
            break;
        }
        iterations *= 4;
    }
    const unsigned threads = std::max(1U, std::thread::hardware_concurrency());
    std::vector<float> results(threads);
    const auto start = Clock::now();
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] { results[t] = kernel.run(iterations); });
    }
    for (auto& worker : workers) {
        worker.join();
    }
    const double seconds = secondsSince(start);
    for (float value : results) {
        sink = sink + value;
    }
    const double flops =
        static_cast<double>(threads) * static_cast<double>(iterations) * kChains * kernel.lanes * 2.0;
    ceilings.peakFlops = flops / seconds;
    std::ostringstream method;
    method << "measured: " << kernel.isa << " loop, " << kChains << " chains on " << threads << " threads, "
           << seconds << " s";
    ceilings.peakMethod = method.str();
}

void measureBandwidth(Ceilings& ceilings) {
    // 128 MiB per buffer is far beyond any last-level cache on the machines we run on.
    constexpr size_t bytes = size_t{128} << 20;
    std::unique_ptr<char[]> source(new char[bytes]);
    std::unique_ptr<char[]> destination(new char[bytes]);
    std::memset(source.get(), 1, bytes);
    std::memset(destination.get(), 0, bytes);
    double best = 1e30;
    for (int repeat = 0; repeat < 4; ++repeat) {
        const auto start = Clock::now();
        std::memcpy(destination.get(), source.get(), bytes);
        best = std::min(best, secondsSince(start));
    }
    ceilings.bandwidth = 2.0 * static_cast<double>(bytes) / best;
    ceilings.bandwidthMethod = "measured: memcpy of 128 MiB, one thread, best of 4, read + write counted";
}

}  // namespace

Ceilings measureCpuCeilings() {
    Ceilings ceilings;
    measurePeak(ceilings);
    measureBandwidth(ceilings);
    return ceilings;
}

#ifdef HIPDNN_DRIVER_WITH_CUDA
Ceilings measureGpuCeilings(int ordinal) {
    Ceilings ceilings;
    int smCount = 0;
    int clockKhz = 0;
    int major = 0;
    int minor = 0;
    cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, ordinal);
    cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, ordinal);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ordinal);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, ordinal);
    // FP32 lanes per SM: 64 on sm_60/sm_70/sm_80, 128 on sm_86 and later (Hopper included).
    const int lanes = (major > 8 || (major == 8 && minor > 0)) ? 128 : 64;
    if (smCount > 0 && clockKhz > 0) {
        ceilings.peakFlops = static_cast<double>(smCount) * clockKhz * 1e3 * lanes * 2.0;
        std::ostringstream method;
        method << "from attributes: " << smCount << " SMs x " << clockKhz / 1000 << " MHz x " << lanes
               << " FP32 lanes x 2 (CUDA cores; tensor cores can exceed it)";
        ceilings.peakMethod = method.str();
    }
    constexpr size_t bytes = size_t{512} << 20;
    void* source = nullptr;
    void* destination = nullptr;
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    if (cudaMalloc(&source, bytes) == cudaSuccess && cudaMalloc(&destination, bytes) == cudaSuccess &&
        cudaEventCreate(&start) == cudaSuccess && cudaEventCreate(&stop) == cudaSuccess) {
        cudaMemset(source, 1, bytes);
        float best = 1e30F;
        for (int repeat = 0; repeat < 5; ++repeat) {
            cudaEventRecord(start);
            cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToDevice);
            cudaEventRecord(stop);
            cudaEventSynchronize(stop);
            float milliseconds = 0.0F;
            cudaEventElapsedTime(&milliseconds, start, stop);
            best = std::min(best, milliseconds);
        }
        ceilings.bandwidth = 2.0 * static_cast<double>(bytes) / (best * 1e-3);
        ceilings.bandwidthMethod =
            "measured: device-to-device cudaMemcpy of 512 MiB, best of 5, read + write counted";
    }
    if (start != nullptr) {
        cudaEventDestroy(start);
    }
    if (stop != nullptr) {
        cudaEventDestroy(stop);
    }
    cudaFree(source);
    cudaFree(destination);
    return ceilings;
}
#endif

std::optional<double> floorMilliseconds(const Ceilings& ceilings, double flops, double bytes) {
    std::optional<double> floor;
    if (ceilings.peakFlops && flops > 0.0) {
        floor = flops / *ceilings.peakFlops * 1e3;
    }
    if (ceilings.bandwidth && bytes > 0.0) {
        const double memory = bytes / *ceilings.bandwidth * 1e3;
        floor = floor ? std::max(*floor, memory) : memory;
    }
    return floor;
}

}  // namespace hipdnn_driver
