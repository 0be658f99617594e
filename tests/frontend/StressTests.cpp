// Eight threads drive the backend at once on the CPU reference plugin: six create and destroy
// handles and build (heuristics, engine config, plan) and execute convolutions, one keeps
// changing the plugin paths under their live handles, one adds, changes and removes user log
// callbacks while the others log at INFO. Built under ThreadSanitizer (the tsan preset), this is
// the race test; in the other builds it checks that the results stay right.
#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>
#include <hipdnn_test_sdk/references/References.hpp>

#include <atomic>
#include <filesystem>
#include <memory>
#include <thread>

#include "FrontendTestUtils.hpp"

using namespace hipdnn_frontend_tests;
namespace refs = hipdnn_test_sdk::references;
namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

namespace {

constexpr int kWorkerThreads = 6;
constexpr int kIterationsPerWorker = 12;

const std::vector<int64_t> kInputDims{1, 2, 5, 5};
const std::vector<int64_t> kFilterDims{3, 2, 3, 3};
const std::vector<int64_t> kOutputDims{1, 3, 5, 5};

std::vector<float> ramp(size_t count, float scale) {
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i) {
        values[i] = scale * static_cast<float>(static_cast<int>(i % 7) - 3);
    }
    return values;
}

size_t elementCount(const std::vector<int64_t>& dims) {
    return static_cast<size_t>(hipdnn_data_sdk::utilities::storageElementCount(dims, nchwStrides(dims)));
}

struct Problem {
    std::vector<float> x = ramp(elementCount(kInputDims), 0.25f);
    std::vector<float> w = ramp(elementCount(kFilterDims), 0.5f);
    std::vector<float> expected = std::vector<float>(elementCount(kOutputDims));

    Problem() {
        refs::convolutionFprop<float>(
            refs::TensorView<const float>{x.data(), kInputDims, nchwStrides(kInputDims)},
            refs::TensorView<const float>{w.data(), kFilterDims, nchwStrides(kFilterDims)},
            refs::TensorView<float>{expected.data(), kOutputDims, nchwStrides(kOutputDims)},
            refs::ConvolutionParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    }
};

// One handle, one plan, one execution; an empty string when all went right, else what failed.
std::string buildAndExecuteOnNewHandle(const Problem& problem) {
    hipdnnHandle_t raw = nullptr;
    if (hipdnnCreateForDevice_ext(&raw, HIPDNN_DEVICE_TYPE_CPU_EXT, 0) != HIPDNN_STATUS_SUCCESS) {
        return "hipdnnCreateForDevice_ext failed";
    }
    std::unique_ptr<hipdnnHandle, decltype(&hipdnnDestroy)> handle(raw, hipdnnDestroy);
    Graph graph = floatGraph("stress_conv");
    graph.set_preferred_engine_id_ext(std::string("CPU_REFERENCE_ENGINE"));
    auto x = input(graph, "x", kInputDims);
    auto w = input(graph, "w", kFilterDims);
    auto y = graph.conv_fprop(x, w, conv3x3());
    y->set_output(true);
    if (auto error = graph.build(raw); !error.is_good()) {
        return "build: " + error.message;
    }
    std::vector<float> xs = problem.x;
    std::vector<float> ws = problem.w;
    std::vector<float> ys(problem.expected.size());
    std::unordered_map<TensorPtr, void*> pack{{x, xs.data()}, {w, ws.data()}, {y, ys.data()}};
    std::vector<uint8_t> workspace(static_cast<size_t>(graph.get_workspace_size()));
    if (auto error = graph.execute(raw, pack, workspace.empty() ? nullptr : workspace.data());
        !error.is_good()) {
        return "execute: " + error.message;
    }
    const auto report = hipdnn_test_sdk::allClose(
        {fbs::DataType::FLOAT, problem.expected.data(), kOutputDims, nchwStrides(kOutputDims)},
        {fbs::DataType::FLOAT, ys.data(), kOutputDims, nchwStrides(kOutputDims)},
        hipdnn_test_sdk::fixedTolerance(hipdnn_test_sdk::ToleranceOp::ConvolutionFwd, fbs::DataType::FLOAT));
    return report.passed ? std::string() : "result: " + report.describe();
}

void countMessage(hipdnnUserLogCallbackHandle_t counter, hipdnnSeverity_t, const char*) {
    static_cast<std::atomic<int64_t>*>(counter)->fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

TEST(FrontendStress, EightThreadsShareTheBackendWhilePluginPathsAndLogCallbacksChange) {
    // Two spellings of the same plugin: each switch is a new configuration, so the manager
    // releases its set while the workers' handles keep theirs.
    const std::string plugin = HIPDNN_TEST_CPU_REFERENCE_PLUGIN;
    const std::filesystem::path pluginPath(plugin);
    const std::string respelled =
        (pluginPath.parent_path() / ".." / pluginPath.parent_path().filename() / pluginPath.filename())
            .string();
    const char* first[] = {plugin.c_str()};
    const char* second[] = {respelled.c_str()};
    ASSERT_EQ(hipdnnSetEnginePluginPaths_ext(1, first, HIPDNN_PLUGIN_LOADING_ABSOLUTE),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO), HIPDNN_STATUS_SUCCESS);

    const Problem problem;
    std::atomic<int> workersRunning{kWorkerThreads};
    std::vector<std::string> failures(kWorkerThreads + 2);
    std::vector<std::thread> threads;
    for (int worker = 0; worker < kWorkerThreads; ++worker) {
        threads.emplace_back([&, worker] {
            for (int iteration = 0; iteration < kIterationsPerWorker && failures[worker].empty();
                 ++iteration) {
                failures[worker] = buildAndExecuteOnNewHandle(problem);
            }
            workersRunning.fetch_sub(1);
        });
    }
    int pathSwitches = 0;
    threads.emplace_back([&] {
        while (workersRunning.load() > 0) {
            const char* const* paths = pathSwitches % 2 == 0 ? second : first;
            if (hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE) !=
                HIPDNN_STATUS_SUCCESS) {
                failures[kWorkerThreads] = "hipdnnSetEnginePluginPaths_ext failed";
                return;
            }
            ++pathSwitches;
            std::this_thread::yield();
        }
    });
    std::atomic<int64_t> syncMessages{0};
    std::atomic<int64_t> asyncMessages{0};
    int callbackChanges = 0;
    threads.emplace_back([&] {
        const hipdnnSeverity_t levels[] = {HIPDNN_SEV_INFO, HIPDNN_SEV_WARN, HIPDNN_SEV_OFF};
        while (workersRunning.load() > 0) {
            const hipdnnSeverity_t level = levels[callbackChanges % 3];
            if (hipdnnSetUserLogCallback_ext(countMessage, level, HIPDNN_LOG_CALLBACK_SYNC, &syncMessages) !=
                    HIPDNN_STATUS_SUCCESS ||
                hipdnnSetUserLogCallback_ext(countMessage, level, HIPDNN_LOG_CALLBACK_ASYNC,
                                             &asyncMessages) != HIPDNN_STATUS_SUCCESS) {
                failures[kWorkerThreads + 1] = "hipdnnSetUserLogCallback_ext failed";
                return;
            }
            ++callbackChanges;
            std::this_thread::yield();
        }
        hipdnnSetUserLogCallback_ext(countMessage, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &syncMessages);
        hipdnnSetUserLogCallback_ext(countMessage, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_ASYNC, &asyncMessages);
    });
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(failures, std::vector<std::string>(kWorkerThreads + 2));
    EXPECT_GT(pathSwitches, 0);
    EXPECT_GT(callbackChanges, 0);
    EXPECT_GT(syncMessages.load(), 0);
}
