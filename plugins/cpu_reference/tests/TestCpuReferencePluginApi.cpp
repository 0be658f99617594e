// Loads the built plugin with dlopen(RTLD_NOW | RTLD_LOCAL), as the backend does, and checks
// what it exports and answers.
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

using hipdnn_flatbuffers_sdk::data_objects::DataType;
using hipdnn_flatbuffers_sdk::data_objects::PointwiseMode;

class TestCpuReferencePluginApi : public ::testing::Test {
protected:
    void SetUp() override {
        library = dlopen(CPU_REFERENCE_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
        ASSERT_NE(library, nullptr) << dlerror();
    }
    void TearDown() override {
        if (library != nullptr) {
            dlclose(library);
        }
    }

    template <class Function>
    Function symbol(const char* name) {
        auto* found = reinterpret_cast<Function>(dlsym(library, name));
        EXPECT_NE(found, nullptr) << name << " is not exported";
        return found;
    }

    void* library = nullptr;
};

TEST_F(TestCpuReferencePluginApi, IdentifiesItselfAsACpuEnginePlugin) {
    const char* name = nullptr;
    ASSERT_EQ(symbol<decltype(&hipdnnPluginGetName)>("hipdnnPluginGetName")(&name),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(name, "cpu_reference");
    hipdnnPluginType_t type{};
    ASSERT_EQ(symbol<decltype(&hipdnnPluginGetType)>("hipdnnPluginGetType")(&type),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(type, HIPDNN_PLUGIN_TYPE_ENGINE);
    hipdnnDeviceType_ext_t device{};
    ASSERT_EQ(symbol<decltype(&hipdnnEnginePluginGetDeviceType_ext)>("hipdnnEnginePluginGetDeviceType_ext")(
                  &device),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(device, HIPDNN_DEVICE_TYPE_CPU_EXT);

    int64_t ids[4] = {};
    uint32_t count = 0;
    ASSERT_EQ(symbol<decltype(&hipdnnEnginePluginGetAllEngineIds)>("hipdnnEnginePluginGetAllEngineIds")(
                  ids, 4, &count),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(count, 1u);
    EXPECT_EQ(ids[0], hipdnn_data_sdk::utilities::CPU_REFERENCE_ENGINE_ID);
}

TEST_F(TestCpuReferencePluginApi, ExportsNoInternalSymbols) {
    // The test SDK is linked statically and hidden: none of its symbols may leak.
    EXPECT_EQ(dlsym(library, "_ZN15hipdnn_test_sdk13globalTestSeedEv"), nullptr);
    const std::string command = std::string("nm -D --defined-only ") + CPU_REFERENCE_PLUGIN_PATH +
                                " | awk '$2 == \"T\" || $2 == \"W\" {print $3}'";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    ASSERT_NE(pipe, nullptr);
    char line[512];
    int exported = 0;
    while (fgets(line, sizeof(line), pipe.get()) != nullptr) {
        const std::string name(line);
        ++exported;
        EXPECT_EQ(name.rfind("hipdnn", 0), 0u) << "unexpected exported symbol " << name;
    }
    EXPECT_GE(exported, 16);
}

TEST_F(TestCpuReferencePluginApi, ReportsApplicabilityAndDeclineReasons) {
    auto create = symbol<decltype(&hipdnnEnginePluginCreate)>("hipdnnEnginePluginCreate");
    auto destroy = symbol<decltype(&hipdnnEnginePluginDestroy)>("hipdnnEnginePluginDestroy");
    auto applicable = symbol<decltype(&hipdnnEnginePluginGetApplicableEngineIds)>(
        "hipdnnEnginePluginGetApplicableEngineIds");
    auto lastError = symbol<decltype(&hipdnnPluginGetLastErrorString)>("hipdnnPluginGetLastErrorString");

    hipdnnEnginePluginHandle_t handle = nullptr;
    ASSERT_EQ(create(&handle), HIPDNN_PLUGIN_STATUS_SUCCESS);

    auto graphOf = [](DataType type) {
        return hipdnn_test_sdk::GraphBuilder("sigmoid")
            .addTensor(1, "x", type, {8})
            .addTensor(2, "y", type, {8})
            .addPointwise("sigmoid", PointwiseMode::SIGMOID_FWD, 1, 2)
            .build();
    };
    int64_t ids[2] = {};
    uint32_t count = 0;
    const auto good = graphOf(DataType::HALF);
    const hipdnnPluginConstData_t goodData{good.data(), good.size()};
    ASSERT_EQ(applicable(handle, &goodData, ids, 2, &count), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(count, 1u);

    const auto bad = graphOf(DataType::INT8);
    const hipdnnPluginConstData_t badData{bad.data(), bad.size()};
    ASSERT_EQ(applicable(handle, &badData, ids, 2, &count), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(count, 0u);
    const char* reason = nullptr;
    lastError(&reason);
    ASSERT_NE(reason, nullptr);
    EXPECT_NE(std::string(reason).find("CPU_REFERENCE_ENGINE: node 0 'sigmoid' (PointwiseAttributes)"),
              std::string::npos)
        << reason;
    EXPECT_EQ(destroy(handle), HIPDNN_PLUGIN_STATUS_SUCCESS);
}

// Graphs that break the graph contract are refused before any engine sees them (BAD_PARAM with
// the FlatBuffers SDK's message): an output whose strides make elements overlap used to be
// planned and run, with a tensor no node uses it was accepted too.
TEST_F(TestCpuReferencePluginApi, RefusesGraphsThatBreakTheGraphContract) {
    auto create = symbol<decltype(&hipdnnEnginePluginCreate)>("hipdnnEnginePluginCreate");
    auto destroy = symbol<decltype(&hipdnnEnginePluginDestroy)>("hipdnnEnginePluginDestroy");
    auto applicable = symbol<decltype(&hipdnnEnginePluginGetApplicableEngineIds)>(
        "hipdnnEnginePluginGetApplicableEngineIds");
    auto lastError = symbol<decltype(&hipdnnPluginGetLastErrorString)>("hipdnnPluginGetLastErrorString");
    hipdnnEnginePluginHandle_t handle = nullptr;
    ASSERT_EQ(create(&handle), HIPDNN_PLUGIN_STATUS_SUCCESS);

    const auto expectRefused = [&](const std::vector<uint8_t>& graph, const std::string& message) {
        int64_t ids[2] = {};
        uint32_t count = 0;
        const hipdnnPluginConstData_t data{graph.data(), graph.size()};
        EXPECT_EQ(applicable(handle, &data, ids, 2, &count), HIPDNN_PLUGIN_STATUS_BAD_PARAM) << message;
        EXPECT_EQ(count, 0u);
        const char* reason = nullptr;
        lastError(&reason);
        ASSERT_NE(reason, nullptr);
        EXPECT_NE(std::string(reason).find(message), std::string::npos) << reason;
    };
    expectRefused(hipdnn_test_sdk::GraphBuilder("overlap")
                      .addTensor(1, "x", DataType::FLOAT, {2, 2})
                      .addTensor(2, "y", DataType::FLOAT, {2, 2}, {0, 0})
                      .addPointwise("relu", PointwiseMode::RELU_FWD, 1, 2)
                      .build(),
                  "output tensor uid 2 'y' has dims [2, 2] strides [0, 0], whose elements overlap");
    expectRefused(hipdnn_test_sdk::GraphBuilder("unused")
                      .addTensor(1, "x", DataType::FLOAT, {4})
                      .addTensor(2, "y", DataType::FLOAT, {4})
                      .addTensor(3, "spare", DataType::FLOAT, {4})
                      .addPointwise("relu", PointwiseMode::RELU_FWD, 1, 2)
                      .build(),
                  "tensor uid 3 'spare' is not used by any node");
    expectRefused(hipdnn_test_sdk::GraphBuilder("nothing").build(), "graph 'nothing' has no nodes");
    EXPECT_EQ(destroy(handle), HIPDNN_PLUGIN_STATUS_SUCCESS);
}

}  // namespace
