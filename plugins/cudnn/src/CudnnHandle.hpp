// The plugin's per-backend-handle state: one cudnnHandle_t bound to the current CUDA device and
// the handle's stream, and the cache of analysed graphs.
#pragma once

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>
#include <hipdnn_plugin_sdk/Roofline.hpp>

#include <cudnn_graph.h>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace hipdnn_cudnn_plugin {

class GraphAnalysis;

class CudnnHandle : public hipdnn_plugin_sdk::PluginHandleBase {
public:
    /// Throws PluginError(INTERNAL_ERROR) with "no CUDA device ..." or "cudnnCreate failed: ..."
    /// where no GPU is usable, so that the backend skips the plugin with that message.
    CudnnHandle();
    ~CudnnHandle() override;

    cudnnHandle_t cudnn() const noexcept { return _cudnn; }
    /// The current device's theoretical ceilings, which the engine's estimated times scale.
    const hipdnn_plugin_sdk::DeviceCeilings& ceilings() const noexcept { return _ceilings; }

    /// Also rebinds the cuDNN handle: every plan executes on the handle's stream.
    void setStream(hipdnnPluginStream_t stream) override;

    /// The cached analysis of a serialized graph, created by `create` on first use. The backend
    /// asks about one graph several times (applicability, details, workspace, context); the
    /// analysis holds the translated cuDNN graph, heuristics results and built plans.
    std::shared_ptr<GraphAnalysis> analysis(const hipdnn_flatbuffers_sdk::GraphWrapper& graph);

private:
    cudnnHandle_t _cudnn = nullptr;
    hipdnn_plugin_sdk::DeviceCeilings _ceilings;
    std::mutex _mutex;
    std::map<std::string, std::shared_ptr<GraphAnalysis>> _analyses;
};

}  // namespace hipdnn_cudnn_plugin
