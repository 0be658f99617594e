#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace hipdnn_backend::logging {

// When HIPDNN_LOG_GRAPH_DIR is set, writes the graph as JSON to <dir>/graph_<hash>.json (hash:
// FNV-1a of the serialized bytes, 16 hex digits). Failures are logged, never thrown.
void dumpGraphIfRequested(const std::vector<uint8_t>& serializedGraph);

// At INFO level, writes the graph as JSON (into HIPDNN_LOG_GRAPH_DIR, else a hipdnn_graphs folder
// in the temporary directory) and logs the hipdnn-driver command line that replays the plan:
// "hipdnn-driver graph <file> --engine <name> [--knob <id>=<value> ...]".
void logPlanReproducer(const std::vector<uint8_t>& serializedGraph, std::string_view engineName,
                       const std::vector<uint8_t>& serializedEngineConfig);

}  // namespace hipdnn_backend::logging
