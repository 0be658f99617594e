// GMock doubles of the plugin SDK interfaces, for unit tests of engine managers, plan-builder
// engines and code that drives execution contexts (header-only; part of hipdnn_test_sdk_gtest).
#pragma once

#include <hipdnn_plugin_sdk/IEngine.hpp>
#include <hipdnn_plugin_sdk/IExecutionContext.hpp>
#include <hipdnn_plugin_sdk/IPlanBuilder.hpp>

#include <gmock/gmock.h>

namespace hipdnn_test_sdk {

template <class THandle>
class MockEngine : public hipdnn_plugin_sdk::IEngine<THandle> {
public:
    explicit MockEngine(int64_t id) : hipdnn_plugin_sdk::IEngine<THandle>(id) {}

    MOCK_METHOD(std::string, name, (), (const, override));
    MOCK_METHOD(bool, isApplicable,
                (THandle & handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph, std::string& reason),
                (const, override));
    MOCK_METHOD(std::vector<hipdnn_flatbuffers_sdk::KnobDescription>, knobs,
                (THandle & handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph), (const, override));
    MOCK_METHOD(std::vector<hipdnn_flatbuffers_sdk::data_objects::BehaviorNote>, behaviorNotes, (),
                (const, override));
    MOCK_METHOD(std::size_t, workspaceSize,
                (THandle & handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                 const hipdnn_flatbuffers_sdk::GraphWrapper& graph),
                (const, override));
    MOCK_METHOD(std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext>, createExecutionContext,
                (THandle & handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                 const hipdnn_flatbuffers_sdk::GraphWrapper& graph),
                (const, override));
    MOCK_METHOD(std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext>, deserializeExecutionContext,
                (THandle & handle, std::span<const uint8_t> bytes), (const, override));
};

template <class THandle>
class MockPlanBuilder : public hipdnn_plugin_sdk::IPlanBuilder<THandle> {
public:
    MOCK_METHOD(std::string, name, (), (const, override));
    MOCK_METHOD(bool, isApplicable,
                (THandle & handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph, std::string& reason),
                (const, override));
    MOCK_METHOD(std::vector<hipdnn_flatbuffers_sdk::KnobDescription>, knobs,
                (THandle & handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph), (const, override));
    MOCK_METHOD(std::size_t, workspaceSize,
                (THandle & handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                 const hipdnn_flatbuffers_sdk::GraphWrapper& graph),
                (const, override));
    MOCK_METHOD(std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext>, buildExecutionContext,
                (THandle & handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                 const hipdnn_flatbuffers_sdk::GraphWrapper& graph),
                (const, override));
};

class MockExecutionContext : public hipdnn_plugin_sdk::IExecutionContext {
public:
    MOCK_METHOD(std::size_t, workspaceSize, (), (const, override));
    MOCK_METHOD(void, execute,
                (hipdnn_plugin_sdk::PluginHandleBase & handle, void* workspace,
                 const hipdnn_plugin_sdk::DeviceBuffers& buffers),
                (override));
    MOCK_METHOD(std::vector<uint8_t>, serialize, (), (const, override));
};

}  // namespace hipdnn_test_sdk
