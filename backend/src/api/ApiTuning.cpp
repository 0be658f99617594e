// The tuning database extensions: recording a measured plan; listing, merging, pruning and
// exporting database files.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "api/ApiGuard.hpp"
#include "api/HandleRegistry.hpp"
#include "descriptors/DescriptorRegistry.hpp"
#include "descriptors/ExecutionPlanDescriptor.hpp"
#include "tuning/TuningDatabase.hpp"
#include "tuning/TuningLookup.hpp"
#include "tuning/TuningRegistry.hpp"

using namespace hipdnn_backend;
using namespace hipdnn_backend::api;
using namespace hipdnn_backend::descriptors;

namespace {

std::shared_ptr<tuning::TuningDatabase> currentDatabase() {
    auto database = tuning::databaseFromEnvironment();
    if (!database) {
        throw HipdnnException(HIPDNN_STATUS_NOT_SUPPORTED,
                              "The tuning database is off: HIPDNN_DISABLE_CACHE is set, or neither "
                              "HIPDNN_CACHE_DIR, XDG_CACHE_HOME nor HOME names a directory");
    }
    return database;
}

// A file the caller named, read whole; a missing file or a bad line is BAD_PARAM naming it.
std::vector<tuning::TuningRecord> readNamedFile(const std::filesystem::path& file) {
    try {
        return tuning::readDatabaseFile(file);
    } catch (const std::invalid_argument& error) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, error.what());
    }
}

// The current database's records, read strictly: it may be absent (no record yet), but a bad line
// is BAD_PARAM naming the file and the line (hipdnnPruneTuningDatabase_ext drops such lines).
std::vector<tuning::TuningRecord> readCurrentFile(const tuning::TuningDatabase& database) {
    std::error_code error;
    if (!std::filesystem::exists(database.file(), error)) {
        return {};
    }
    return readNamedFile(database.file());
}

void rethrowWriteFailure(const std::runtime_error& error) {
    throw HipdnnException(HIPDNN_STATUS_INTERNAL_ERROR, error.what());
}

}  // namespace

extern "C" {

hipdnnStatus_t hipdnnBackendRecordTuningResult_ext(hipdnnBackendDescriptor_t execution_plan, double median_ms,
                                                   double runner_up_ms, const char* tool) {
    return guardedCall(__func__, [&] {
        requireNotNull(execution_plan, "execution_plan");
        requireNotNull(tool, "tool");
        const auto plan = lookupDescriptorAs<ExecutionPlanDescriptor>(
            execution_plan, HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, "execution_plan");
        if (!plan->isFinalized()) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
                                  "The execution plan is not finalized");
        }
        tuning::recordTuningResult(*plan, median_ms, runner_up_ms, tool);
    });
}

hipdnnStatus_t hipdnnGetTuningDatabasePath_ext(size_t requested_byte_size, size_t* byte_size, char* buffer) {
    return guardedCall(__func__, [&] {
        requireNotNull(byte_size, "byte_size");
        const std::string path = currentDatabase()->file().string();
        writeBytes(path.c_str(), path.size() + 1, requested_byte_size, byte_size, buffer);
    });
}

hipdnnStatus_t hipdnnGetTuningRecords_ext(const char* database_path, size_t requested_byte_size,
                                          size_t* byte_size, char* buffer) {
    return guardedCall(__func__, [&] {
        requireNotNull(byte_size, "byte_size");
        const std::vector<tuning::TuningRecord> records =
            database_path == nullptr ? readCurrentFile(*currentDatabase()) : readNamedFile(database_path);
        std::string text;
        for (const auto& record : records) {
            text += tuning::toJsonLine(record);
            text += '\n';
        }
        writeBytes(text.c_str(), text.size() + 1, requested_byte_size, byte_size, buffer);
    });
}

hipdnnStatus_t hipdnnMergeTuningDatabases_ext(size_t num_paths, const char* const* database_paths,
                                              size_t* merged_count) {
    return guardedCall(__func__, [&] {
        if (num_paths > 0) {
            requireNotNull(database_paths, "database_paths");
        }
        // Every file is read and checked before the database changes.
        std::vector<std::pair<std::string, std::vector<tuning::TuningRecord>>> sources;
        for (size_t index = 0; index < num_paths; ++index) {
            if (database_paths[index] == nullptr) {
                throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                                      fmt::format("database_paths[{}] is null", index));
            }
            // The file's name, not its path: records stay free of absolute paths and portable.
            const std::string provenance = std::filesystem::path(database_paths[index]).filename().string();
            sources.emplace_back(provenance, readNamedFile(database_paths[index]));
        }
        const auto database = currentDatabase();
        size_t taken = 0;
        std::vector<std::string> dropped;
        try {
            dropped = database->rewrite([&](std::vector<tuning::TuningRecord>& records) {
                taken = 0;  // the edit runs once, but on what is on disk under the lock
                for (const auto& [provenance, incoming] : sources) {
                    taken += tuning::mergeRecords(records, incoming, provenance);
                }
            });
        } catch (const std::runtime_error& error) {
            rethrowWriteFailure(error);
        }
        if (!dropped.empty()) {
            HIPDNN_LOG_WARN("tuning database {}; the merge dropped those lines",
                            tuning::summarizeProblems(dropped));
        }
        if (merged_count != nullptr) {
            *merged_count = taken;
        }
    });
}

hipdnnStatus_t hipdnnPruneTuningDatabase_ext(hipdnnHandle_t handle, size_t* removed_count) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        const auto state = lookupHandle(handle);
        const auto& database = state->tuningDatabase();
        if (!database) {
            throw HipdnnException(
                HIPDNN_STATUS_NOT_SUPPORTED,
                "The handle has no tuning database: it was created with HIPDNN_DISABLE_CACHE set, "
                "or with no HIPDNN_CACHE_DIR, XDG_CACHE_HOME or HOME");
        }
        std::vector<tuning::PluginIdentity> loaded;
        for (const auto& plugin : state->pluginSet().plugins()) {
            loaded.push_back({plugin->name(), plugin->version(), plugin->libraryVersions()});
        }
        std::vector<std::string> stale;
        std::vector<std::string> malformed;
        try {
            malformed = database->rewrite([&](std::vector<tuning::TuningRecord>& records) {
                stale = tuning::pruneRecords(records, state->deviceFingerprint(), loaded);
            });
        } catch (const std::runtime_error& error) {
            rethrowWriteFailure(error);
        }
        for (const auto& reason : stale) {
            HIPDNN_LOG_INFO("tuning database {}: pruned {}", database->file().string(), reason);
        }
        for (const auto& problem : malformed) {
            HIPDNN_LOG_INFO("tuning database {}: pruned (malformed)", problem);
        }
        if (removed_count != nullptr) {
            *removed_count = stale.size() + malformed.size();
        }
    });
}

hipdnnStatus_t hipdnnExportTuningDatabase_ext(const char* path, size_t* exported_count) {
    return guardedCall(__func__, [&] {
        requireNotNull(path, "path");
        const std::filesystem::path target(path);
        std::error_code error;
        const auto directory = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
        if (!std::filesystem::is_directory(directory, error)) {
            throw HipdnnException(
                HIPDNN_STATUS_BAD_PARAM,
                fmt::format("Cannot export the tuning database to {}: the directory {} does "
                            "not exist",
                            target.string(), directory.string()));
        }
        if (std::filesystem::is_directory(target, error)) {
            throw HipdnnException(
                HIPDNN_STATUS_BAD_PARAM,
                fmt::format("Cannot export the tuning database to {}: it is a directory", target.string()));
        }
        const auto records = readCurrentFile(*currentDatabase());
        try {
            tuning::writeDatabaseFile(target, records);
        } catch (const std::runtime_error& error) {
            rethrowWriteFailure(error);
        }
        if (exported_count != nullptr) {
            *exported_count = records.size();
        }
    });
}

}  // extern "C"
