#include "AttentionEngine.hpp"

#include "../KernelBuild.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

namespace hipdnn_cuda_kernels {

namespace {

constexpr const char* kEngineName = "CUDA_SDPA_ENGINE";

// The plan's kernels, launched in order with the operands' pointers and the workspace.
class AttentionExecutionContext final : public hipdnn_plugin_sdk::IExecutionContext {
public:
    AttentionExecutionContext(const CudaKernelsHandle& handle, AttentionPlan plan)
        : _plan(std::move(plan)),
          _module(buildKernelModule(kEngineName, handle.device(), _plan.source.source,
                                    _plan.source.kernelNames)) {
        for (const AttentionLaunch& launch : _plan.source.launches) {
            _launches.emplace_back(_module->kernel(launch.kernel),
                                   LaunchShape{launch.gridSize, kSdpaBlockSize});
        }
    }

    std::size_t workspaceSize() const override { return _plan.source.workspaceBytes; }

    void execute(hipdnn_plugin_sdk::PluginHandleBase& handle, void* workspace,
                 const hipdnn_plugin_sdk::DeviceBuffers& buffers) override {
        const auto& operands = _plan.program.operands;
        std::vector<void*> pointers(operands.size() + 1);
        std::vector<void*> arguments(pointers.size());
        for (size_t k = 0; k < operands.size(); ++k) {
            pointers[k] = buffers.pointer(operands[k].uid);
        }
        pointers.back() = workspace;
        for (size_t k = 0; k < pointers.size(); ++k) {
            arguments[k] = &pointers[k];
        }
        for (const auto& [kernel, shape] : _launches) {
            launchKernel(kernel, shape, arguments.data(), handle.stream());
        }
    }

private:
    AttentionPlan _plan;
    std::shared_ptr<const KernelModule> _module;
    std::vector<std::pair<const void*, LaunchShape>> _launches;
};

}  // namespace

std::optional<AttentionPlan> planAttention(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                           const DeviceInfo& device, std::string& reason) {
    auto program = analyzeAttentionGraph(graph, reason);
    if (!program) {
        return std::nullopt;
    }
    auto source = generateAttentionSource(*program, device.computeCapability, reason);
    if (!source) {
        return std::nullopt;
    }
    return AttentionPlan{std::move(*program), std::move(*source)};
}

AttentionEngine::AttentionEngine() : GraphSerializedEngine(hipdnn_data_sdk::utilities::CUDA_SDPA_ENGINE_ID) {}

bool AttentionEngine::isApplicable(CudaKernelsHandle& handle,
                                   const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                   std::string& reason) const {
    return planAttention(graph, handle.device(), reason) && nvrtcFor(handle.device(), reason) != nullptr;
}

std::size_t AttentionEngine::workspaceSize(CudaKernelsHandle& handle,
                                           const hipdnn_flatbuffers_sdk::EngineConfigWrapper& /*config*/,
                                           const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    std::string reason;
    const auto plan = planAttention(graph, handle.device(), reason);
    return plan ? plan->source.workspaceBytes : 0;
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> AttentionEngine::contextFor(
    CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    std::string reason;
    auto plan = planAttention(graph, handle.device(), reason);
    if (!plan) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                             std::string(kEngineName) + " cannot run this graph: " + reason);
    }
    return std::make_unique<AttentionExecutionContext>(handle, std::move(*plan));
}

}  // namespace hipdnn_cuda_kernels
