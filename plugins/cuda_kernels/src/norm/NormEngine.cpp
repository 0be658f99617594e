#include "NormEngine.hpp"

#include "../EngineEstimates.hpp"
#include "../KernelBuild.hpp"
#include "../Nccl.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <algorithm>
#include <cstdint>
#include <mutex>

namespace hipdnn_cuda_kernels {

namespace {

constexpr const char* kEngineName = "CUDA_NORM_ENGINE";

// The compiled launches of one source, the statistics parts they use and the sum across GPUs
// between them (synchronized batch norm).
struct CompiledNorm {
    std::shared_ptr<const KernelModule> module;
    std::vector<std::pair<const void*, LaunchShape>> launches;
    unsigned parts = 0;
    std::optional<NormAllReduce> allReduce;
    std::optional<NormWorkspaceRange> zeroed;
};

CompiledNorm compile(const DeviceInfo& device, const NormSource& source) {
    CompiledNorm compiled;
    compiled.allReduce = source.allReduce;
    compiled.zeroed = source.zeroed;
    compiled.module = buildKernelModule(kEngineName, device, source.source, source.kernelNames);
    for (const NormLaunch& launch : source.launches) {
        const void* kernel = compiled.module->kernel(launch.kernel);
        const int64_t resident =
            static_cast<int64_t>(std::max(1, device.multiprocessorCount)) *
            KernelModule::blocksPerMultiprocessor(device, kernel, launch.blockSize, launch.sharedBytes);
        LaunchShape shape{launch.gridSize, launch.blockSize, launch.sharedBytes, launch.cooperative};
        // A cooperative grid is one block per multiprocessor; the kernel's barriers need all of it resident.
        if (launch.cooperative && resident < launch.gridSize) {
            throw hipdnn_plugin_sdk::PluginError(
                HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                std::string(kEngineName) + ": " + launch.kernel + " needs " +
                    std::to_string(launch.gridSize) + " resident blocks of " +
                    std::to_string(launch.blockSize) + " threads and " + std::to_string(launch.sharedBytes) +
                    " bytes of shared memory; the device holds " + std::to_string(resident));
        }
        switch (launch.grid) {
            case NormGrid::Fixed:
                break;
            case NormGrid::Resident:
                shape.gridSize = static_cast<unsigned>(std::min<int64_t>(launch.gridSize, resident));
                break;
            case NormGrid::PerPart:
                compiled.parts = static_cast<unsigned>(
                    std::clamp<int64_t>(resident / launch.gridSize, 1, std::max(1U, source.maxParts)));
                shape.gridSize = launch.gridSize * compiled.parts;
                break;
        }
        compiled.launches.emplace_back(kernel, shape);
    }
    return compiled;
}

// A synchronized batch norm needs NCCL and the handle's communicator, with one rank per peer_stats
// tensor and this rank on the handle's GPU.
bool communicatorFits(const CudaKernelsHandle& handle, const NormProgram& program, std::string& reason) {
    if (!program.isSynchronized()) {
        return true;
    }
    if (handle.communicator() == nullptr) {
        reason = "the batch norm has " + std::to_string(program.peerCount) +
                 " peer_stats tensors, which need an NCCL communicator on the handle "
                 "(hipdnnSetCommunicator_ext or hipdnnCreateCommunicators_ext); none is attached";
        return false;
    }
    const Nccl* nccl = Nccl::instance(reason);
    return nccl != nullptr &&
           nccl->matches(handle.communicator(), program.peerCount, handle.device().ordinal, reason);
}

// Sums the per-channel moments in the workspace over the handle's communicator.
void sumAcrossGpus(const hipdnn_plugin_sdk::PluginHandleBase& handle, void* workspace,
                   const NormAllReduce& sum) {
    if (handle.communicator() == nullptr) {
        throw hipdnn_plugin_sdk::PluginError(
            HIPDNN_PLUGIN_STATUS_BAD_PARAM,
            std::string(kEngineName) +
                ": the plan sums batch norm statistics across GPUs (peer_stats), but the handle's NCCL "
                "communicator was detached");
    }
    std::string reason;
    const Nccl* nccl = Nccl::instance(reason);
    if (nccl == nullptr) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                             std::string(kEngineName) + ": " + reason);
    }
    nccl->sumDoubles(static_cast<char*>(workspace) + sum.offsetBytes, sum.doubles, handle.communicator(),
                     handle.stream());
}

// Runs the plan's launches; where a vectorized pointer is not aligned to the vector width, the
// width-1 source instead (compiled on first need).
class NormExecutionContext final : public hipdnn_plugin_sdk::IExecutionContext {
public:
    NormExecutionContext(const CudaKernelsHandle& handle, NormPlan plan)
        : _device(handle.device()), _plan(std::move(plan)), _vector(compile(_device, _plan.source)) {
        for (const NormOperand& operand : _plan.program.operands) {
            _uids.push_back(operand.uid);
            const bool vectorized =
                std::find(_plan.source.vectorOperands.begin(), _plan.source.vectorOperands.end(),
                          operand.name) != _plan.source.vectorOperands.end();
            _alignment.push_back(vectorized ? static_cast<uintptr_t>(_plan.source.vectorWidth) *
                                                  elementSize(operand.type)
                                            : 1);
        }
    }

    std::size_t workspaceSize() const override { return _plan.source.workspaceBytes; }

    void execute(hipdnn_plugin_sdk::PluginHandleBase& handle, void* workspace,
                 const hipdnn_plugin_sdk::DeviceBuffers& buffers) override {
        std::vector<void*> pointers(_uids.size() + 1);
        std::vector<void*> arguments(_uids.size() + 2);
        bool aligned = true;
        for (size_t k = 0; k < _uids.size(); ++k) {
            pointers[k] = buffers.pointer(_uids[k]);
            aligned = aligned &&
                      reinterpret_cast<uintptr_t>(pointers[k]) % std::min<uintptr_t>(16, _alignment[k]) == 0;
        }
        pointers.back() = workspace;
        for (size_t k = 0; k < pointers.size(); ++k) {
            arguments[k] = &pointers[k];
        }
        const CompiledNorm& compiled = aligned ? _vector : scalar();
        unsigned parts = compiled.parts;
        arguments.back() = &parts;
        if (compiled.zeroed) {
            zeroOnStream(static_cast<char*>(workspace) + compiled.zeroed->offsetBytes, compiled.zeroed->bytes,
                         handle.stream());
        }
        for (size_t k = 0; k < compiled.launches.size(); ++k) {
            if (compiled.allReduce && compiled.allReduce->afterLaunches == k) {
                sumAcrossGpus(handle, workspace, *compiled.allReduce);
            }
            const auto& [kernel, shape] = compiled.launches[k];
            launchKernel(kernel, shape, arguments.data(), handle.stream());
        }
    }

private:
    const CompiledNorm& scalar() {
        const std::lock_guard lock(_scalarMutex);
        if (!_scalar) {
            std::string reason;
            auto source = generateNormSource(_plan.program, _device, true, reason, _plan.options);
            if (!source) {
                throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                                     std::string(kEngineName) + ": " + reason);
            }
            // The workspace was sized for the vector source's parts; the statistics pass strides
            // over its rows, so fewer parts cover them too.
            source->maxParts = std::min(source->maxParts, _plan.source.maxParts);
            _scalar = compile(_device, *source);
        }
        return *_scalar;
    }

    DeviceInfo _device;
    NormPlan _plan;
    CompiledNorm _vector;
    std::mutex _scalarMutex;
    std::optional<CompiledNorm> _scalar;
    std::vector<int64_t> _uids;
    std::vector<uintptr_t> _alignment;
};

}  // namespace

std::optional<NormPlan> planNorm(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, const DeviceInfo& device,
                                 std::string& reason, const NormOptions& options) {
    auto program = analyzeNormGraph(graph, reason);
    if (!program) {
        return std::nullopt;
    }
    auto source = generateNormSource(*program, device, false, reason, options);
    if (!source) {
        return std::nullopt;
    }
    return NormPlan{std::move(*program), std::move(*source), options};
}

NormOptions normOptionsFrom(const hipdnn_flatbuffers_sdk::IEngineConfig& config) {
    NormOptions options;
    options.trainingKernel = static_cast<TrainingKernel>(config.intKnob(kTrainingKernelKnob).value_or(0));
    return options;
}

NormEngine::NormEngine() : GraphConfigSerializedEngine(hipdnn_data_sdk::utilities::CUDA_NORM_ENGINE_ID) {}

// The training kernel is a choice only where the default plan is the cooperative kernel.
std::vector<hipdnn_flatbuffers_sdk::KnobDescription> NormEngine::knobs(
    CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    std::string reason;
    const auto plan = planNorm(graph, handle.device(), reason);
    if (!plan || plan->source.launches.size() != 1 || !plan->source.launches.front().cooperative) {
        return {};
    }
    return {hipdnn_flatbuffers_sdk::KnobDescription::intKnob(
        std::string(kTrainingKernelKnob),
        "channels-last batch norm training: 0 one cooperative kernel keeping as much of x in registers "
        "and shared memory as fits, 1 keeping at most half the shared memory, 2 keeping none (x read "
        "twice), "
        "3 three kernels (statistics, finalize, streaming)",
        0,
        hipdnn_flatbuffers_sdk::IntKnobConstraint::range(
            0, static_cast<int64_t>(TrainingKernel::ThreeKernels)))};
}

std::optional<double> NormEngine::estimatedSeconds(CudaKernelsHandle& handle,
                                                   const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    return estimateEngineSeconds(id(), graph, handle.device().ceilings);
}

bool NormEngine::isApplicable(CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                              std::string& reason) const {
    const auto plan = planNorm(graph, handle.device(), reason);
    return plan && communicatorFits(handle, plan->program, reason) &&
           nvrtcFor(handle.device(), reason) != nullptr;
}

std::size_t NormEngine::workspaceSize(CudaKernelsHandle& handle,
                                      const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                                      const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    std::string reason;
    const auto plan = planNorm(graph, handle.device(), reason, normOptionsFrom(config));
    return plan ? plan->source.workspaceBytes : 0;
}

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> NormEngine::contextForConfig(
    CudaKernelsHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
    const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const {
    std::string reason;
    auto plan = planNorm(graph, handle.device(), reason, normOptionsFrom(config));
    if (!plan || !communicatorFits(handle, plan->program, reason)) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                             std::string(kEngineName) + " cannot run this graph: " + reason);
    }
    return std::make_unique<NormExecutionContext>(handle, std::move(*plan));
}

}  // namespace hipdnn_cuda_kernels
