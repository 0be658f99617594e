// A fixture for tests of the tuning database: each test gets a cache directory of its own under
// HIPDNN_TEST_SCRATCH_DIR (its HIPDNN_CACHE_DIR) and a CPU handle on the plugins it names.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "FrontendTestUtils.hpp"

namespace hipdnn_frontend_tests {

class TuningDatabaseTest : public ::testing::Test {
protected:
    // Call from SetUp: a fresh cache directory, then a handle on exactly `plugins`.
    void startWith(const std::vector<std::string>& plugins) {
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        _cacheDir = std::filesystem::path(HIPDNN_TEST_SCRATCH_DIR) / test->name();
        std::filesystem::remove_all(_cacheDir);
        setenv("HIPDNN_CACHE_DIR", _cacheDir.c_str(), 1);
        unsetenv("HIPDNN_DISABLE_CACHE");
        std::vector<const char*> paths;
        for (const auto& plugin : plugins) {
            paths.push_back(plugin.c_str());
        }
        ASSERT_EQ(hipdnnSetEnginePluginPaths_ext(paths.size(), paths.data(), HIPDNN_PLUGIN_LOADING_ABSOLUTE),
                  HIPDNN_STATUS_SUCCESS);
        createHandle();
    }

    // The tuning database is the environment's at handle creation: a new handle reads the file,
    // as another process would.
    void createHandle() {
        hipdnnHandle_t handle = nullptr;
        ASSERT_EQ(hipdnnCreateForDevice_ext(&handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0), HIPDNN_STATUS_SUCCESS);
        _handle.reset(handle);
    }

    std::filesystem::path databaseFile() const { return _cacheDir / "tuning.jsonl"; }

    // The database's only record.
    nlohmann::json onlyRecord() const {
        std::ifstream in(databaseFile());
        std::string line;
        std::vector<nlohmann::json> records;
        while (std::getline(in, line)) {
            records.push_back(nlohmann::json::parse(line));
        }
        EXPECT_EQ(records.size(), 1u);
        return records.empty() ? nlohmann::json::object() : records.front();
    }

    void replaceOnlyRecord(const nlohmann::json& record) const {
        std::ofstream(databaseFile(), std::ios::trunc) << record.dump() << "\n";
    }

    std::filesystem::path _cacheDir;
    std::unique_ptr<hipdnnHandle, decltype(&hipdnnDestroy)> _handle{nullptr, hipdnnDestroy};
};

}  // namespace hipdnn_frontend_tests
