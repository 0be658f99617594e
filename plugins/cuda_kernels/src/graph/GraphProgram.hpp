// A graph as CUDA_GRAPH_ENGINE runs it, node by node: segments in topological order, each an
// anchor (a matmul through cuBLASLt, a convolution through cuDNN) followed by the consecutive
// pointwise nodes after it fused into one generated kernel, or pointwise nodes alone. Virtual
// tensors another segment reads, and every anchor's output, live in the plan's workspace; the
// others stay in the fused kernel's registers.
#pragma once

#include "../matmul/MatmulProgram.hpp"
#include "../pointwise/PointwiseProgram.hpp"
#include "ConvolutionProgram.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

enum class AnchorKind { None, Matmul, Convolution };

struct GraphSegment {
    AnchorKind anchorKind = AnchorKind::None;
    size_t anchor = 0;              // the anchor's node index (not None)
    std::vector<size_t> pointwise;  // node indices of the fused pointwise kernel, may be empty
    std::optional<MatmulProgram> matmul;
    std::optional<ConvolutionProgram> convolution;
    std::optional<PointwiseProgram> kernel;  // the program of `pointwise`
};

/// A virtual tensor in the workspace: its element type and the elements its strides span.
struct WorkspaceTensor {
    int64_t uid = 0;
    ElementType type = ElementType::Float;
    int64_t span = 0;
};

struct GraphProgram {
    std::vector<GraphSegment> segments;
    std::vector<WorkspaceTensor> workspaceTensors;

    MemoryVirtuals memoryVirtuals() const;
};

/// Where workspace tensors start: every one at a multiple of this.
inline constexpr size_t kWorkspaceAlignment = 256;

/// The program of `graph`, or nullopt with `reason` naming the node or tensor and why the engine
/// does not run it. `storageOverrides` sets the storage type of workspace tensors (a
/// convolution's output stored in its inputs' type where cuDNN has no engine for the declared
/// one); the others are stored in their declared type.
std::optional<GraphProgram> analyzeGraphProgram(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                const MemoryVirtuals& storageOverrides, std::string& reason);

}  // namespace hipdnn_cuda_kernels
