// The process's tuning databases: one TuningDatabase per file, so that each file is loaded once
// per process and shared by every handle, its warnings going to the backend log.
#pragma once

#include <filesystem>
#include <memory>

#include "tuning/TuningDatabase.hpp"

namespace hipdnn_backend::tuning {

[[nodiscard]] std::shared_ptr<TuningDatabase> sharedDatabase(const std::filesystem::path& file);

// The database of <cache dir>/tuning.jsonl, the directory as the environment names it
// (hipdnn_data_sdk::utilities::cacheDirectoryFromEnvironment); null when HIPDNN_DISABLE_CACHE is
// set or no variable gives a directory. Read at each call: a handle created after the environment
// changed uses the new directory.
[[nodiscard]] std::shared_ptr<TuningDatabase> databaseFromEnvironment();

}  // namespace hipdnn_backend::tuning
