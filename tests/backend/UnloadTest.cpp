// Lazy and eager unloading, observed with dlopen(RTLD_NOLOAD).
#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

const std::string kGood = pluginFile("good_cpu", "fake_good_cpu");

TEST(PluginUnload, LazyKeepsThePluginsUntilThePathsChange) {
    ASSERT_EQ(hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_LAZY), HIPDNN_STATUS_SUCCESS);
    usePluginPaths({pluginDir("good_cpu")});
    hipdnnHandle_t handle = createCpuHandle();
    EXPECT_TRUE(isLibraryLoaded(kGood));
    hipdnnDestroy(handle);
    EXPECT_TRUE(isLibraryLoaded(kGood));
    usePluginPaths({pluginDir("knobs")});
    EXPECT_FALSE(isLibraryLoaded(kGood));
}

TEST(PluginUnload, EagerUnloadsWithTheLastHandle) {
    ASSERT_EQ(hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_EAGER), HIPDNN_STATUS_SUCCESS);
    usePluginPaths({pluginDir("good_cpu")});
    hipdnnHandle_t first = createCpuHandle();
    hipdnnHandle_t second = createCpuHandle();
    hipdnnDestroy(first);
    EXPECT_TRUE(isLibraryLoaded(kGood));
    hipdnnDestroy(second);
    EXPECT_FALSE(isLibraryLoaded(kGood));
    hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_LAZY);
}

TEST(PluginUnload, SwitchingToEagerWithoutHandlesUnloadsNow) {
    ASSERT_EQ(hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_LAZY), HIPDNN_STATUS_SUCCESS);
    usePluginPaths({pluginDir("good_cpu")});
    hipdnnDestroy(createCpuHandle());
    EXPECT_TRUE(isLibraryLoaded(kGood));
    ASSERT_EQ(hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_EAGER), HIPDNN_STATUS_SUCCESS);
    EXPECT_FALSE(isLibraryLoaded(kGood));
    hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_LAZY);
}

TEST(PluginUnload, PlansKeepTheirPluginAliveAfterTheHandleIsDestroyed) {
    ASSERT_EQ(hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_EAGER), HIPDNN_STATUS_SUCCESS);
    usePluginPaths({pluginDir("good_cpu")});
    hipdnnHandle_t handle = createCpuHandle();
    hipdnnBackendDescriptor_t graph = finalizedGraph(handle, makeGraph());
    hipdnnBackendDescriptor_t engine = finalizedEngine(graph, engineIdOf("FAKE_CPU_RELU_ENGINE"));
    hipdnnBackendDescriptor_t config = finalizedConfig(engine);
    hipdnnBackendDescriptor_t plan = finalizedPlan(config);
    ASSERT_EQ(hipdnnDestroy(handle), HIPDNN_STATUS_SUCCESS);
    EXPECT_TRUE(isLibraryLoaded(kGood));
    std::vector<float> x(8, 1.0f), y(8, 0.0f);
    hipdnnBackendDescriptor_t pack = variantPack({kInputUid, kOutputUid}, {x.data(), y.data()});
    EXPECT_EQ(hipdnnBackendExecute(handle, plan, pack), HIPDNN_STATUS_BAD_PARAM);
    for (auto descriptor : {pack, plan, config, engine, graph}) {
        EXPECT_EQ(hipdnnBackendDestroyDescriptor(descriptor), HIPDNN_STATUS_SUCCESS);
    }
    EXPECT_FALSE(isLibraryLoaded(kGood));
    hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_LAZY);
}

}  // namespace
