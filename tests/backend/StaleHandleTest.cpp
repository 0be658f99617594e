// Handles are not reusable names: a descriptor or hipdnn handle that was destroyed stays invalid
// even when a newer object is created, so a stale copy can neither destroy nor use the newer
// one. Every use of a destroyed handle is BAD_PARAM naming the handle.
#include <cstdio>

#include "BackendTestUtils.hpp"

using namespace hipdnn_backend_tests;

namespace {

std::string formatted(const void* handle) {
    char text[32];
    std::snprintf(text, sizeof(text), "%p", handle);
    return text;
}

class Handles : public ::testing::Test {
protected:
    void SetUp() override { usePluginPaths({pluginDir("good_cpu")}); }
};

TEST_F(Handles, AStaleDescriptorHandleCannotDestroyANewerDescriptor) {
    for (int round = 0; round < 16; ++round) {
        hipdnnBackendDescriptor_t first = nullptr;
        ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &first),
                  HIPDNN_STATUS_SUCCESS);
        ASSERT_EQ(hipdnnBackendDestroyDescriptor(first), HIPDNN_STATUS_SUCCESS);
        hipdnnBackendDescriptor_t second = nullptr;
        ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &second),
                  HIPDNN_STATUS_SUCCESS);
        EXPECT_NE(second, first) << "a new descriptor got the handle of a destroyed one";

        EXPECT_EQ(hipdnnBackendDestroyDescriptor(first), HIPDNN_STATUS_BAD_PARAM);
        const std::string message = lastError();
        EXPECT_NE(message.find("Descriptor " + formatted(first)), std::string::npos) << message;
        EXPECT_NE(message.find("was destroyed"), std::string::npos) << message;

        // The newer descriptor is untouched.
        void* workspace = nullptr;
        EXPECT_EQ(hipdnnBackendSetAttribute(second, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR,
                                            1, &workspace),
                  HIPDNN_STATUS_SUCCESS)
            << lastError();
        EXPECT_EQ(hipdnnBackendFinalize(second), HIPDNN_STATUS_SUCCESS) << lastError();
        EXPECT_EQ(hipdnnBackendDestroyDescriptor(second), HIPDNN_STATUS_SUCCESS);
    }
}

TEST_F(Handles, EveryUseOfADestroyedDescriptorNamesIt) {
    hipdnnBackendDescriptor_t pack = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack),
              HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendDestroyDescriptor(pack), HIPDNN_STATUS_SUCCESS);
    const std::string name = "Descriptor " + formatted(pack);
    void* workspace = nullptr;
    EXPECT_EQ(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1,
                                        &workspace),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find(name), std::string::npos);
    int64_t count = 0;
    EXPECT_EQ(hipdnnBackendGetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1,
                                        &count, &workspace),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find(name), std::string::npos);
    EXPECT_EQ(hipdnnBackendFinalize(pack), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find(name), std::string::npos);

    // As an element of another descriptor's attribute.
    hipdnnHandle_t handle = createCpuHandle();
    hipdnnBackendDescriptor_t graph = finalizedGraph(handle, makeGraph());
    ASSERT_EQ(hipdnnBackendDestroyDescriptor(graph), HIPDNN_STATUS_SUCCESS);
    hipdnnBackendDescriptor_t engine = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &engine),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("Descriptor " + formatted(graph)), std::string::npos);
    hipdnnBackendDestroyDescriptor(engine);
    hipdnnDestroy(handle);
}

TEST_F(Handles, AStaleHipdnnHandleCannotDestroyANewerHandle) {
    for (int round = 0; round < 8; ++round) {
        hipdnnHandle_t first = createCpuHandle();
        ASSERT_EQ(hipdnnDestroy(first), HIPDNN_STATUS_SUCCESS);
        hipdnnHandle_t second = createCpuHandle();
        EXPECT_NE(second, first) << "a new handle got the value of a destroyed one";

        EXPECT_EQ(hipdnnDestroy(first), HIPDNN_STATUS_BAD_PARAM);
        const std::string message = lastError();
        EXPECT_NE(message.find("Handle " + formatted(first)), std::string::npos) << message;
        EXPECT_NE(message.find("was destroyed"), std::string::npos) << message;
        hipdnnStream_t stream = nullptr;
        EXPECT_EQ(hipdnnGetStream(first, &stream), HIPDNN_STATUS_BAD_PARAM);
        EXPECT_NE(lastError().find("Handle " + formatted(first)), std::string::npos);

        // The newer handle still works.
        hipdnnDeviceType_ext_t type = HIPDNN_DEVICE_TYPE_GPU_EXT;
        int ordinal = -1;
        EXPECT_EQ(hipdnnGetDevice_ext(second, &type, &ordinal), HIPDNN_STATUS_SUCCESS) << lastError();
        hipdnnBackendDescriptor_t graph = finalizedGraph(second, makeGraph());
        hipdnnBackendDestroyDescriptor(graph);
        EXPECT_EQ(hipdnnDestroy(second), HIPDNN_STATUS_SUCCESS);
    }
}

TEST_F(Handles, ADescriptorIsNotAHandleAndAHandleIsNotADescriptor) {
    hipdnnHandle_t handle = createCpuHandle();
    hipdnnBackendDescriptor_t pack = nullptr;
    ASSERT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnDestroy(reinterpret_cast<hipdnnHandle_t>(pack)), HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("not a live hipdnn handle"), std::string::npos);
    EXPECT_EQ(hipdnnBackendDestroyDescriptor(reinterpret_cast<hipdnnBackendDescriptor_t>(handle)),
              HIPDNN_STATUS_BAD_PARAM);
    EXPECT_NE(lastError().find("not a live hipdnn descriptor"), std::string::npos);
    EXPECT_EQ(hipdnnBackendDestroyDescriptor(pack), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnDestroy(handle), HIPDNN_STATUS_SUCCESS);
}

}  // namespace
