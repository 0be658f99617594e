// A finalized cuDNN operation graph built from a CudnnGraphSpec: tensor, operation and
// operation-graph descriptors, kept alive together.
#pragma once

#include "CudnnDescriptor.hpp"
#include "CudnnGraphSpec.hpp"

#include <map>
#include <vector>

namespace hipdnn_cudnn_plugin {

class CudnnOperationGraph {
public:
    /// Throws CudnnError whose message names the tensor or node cuDNN refused; a refused
    /// operation graph lists every operation.
    CudnnOperationGraph(cudnnHandle_t handle, const CudnnGraphSpec& spec);

    const CudnnDescriptor& descriptor() const noexcept { return _graph; }

private:
    std::map<int64_t, CudnnDescriptor> _tensors;
    std::vector<CudnnDescriptor> _subDescriptors;
    std::vector<CudnnDescriptor> _operations;
    CudnnDescriptor _graph{CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR};
};

}  // namespace hipdnn_cudnn_plugin
