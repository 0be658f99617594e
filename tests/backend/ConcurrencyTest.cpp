// Several threads, each with its own handle, build and execute plans at the same time.
#include <thread>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

TEST(Concurrency, ThreadsWithTheirOwnHandlesBuildAndExecutePlans) {
    usePluginPaths({pluginDir("good_cpu"), pluginDir("knobs")});
    constexpr int kThreads = 8;
    constexpr int kIterations = 25;
    std::vector<int> failures(kThreads, 0);
    std::vector<std::thread> threads;
    for (int thread = 0; thread < kThreads; ++thread) {
        threads.emplace_back([thread, &failures] {
            hipdnnHandle_t handle = nullptr;
            if (hipdnnCreateForDevice_ext(&handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0) != HIPDNN_STATUS_SUCCESS) {
                ++failures[thread];
                return;
            }
            for (int iteration = 0; iteration < kIterations; ++iteration) {
                hipdnnBackendDescriptor_t graph = finalizedGraph(handle, makeGraph());
                hipdnnBackendDescriptor_t heuristic = finalizedHeuristic(graph);
                hipdnnBackendDescriptor_t config = nullptr;
                hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &config);
                int64_t count = 0;
                hipdnnBackendGetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                          HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &count, &config);
                hipdnnBackendFinalize(config);
                hipdnnBackendDescriptor_t plan = finalizedPlan(config);
                std::vector<float> x(8), y(8, 0);
                for (int i = 0; i < 8; ++i) {
                    x[i] = static_cast<float>((i % 2 == 0 ? -1 : 1) * (thread + iteration + i));
                }
                hipdnnBackendDescriptor_t pack = variantPack({kInputUid, kOutputUid}, {x.data(), y.data()});
                if (hipdnnBackendExecute(handle, plan, pack) != HIPDNN_STATUS_SUCCESS) {
                    ++failures[thread];
                }
                for (int i = 0; i < 8; ++i) {
                    if (y[i] != std::max(x[i], 0.0f)) {
                        ++failures[thread];
                    }
                }
                for (auto descriptor : {pack, plan, config, heuristic, graph}) {
                    hipdnnBackendDestroyDescriptor(descriptor);
                }
            }
            hipdnnDestroy(handle);
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(failures, std::vector<int>(kThreads, 0));
}

}  // namespace
