// hipdnn-driver tune FILE: for each problem of a batch file, times every plan of every engine of
// the device that takes it and records the fastest in the tuning database, where the heuristics
// rank it first from then on.
#pragma once

#include <iosfwd>
#include <string>

#include "Options.hpp"
#include "Session.hpp"

namespace hipdnn_driver {

// The tool name the records carry.
inline constexpr const char* kTuneToolName = "hipdnn-driver tune";

// Returns the exit status: 0 when every problem was recorded, 1 otherwise. A bad batch file
// throws UsageError (status 2).
int runTune(Session& session, const std::string& batchFile, const CommonOptions& options, std::ostream& out);

}  // namespace hipdnn_driver
