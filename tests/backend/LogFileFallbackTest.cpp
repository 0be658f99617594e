// HIPDNN_LOG_FILE in a directory that does not exist: the backend creates no directory, says
// once on standard error that the file cannot be opened, and logs to standard error instead. The
// variables are set before main, before the backend reads them (once per process).
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;
namespace fs = std::filesystem;

namespace {

const fs::path kMissingDirectory = fs::path(HIPDNN_TEST_SCRATCH_DIR) / "missing_dir";
const fs::path kLogFile = kMissingDirectory / "log.txt";

const bool kEnvironmentSet = [] {
    fs::remove_all(kMissingDirectory);
    fs::create_directories(HIPDNN_TEST_SCRATCH_DIR);
    setenv("HIPDNN_LOG_LEVEL", "info", 1);
    setenv("HIPDNN_LOG_FILE", kLogFile.c_str(), 1);
    return true;
}();

// Runs `body` with standard error redirected to a file and returns what was written.
template <class Body>
std::string captureStandardError(Body&& body) {
    const fs::path captured = fs::path(HIPDNN_TEST_SCRATCH_DIR) / "stderr.txt";
    fflush(stderr);
    const int saved = dup(STDERR_FILENO);
    const int file = open(captured.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(file, STDERR_FILENO);
    close(file);
    body();
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    std::ifstream in(captured);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

size_t occurrences(const std::string& text, const std::string& part) {
    size_t count = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) {
        ++count;
    }
    return count;
}

TEST(LogFile, AFileInAMissingDirectoryFallsBackToStandardErrorWithoutCreatingIt) {
    ASSERT_TRUE(kEnvironmentSet);
    const std::string written = captureStandardError([] {
        EXPECT_EQ(hipdnnCreate(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
        EXPECT_EQ(hipdnnCreate(nullptr), HIPDNN_STATUS_BAD_PARAM_NULL_POINTER);
    });
    EXPECT_FALSE(fs::exists(kMissingDirectory)) << "the backend created " << kMissingDirectory;
    const std::string notice = "Cannot open HIPDNN_LOG_FILE [" + kLogFile.string() +
                               "]: No such file or directory; logging to stderr";
    EXPECT_EQ(occurrences(written, notice), 1u) << written;
    EXPECT_EQ(occurrences(written, "API failure: [hipdnnCreate] HIPDNN_STATUS_BAD_PARAM_NULL_POINTER"), 2u)
        << written;
    EXPECT_LT(written.find(notice), written.find("API called: [hipdnnCreate]")) << written;
}

}  // namespace
