// A matmul graph as CUBLASLT_ENGINE runs it: one matmul C[..., M, N] = A[..., M, K] x B[..., K, N],
// optionally followed by a bias add (a vector broadcast along M or along N) and then relu or the
// tanh gelu, translated to cuBLASLt's column-major product D = op(A) op(B) with every batch dim
// collapsed into one strided batch. cuBLASLt is column-major: a row-major output (stride 1 on N)
// is described as D = C^T = B^T A^T, so cuBLASLt's A and B are the graph's B and A.
#pragma once

#include "../pointwise/PointwiseProgram.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace hipdnn_cuda_kernels {

enum class MatmulActivation { None, Relu, GeluTanh };

/// A matrix of cuBLASLt's product as its matrix layout describes it: column-major storage of
/// rows × columns with leading dimension `leadingDimension`; the product uses its transpose where
/// `transposed` (never for D).
struct MatmulOperand {
    int64_t uid = 0;
    ElementType type = ElementType::Float;
    int64_t rows = 0;
    int64_t columns = 0;
    int64_t leadingDimension = 0;
    bool transposed = false;
    int64_t batchStride = 0;  // elements between consecutive batches; 0 where the operand broadcasts
};

/// The bias: one value per row of cuBLASLt's D, packed.
struct MatmulBias {
    int64_t uid = 0;
    ElementType type = ElementType::Float;
    int64_t batchStride = 0;
};

struct MatmulProgram {
    /// cuBLASLt's problem: D (m × n) = op(A) (m × k) op(B) (k × n).
    int64_t m = 0;
    int64_t n = 0;
    int64_t k = 0;
    int64_t batchCount = 1;
    MatmulOperand a;
    MatmulOperand b;
    MatmulOperand d;  // the graph's final output
    /// cuBLASLt's A is the graph's B and its B the graph's A (the output has stride 1 on N).
    bool swapped = false;
    std::optional<MatmulBias> bias;
    MatmulActivation activation = MatmulActivation::None;
};

/// "m 65, n 37, k 129, batch 4, A HALF (T), B HALF, D FLOAT, bias, relu": for messages.
std::string describeMatmul(const MatmulProgram& program);

/// The program of `graph`, or nullopt with `reason` naming the node, data type, shape or stride
/// (and its value) the engine does not run.
std::optional<MatmulProgram> analyzeMatmulGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                std::string& reason);

/// The program of the matmul node `node` of a larger graph with no epilogue; its output is written
/// to memory whether it is virtual or not (another kernel reads it there).
std::optional<MatmulProgram> analyzeMatmulNode(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, size_t node,
                                               std::string& reason);

}  // namespace hipdnn_cuda_kernels
