// hipdnn-driver db show | merge FILE... | prune | export PATH: the tuning database through the
// backend's C API (hipdnnGetTuningRecords_ext and its neighbours).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "Options.hpp"

namespace hipdnn_driver {

// `files`: show, the database to list (none: the current one); merge, the databases to merge;
// export, the one destination. Throws DriverError with the backend's status and message.
int runDb(DbAction action, const std::vector<std::string>& files, const CommonOptions& options,
          std::ostream& out);

}  // namespace hipdnn_driver
