// One tuning result: the engine configuration that ran a graph fastest on a device, as measured.
// The tuning database stores one record per line as a JSON object (see TuningDatabase.hpp), keys
// in alphabetical order:
//   {"date":"2026-12-02T01:10:00Z","device":"cpu AMD EPYC 7B13; isa avx2; threads 2",
//    "engine":"ONEDNN_ENGINE","graph":"3f0c6d2e9a1b7c44","knobs":{},"margin_ms":0.004,
//    "median_ms":0.0123,"plugin":"onednn","plugin_version":"0.4.0","tool":"autotune"}
// plus "libraries" when the plugin's engines run on device libraries (the plugin's
// hipdnnEnginePluginGetLibraryVersions_ext, e.g. "cudnn 9.19.0") and "provenance" when the record
// came from another database.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "descriptors/KnobValues.hpp"

namespace hipdnn_backend::tuning {

struct TuningRecord {
    std::string graphKey;  // hipdnn_flatbuffers_sdk::canonicalGraphKey of the graph
    std::string device;    // deviceFingerprint of the handle that measured it
    std::string plugin;
    std::string pluginVersion;
    std::string libraries;  // the plugin's library versions when it measured; "" for none
    std::string engine;     // engine name; its id is the name's FNV-1a hash
    std::vector<descriptors::KnobChoice> knobs;
    double medianMs = 0;
    // The runner-up's median minus this one; 0 when no other configuration ran.
    double marginMs = 0;
    std::string date;  // UTC, ISO 8601, when measured
    std::string tool;  // what measured it, e.g. "autotune" or "hipdnn-driver tune"
    std::string provenance;

    // What a record is stored under: one record per graph and device.
    [[nodiscard]] std::string key() const { return graphKey + '\t' + device; }
};

[[nodiscard]] std::string toJsonLine(const TuningRecord& record);
// Throws std::invalid_argument naming what is missing or malformed.
[[nodiscard]] TuningRecord fromJsonLine(std::string_view line);

// The current UTC time as ISO 8601 ("2026-12-02T01:10:00Z").
[[nodiscard]] std::string utcNow();

}  // namespace hipdnn_backend::tuning
