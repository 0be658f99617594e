// The knobs the cuDNN engines publish and how an engine configuration's settings become a
// PlanRequest:
//   cudnn.heuristics.mode  string A | B | FALLBACK (default A): which cuDNN heuristics rank engines
//   cudnn.engine.index     int: cuDNN's global engine index (valid values: those heuristics
//                          modes A, B and FALLBACK return for the graph, then every other engine
//                          that supports it; default: the best ranked)
//   cudnn.engine.config    string: one configuration of those, engine and knob choices, as
//                          GraphAnalysis's configurationName spells it (takes precedence over
//                          cudnn.engine.index; default: the heuristics' choice)
//   cudnn.allow_tf32       int 0 | 1 (default 0): fp32 convolutions/matmuls may use TF32 tensor cores
//   cudnn.knob.<NAME>      int, one per cuDNN knob type (CUDNN_KNOB_TYPE_<NAME>) of the ranked
//                          engines; -1 (default) keeps the heuristics' choice
#pragma once

#include "GraphAnalysis.hpp"

#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp>

#include <string_view>
#include <vector>

namespace hipdnn_cudnn_plugin {

inline constexpr std::string_view kHeuristicsModeKnob = "cudnn.heuristics.mode";
inline constexpr std::string_view kEngineIndexKnob = "cudnn.engine.index";
inline constexpr std::string_view kEngineConfigKnob = "cudnn.engine.config";
inline constexpr std::string_view kAllowTf32Knob = "cudnn.allow_tf32";
inline constexpr std::string_view kCudnnKnobPrefix = "cudnn.knob.";
/// A cudnn.knob.* value that keeps the heuristics' choice.
inline constexpr int64_t kKeepHeuristicChoice = -1;

std::vector<hipdnn_flatbuffers_sdk::KnobDescription> describeKnobs(GraphAnalysis& analysis,
                                                                   bool deterministic);

/// Reads the engine configuration's knob settings (already validated against describeKnobs).
PlanRequest planRequestFrom(const hipdnn_flatbuffers_sdk::IEngineConfig& config, bool deterministic);

}  // namespace hipdnn_cudnn_plugin
