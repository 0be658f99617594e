#include "Ceilings.hpp"

#include <algorithm>

namespace hipdnn_driver {

const Peak* Ceilings::peakFor(MathKind kind) const {
    auto found = peaks.find(kind);
    if (found == peaks.end()) {
        found = peaks.find(MathKind::Fp32);
    }
    return found == peaks.end() ? nullptr : &found->second;
}

std::optional<double> Ceilings::bandwidthFor(double bytes) const {
    if (bandwidths.empty()) {
        return std::nullopt;
    }
    const auto above = std::find_if(bandwidths.begin(), bandwidths.end(), [&](const BandwidthSample& sample) {
        return sample.workingSetBytes > bytes;
    });
    return above == bandwidths.begin() ? above->bytesPerSecond : std::prev(above)->bytesPerSecond;
}

std::optional<double> floorMilliseconds(const Ceilings& ceilings, const std::map<MathKind, double>& flops,
                                        double bytes) {
    std::optional<double> floor;
    for (const auto& [kind, count] : flops) {
        const Peak* peak = ceilings.peakFor(kind);
        if (peak != nullptr && count > 0.0) {
            floor = floor.value_or(0.0) + count / peak->flops * 1e3;
        }
    }
    const std::optional<double> bandwidth = ceilings.bandwidthFor(bytes);
    if (bandwidth && bytes > 0.0) {
        const double memory = bytes / *bandwidth * 1e3;
        floor = floor ? std::max(*floor, memory) : memory;
    }
    return floor;
}

}  // namespace hipdnn_driver
