// The two engines: CUDNN_ENGINE (every configuration cuDNN's heuristics rank) and
// CUDNN_ENGINE_DETERMINISTIC (only configurations without CUDNN_NUMERICAL_NOTE_NONDETERMINISTIC).
#pragma once

#include "CudnnHandle.hpp"

#include <hipdnn_plugin_sdk/IEngine.hpp>

namespace hipdnn_cudnn_plugin {

class CudnnEngine final : public hipdnn_plugin_sdk::IEngine<CudnnHandle> {
public:
    CudnnEngine(int64_t id, bool deterministic) : IEngine(id), _deterministic(deterministic) {}

    bool isApplicable(CudnnHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                      std::string& reason) const override;
    std::vector<hipdnn_flatbuffers_sdk::KnobDescription> knobs(
        CudnnHandle& handle, const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
    std::vector<hipdnn_flatbuffers_sdk::data_objects::BehaviorNote> behaviorNotes() const override;
    std::optional<double> estimatedSeconds(CudnnHandle& handle,
                                           const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
    std::size_t workspaceSize(CudnnHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
                              const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> createExecutionContext(
        CudnnHandle& handle, const hipdnn_flatbuffers_sdk::EngineConfigWrapper& config,
        const hipdnn_flatbuffers_sdk::GraphWrapper& graph) const override;
    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> deserializeExecutionContext(
        CudnnHandle& handle, std::span<const uint8_t> bytes) const override;

private:
    bool _deterministic;
};

}  // namespace hipdnn_cudnn_plugin
