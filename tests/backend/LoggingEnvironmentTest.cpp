// HIPDNN_LOG_LEVEL, HIPDNN_LOG_FILE and HIPDNN_LOG_GRAPH_DIR are set before main, before the
// backend reads them (once per process, at the first log call).
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;
namespace fs = std::filesystem;

namespace {

const bool kEnvironmentSet = [] {
    const fs::path directory(HIPDNN_TEST_LOG_DIR);
    fs::create_directories(directory);  // the backend never creates the log file's directory
    setenv("HIPDNN_LOG_LEVEL", " Info ", 1);
    setenv("HIPDNN_LOG_FILE", (directory / "backend.log").c_str(), 1);
    setenv("HIPDNN_LOG_GRAPH_DIR", (directory / "graphs").c_str(), 1);
    return true;
}();

std::string readFrom(const fs::path& file, std::streamoff offset) {
    std::ifstream in(file);
    in.seekg(offset);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::streamoff sizeOf(const fs::path& file) {
    return fs::exists(file) ? static_cast<std::streamoff>(fs::file_size(file)) : 0;
}

TEST(LoggingEnvironment, LevelComesFromTheEnvironment) {
    ASSERT_TRUE(kEnvironmentSet);
    hipdnnSeverity_t level = HIPDNN_SEV_OFF;
    ASSERT_EQ(hipdnnBackendGetGlobalLogLevel_ext(&level), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(level, HIPDNN_SEV_INFO);
}

TEST(LoggingEnvironment, LinesAreAppendedToTheLogFileWithThePattern) {
    const fs::path file = fs::path(HIPDNN_TEST_LOG_DIR) / "backend.log";
    const std::streamoff before = sizeOf(file);
    EXPECT_EQ(hipdnnCreate(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    const std::string written = readFrom(file, before);
    const std::regex called(
        R"(\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] \[tid \d+\] \[info\] API called: \[hipdnnCreate\])");
    const std::regex failed(
        R"(\[tid \d+\] \[error\] API failure: \[hipdnnCreate\] HIPDNN_STATUS_BAD_PARAM_NULL_POINTER)");
    EXPECT_TRUE(std::regex_search(written, called)) << written;
    EXPECT_TRUE(std::regex_search(written, failed)) << written;
    EXPECT_EQ(hipdnnCreate(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    EXPECT_GT(sizeOf(file), static_cast<std::streamoff>(before + written.size()));  // appended, not truncated
}

TEST(LoggingEnvironment, FinalizingAGraphDumpsItAsJson) {
    usePluginPaths({pluginDir("good_cpu")});
    hipdnnHandle_t handle = createCpuHandle();
    GraphOptions options;
    options.name = "dumped_graph_marker";
    hipdnnBackendDescriptor_t graph = finalizedGraph(handle, makeGraph(options));
    const std::regex fileName(R"(graph_[0-9a-f]{16}\.json)");
    bool found = false;
    for (const auto& entry : fs::directory_iterator(fs::path(HIPDNN_TEST_LOG_DIR) / "graphs")) {
        const std::string name = entry.path().filename().string();
        EXPECT_TRUE(std::regex_match(name, fileName)) << name;
        found = found || readFrom(entry.path(), 0).find("dumped_graph_marker") != std::string::npos;
    }
    EXPECT_TRUE(found);
    hipdnnBackendDestroyDescriptor(graph);
    hipdnnDestroy(handle);
}

}  // namespace
