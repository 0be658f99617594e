#include "TestHelpers.hpp"

#include <hipdnn_plugin_sdk/EngineManager.hpp>
#include <hipdnn_plugin_sdk/PlanBuilderEngine.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace plugin_sdk_test {
namespace {

using hipdnn_flatbuffers_sdk::EngineConfigWrapper;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_plugin_sdk::EngineManager;
using hipdnn_plugin_sdk::IEngine;
using hipdnn_plugin_sdk::IExecutionContext;
using hipdnn_plugin_sdk::PluginError;
using hipdnn_plugin_sdk::PluginHandleBase;
using ::testing::ElementsAre;

HIPDNN_REGISTER_ENGINE(PLUGIN_SDK_UNIT_TEST_ENGINE)

// Accepts or declines according to its construction arguments.
class ScriptedEngine : public IEngine<PluginHandleBase> {
public:
    ScriptedEngine(int64_t id, bool accepts, std::string reason, bool throws = false)
        : IEngine(id), _accepts(accepts), _reason(std::move(reason)), _throws(throws) {}

    bool isApplicable(PluginHandleBase& /*handle*/, const GraphWrapper& /*graph*/,
                      std::string& reason) const override {
        if (_throws) {
            throw std::runtime_error("exploded");
        }
        reason = _reason;
        return _accepts;
    }
    std::size_t workspaceSize(PluginHandleBase& /*handle*/, const EngineConfigWrapper& /*config*/,
                              const GraphWrapper& /*graph*/) const override {
        return 0;
    }
    std::unique_ptr<IExecutionContext> createExecutionContext(PluginHandleBase& /*handle*/,
                                                              const EngineConfigWrapper& /*config*/,
                                                              const GraphWrapper& /*graph*/) const override {
        return nullptr;
    }

private:
    bool _accepts;
    std::string _reason;
    bool _throws;
};

class EngineManagerTest : public ::testing::Test {
protected:
    PluginHandleBase handle;
    const std::vector<uint8_t> bytes = makeUnaryPointwiseGraph(fb::PointwiseMode::ABS, "g");
    const GraphWrapper graph{bytes.data(), bytes.size()};
};

TEST_F(EngineManagerTest, KeepsEnginesInInsertionOrderWithTheirNames) {
    EngineManager<PluginHandleBase> manager;
    manager.addEngine(std::make_unique<ScriptedEngine>(PLUGIN_SDK_UNIT_TEST_ENGINE_ID, true, ""));
    manager.addEngine(std::make_unique<ScriptedEngine>(5, true, ""));
    EXPECT_THAT(manager.engineIds(), ElementsAre(PLUGIN_SDK_UNIT_TEST_ENGINE_ID, 5));
    EXPECT_EQ(manager.engineCount(), 2U);
    EXPECT_EQ(manager.engineName(PLUGIN_SDK_UNIT_TEST_ENGINE_ID), "PLUGIN_SDK_UNIT_TEST_ENGINE");
    EXPECT_EQ(manager.engineName(5), "0x0000000000000005");
    EXPECT_EQ(manager.engine(5).id(), 5);
    EXPECT_TRUE(manager.hasEngine(5));
    EXPECT_FALSE(manager.hasEngine(6));
}

TEST_F(EngineManagerTest, RejectsNullAndDuplicateEngines) {
    EngineManager<PluginHandleBase> manager;
    manager.addEngine(std::make_unique<ScriptedEngine>(5, true, ""));
    EXPECT_THROW(manager.addEngine(std::make_unique<ScriptedEngine>(5, true, "")), std::invalid_argument);
    EXPECT_THROW(manager.addEngine(nullptr), std::invalid_argument);
}

TEST_F(EngineManagerTest, UnknownIdIsBadParam) {
    const EngineManager<PluginHandleBase> manager;
    try {
        manager.engine(-1);
        FAIL() << "no exception";
    } catch (const PluginError& error) {
        EXPECT_EQ(error.status(), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
        EXPECT_STREQ(error.what(), "unknown engine id -1 (0xFFFFFFFFFFFFFFFF)");
    }
}

TEST_F(EngineManagerTest, CollectsOneSingleLineReasonPerDecliningEngine) {
    EngineManager<PluginHandleBase> manager;
    manager.addEngine(std::make_unique<ScriptedEngine>(1, false, "first\nreason"));
    manager.addEngine(std::make_unique<ScriptedEngine>(2, true, "ignored"));
    manager.addEngine(std::make_unique<ScriptedEngine>(3, false, ""));
    manager.addEngine(std::make_unique<ScriptedEngine>(4, false, "", true));
    std::vector<std::string> reasons;
    EXPECT_THAT(manager.applicableEngineIds(handle, graph, reasons), ElementsAre(2));
    EXPECT_THAT(reasons, ElementsAre("0x0000000000000001: first reason",
                                     "0x0000000000000003: declined without giving a reason",
                                     "0x0000000000000004: isApplicable failed: exploded"));
}

class NamedBuilder : public hipdnn_plugin_sdk::IPlanBuilder<PluginHandleBase> {
public:
    NamedBuilder(std::string name, bool accepts) : _name(std::move(name)), _accepts(accepts) {}
    std::string name() const override { return _name; }
    bool isApplicable(PluginHandleBase& /*handle*/, const GraphWrapper& /*graph*/,
                      std::string& reason) const override {
        reason = "not " + _name;
        return _accepts;
    }
    std::size_t workspaceSize(PluginHandleBase& /*handle*/, const EngineConfigWrapper& /*config*/,
                              const GraphWrapper& /*graph*/) const override {
        return _name.size();
    }
    std::unique_ptr<IExecutionContext> buildExecutionContext(PluginHandleBase& /*handle*/,
                                                             const EngineConfigWrapper& /*config*/,
                                                             const GraphWrapper& /*graph*/) const override {
        return nullptr;
    }

private:
    std::string _name;
    bool _accepts;
};

std::unique_ptr<hipdnn_plugin_sdk::PlanBuilderEngine<PluginHandleBase>> makeEngine(bool secondAccepts) {
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IPlanBuilder<PluginHandleBase>>> builders;
    builders.push_back(std::make_unique<NamedBuilder>("one", false));
    builders.push_back(std::make_unique<NamedBuilder>("second", secondAccepts));
    return std::make_unique<hipdnn_plugin_sdk::PlanBuilderEngine<PluginHandleBase>>(9, std::move(builders));
}

TEST_F(EngineManagerTest, PlanBuilderEngineUsesTheFirstApplicableBuilder) {
    const auto engine = makeEngine(true);
    std::string reason;
    EXPECT_TRUE(engine->isApplicable(handle, graph, reason));
    const std::vector<uint8_t> configBytes = hipdnn_flatbuffers_sdk::makeEngineConfig(9, {});
    const EngineConfigWrapper config(configBytes.data(), configBytes.size());
    EXPECT_EQ(engine->workspaceSize(handle, config, graph), 6U);
}

TEST_F(EngineManagerTest, PlanBuilderEngineListsEveryBuildersReason) {
    const auto engine = makeEngine(false);
    std::string reason;
    EXPECT_FALSE(engine->isApplicable(handle, graph, reason));
    EXPECT_EQ(reason, "one: not one; second: not second");
    const std::vector<uint8_t> configBytes = hipdnn_flatbuffers_sdk::makeEngineConfig(9, {});
    const EngineConfigWrapper config(configBytes.data(), configBytes.size());
    try {
        engine->workspaceSize(handle, config, graph);
        FAIL() << "no exception";
    } catch (const PluginError& error) {
        EXPECT_EQ(error.status(), HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
        EXPECT_STREQ(error.what(),
                     "engine 0x0000000000000009 cannot run this graph: one: not one; second: not second");
    }
    EXPECT_THROW(hipdnn_plugin_sdk::PlanBuilderEngine<PluginHandleBase>(1, {}), std::invalid_argument);
}

}  // namespace
}  // namespace plugin_sdk_test
