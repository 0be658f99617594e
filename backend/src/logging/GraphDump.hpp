#pragma once

#include <cstdint>
#include <vector>

namespace hipdnn_backend::logging {

// When HIPDNN_LOG_GRAPH_DIR is set, writes the graph as JSON to <dir>/graph_<hash>.json (hash:
// FNV-1a of the serialized bytes, 16 hex digits). Failures are logged, never thrown.
void dumpGraphIfRequested(const std::vector<uint8_t>& serializedGraph);

}  // namespace hipdnn_backend::logging
