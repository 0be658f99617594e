#include "tuning/TuningRegistry.hpp"

#include <map>
#include <mutex>

#include <hipdnn_data_sdk/utilities/CacheDirectory.hpp>

#include "logging/Logger.hpp"

namespace hipdnn_backend::tuning {

std::shared_ptr<TuningDatabase> sharedDatabase(const std::filesystem::path& file) {
    static std::mutex mutex;
    static std::map<std::filesystem::path, std::shared_ptr<TuningDatabase>> databases;
    const std::lock_guard lock(mutex);
    auto& database = databases[file];
    if (!database) {
        database = std::make_shared<TuningDatabase>(
            file, [](const std::string& message) { HIPDNN_LOG_WARN("{}", message); });
    }
    return database;
}

std::shared_ptr<TuningDatabase> databaseFromEnvironment() {
    const auto directory = hipdnn_data_sdk::utilities::cacheDirectoryFromEnvironment();
    if (!directory) {
        return nullptr;
    }
    return sharedDatabase(*directory / "tuning.jsonl");
}

}  // namespace hipdnn_backend::tuning
