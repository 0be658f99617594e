// EXAMPLE_RELU_ADD_ENGINE: runs graphs made only of fp32 pointwise RELU_FWD and ADD nodes (ADD
// with broadcast), on tensors of any strides. Intermediate (virtual) tensors live in the
// workspace the backend allocates for the plan.
#pragma once

#include <hipdnn_plugin_sdk/IEngine.hpp>
#include <hipdnn_plugin_sdk/IExecutionContext.hpp>
#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace example_plugin {

/// One per backend handle. A CPU engine has nothing to acquire; a GPU plugin would create its
/// library handles and streams here (and throw if it cannot).
class ExampleHandle : public hipdnn_plugin_sdk::PluginHandleBase {};

/// What the engine derives from a graph it accepts: the nodes to run, in order, and where each
/// tensor lives.
struct ReluAddPlan {
    enum class Operation { Relu, Add };

    struct Step {
        Operation operation;
        std::vector<int64_t> inputUids;
        int64_t outputUid;
    };

    struct TensorPlacement {
        std::vector<int64_t> dims;
        std::vector<int64_t> strides;
        /// Virtual tensors are carved out of the workspace; the others come from the variant pack.
        std::optional<std::size_t> workspaceOffset;
    };

    std::vector<Step> steps;
    std::map<int64_t, TensorPlacement> tensors;
    std::size_t workspaceBytes = 0;
};

/// The plan for `graph`, or std::nullopt with `reason` naming the first node (or tensor) the
/// engine cannot run and why.
std::optional<ReluAddPlan> planReluAddGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                            std::string& reason);

class ReluAddExecutionContext : public hipdnn_plugin_sdk::IExecutionContext {
public:
    explicit ReluAddExecutionContext(ReluAddPlan plan) : _plan(std::move(plan)) {}

    std::size_t workspaceSize() const override { return _plan.workspaceBytes; }

    void execute(hipdnn_plugin_sdk::PluginHandleBase& handle, void* workspace,
                 const hipdnn_plugin_sdk::DeviceBuffers& buffers) override;

private:
    ReluAddPlan _plan;
};

class ReluAddEngine : public hipdnn_plugin_sdk::IEngine<ExampleHandle> {
public:
    explicit ReluAddEngine(int64_t id) : IEngine(id) {}

    bool isApplicable(ExampleHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                      std::string& reason) const override;

    std::size_t workspaceSize(ExampleHandle& handle,
                              const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                              const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;

    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> createExecutionContext(
        ExampleHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
};

}  // namespace example_plugin
