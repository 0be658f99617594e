// One convolution node (fprop, dgrad or wgrad) of a graph as cuDNN's single-operation convolution
// engines take it: the three tensors in cuDNN's roles (X, W, Y; dgrad writes X from DY, wgrad
// writes W), their types and strides, and the geometry. Facts about cuDNN 9 (recorded with the
// cuDNN plugin): asymmetric padding is computed wrong, and tensors of mixed channel orders
// (channels-first data with channels-last filters, ...) give wrong values, so both are declined;
// extent-1 dims take the strides of the convolution's channel order, since cuDNN infers a
// tensor's layout from the order of its strides.
#pragma once

#include "../pointwise/PointwiseProgram.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

enum class ConvolutionDirection { Forward, BackwardData, BackwardFilter };

struct ConvolutionTensor {
    int64_t uid = 0;
    ElementType type = ElementType::Float;
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;  // extent-1 dims restrided to the convolution's channel order
};

struct ConvolutionProgram {
    ConvolutionDirection direction = ConvolutionDirection::Forward;
    ConvolutionTensor x;  // fprop and wgrad read it, dgrad writes it (dx)
    ConvolutionTensor w;  // fprop and dgrad read it, wgrad writes it (dw)
    ConvolutionTensor y;  // fprop writes it, dgrad and wgrad read it (dy)
    bool crossCorrelation = true;
    std::vector<int64_t> padding;  // pre = post
    std::vector<int64_t> stride;
    std::vector<int64_t> dilation;

    ConvolutionTensor& output();
    const ConvolutionTensor& output() const;
};

/// "conv fprop x [1, 8, 8, 8] HALF, w [8, 8, 3, 3] HALF, y [1, 8, 8, 8] FLOAT": for messages.
std::string describeConvolution(const ConvolutionProgram& program);

/// The program of convolution node `node` of `graph`, or nullopt with `reason` naming the node and
/// what is not run (the compute or data type, the rank, asymmetric padding, mixed channel orders).
/// The output is written to memory whether it is virtual or not; where `memoryVirtuals` holds it,
/// it is stored in that type.
std::optional<ConvolutionProgram> analyzeConvolutionNode(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                         size_t node, const MemoryVirtuals& memoryVirtuals,
                                                         std::string& reason);

}  // namespace hipdnn_cuda_kernels
