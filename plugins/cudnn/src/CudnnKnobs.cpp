#include "CudnnKnobs.hpp"

#include "EnumMapping.hpp"

#include <hipdnn_plugin_sdk/KnobValidation.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace hipdnn_cudnn_plugin {

namespace {

using hipdnn_flatbuffers_sdk::IntKnobConstraint;
using hipdnn_flatbuffers_sdk::KnobDescription;
using hipdnn_flatbuffers_sdk::StringKnobConstraint;

// Knob information is gathered from this many of the best ranked engines, which bounds the
// cost of describing a graph with a long heuristics list.
constexpr size_t kEnginesDescribed = 8;

}  // namespace

std::vector<KnobDescription> describeKnobs(GraphAnalysis& analysis, bool deterministic) {
    std::vector<KnobDescription> knobs;
    knobs.push_back(KnobDescription::stringKnob(std::string(kHeuristicsModeKnob),
                                                "cuDNN heuristics that rank the engine configurations", "A",
                                                StringKnobConstraint{0, {"A", "B", "FALLBACK"}}));
    knobs.push_back(
        KnobDescription::intKnob(std::string(kAllowTf32Knob),
                                 "1: fp32 convolutions and matmuls may run in TF32 on tensor cores; "
                                 "0: strict fp32",
                                 0, IntKnobConstraint::range(0, 1)));
    if (!analysis.translated()) {
        return knobs;
    }
    const std::vector<EngineConfigCandidate> ranked =
        analysis.candidates(CUDNN_HEUR_MODE_A, deterministic, false);
    // Every configuration and index any setting can plan (TF32 engines too), in the order
    // global.benchmarking times them (the heuristics' lists, then the engines no heuristics
    // ranked): what a tuner timing each value must see. The default is the best full-precision one.
    std::vector<int64_t> indices;
    std::vector<std::string> configurations;
    for (const EngineConfigCandidate& candidate : analysis.configurations(deterministic, true)) {
        if (std::find(indices.begin(), indices.end(), candidate.globalIndex) == indices.end()) {
            indices.push_back(candidate.globalIndex);
        }
        configurations.push_back(configurationName(candidate));
    }
    const int64_t defaultIndex = ranked.empty() ? indices.front() : ranked.front().globalIndex;
    knobs.push_back(KnobDescription::intKnob(
        std::string(kEngineIndexKnob), "cuDNN global engine index (default: the best ranked by heuristics)",
        defaultIndex, IntKnobConstraint::oneOf(indices)));
    knobs.push_back(KnobDescription::stringKnob(
        std::string(kEngineConfigKnob),
        "one cuDNN engine configuration, as <global engine index>[,<KNOB>=<value>...] (default: the "
        "heuristics' choice)",
        "", StringKnobConstraint::oneOf(std::move(configurations))));

    // Largest maximum per knob type over the described engines; cuDNN validates the exact range
    // of the engine finally chosen when the plan is built.
    std::map<int64_t, int64_t> maxima;
    std::set<int64_t> described;
    for (const EngineConfigCandidate& candidate : ranked) {
        if (described.size() == kEnginesDescribed) {
            break;
        }
        if (!described.insert(candidate.globalIndex).second) {
            continue;
        }
        for (const KnobInfo& info : analysis.knobInfos(candidate.globalIndex)) {
            maxima[info.type] =
                std::max(maxima.contains(info.type) ? maxima[info.type] : info.maximum, info.maximum);
        }
    }
    for (const auto& [type, maximum] : maxima) {
        knobs.push_back(KnobDescription::intKnob(
            std::string(kCudnnKnobPrefix) + knobTypeName(type),
            "cuDNN knob CUDNN_KNOB_TYPE_" + knobTypeName(type) +
                " of the chosen engine; -1 keeps the heuristics' choice",
            kKeepHeuristicChoice,
            IntKnobConstraint::range(kKeepHeuristicChoice, std::max<int64_t>(maximum, 0))));
    }
    return knobs;
}

PlanRequest planRequestFrom(const hipdnn_flatbuffers_sdk::IEngineConfig& config, bool deterministic) {
    PlanRequest request;
    request.deterministic = deterministic;
    if (const std::optional<std::string> mode = config.stringKnob(kHeuristicsModeKnob)) {
        request.mode = heuristicModeFromName(*mode).value_or(CUDNN_HEUR_MODE_A);
        request.modeExplicit = true;
    }
    request.allowTf32 = config.intKnob(kAllowTf32Knob).value_or(0) == 1;
    request.engineIndex = config.intKnob(kEngineIndexKnob);
    request.engineConfig = config.stringKnob(kEngineConfigKnob);
    request.benchmark = hipdnn_plugin_sdk::benchmarkingRequested(config);
    for (const std::string& id : config.knobIds()) {
        if (!std::string_view(id).starts_with(kCudnnKnobPrefix)) {
            continue;
        }
        const std::optional<int64_t> type =
            knobTypeFromName(std::string_view(id).substr(kCudnnKnobPrefix.size()));
        const std::optional<int64_t> value = config.intKnob(id);
        if (type && value && *value != kKeepHeuristicChoice) {
            request.knobOverrides.push_back({*type, *value});
        }
    }
    return request;
}

}  // namespace hipdnn_cudnn_plugin
