// Drives the test plugin (built from EnginePluginImpl.inl) through its C exports only.
#include "PluginLibrary.hpp"
#include "TestHelpers.hpp"

#include <hipdnn_flatbuffers_sdk/data_objects/engine_details_generated.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/SerializedPlan.hpp>
#include <hipdnn_plugin_sdk/GraphContextSerialization.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace plugin_sdk_test {
namespace {

using hipdnn_data_sdk::utilities::engineNameToId;
using hipdnn_flatbuffers_sdk::KnobSetting;
using hipdnn_flatbuffers_sdk::makeEngineConfig;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const int64_t kScaleEngineId = engineNameToId("SDK_TEST_SCALE_ENGINE");
const int64_t kBuilderEngineId = engineNameToId("SDK_TEST_BUILDER_ENGINE");
const int64_t kFaultyEngineId = engineNameToId("SDK_TEST_FAULTY_ENGINE");

hipdnnPluginConstData_t view(const std::vector<uint8_t>& bytes) {
    return {bytes.data(), bytes.size()};
}

/// What hipdnnEnginePluginSerializeExecutionContext returns for `payload`, the engine's own bytes.
std::vector<uint8_t> serializedPlan(
    int64_t engineId, const std::vector<uint8_t>& payload,
    uint32_t version = hipdnn_flatbuffers_sdk::kSerializedExecutionPlanVersion) {
    flatbuffers::FlatBufferBuilder builder;
    builder.Finish(
        fb::CreateSerializedExecutionPlanDirect(builder, version, engineId, 0, nullptr, nullptr, &payload));
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

class EnginePluginImplTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        library = std::make_unique<PluginLibrary>(SDK_TEST_PLUGIN_PATH);
        api = std::make_unique<PluginApi>(*library);
    }
    static void TearDownTestSuite() {
        api.reset();
        library.reset();
    }

    void SetUp() override {
        ASSERT_EQ(api->hipdnnEnginePluginCreate(&handle), HIPDNN_PLUGIN_STATUS_SUCCESS) << api->lastError();
        ASSERT_NE(handle, nullptr);
    }
    void TearDown() override {
        EXPECT_EQ(api->hipdnnEnginePluginDestroy(handle), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }

    hipdnnPluginStatus_t workspaceSize(const std::vector<uint8_t>& config, const std::vector<uint8_t>& graph,
                                       size_t& size) const {
        const hipdnnPluginConstData_t configData = view(config);
        const hipdnnPluginConstData_t graphData = view(graph);
        return api->hipdnnEnginePluginGetWorkspaceSize(handle, &configData, &graphData, &size);
    }

    hipdnnPluginStatus_t createContext(const std::vector<uint8_t>& config, const std::vector<uint8_t>& graph,
                                       hipdnnEnginePluginExecutionContext_t& context) const {
        const hipdnnPluginConstData_t configData = view(config);
        const hipdnnPluginConstData_t graphData = view(graph);
        return api->hipdnnEnginePluginCreateExecutionContext(handle, &configData, &graphData, &context);
    }

    std::vector<int64_t> applicableIds(const std::vector<uint8_t>& graph) const {
        const hipdnnPluginConstData_t graphData = view(graph);
        std::vector<int64_t> ids(8, 0);
        uint32_t count = 0;
        EXPECT_EQ(api->hipdnnEnginePluginGetApplicableEngineIds(handle, &graphData, ids.data(),
                                                                static_cast<uint32_t>(ids.size()), &count),
                  HIPDNN_PLUGIN_STATUS_SUCCESS);
        ids.resize(count);
        return ids;
    }

    static inline std::unique_ptr<PluginLibrary> library;
    static inline std::unique_ptr<PluginApi> api;
    hipdnnEnginePluginHandle_t handle = nullptr;
    const std::vector<uint8_t> identityGraph = makeUnaryPointwiseGraph(fb::PointwiseMode::IDENTITY, "unary");
};

TEST_F(EnginePluginImplTest, ReportsPluginIdentity) {
    const char* text = nullptr;
    ASSERT_EQ(api->hipdnnPluginGetName(&text), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(text, "sdk_test_plugin");
    ASSERT_EQ(api->hipdnnPluginGetVersion(&text), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(text, "1.2.3");
    ASSERT_EQ(api->hipdnnPluginGetApiVersion(&text), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(text, HIPDNN_ENGINE_API_VERSION_STRING);
    EXPECT_STREQ(text, "1.5.0");
    hipdnnPluginType_t type = HIPDNN_PLUGIN_TYPE_UNSPECIFIED;
    ASSERT_EQ(api->hipdnnPluginGetType(&type), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(type, HIPDNN_PLUGIN_TYPE_ENGINE);
    hipdnnDeviceType_ext_t device = HIPDNN_DEVICE_TYPE_GPU_EXT;
    ASSERT_EQ(api->hipdnnEnginePluginGetDeviceType_ext(&device), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(device, HIPDNN_DEVICE_TYPE_CPU_EXT);
    ASSERT_EQ(api->hipdnnEnginePluginGetLibraryVersions_ext(&text), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(text, "testlib 4.5.6");
    EXPECT_EQ(api->lastError(), "");
}

TEST_F(EnginePluginImplTest, NullOutputPointersAreBadParamNamingTheParameter) {
    EXPECT_EQ(api->hipdnnPluginGetName(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(api->lastError(), "hipdnnPluginGetName: name is null");
    EXPECT_EQ(api->hipdnnPluginGetVersion(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("version is null"));
    EXPECT_EQ(api->hipdnnPluginGetType(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("type is null"));
    EXPECT_EQ(api->hipdnnPluginGetApiVersion(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(api->hipdnnEnginePluginGetDeviceType_ext(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("device_type is null"));
    EXPECT_EQ(api->hipdnnEnginePluginGetLibraryVersions_ext(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("versions is null"));
    EXPECT_EQ(api->hipdnnEnginePluginCreate(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(api->hipdnnEnginePluginDestroy(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(api->lastError(), "hipdnnEnginePluginDestroy: handle is null");
    EXPECT_EQ(api->hipdnnEnginePluginSetStream(nullptr, nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);

    const hipdnnPluginConstData_t graph = view(identityGraph);
    uint32_t count = 0;
    int64_t id = 0;
    EXPECT_EQ(api->hipdnnEnginePluginGetApplicableEngineIds(handle, nullptr, &id, 1, &count),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("op_graph is null"));
    EXPECT_EQ(api->hipdnnEnginePluginGetApplicableEngineIds(handle, &graph, nullptr, 1, &count),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("engine_ids is null"));
    EXPECT_EQ(api->hipdnnEnginePluginGetApplicableEngineIds(handle, &graph, &id, 1, nullptr),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("num_engines is null"));
    const hipdnnPluginConstData_t nullData{nullptr, 4};
    EXPECT_EQ(api->hipdnnEnginePluginGetApplicableEngineIds(handle, &nullData, &id, 1, &count),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("op_graph->ptr is null"));

    EXPECT_EQ(api->hipdnnEnginePluginGetEngineDetails(handle, kScaleEngineId, &graph, nullptr),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("engine_details is null"));
    EXPECT_EQ(api->hipdnnEnginePluginDestroyEngineDetails(handle, nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    size_t size = 0;
    EXPECT_EQ(api->hipdnnEnginePluginGetWorkspaceSize(handle, nullptr, &graph, &size),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("engine_config is null"));
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    EXPECT_EQ(api->hipdnnEnginePluginCreateExecutionContext(handle, nullptr, &graph, &context),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(api->hipdnnEnginePluginDestroyExecutionContext(handle, nullptr),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("execution_context is null"));
    EXPECT_EQ(api->hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(handle, nullptr, &size),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(api->hipdnnEnginePluginExecuteOpGraph(handle, nullptr, nullptr, nullptr, 0),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(api->hipdnnEnginePluginSerializeExecutionContext(handle, nullptr, nullptr),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(api->hipdnnEnginePluginDestroySerializedExecutionContext(handle, nullptr),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(api->hipdnnEnginePluginCreateExecutionContextFromSerialized(handle, nullptr, &context),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("serialized is null"));
    EXPECT_EQ(api->hipdnnEnginePluginGetEngineName(kScaleEngineId, nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("name is null"));
    EXPECT_EQ(api->hipdnnEnginePluginGetAllEngineIds(nullptr, 0, nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("num_engines is null"));
}

TEST_F(EnginePluginImplTest, SuccessClearsTheLastError) {
    EXPECT_EQ(api->hipdnnPluginGetName(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_NE(api->lastError(), "");
    EXPECT_EQ(api->hipdnnEnginePluginSetStream(handle, nullptr), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(api->lastError(), "");
}

TEST_F(EnginePluginImplTest, GetAllEngineIdsCountsThenFills) {
    uint32_t count = 0;
    ASSERT_EQ(api->hipdnnEnginePluginGetAllEngineIds(nullptr, 0, &count), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(count, 3U);
    std::vector<int64_t> ids(count);
    ASSERT_EQ(api->hipdnnEnginePluginGetAllEngineIds(ids.data(), count, &count),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(count, 3U);
    EXPECT_THAT(ids, ElementsAre(kScaleEngineId, kBuilderEngineId, kFaultyEngineId));
    std::vector<int64_t> two(2, 0);
    ASSERT_EQ(api->hipdnnEnginePluginGetAllEngineIds(two.data(), 2, &count), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(count, 2U);
    EXPECT_THAT(two, ElementsAre(kScaleEngineId, kBuilderEngineId));
    EXPECT_EQ(api->hipdnnEnginePluginGetAllEngineIds(nullptr, 2, &count), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("engine_ids is null"));
}

TEST_F(EnginePluginImplTest, EngineNamesComeFromTheRegistryOrTheHexId) {
    const char* name = nullptr;
    ASSERT_EQ(api->hipdnnEnginePluginGetEngineName(kScaleEngineId, &name), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(name, "SDK_TEST_SCALE_ENGINE");
    ASSERT_EQ(api->hipdnnEnginePluginGetEngineName(kBuilderEngineId, &name), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(name, "SDK_TEST_BUILDER_ENGINE");
    ASSERT_EQ(api->hipdnnEnginePluginGetEngineName(kFaultyEngineId, &name), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(std::string(name), hipdnn_data_sdk::utilities::formatEngineIdHex(kFaultyEngineId));
    EXPECT_EQ(api->hipdnnEnginePluginGetEngineName(12345, &name), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("unknown engine id 12345"));
}

TEST_F(EnginePluginImplTest, CreateFailsWithTheHandleConstructorsMessage) {
    ASSERT_EQ(setenv("SDK_TEST_PLUGIN_FAIL_CREATE", "1", 1), 0);
    hipdnnEnginePluginHandle_t failed = reinterpret_cast<hipdnnEnginePluginHandle_t>(&failed);
    const hipdnnPluginStatus_t status = api->hipdnnEnginePluginCreate(&failed);
    unsetenv("SDK_TEST_PLUGIN_FAIL_CREATE");
    EXPECT_EQ(status, HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR);
    EXPECT_EQ(failed, nullptr);
    EXPECT_EQ(api->lastError(),
              "hipdnnEnginePluginCreate: SDK_TEST_PLUGIN_FAIL_CREATE is set, refusing to create a handle");
}

TEST_F(EnginePluginImplTest, ApplicableEnginesLeaveOneDeclineLinePerEngine) {
    EXPECT_THAT(applicableIds(identityGraph), ElementsAre(kScaleEngineId));
    const std::string faultyName = hipdnn_data_sdk::utilities::formatEngineIdHex(kFaultyEngineId);
    EXPECT_EQ(api->lastError(),
              "SDK_TEST_BUILDER_ENGINE: abs_builder: pointwise mode IDENTITY is not ABS; "
              "neg_builder: pointwise mode IDENTITY is not NEG\n" +
                  faultyName + ": graph name 'unary' is not 'faulty'");

    EXPECT_THAT(applicableIds(makeUnaryPointwiseGraph(fb::PointwiseMode::NEG, "faulty")),
                ElementsAre(kBuilderEngineId, kFaultyEngineId));
    EXPECT_EQ(api->lastError(), "SDK_TEST_SCALE_ENGINE: pointwise mode NEG is not IDENTITY");

    EXPECT_THAT(applicableIds(makeUnaryPointwiseGraph(fb::PointwiseMode::EXP, "faulty_is_applicable")),
                ElementsAre());
    const std::string reasons = api->lastError();
    EXPECT_THAT(reasons,
                HasSubstr(faultyName + ": isApplicable failed: isApplicable failed on purpose second line"));
    EXPECT_EQ(std::count(reasons.begin(), reasons.end(), '\n'), 2) << reasons;
}

TEST_F(EnginePluginImplTest, ApplicableEngineCountOnlyAndTruncatedFill) {
    const std::vector<uint8_t> graph = makeUnaryPointwiseGraph(fb::PointwiseMode::ABS, "faulty");
    const hipdnnPluginConstData_t graphData = view(graph);
    uint32_t count = 0;
    ASSERT_EQ(api->hipdnnEnginePluginGetApplicableEngineIds(handle, &graphData, nullptr, 0, &count),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(count, 2U);
    int64_t first = 0;
    ASSERT_EQ(api->hipdnnEnginePluginGetApplicableEngineIds(handle, &graphData, &first, 1, &count),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(count, 1U);
    EXPECT_EQ(first, kBuilderEngineId);
}

TEST_F(EnginePluginImplTest, MalformedGraphIsBadParamWithTheVerifierMessage) {
    const std::vector<uint8_t> garbage = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const hipdnnPluginConstData_t graphData = view(garbage);
    int64_t id = 0;
    uint32_t count = 0;
    EXPECT_EQ(api->hipdnnEnginePluginGetApplicableEngineIds(handle, &graphData, &id, 1, &count),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), StartsWith("hipdnnEnginePluginGetApplicableEngineIds: op_graph: "));
    EXPECT_THAT(api->lastError(), HasSubstr("verification"));
}

TEST_F(EnginePluginImplTest, EngineDetailsAreAVerifiablePluginOwnedBuffer) {
    const hipdnnPluginConstData_t graphData = view(identityGraph);
    hipdnnPluginConstData_t details{nullptr, 0};
    ASSERT_EQ(api->hipdnnEnginePluginGetEngineDetails(handle, kScaleEngineId, &graphData, &details),
              HIPDNN_PLUGIN_STATUS_SUCCESS)
        << api->lastError();
    ASSERT_NE(details.ptr, nullptr);
    flatbuffers::Verifier verifier(static_cast<const uint8_t*>(details.ptr), details.size);
    ASSERT_TRUE(fb::VerifyEngineDetailsBuffer(verifier));
    const fb::EngineDetails* parsed = fb::GetEngineDetails(details.ptr);
    EXPECT_EQ(parsed->engine_id(), kScaleEngineId);
    EXPECT_EQ(parsed->name()->str(), "SDK_TEST_SCALE_ENGINE");
    ASSERT_EQ(parsed->knobs()->size(), 4U);
    EXPECT_EQ(parsed->knobs()->Get(0)->knob_id()->str(), "sdk_test.scale.multiplier");
    EXPECT_EQ(parsed->knobs()->Get(0)->value_type(), fb::KnobValueType::INT64);
    ASSERT_EQ(parsed->behavior_notes()->size(), 2U);
    EXPECT_EQ(parsed->behavior_notes()->Get(0), fb::BehaviorNote::SUPPORTS_EXECUTION_PLAN_SERIALIZATION);
    ASSERT_EQ(api->hipdnnEnginePluginDestroyEngineDetails(handle, &details), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(details.ptr, nullptr);
    EXPECT_EQ(details.size, 0U);

    EXPECT_EQ(api->hipdnnEnginePluginGetEngineDetails(handle, 777, &graphData, &details),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("unknown engine id 777"));
}

TEST_F(EnginePluginImplTest, KnobSettingsAreValidatedAgainstTheEnginesKnobs) {
    size_t size = 0;
    ASSERT_EQ(
        workspaceSize(makeEngineConfig(kScaleEngineId, {{"sdk_test.scale.workspace_bytes", int64_t{256}},
                                                        {"sdk_test.scale.label", std::string("ok")},
                                                        {"global.benchmarking", int64_t{1}},
                                                        {"global.some_future_knob", 3.5}}),
                      identityGraph, size),
        HIPDNN_PLUGIN_STATUS_SUCCESS)
        << api->lastError();
    EXPECT_EQ(size, 256U);

    struct Rejected {
        KnobSetting setting;
        std::string message;
    };
    const std::vector<Rejected> cases = {
        {{"sdk_test.scale.multiplier", int64_t{9}},
         "knob 'sdk_test.scale.multiplier' value 9 is outside [1, 8]"},
        {{"sdk_test.scale.multiplier", 2.0},
         "knob 'sdk_test.scale.multiplier' value 2 has type float but the knob's type is int"},
        {{"sdk_test.scale.bias", -10.5}, "knob 'sdk_test.scale.bias' value -10.5 is outside [-10, 10]"},
        {{"sdk_test.scale.label", std::string("too long!")},
         "knob 'sdk_test.scale.label' value \"too long!\" is longer than the maximum length 8"},
        {{"sdk_test.scale.workspace_bytes", int64_t{100}},
         "knob 'sdk_test.scale.workspace_bytes' value 100 is not min 0 plus a multiple of step 256"},
        {{"sdk_test.scale.workspace_bytes", int64_t{512}},
         "knob 'sdk_test.scale.workspace_bytes' value 512 is not one of the knob's valid values"},
        {{"sdk_test.unknown", int64_t{1}}, "knob 'sdk_test.unknown' value 1 is set for an unknown knob"},
        {{"global.benchmarking", int64_t{2}}, "knob 'global.benchmarking' value 2 is outside [0, 1]"},
        {{"global.workspace_size_limit", int64_t{-2}},
         "knob 'global.workspace_size_limit' value -2 is outside [-1, "},
    };
    for (const Rejected& rejected : cases) {
        SCOPED_TRACE(rejected.setting.id);
        EXPECT_EQ(workspaceSize(makeEngineConfig(kScaleEngineId, {rejected.setting}), identityGraph, size),
                  HIPDNN_PLUGIN_STATUS_BAD_PARAM);
        EXPECT_THAT(api->lastError(), HasSubstr(rejected.message));
        hipdnnEnginePluginExecutionContext_t context = nullptr;
        EXPECT_EQ(createContext(makeEngineConfig(kScaleEngineId, {rejected.setting}), identityGraph, context),
                  HIPDNN_PLUGIN_STATUS_BAD_PARAM);
        EXPECT_EQ(context, nullptr);
    }
}

TEST_F(EnginePluginImplTest, ConfigsAreCheckedAgainstTheGraphAndTheEngineSet) {
    size_t size = 0;
    EXPECT_EQ(workspaceSize(makeEngineConfig(kScaleEngineId, {}),
                            makeUnaryPointwiseGraph(fb::PointwiseMode::ABS, "unary"), size),
              HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    EXPECT_THAT(
        api->lastError(),
        HasSubstr("engine SDK_TEST_SCALE_ENGINE cannot run this graph: pointwise mode ABS is not IDENTITY"));
    EXPECT_EQ(workspaceSize(makeEngineConfig(4242, {}), identityGraph, size), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("unknown engine id 4242"));
    const std::vector<uint8_t> garbage(32, 0xFF);
    EXPECT_EQ(workspaceSize(garbage, identityGraph, size), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), StartsWith("hipdnnEnginePluginGetWorkspaceSize: engine_config: "));
    EXPECT_EQ(
        workspaceSize(makeEngineConfig(kScaleEngineId, {{"sdk_test.scale.workspace_bytes", int64_t{4096}},
                                                        {"global.workspace_size_limit", int64_t{1000}}}),
                      identityGraph, size),
        HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    EXPECT_THAT(api->lastError(),
                HasSubstr("needs 4096 bytes of workspace, more than global.workspace_size_limit 1000"));
}

TEST_F(EnginePluginImplTest, ExecutesAndChecksTheVariantPack) {
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    ASSERT_EQ(
        createContext(makeEngineConfig(kScaleEngineId, {{"sdk_test.scale.multiplier", int64_t{3}},
                                                        {"sdk_test.scale.bias", 0.5},
                                                        {"sdk_test.scale.workspace_bytes", int64_t{256}}}),
                      identityGraph, context),
        HIPDNN_PLUGIN_STATUS_SUCCESS)
        << api->lastError();
    size_t size = 0;
    ASSERT_EQ(api->hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(handle, context, &size),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(size, 256U);

    std::vector<float> input = {1, 2, 3, -1, -2, -3};
    std::vector<float> output(6, 0.0F);
    std::vector<uint8_t> workspace(size);
    const std::vector<hipdnnPluginDeviceBuffer_t> buffers = {{kInputUid, input.data()},
                                                             {kOutputUid, output.data()}};
    ASSERT_EQ(api->hipdnnEnginePluginExecuteOpGraph(handle, context, workspace.data(), buffers.data(), 2),
              HIPDNN_PLUGIN_STATUS_SUCCESS)
        << api->lastError();
    EXPECT_THAT(output, ElementsAre(3.5F, 6.5F, 9.5F, -2.5F, -5.5F, -8.5F));
    EXPECT_EQ(workspace[0], 0xA5);

    EXPECT_EQ(api->hipdnnEnginePluginExecuteOpGraph(handle, context, nullptr, buffers.data(), 2),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("workspace is null but the execution context needs 256 bytes"));
    EXPECT_EQ(api->hipdnnEnginePluginExecuteOpGraph(handle, context, workspace.data(), buffers.data(), 1),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("no device buffer for tensor uid 2"));
    EXPECT_EQ(api->hipdnnEnginePluginExecuteOpGraph(handle, context, workspace.data(), nullptr, 2),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("device_buffers is null"));
    EXPECT_EQ(api->hipdnnEnginePluginDestroyExecutionContext(handle, context), HIPDNN_PLUGIN_STATUS_SUCCESS);
}

TEST_F(EnginePluginImplTest, PlanBuilderEngineRunsItsFirstApplicableBuilder) {
    const std::vector<uint8_t> negGraph = makeUnaryPointwiseGraph(fb::PointwiseMode::NEG, "unary");
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    ASSERT_EQ(createContext(makeEngineConfig(kBuilderEngineId, {}), negGraph, context),
              HIPDNN_PLUGIN_STATUS_SUCCESS)
        << api->lastError();
    std::vector<float> input = {1, -2, 3, -4, 5, -6};
    std::vector<float> output(6, 0.0F);
    const std::vector<hipdnnPluginDeviceBuffer_t> buffers = {{kOutputUid, output.data()},
                                                             {kInputUid, input.data()}};
    ASSERT_EQ(api->hipdnnEnginePluginExecuteOpGraph(handle, context, nullptr, buffers.data(), 2),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_THAT(output, ElementsAre(-1, 2, -3, 4, -5, 6));
    EXPECT_EQ(api->hipdnnEnginePluginDestroyExecutionContext(handle, context), HIPDNN_PLUGIN_STATUS_SUCCESS);
}

TEST_F(EnginePluginImplTest, EstimatedTimeIsTheEnginesRooflineOrNotApplicable) {
    const hipdnnPluginConstData_t graph = view(identityGraph);
    double seconds = -1.0;
    // 2 x 3 floats in and out (48 bytes) at half of 1 GB/s, plus one 1 µs launch.
    ASSERT_EQ(api->hipdnnEnginePluginEstimateExecutionTime_ext(handle, kScaleEngineId, &graph,
                                                               HIPDNN_ENGINE_PREDICTION_ENGINE, &seconds),
              HIPDNN_PLUGIN_STATUS_SUCCESS)
        << api->lastError();
    EXPECT_DOUBLE_EQ(seconds, 48.0 / 0.5e9 + 1e-6);

    EXPECT_EQ(api->hipdnnEnginePluginEstimateExecutionTime_ext(handle, kBuilderEngineId, &graph,
                                                               HIPDNN_ENGINE_PREDICTION_ENGINE, &seconds),
              HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    EXPECT_THAT(api->lastError(), HasSubstr("SDK_TEST_BUILDER_ENGINE gives no time estimate for this graph"));
    EXPECT_EQ(api->hipdnnEnginePluginEstimateExecutionTime_ext(
                  handle, kScaleEngineId, &graph, HIPDNN_ENGINE_PREDICTION_CONFIGURATION, &seconds),
              HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    EXPECT_THAT(api->lastError(), HasSubstr("predicts no single configuration"));
}

TEST_F(EnginePluginImplTest, EstimatedTimeRejectsBadArgumentsNamingThem) {
    const hipdnnPluginConstData_t graph = view(identityGraph);
    double seconds = 0.0;
    EXPECT_EQ(api->hipdnnEnginePluginEstimateExecutionTime_ext(handle, kScaleEngineId, &graph,
                                                               HIPDNN_ENGINE_PREDICTION_ENGINE, nullptr),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("seconds is null"));
    EXPECT_EQ(api->hipdnnEnginePluginEstimateExecutionTime_ext(handle, kScaleEngineId, nullptr,
                                                               HIPDNN_ENGINE_PREDICTION_ENGINE, &seconds),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("op_graph is null"));
    EXPECT_EQ(api->hipdnnEnginePluginEstimateExecutionTime_ext(nullptr, kScaleEngineId, &graph,
                                                               HIPDNN_ENGINE_PREDICTION_ENGINE, &seconds),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("handle is null"));
    EXPECT_EQ(api->hipdnnEnginePluginEstimateExecutionTime_ext(handle, 12345, &graph,
                                                               HIPDNN_ENGINE_PREDICTION_ENGINE, &seconds),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("12345"));
    EXPECT_EQ(api->hipdnnEnginePluginEstimateExecutionTime_ext(
                  handle, kScaleEngineId, &graph, static_cast<hipdnnEnginePredictionKind_t>(7), &seconds),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("kind 7 is not a hipdnnEnginePredictionKind_t value"));
}

// The scale engine's plan is a function of the graph and its knobs: the rebuilt context keeps the
// multiplier, the bias and the workspace the configuration chose (the defaults are 2, 0 and none).
TEST_F(EnginePluginImplTest, SerializedContextRoundTripsThroughTheEngine) {
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    ASSERT_EQ(
        createContext(makeEngineConfig(kScaleEngineId, {{"sdk_test.scale.multiplier", int64_t{5}},
                                                        {"sdk_test.scale.bias", 0.5},
                                                        {"sdk_test.scale.workspace_bytes", int64_t{256}}}),
                      identityGraph, context),
        HIPDNN_PLUGIN_STATUS_SUCCESS);
    hipdnnPluginConstData_t serialized{nullptr, 0};
    ASSERT_EQ(api->hipdnnEnginePluginSerializeExecutionContext(handle, context, &serialized),
              HIPDNN_PLUGIN_STATUS_SUCCESS)
        << api->lastError();
    EXPECT_EQ(api->hipdnnEnginePluginDestroyExecutionContext(handle, context), HIPDNN_PLUGIN_STATUS_SUCCESS);

    flatbuffers::Verifier verifier(static_cast<const uint8_t*>(serialized.ptr), serialized.size);
    ASSERT_TRUE(fb::VerifySerializedExecutionPlanBuffer(verifier));
    EXPECT_EQ(fb::GetSerializedExecutionPlan(serialized.ptr)->engine_id(), kScaleEngineId);

    hipdnnEnginePluginExecutionContext_t restored = nullptr;
    ASSERT_EQ(api->hipdnnEnginePluginCreateExecutionContextFromSerialized(handle, &serialized, &restored),
              HIPDNN_PLUGIN_STATUS_SUCCESS)
        << api->lastError();
    ASSERT_EQ(api->hipdnnEnginePluginDestroySerializedExecutionContext(handle, &serialized),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(serialized.ptr, nullptr);

    size_t workspaceBytes = 0;
    ASSERT_EQ(api->hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(handle, restored, &workspaceBytes),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(workspaceBytes, 256U);
    std::vector<std::byte> workspace(workspaceBytes);
    std::vector<float> input = {1, 2, 3, 4, 5, 6};
    std::vector<float> output(6, 0.0F);
    const std::vector<hipdnnPluginDeviceBuffer_t> buffers = {{kInputUid, input.data()},
                                                             {kOutputUid, output.data()}};
    ASSERT_EQ(api->hipdnnEnginePluginExecuteOpGraph(handle, restored, workspace.data(), buffers.data(), 2),
              HIPDNN_PLUGIN_STATUS_SUCCESS)
        << api->lastError();
    EXPECT_THAT(output, ElementsAre(5.5, 10.5, 15.5, 20.5, 25.5, 30.5));
    EXPECT_EQ(api->hipdnnEnginePluginDestroyExecutionContext(handle, restored), HIPDNN_PLUGIN_STATUS_SUCCESS);
}

TEST_F(EnginePluginImplTest, SerializationFailuresHaveStatuses) {
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    ASSERT_EQ(createContext(makeEngineConfig(kBuilderEngineId, {}),
                            makeUnaryPointwiseGraph(fb::PointwiseMode::ABS, "unary"), context),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    hipdnnPluginConstData_t serialized{nullptr, 0};
    EXPECT_EQ(api->hipdnnEnginePluginSerializeExecutionContext(handle, context, &serialized),
              HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    EXPECT_THAT(api->lastError(), HasSubstr("does not support serialization"));
    EXPECT_EQ(api->hipdnnEnginePluginDestroyExecutionContext(handle, context), HIPDNN_PLUGIN_STATUS_SUCCESS);

    const std::vector<uint8_t> garbage(40, 0x7F);
    hipdnnPluginConstData_t garbageData = view(garbage);
    hipdnnEnginePluginExecutionContext_t restored = nullptr;
    EXPECT_EQ(api->hipdnnEnginePluginCreateExecutionContextFromSerialized(handle, &garbageData, &restored),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("is not a serialized execution context"));

    const std::vector<uint8_t> payload = {1, 2, 3};
    const auto serializedFor =
        [&](int64_t engineId, uint32_t version = hipdnn_flatbuffers_sdk::kSerializedExecutionPlanVersion) {
            return serializedPlan(engineId, payload, version);
        };
    const std::vector<uint8_t> forBuilder = serializedFor(kBuilderEngineId);
    hipdnnPluginConstData_t data = view(forBuilder);
    EXPECT_EQ(api->hipdnnEnginePluginCreateExecutionContextFromSerialized(handle, &data, &restored),
              HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    EXPECT_THAT(api->lastError(), HasSubstr("SDK_TEST_BUILDER_ENGINE does not support execution context"));
    const std::vector<uint8_t> forScale = serializedFor(kScaleEngineId);
    data = view(forScale);
    EXPECT_EQ(api->hipdnnEnginePluginCreateExecutionContextFromSerialized(handle, &data, &restored),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(),
                HasSubstr("the serialized execution context of SDK_TEST_SCALE_ENGINE (3 bytes) "
                          "is not a graph and engine config pair"));
    const std::vector<uint8_t> forUnknown = serializedFor(99);
    data = view(forUnknown);
    EXPECT_EQ(api->hipdnnEnginePluginCreateExecutionContextFromSerialized(handle, &data, &restored),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("unknown engine id 99"));
    const std::vector<uint8_t> fromTheFuture = serializedFor(kScaleEngineId, 7);
    data = view(fromTheFuture);
    EXPECT_EQ(api->hipdnnEnginePluginCreateExecutionContextFromSerialized(handle, &data, &restored),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("layout version 7; this plugin reads version 1"));
    EXPECT_EQ(restored, nullptr);
}

// A GraphConfigSerializedEngine's payload is verified before anything is built from it: every
// truncation and thousands of seeded corruptions fail with a status naming the engine (or rebuild a
// valid context), and valid pairs that the first build would have refused are refused too.
TEST_F(EnginePluginImplTest, HostileSerializedContextsAreRefusedNamingTheEngine) {
    const std::vector<uint8_t> config =
        makeEngineConfig(kScaleEngineId, {{"sdk_test.scale.multiplier", int64_t{3}}});
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    ASSERT_EQ(createContext(config, identityGraph, context), HIPDNN_PLUGIN_STATUS_SUCCESS)
        << api->lastError();
    hipdnnPluginConstData_t serialized{nullptr, 0};
    ASSERT_EQ(api->hipdnnEnginePluginSerializeExecutionContext(handle, context, &serialized),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    const auto* plan = fb::GetSerializedExecutionPlan(serialized.ptr);
    const std::vector<uint8_t> payload(plan->plugin_payload()->begin(), plan->plugin_payload()->end());
    ASSERT_EQ(api->hipdnnEnginePluginDestroySerializedExecutionContext(handle, &serialized),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(api->hipdnnEnginePluginDestroyExecutionContext(handle, context), HIPDNN_PLUGIN_STATUS_SUCCESS);

    const auto restore = [&](const std::vector<uint8_t>& bytes) {
        const std::vector<uint8_t> outer = serializedPlan(kScaleEngineId, bytes);
        const hipdnnPluginConstData_t data = view(outer);
        hipdnnEnginePluginExecutionContext_t restored = nullptr;
        const hipdnnPluginStatus_t status =
            api->hipdnnEnginePluginCreateExecutionContextFromSerialized(handle, &data, &restored);
        EXPECT_EQ(restored != nullptr, status == HIPDNN_PLUGIN_STATUS_SUCCESS);
        if (restored != nullptr) {
            EXPECT_EQ(api->hipdnnEnginePluginDestroyExecutionContext(handle, restored),
                      HIPDNN_PLUGIN_STATUS_SUCCESS);
        }
        return status;
    };
    ASSERT_EQ(restore(payload), HIPDNN_PLUGIN_STATUS_SUCCESS) << api->lastError();

    for (size_t size = 0; size < payload.size(); ++size) {
        ASSERT_EQ(restore({payload.begin(), payload.begin() + static_cast<std::ptrdiff_t>(size)}),
                  HIPDNN_PLUGIN_STATUS_BAD_PARAM)
            << "truncated to " << size << " bytes";
        EXPECT_THAT(api->lastError(), HasSubstr("serialized execution context of SDK_TEST_SCALE_ENGINE"));
    }
    std::mt19937 random(20261203);
    for (int trial = 0; trial < 2000; ++trial) {
        std::vector<uint8_t> corrupted = payload;
        for (int flip = 0; flip < 1 + trial % 4; ++flip) {
            corrupted[random() % corrupted.size()] = static_cast<uint8_t>(random());
        }
        const hipdnnPluginStatus_t status = restore(corrupted);
        EXPECT_TRUE(status == HIPDNN_PLUGIN_STATUS_SUCCESS || status == HIPDNN_PLUGIN_STATUS_BAD_PARAM ||
                    status == HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE)
            << "trial " << trial << ": " << api->lastError();
    }

    const auto pair = [&](const std::vector<uint8_t>& graph, const std::vector<uint8_t>& engineConfig) {
        return hipdnn_plugin_sdk::serializeGraphConfigContext({graph.data(), graph.size()},
                                                              {engineConfig.data(), engineConfig.size()});
    };
    EXPECT_EQ(restore(identityGraph), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("is not a graph and engine config pair"));
    EXPECT_EQ(restore(pair(identityGraph, makeEngineConfig(kBuilderEngineId, {}))),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("holds the engine config of engine SDK_TEST_BUILDER_ENGINE"));
    EXPECT_EQ(restore(pair(identityGraph,
                           makeEngineConfig(kScaleEngineId, {{"sdk_test.scale.multiplier", int64_t{9}}}))),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("holds knob settings the engine refuses"));
    EXPECT_THAT(api->lastError(), HasSubstr("sdk_test.scale.multiplier"));
    EXPECT_EQ(restore(pair(makeUnaryPointwiseGraph(fb::PointwiseMode::ABS, "unary"), config)),
              HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    EXPECT_THAT(api->lastError(),
                HasSubstr("SDK_TEST_SCALE_ENGINE cannot run the graph of its serialized execution context: "
                          "pointwise mode ABS is not IDENTITY"));
}

TEST_F(EnginePluginImplTest, ExceptionsBecomeStatuses) {
    const std::vector<uint8_t> graph = makeUnaryPointwiseGraph(fb::PointwiseMode::ABS, "faulty");
    struct Expected {
        int64_t failure;
        hipdnnPluginStatus_t status;
        std::string message;
    };
    const std::vector<Expected> cases = {
        {0, HIPDNN_PLUGIN_STATUS_INVALID_VALUE,
         "hipdnnEnginePluginCreateExecutionContext: PluginError on purpose"},
        {1, HIPDNN_PLUGIN_STATUS_ALLOC_FAILED,
         "hipdnnEnginePluginCreateExecutionContext: out of memory: std::bad_alloc"},
        {2, HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
         "hipdnnEnginePluginCreateExecutionContext: runtime_error on purpose"},
        {3, HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
         "hipdnnEnginePluginCreateExecutionContext: unknown exception (not derived from std::exception)"},
        {4, HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
         "hipdnnEnginePluginCreateExecutionContext: engine " +
             hipdnn_data_sdk::utilities::formatEngineIdHex(kFaultyEngineId) +
             " returned a null execution context"},
    };
    for (const Expected& expected : cases) {
        SCOPED_TRACE(expected.failure);
        hipdnnEnginePluginExecutionContext_t context = nullptr;
        EXPECT_EQ(
            createContext(makeEngineConfig(kFaultyEngineId, {{"sdk_test.faulty.failure", expected.failure}}),
                          graph, context),
            expected.status);
        EXPECT_EQ(api->lastError(), expected.message);
        EXPECT_EQ(context, nullptr);
    }
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    EXPECT_EQ(
        createContext(makeEngineConfig(kFaultyEngineId, {{"sdk_test.faulty.failure", int64_t{5}},
                                                         {"global.workspace_size_limit", int64_t{1024}}}),
                      graph, context),
        HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    EXPECT_THAT(api->lastError(), HasSubstr("more than global.workspace_size_limit 1024"));
}

TEST_F(EnginePluginImplTest, LastErrorIsPerThreadAndTruncated) {
    EXPECT_EQ(api->hipdnnPluginGetName(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    std::string otherThreadError = "<unset>";
    std::thread other([&] { otherThreadError = api->lastError(); });
    other.join();
    EXPECT_EQ(otherThreadError, "");
    EXPECT_EQ(api->lastError(), "hipdnnPluginGetName: name is null");

    std::thread failing([&] {
        EXPECT_EQ(api->hipdnnPluginGetVersion(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
        otherThreadError = api->lastError();
    });
    failing.join();
    EXPECT_THAT(otherThreadError, HasSubstr("version is null"));
    EXPECT_EQ(api->lastError(), "hipdnnPluginGetName: name is null");

    const std::string longId = "sdk_test." + std::string(3000, 'k');
    size_t size = 0;
    EXPECT_EQ(workspaceSize(makeEngineConfig(kScaleEngineId, {{longId, int64_t{1}}}), identityGraph, size),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(api->lastError().size(), HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH - 1);
}

std::mutex logMutex;
std::vector<std::pair<hipdnnSeverity_t, std::string>> logLines;

void recordLog(hipdnnSeverity_t severity, const char* message) {
    const std::lock_guard<std::mutex> lock(logMutex);
    logLines.emplace_back(severity, message);
}

TEST_F(EnginePluginImplTest, LoggingGoesToTheCallbackAtTheChosenLevel) {
    ASSERT_EQ(api->hipdnnPluginSetLoggingCallback(recordLog), HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(api->hipdnnPluginSetLogLevel(HIPDNN_SEV_INFO), HIPDNN_PLUGIN_STATUS_SUCCESS);
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    ASSERT_EQ(createContext(makeEngineConfig(kScaleEngineId, {}), identityGraph, context),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    std::vector<float> input(6, 1.0F);
    std::vector<float> output(6, 0.0F);
    const std::vector<hipdnnPluginDeviceBuffer_t> buffers = {{kInputUid, input.data()},
                                                             {kOutputUid, output.data()}};
    ASSERT_EQ(api->hipdnnEnginePluginExecuteOpGraph(handle, context, nullptr, buffers.data(), 2),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(api->hipdnnPluginSetLogLevel(HIPDNN_SEV_OFF), HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(api->hipdnnEnginePluginExecuteOpGraph(handle, context, nullptr, buffers.data(), 2),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(api->hipdnnEnginePluginDestroyExecutionContext(handle, context), HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(api->hipdnnPluginSetLoggingCallback(nullptr), HIPDNN_PLUGIN_STATUS_SUCCESS);
    {
        const std::lock_guard<std::mutex> lock(logMutex);
        ASSERT_EQ(logLines.size(), 1U);
        EXPECT_EQ(logLines[0].first, HIPDNN_SEV_INFO);
        EXPECT_EQ(logLines[0].second, "[sdk_test_plugin] scale executed on 6 elements");
    }
    EXPECT_EQ(api->hipdnnPluginSetLogLevel(static_cast<hipdnnSeverity_t>(99)),
              HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_THAT(api->lastError(), HasSubstr("level 99 is not a hipdnnSeverity_t value"));
}

std::string formatPointer(const void* pointer) {
    std::ostringstream text;
    text << pointer;
    return text.str();
}

TEST_F(EnginePluginImplTest, SetCommunicatorStoresTheValueInTheHandle) {
    EXPECT_EQ(api->hipdnnEnginePluginSetCommunicator_ext(nullptr, nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_EQ(api->lastError(), "hipdnnEnginePluginSetCommunicator_ext: handle is null");

    {
        const std::lock_guard<std::mutex> lock(logMutex);
        logLines.clear();
    }
    ASSERT_EQ(api->hipdnnPluginSetLoggingCallback(recordLog), HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(api->hipdnnPluginSetLogLevel(HIPDNN_SEV_INFO), HIPDNN_PLUGIN_STATUS_SUCCESS);
    int communicator = 0;
    EXPECT_EQ(api->hipdnnEnginePluginSetCommunicator_ext(handle, &communicator),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(api->lastError(), "");
    EXPECT_EQ(api->hipdnnEnginePluginSetCommunicator_ext(handle, nullptr), HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(api->hipdnnPluginSetLogLevel(HIPDNN_SEV_OFF), HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(api->hipdnnPluginSetLoggingCallback(nullptr), HIPDNN_PLUGIN_STATUS_SUCCESS);

    const std::lock_guard<std::mutex> lock(logMutex);
    std::vector<std::string> messages;
    for (const auto& line : logLines) {
        messages.push_back(line.second);
    }
    logLines.clear();
    EXPECT_THAT(messages, ElementsAre("[sdk_test_plugin] communicator " + formatPointer(&communicator),
                                      "[sdk_test_plugin] communicator " + formatPointer(nullptr)));
}

TEST(EnginePluginImplDefaultsTest, DeviceTypeDefaultsToGpuLibraryVersionsToNoneAndApiVersionCanBeOverridden) {
    const PluginLibrary library(SDK_TEST_PLUGIN_DEFAULTS_PATH);
    const PluginApi api(library);
    hipdnnDeviceType_ext_t device = HIPDNN_DEVICE_TYPE_CPU_EXT;
    ASSERT_EQ(api.hipdnnEnginePluginGetDeviceType_ext(&device), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_EQ(device, HIPDNN_DEVICE_TYPE_GPU_EXT);
    const char* version = nullptr;
    ASSERT_EQ(api.hipdnnPluginGetApiVersion(&version), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(version, "1.1.0");
    const char* libraries = nullptr;
    ASSERT_EQ(api.hipdnnEnginePluginGetLibraryVersions_ext(&libraries), HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_STREQ(libraries, "");
}

}  // namespace
}  // namespace plugin_sdk_test
