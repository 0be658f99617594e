// What the device can do at best, to put a floor under each time: peak FLOP/s and memory
// bandwidth, each with how it was obtained.
#pragma once

#include <optional>
#include <string>

namespace hipdnn_driver {

struct Ceilings {
    std::optional<double> peakFlops;  // FLOP/s (fp32 FMA)
    std::optional<double> bandwidth;  // bytes/s
    std::string peakMethod;
    std::string bandwidthMethod;
};

// CPU: bandwidth from a timed memcpy of a buffer far larger than the caches (read + write
// counted), peak from a timed loop of independent FMA chains in the widest vector ISA the CPU
// has (AVX-512, AVX2+FMA, else SSE2 multiply-add), on every hardware thread at once.
Ceilings measureCpuCeilings();

#ifdef HIPDNN_DRIVER_WITH_CUDA
// GPU: bandwidth from a timed device-to-device copy (read + write counted), fp32 peak from the SM
// count x boost clock x 128 FP32 lanes x 2 (CUDA-core FMA; tensor cores can exceed it).
Ceilings measureGpuCeilings(int ordinal);
#endif

// Milliseconds the device needs at best for `flops` and `bytes` (the larger of the two bounds);
// nothing when neither ceiling is known.
std::optional<double> floorMilliseconds(const Ceilings& ceilings, double flops, double bytes);

}  // namespace hipdnn_driver
