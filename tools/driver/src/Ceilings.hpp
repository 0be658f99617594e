// What the device can do at best, to put a floor under each time: the peak of each kind of
// arithmetic it has a unit for and its copy bandwidth by working-set size, each with how it was
// obtained.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <hipdnn_flatbuffers_sdk/GraphCost.hpp>

namespace hipdnn_driver {

using hipdnn_flatbuffers_sdk::MathKind;
using hipdnn_flatbuffers_sdk::mathKindName;

struct Peak {
    double flops = 0.0;  // FLOP/s (a multiply-add counts 2)
    std::string method;
};

// The copy bandwidth of a working set (source + destination bytes): a set that fits a cache is
// copied at that cache's speed, since timed runs repeat on the same buffers.
struct BandwidthSample {
    double workingSetBytes = 0.0;
    double bytesPerSecond = 0.0;
};

struct Ceilings {
    std::map<MathKind, Peak> peaks;           // fp32 always, when anything is known
    std::vector<BandwidthSample> bandwidths;  // ascending working set
    std::string bandwidthMethod;

    // The peak of `kind`: its own unit's, else fp32's (math without a unit of its own is computed
    // in fp32). Null when nothing is known.
    [[nodiscard]] const Peak* peakFor(MathKind kind) const;
    // The fastest rate `bytes` can move at: the sample of the largest working set not above it
    // (a smaller set fits a cache at least as fast), else the smallest sample.
    [[nodiscard]] std::optional<double> bandwidthFor(double bytes) const;
};

// CPU: peaks from timed loops of independent chains on every hardware thread: fp32 FMA in the
// widest vector ISA (AVX-512, AVX2+FMA, else SSE2 multiply-add), AVX512-BF16 dot products and
// AVX512-VNNI int8 dot products where the CPU has them; AMX tiles from the AVX-512 rate and the
// tile unit's FLOP per cycle. Bandwidth from timed copies on every thread, at working sets from
// the first-level cache to far beyond the last.
Ceilings measureCpuCeilings();

// Whether the CPU multiplies bf16 in hardware (AVX512-BF16 or AMX-BF16).
bool cpuHasBf16Math();

#ifdef HIPDNN_DRIVER_WITH_CUDA
// GPU: peaks from the SM count x boost clock x the dense FLOP per SM per clock of the
// architecture (a table of NVIDIA's figures: CUDA-core fp32, tensor-core tf32/fp16/bf16/fp8/int8).
// Bandwidth from timed device-to-device copies, within half the L2 and far beyond it.
Ceilings measureGpuCeilings(int ordinal);
#endif

// Milliseconds the device needs at best: the larger of the arithmetic bound (the sum over math
// kinds of flops / peak) and the memory bound (bytes / bandwidthFor(bytes)); nothing when
// neither is known.
std::optional<double> floorMilliseconds(const Ceilings& ceilings, const std::map<MathKind, double>& flops,
                                        double bytes);

}  // namespace hipdnn_driver
