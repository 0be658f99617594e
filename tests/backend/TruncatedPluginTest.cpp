// A half-installed plugin (a truncated copy of a real one) is logged and skipped before dlopen
// maps it: without the check the loader touches pages past the end of the file and the process
// dies of SIGBUS.
#include <filesystem>
#include <fstream>
#include <iterator>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;
namespace fs = std::filesystem;

namespace {

void writePrefix(const fs::path& source, const fs::path& target, size_t length) {
    std::ifstream in(source, std::ios::binary);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    ASSERT_LT(length, bytes.size());
    std::ofstream(target, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(length));
}

TEST(PluginFile, TruncatedPluginsAreLoggedAndSkippedNextToAValidOne) {
    const fs::path directory = fs::path(HIPDNN_TEST_SCRATCH_DIR) / "truncated";
    fs::remove_all(directory);
    fs::create_directories(directory);
    const fs::path source = pluginFile("knobs", "fake_knobs");
    fs::copy_file(pluginFile("good_cpu", "fake_good_cpu"), directory / "libgood.so");
    writePrefix(source, directory / "libtruncated_4k.so", 4096);
    writePrefix(source, directory / "libtruncated_half.so", fs::file_size(source) / 2);
    std::ofstream(directory / "libnot_elf.so") << std::string(200, '#') << "\nnot a shared object\n";

    LogCapture log;
    usePluginPaths({directory.string()});
    hipdnnHandle_t handle = createCpuHandle();
    ASSERT_NE(handle, nullptr);
    const std::string prefix = "Error loading plugin from [" + fs::canonical(directory).string();
    EXPECT_TRUE(log.contains(prefix + "/libtruncated_4k.so]: not a complete ELF shared object: "))
        << log.all();
    EXPECT_TRUE(log.contains("the file is 4096 bytes")) << log.all();
    EXPECT_TRUE(log.contains(prefix + "/libtruncated_half.so]: not a complete ELF shared object: "))
        << log.all();
    EXPECT_TRUE(log.contains("the file is " + std::to_string(fs::file_size(source) / 2) + " bytes"))
        << log.all();
    EXPECT_TRUE(log.contains(prefix + "/libnot_elf.so]: not a complete ELF shared object: not an ELF file"))
        << log.all();

    EXPECT_EQ(loadedPluginPaths(handle),
              std::vector<std::string>{fs::canonical(directory / "libgood.so").string()});
    int64_t id = 0;
    EXPECT_EQ(hipdnnGetEngineIdByName_ext(handle, "FAKE_KNOB_ENGINE", &id), HIPDNN_STATUS_NOT_SUPPORTED);
    hipdnnBackendDescriptor_t graph = finalizedGraph(handle, makeGraph());
    hipdnnBackendDescriptor_t heuristic = finalizedHeuristic(graph);
    EXPECT_EQ(rankedEngineIds(heuristic), std::vector<int64_t>{engineIdOf("FAKE_CPU_RELU_ENGINE")});
    hipdnnBackendDestroyDescriptor(heuristic);
    hipdnnBackendDestroyDescriptor(graph);
    EXPECT_EQ(hipdnnDestroy(handle), HIPDNN_STATUS_SUCCESS);
}

}  // namespace
