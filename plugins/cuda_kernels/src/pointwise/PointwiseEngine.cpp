#include "PointwiseEngine.hpp"

#include "../EngineEstimates.hpp"
#include "../KernelBuild.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <cstdint>

namespace hipdnn_cuda_kernels {

namespace {

// Runs one compiled pointwise kernel: the vector kernel when every vectorized pointer is aligned
// to its access width, the scalar one otherwise.
class PointwiseExecutionContext final : public hipdnn_plugin_sdk::IExecutionContext {
public:
    PointwiseExecutionContext(const CudaKernelsHandle& handle, const PointwisePlan& plan,
                              std::shared_ptr<const KernelModule> module)
        : _module(std::move(module)) {
        const PointwiseProgram& program = plan.program;
        const int64_t elements = program.elementCount();
        _scalarKernel = _module->kernel(kPointwiseScalarKernel);
        _scalarShape = gridStrideShape(
            handle.device(), elements, kPointwiseBlockSize,
            KernelModule::blocksPerMultiprocessor(handle.device(), _scalarKernel, kPointwiseBlockSize));
        const int width = plan.source.vectorWidth;
        if (width > 0) {
            _vectorKernel = _module->kernel(kPointwiseVectorKernel);
            _vectorShape = gridStrideShape(
                handle.device(), elements / width, kPointwiseBlockSize,
                KernelModule::blocksPerMultiprocessor(handle.device(), _vectorKernel, kPointwiseBlockSize));
        }
        for (const MemoryOperand& operand : program.operands) {
            _uids.push_back(operand.uid);
            _vectorAlignment.push_back(width > 0 && !operand.isSingleElement
                                           ? static_cast<uintptr_t>(width) * elementSize(operand.type)
                                           : 1);
        }
    }

    std::size_t workspaceSize() const override { return 0; }

    void execute(hipdnn_plugin_sdk::PluginHandleBase& handle, void* /*workspace*/,
                 const hipdnn_plugin_sdk::DeviceBuffers& buffers) override {
        std::vector<void*> pointers(_uids.size());
        std::vector<void*> arguments(_uids.size());
        bool aligned = _vectorKernel != nullptr;
        for (size_t k = 0; k < _uids.size(); ++k) {
            pointers[k] = buffers.pointer(_uids[k]);
            arguments[k] = &pointers[k];
            aligned = aligned && reinterpret_cast<uintptr_t>(pointers[k]) % _vectorAlignment[k] == 0;
        }
        if (aligned) {
            launchKernel(_vectorKernel, _vectorShape, arguments.data(), handle.stream());
        } else {
            launchKernel(_scalarKernel, _scalarShape, arguments.data(), handle.stream());
        }
    }

private:
    std::shared_ptr<const KernelModule> _module;
    const void* _scalarKernel = nullptr;
    const void* _vectorKernel = nullptr;
    LaunchShape _scalarShape;
    LaunchShape _vectorShape;
    std::vector<int64_t> _uids;
    std::vector<uintptr_t> _vectorAlignment;
};

}  // namespace

std::optional<PointwisePlan> planPointwise(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                           int computeCapability, std::string& reason) {
    auto program = analyzePointwiseGraph(graph, reason);
    if (!program) {
        return std::nullopt;
    }
    auto source = generatePointwiseSource(*program, computeCapability, reason);
    if (!source) {
        return std::nullopt;
    }
    return PointwisePlan{std::move(*program), std::move(*source)};
}

PointwiseEngine::PointwiseEngine()
    : GraphSerializedEngine(hipdnn_data_sdk::utilities::CUDA_POINTWISE_ENGINE_ID) {}

std::optional<double> PointwiseEngine::estimatedSeconds(
    CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    return estimateEngineSeconds(id(), graph, handle.device().ceilings);
}

bool PointwiseEngine::isApplicable(CudaKernelsHandle& handle,
                                   const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                   std::string& reason) const {
    return planPointwise(graph, handle.device().computeCapability, reason) &&
           nvrtcFor(handle.device(), reason) != nullptr;
}

std::size_t PointwiseEngine::workspaceSize(CudaKernelsHandle& /*handle*/,
                                           const hipdnn_flatbuffers_sdk::EngineConfigWrapper& /*config*/,
                                           const hipdnn_flatbuffers_sdk::GraphWrapper& /*graph*/) const {
    return 0;
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> PointwiseEngine::contextFor(
    CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    std::string reason;
    const auto plan = planPointwise(graph, handle.device().computeCapability, reason);
    if (!plan) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                             "CUDA_POINTWISE_ENGINE cannot run this graph: " + reason);
    }
    return makePointwiseExecutionContext(handle, *plan, "CUDA_POINTWISE_ENGINE");
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> makePointwiseExecutionContext(
    const CudaKernelsHandle& handle, const PointwisePlan& plan, const char* engineName) {
    auto module = buildKernelModule(engineName, handle.device(), plan.source.source, plan.source.kernelNames);
    return std::make_unique<PointwiseExecutionContext>(handle, plan, std::move(module));
}

}  // namespace hipdnn_cuda_kernels
