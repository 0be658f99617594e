// An engine's estimated time for a graph, as the backend ranks engines by it
// (hipdnnEnginePluginEstimateExecutionTime_ext): the roofline of the graph's bytes and flops
// (GraphCost.hpp) against the device's ceilings, each scaled by the fraction of it the engine
// reaches on that kind of graph, plus a fixed cost per kernel launch.
#pragma once

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>

#include <hipdnn_flatbuffers_sdk/GraphCost.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

namespace hipdnn_plugin_sdk {

using hipdnn_flatbuffers_sdk::MathKind;

/// Dense FLOP per SM per clock (a multiply-add counts 2) of an NVIDIA architecture, from NVIDIA's
/// whitepapers and datasheets (e.g. H100/H200 SXM: 132 SMs x 1.83 GHz x 4096 = 989 dense bf16
/// TFLOP/s). Zero: no tensor-core path for that kind (it runs at the CUDA-core fp32 rate).
struct GpuArchitectureRates {
    int major;
    int minor;
    int fp32;  // CUDA cores: FP32 lanes x 2
    int tf32;
    int fp16;
    int bf16;
    int fp8;
    int int8;

    [[nodiscard]] constexpr int perSmPerClock(MathKind kind) const {
        switch (kind) {
            case MathKind::Fp32:
                return fp32;
            case MathKind::Tf32:
                return tf32;
            case MathKind::Fp16:
                return fp16;
            case MathKind::Bf16:
                return bf16;
            case MathKind::Fp8:
                return fp8;
            case MathKind::Int8:
                break;
        }
        return int8;
    }
};

inline constexpr GpuArchitectureRates kGpuArchitectureRates[] = {
    {7, 0, 128, 0, 1024, 0, 0, 0},                 // Volta
    {7, 5, 128, 0, 1024, 0, 0, 2048},              // Turing
    {8, 0, 128, 1024, 2048, 2048, 0, 4096},        // A100
    {8, 6, 256, 512, 1024, 1024, 0, 2048},         // GA10x
    {8, 7, 256, 512, 1024, 1024, 0, 2048},         // Orin
    {8, 9, 256, 512, 1024, 1024, 2048, 2048},      // Ada
    {9, 0, 256, 2048, 4096, 4096, 8192, 8192},     // Hopper
    {10, 0, 256, 4096, 8192, 8192, 16384, 16384},  // Blackwell (B200)
    {12, 0, 256, 512, 1024, 1024, 2048, 2048},     // Blackwell (GB20x)
};

/// The row of an architecture: an exact match (`exact` true), else the fastest row, so that an
/// architecture newer than the table still gets a ceiling it can reach.
inline const GpuArchitectureRates& gpuArchitectureRates(int major, int minor, bool& exact) {
    for (const auto& rates : kGpuArchitectureRates) {
        if (rates.major == major && rates.minor == minor) {
            exact = true;
            return rates;
        }
    }
    exact = false;
    return *std::max_element(std::begin(kGpuArchitectureRates), std::end(kGpuArchitectureRates),
                             [](const auto& a, const auto& b) { return a.bf16 < b.bf16; });
}

/// What a device can do at best.
struct DeviceCeilings {
    double bytesPerSecond = 0.0;                // memory bandwidth
    std::map<MathKind, double> flopsPerSecond;  // dense peak; a kind absent runs at fp32's
    double launchSeconds = 0.0;                 // fixed cost of one kernel launch

    [[nodiscard]] double peakFor(MathKind kind) const {
        auto found = flopsPerSecond.find(kind);
        if (found == flopsPerSecond.end()) {
            found = flopsPerSecond.find(MathKind::Fp32);
        }
        return found == flopsPerSecond.end() ? 0.0 : found->second;
    }
};

/// An NVIDIA GPU's theoretical ceilings from its device attributes: peaks from the architecture
/// table, bandwidth from the memory clock and bus width (two transfers per clock), 3 µs per launch
/// (a launch and its dependency on the previous kernel, as the stream serializes them).
inline DeviceCeilings gpuCeilings(int multiprocessorCount, int clockKhz, int major, int minor,
                                  int memoryClockKhz, int memoryBusWidthBits) {
    DeviceCeilings ceilings;
    ceilings.bytesPerSecond = 2.0 * memoryClockKhz * 1e3 * memoryBusWidthBits / 8.0;
    bool exact = false;
    const GpuArchitectureRates& rates = gpuArchitectureRates(major, minor, exact);
    for (MathKind kind :
         {MathKind::Fp32, MathKind::Tf32, MathKind::Fp16, MathKind::Bf16, MathKind::Fp8, MathKind::Int8}) {
        if (const int perClock = rates.perSmPerClock(kind); perClock > 0) {
            ceilings.flopsPerSecond[kind] =
                static_cast<double>(multiprocessorCount) * clockKhz * 1e3 * perClock;
        }
    }
    ceilings.launchSeconds = 3e-6;
    return ceilings;
}

/// The fractions of the ceilings an engine reaches on a kind of graph (measured on a device and
/// recorded with the engine), and how many kernels it launches for it.
struct EngineEfficiency {
    double memory = 0.0;   // of bytesPerSecond
    double compute = 0.0;  // of the peak of the graph's math
    int launches = 1;
};

/// What an engine's efficiency on a graph depends on: the graph's one operation that is not
/// pointwise (NONE for a graph of pointwise nodes only; `mixed` when there are several), the layout
/// of its first operand of rank 3 or more, and how many pointwise nodes surround it.
struct GraphClass {
    hipdnn_flatbuffers_sdk::data_objects::NodeAttributes principal =
        hipdnn_flatbuffers_sdk::data_objects::NodeAttributes::NONE;
    bool mixed = false;
    bool channelsLast = false;  // the operand's channel dim (dim 1) has unit stride
    int pointwiseNodes = 0;
};

inline GraphClass classifyGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph) {
    using hipdnn_flatbuffers_sdk::data_objects::NodeAttributes;
    GraphClass result;
    for (std::size_t index = 0; index < graph.nodeCount(); ++index) {
        const auto node = graph.node(index);
        if (node.type() == NodeAttributes::PointwiseAttributes) {
            ++result.pointwiseNodes;
            continue;
        }
        if (result.principal != NodeAttributes::NONE) {
            result.mixed = true;
            continue;
        }
        result.principal = node.type();
        for (int64_t uid : node.inputUids()) {
            const auto* dims = graph.tensor(uid).dims();
            const auto* strides = graph.tensor(uid).strides();
            if (dims != nullptr && strides != nullptr && dims->size() >= 3 &&
                strides->size() == dims->size()) {
                result.channelsLast = strides->Get(1) == 1 && dims->Get(1) > 1;
                break;
            }
        }
    }
    return result;
}

/// max(bytes / (bandwidth x memory), sum over math kinds of flops / (peak x compute)) plus the
/// launches; nothing when a bound the graph needs has no ceiling or no efficiency.
inline std::optional<double> rooflineSeconds(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                             const DeviceCeilings& ceilings,
                                             const EngineEfficiency& efficiency, bool tf32Allowed = false) {
    double computeSeconds = 0.0;
    for (const auto& [kind, flops] : hipdnn_flatbuffers_sdk::graphFlopsByMath(graph, tf32Allowed)) {
        const double rate = ceilings.peakFor(kind) * efficiency.compute;
        if (flops > 0.0 && rate <= 0.0) {
            return std::nullopt;
        }
        computeSeconds += flops > 0.0 ? flops / rate : 0.0;
    }
    const double bytes = hipdnn_flatbuffers_sdk::graphBytes(graph);
    const double bandwidth = ceilings.bytesPerSecond * efficiency.memory;
    if (bytes > 0.0 && bandwidth <= 0.0) {
        return std::nullopt;
    }
    const double memorySeconds = bytes > 0.0 ? bytes / bandwidth : 0.0;
    return std::max(computeSeconds, memorySeconds) + efficiency.launches * ceilings.launchSeconds;
}

/// An engine's estimate: rooflineSeconds() with the efficiency `efficiencyOf` (a callable taking
/// the GraphClass and answering std::optional<EngineEfficiency>) gives for the graph's class;
/// nothing where it gives none.
template <class EfficiencyOf>
std::optional<double> estimateSeconds(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                      const DeviceCeilings& ceilings, EfficiencyOf&& efficiencyOf) {
    const std::optional<EngineEfficiency> efficiency = efficiencyOf(classifyGraph(graph));
    if (!efficiency) {
        return std::nullopt;
    }
    return rooflineSeconds(graph, ceilings, *efficiency);
}

}  // namespace hipdnn_plugin_sdk
