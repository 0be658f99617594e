// The CPU's ceilings, measured: each peak by a loop of independent chains of one instruction on
// every hardware thread, the bandwidth by copies and reads on every hardware thread. Each thread's
// work is divided by that thread's own CPU time, not the wall clock, so that other processes
// sharing the cores lower no ceiling (and a floor stays below what an idle machine reaches).
#include <algorithm>
#include <barrier>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <numeric>
#include <sstream>
#include <thread>
#include <vector>

#include <cpuid.h>
#include <immintrin.h>

#include "Ceilings.hpp"

namespace hipdnn_driver {
namespace {

double threadCpuSeconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// Twelve independent chains per thread hide each instruction's latency (4 to 6 cycles) on two
// ports; each kernel returns the lanes' sum so that the compiler cannot drop the work.
constexpr int kChains = 12;

__attribute__((target("avx512f"))) float sumLanes(const __m512* acc) {
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
    return sumLanes(acc);
}

// vdpbf16ps: 16 fp32 lanes, each accumulating two bf16 products.
__attribute__((target("avx512f,avx512bf16"))) float bf16DotChainsAvx512(int64_t iterations) {
    __m512 acc[kChains];
    for (int j = 0; j < kChains; ++j) {
        acc[j] = _mm512_set1_ps(0.001F * static_cast<float>(j));
    }
    const __m512bh ones = _mm512_cvtne2ps_pbh(_mm512_set1_ps(1.0F), _mm512_set1_ps(1.0F));
    const __m512bh tiny = _mm512_cvtne2ps_pbh(_mm512_set1_ps(1e-7F), _mm512_set1_ps(1e-7F));
    for (int64_t i = 0; i < iterations; ++i) {
        for (int j = 0; j < kChains; ++j) {
            acc[j] = _mm512_dpbf16_ps(acc[j], ones, tiny);
        }
    }
    return sumLanes(acc);
}

// vpdpbusd: 16 int32 lanes, each accumulating four u8 x s8 products.
__attribute__((target("avx512f,avx512vnni"))) float int8DotChainsAvx512(int64_t iterations) {
    __m512i acc[kChains];
    for (int j = 0; j < kChains; ++j) {
        acc[j] = _mm512_set1_epi32(j);
    }
    const __m512i unsignedBytes = _mm512_set1_epi8(1);
    const __m512i signedBytes = _mm512_set1_epi8(-1);
    for (int64_t i = 0; i < iterations; ++i) {
        for (int j = 0; j < kChains; ++j) {
            acc[j] = _mm512_dpbusd_epi32(acc[j], unsignedBytes, signedBytes);
        }
    }
    alignas(64) int32_t lanes[16];
    int64_t sum = 0;
    for (int j = 0; j < kChains; ++j) {
        _mm512_store_si512(lanes, acc[j]);
        sum = std::accumulate(std::begin(lanes), std::end(lanes), sum);
    }
    return static_cast<float>(sum);
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

// A loop and what one iteration computes: kChains instructions of `flopsPerInstruction` each.
struct ChainKernel {
    const char* isa;
    double flopsPerInstruction;
    float (*run)(int64_t);
};

unsigned hardwareThreads() {
    return std::max(1U, std::thread::hardware_concurrency());
}

Peak measurePeak(const ChainKernel& kernel) {
    // Calibrate on one thread to about 0.1 s of work per thread.
    int64_t iterations = 1 << 16;
    volatile float sink = 0.0F;
    for (;;) {
        const double start = threadCpuSeconds();
        sink = sink + kernel.run(iterations);
        const double seconds = threadCpuSeconds() - start;
        if (seconds > 0.02) {
            iterations = static_cast<int64_t>(static_cast<double>(iterations) * 0.1 / seconds) + 1;
            break;
        }
        iterations *= 4;
    }
    const unsigned threads = hardwareThreads();
    const double flopsPerThread = static_cast<double>(iterations) * kChains * kernel.flopsPerInstruction;
    double best = 0.0;
    double longest = 0.0;
    for (int trial = 0; trial < 3; ++trial) {
        std::vector<float> results(threads);
        std::vector<double> cpuSeconds(threads);
        std::vector<std::thread> workers;
        for (unsigned t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                const double start = threadCpuSeconds();
                results[t] = kernel.run(iterations);
                cpuSeconds[t] = threadCpuSeconds() - start;
            });
        }
        for (auto& worker : workers) {
            worker.join();
        }
        double flops = 0.0;
        for (unsigned t = 0; t < threads; ++t) {
            sink = sink + results[t];
            flops += flopsPerThread / cpuSeconds[t];
            longest = std::max(longest, cpuSeconds[t]);
        }
        best = std::max(best, flops);
    }
    Peak peak;
    peak.flops = best;
    std::ostringstream method;
    method << "measured: " << kernel.isa << " loop, " << kChains << " chains on " << threads
           << " threads at once, each thread's work over its CPU time (" << longest << " s), best of 3";
    peak.method = method.str();
    return peak;
}

// AMX-BF16 and AMX-INT8 (CPUID leaf 7, EDX bits 22 and 25, with AMX-TILE, bit 24).
struct AmxSupport {
    bool bf16 = false;
    bool int8 = false;
};

AmxSupport amxSupport() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) == 0 || (edx & (1U << 24)) == 0) {
        return {};
    }
    return {(edx & (1U << 22)) != 0, (edx & (1U << 25)) != 0};
}

void measurePeaks(Ceilings& ceilings) {
    __builtin_cpu_init();
    const bool avx512 = __builtin_cpu_supports("avx512f");
    if (avx512) {
        ceilings.peaks[MathKind::Fp32] = measurePeak({"AVX-512 FMA", 32.0, fmaChainsAvx512});
    } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        ceilings.peaks[MathKind::Fp32] = measurePeak({"AVX2 FMA", 16.0, fmaChainsAvx2});
    } else {
        ceilings.peaks[MathKind::Fp32] = measurePeak({"SSE2 multiply-add", 8.0, mulAddChainsSse2});
    }
    if (avx512 && __builtin_cpu_supports("avx512bf16")) {
        ceilings.peaks[MathKind::Bf16] = measurePeak({"AVX512-BF16 vdpbf16ps", 64.0, bf16DotChainsAvx512});
    }
    if (avx512 && __builtin_cpu_supports("avx512vnni")) {
        ceilings.peaks[MathKind::Int8] = measurePeak({"AVX512-VNNI vpdpbusd", 128.0, int8DotChainsAvx512});
    }
    // The tile unit does 1024 bf16 (2048 int8) operations per cycle and core against AVX-512's 64
    // fp32 FLOP on two FMA ports: a figure, not a measurement (tiles need the kernel's permission).
    const AmxSupport amx = amxSupport();
    const Peak avx512Fp32 = ceilings.peaks[MathKind::Fp32];
    auto fromAvx512 = [&](const char* unit, double factor) {
        Peak peak;
        peak.flops = avx512Fp32.flops * factor;
        std::ostringstream method;
        method << "from the AVX-512 FMA rate: " << unit << " " << factor << " x 64 FLOP per cycle and core";
        peak.method = method.str();
        return peak;
    };
    if (avx512 && amx.bf16) {
        ceilings.peaks[MathKind::Bf16] = fromAvx512("AMX-BF16", 16.0);
    }
    if (avx512 && amx.int8) {
        ceilings.peaks[MathKind::Int8] = fromAvx512("AMX-INT8", 32.0);
    }
}

// Sums 64-bit words in four chains: loads dominate, so this reads at the memory's speed.
uint64_t readWords(const uint64_t* words, size_t count) {
    uint64_t sums[4] = {0, 0, 0, 0};
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        for (size_t j = 0; j < 4; ++j) {
            sums[j] += words[i + j];
        }
    }
    for (; i < count; ++i) {
        sums[0] += words[i];
    }
    return sums[0] + sums[1] + sums[2] + sums[3];
}

// Bytes per second over a working set of `workingSet` bytes split among the threads: each
// thread copies half its share onto the other half (read + write counted) or reads all of it,
// repeatedly, after a barrier; the threads' rates summed, best of three trials.
double threadedBandwidth(size_t workingSet, bool copy) {
    const unsigned threads = hardwareThreads();
    const size_t share = std::max<size_t>(workingSet / threads / 128 * 128, 256);
    // Enough repeats for each thread to move 64 MiB: milliseconds, far above the thread start.
    const size_t repeats = std::max<size_t>(1, (size_t{64} << 20) / share);
    std::vector<std::vector<uint64_t>> buffers(threads, std::vector<uint64_t>(share / 8, 1));
    double best = 0.0;
    volatile uint64_t sink = 0;
    for (int trial = 0; trial < 3; ++trial) {
        std::barrier start(static_cast<std::ptrdiff_t>(threads) + 1);
        std::vector<double> seconds(threads);
        std::vector<std::thread> workers;
        for (unsigned t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                uint64_t* words = buffers[t].data();
                const size_t half = buffers[t].size() / 2;
                start.arrive_and_wait();
                const double begin = threadCpuSeconds();
                uint64_t total = 0;
                for (size_t r = 0; r < repeats; ++r) {
                    if (copy) {
                        std::memcpy(words + (r % 2 == 0 ? half : 0), words + (r % 2 == 0 ? 0 : half),
                                    half * sizeof(uint64_t));
                    } else {
                        total += readWords(words, buffers[t].size());
                    }
                }
                seconds[t] = threadCpuSeconds() - begin;
                sink = sink + total;
            });
        }
        start.arrive_and_wait();
        for (auto& worker : workers) {
            worker.join();
        }
        // A copy reads one half and writes the other: the share either way.
        const double movedPerThread = static_cast<double>(repeats) * static_cast<double>(share);
        double rate = 0.0;
        for (double threadSeconds : seconds) {
            rate += movedPerThread / threadSeconds;
        }
        best = std::max(best, rate);
    }
    return best;
}

void measureBandwidth(Ceilings& ceilings) {
    // From inside the first-level caches to far beyond the last-level cache of any CPU we run on.
    for (size_t workingSet :
         {size_t{64} << 10, size_t{1} << 20, size_t{8} << 20, size_t{64} << 20, size_t{512} << 20}) {
        const double rate =
            std::max(threadedBandwidth(workingSet, true), threadedBandwidth(workingSet, false));
        ceilings.bandwidths.push_back({static_cast<double>(workingSet), rate});
    }
    std::ostringstream method;
    method << "measured: memcpy and reads on " << hardwareThreads()
           << " threads at once, each thread's bytes over its CPU time, best of 3, by working set 64 KiB "
              "to 512 MiB";
    ceilings.bandwidthMethod = method.str();
}

}  // namespace

bool cpuHasBf16Math() {
    __builtin_cpu_init();
    return (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bf16")) || amxSupport().bf16;
}

Ceilings measureCpuCeilings() {
    Ceilings ceilings;
    measurePeaks(ceilings);
    measureBandwidth(ceilings);
    return ceilings;
}

}  // namespace hipdnn_driver
