// One cudnnBackendExecute recorded as a CUDA graph and replayed. cudnnBackendExecute checks the
// variant pack and packs kernel arguments on every call, which dominates small problems; launching
// an instantiated graph skips that work. A graph bakes in the data pointers it was captured with,
// so the execution context captures only after a plan has run twice with the same pointers and
// drops the graph when they change.
#pragma once

#include <cudnn_graph.h>

#include <string>

namespace hipdnn_cudnn_plugin {

class CudaGraphReplay {
public:
    CudaGraphReplay() = default;
    ~CudaGraphReplay();
    CudaGraphReplay(const CudaGraphReplay&) = delete;
    CudaGraphReplay& operator=(const CudaGraphReplay&) = delete;

    /// Records one execute of `plan` with `variantPack` on a private stream (nothing runs). On
    /// failure returns false with the reason in `failure`; the handle's stream is restored either way.
    bool capture(cudnnHandle_t cudnn, cudnnBackendDescriptor_t plan, cudnnBackendDescriptor_t variantPack,
                 std::string& failure);

    bool ready() const noexcept { return _executable != nullptr; }

    /// Replays the recorded execute on `stream` (throws PluginError(INTERNAL_ERROR)).
    void launch(cudaStream_t stream) const;

    /// Forgets the recorded execute (its pointers are stale).
    void reset() noexcept;

private:
    cudaGraphExec_t _executable = nullptr;
};

}  // namespace hipdnn_cudnn_plugin
