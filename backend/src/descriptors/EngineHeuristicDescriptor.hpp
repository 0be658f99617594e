// ENGINEHEUR: asks the plugins serving the graph's handle which engines apply and ranks them
// (heuristics/EngineRanking.hpp). Set OPERATION_GRAPH (finalized), MODE (FALLBACK, A or B;
// INSTANT is NOT_SUPPORTED) and optionally FIND_FIRST_EXT (BOOLEAN: stop at the first plugin
// with an applicable engine). Finalize succeeds with zero results when nothing applies.
// Gets: RESULTS (count with 0; fills caller-created, unfinalized ENGINECFG descriptors with a
// finalized ENGINE each; the tuned engine's config carries its record's knob settings), DECLINED_EXT (CHAR:
// "<engine>\t<plugin>\t<reason>\n" per declining engine).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "descriptors/Descriptor.hpp"
#include "descriptors/FinalizedGraph.hpp"
#include "tuning/TuningLookup.hpp"

namespace hipdnn_backend::descriptors {

class EngineHeuristicDescriptor final : public Descriptor {
public:
    EngineHeuristicDescriptor() : Descriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR) {}

private:
    void set(const AttributeInput& input) override;
    void get(AttributeOutput& output) const override;
    void finalizeDescriptor() override;

    std::shared_ptr<const FinalizedGraph> _graph;
    std::optional<hipdnnBackendHeurMode_t> _mode;
    bool _findFirst = false;
    std::vector<int64_t> _ranked;
    std::optional<tuning::TunedConfig> _tuned;
    std::string _declined;
};

}  // namespace hipdnn_backend::descriptors
