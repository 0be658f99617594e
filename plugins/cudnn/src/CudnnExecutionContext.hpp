// An execution context: one built cuDNN execution plan plus what execute needs to bind the
// variant pack quickly. Everything costly (operation graph, heuristics, plan) happens when the
// context is created; execute only fills the data pointers, reusing the previous call's
// finalized variant pack when the pointers are the same, and from the second call in a row with
// the same pointers on replaying the execute as a CUDA graph (CudaGraphReplay).
#pragma once

#include "CudaGraphReplay.hpp"
#include "CudnnEngineConfigs.hpp"
#include "CudnnGraphSpec.hpp"
#include "VariantPack.hpp"

#include <hipdnn_plugin_sdk/IExecutionContext.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace hipdnn_cudnn_plugin {

class CudnnExecutionContext final : public hipdnn_plugin_sdk::IExecutionContext {
public:
    /// `keepAlive` holds whatever the plan's descriptors were built from (may be null).
    CudnnExecutionContext(std::shared_ptr<CudnnPlan> plan, PlanBindings bindings,
                          std::shared_ptr<void> keepAlive);

    std::size_t workspaceSize() const override {
        return static_cast<std::size_t>(_bindings.internalWorkspaceBytes + _plan->workspaceSize());
    }
    void execute(hipdnn_plugin_sdk::PluginHandleBase& handle, void* workspace,
                 const hipdnn_plugin_sdk::DeviceBuffers& buffers) override;
    std::vector<uint8_t> serialize() const override;

    /// Inverse of serialize(); throws PluginError(BAD_PARAM) on malformed bytes and
    /// PluginError(NOT_APPLICABLE) when this cuDNN cannot rebuild the plan.
    static std::unique_ptr<CudnnExecutionContext> deserialize(cudnnHandle_t handle,
                                                              std::span<const uint8_t> bytes);

private:
    /// Enqueues the zeroing of the outputs cuDNN leaves partly unwritten, ahead of the plan.
    void zeroOutputs(const hipdnn_plugin_sdk::DeviceBuffers& buffers, cudaStream_t stream) const;
    /// True when this call can replay the captured graph (capturing it first if needed).
    bool replayReady(cudnnHandle_t cudnn, cudaStream_t stream);

    std::shared_ptr<CudnnPlan> _plan;
    PlanBindings _bindings;
    std::shared_ptr<void> _keepAlive;

    std::mutex _mutex;
    VariantPackArrays _arrays;
    std::optional<CudnnDescriptor> _variantPack;

    CudaGraphReplay _replay;
    int _callsWithSamePointers = 0;
    bool _replayUnsupported = false;  // a capture failed: this plan always executes directly
};

}  // namespace hipdnn_cudnn_plugin
