// Matmul graphs the unit tests analyze and the integration tests run on CUBLASLT_ENGINE: one
// matmul A[..., M, K] x B[..., K, N] with a chosen layout per operand, batch broadcast and an
// epilogue. Uids: a 1, b 2, the matmul's c 3, bias 4, bias sum 5, activation 6; the last written
// is the graph's output.
#pragma once

#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace cuda_kernels_test {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

enum class MatmulEpilogue { None, Bias, BiasRelu, BiasGelu, Relu };

struct MatmulCase {
    fb::DataType type = fb::DataType::FLOAT;        // a and b
    fb::DataType outputType = fb::DataType::UNSET;  // the output and the bias; UNSET: `type`
    int64_t m = 1;
    int64_t k = 1;
    int64_t n = 1;
    std::vector<int64_t> batch{};   // the output's batch dims
    std::vector<int64_t> aBatch{};  // empty: `batch`; a dim of 1 broadcasts
    std::vector<int64_t> bBatch{};
    bool columnMajorA = false;  // stride 1 on M (a transposed matrix) instead of on K
    bool columnMajorB = false;  // stride 1 on K instead of on N
    bool columnMajorOutput = false;
    MatmulEpilogue epilogue = MatmulEpilogue::None;
    bool biasAlongN = false;  // bias [..., M, 1] instead of [..., 1, N]
};

/// "fp16_2x3_37x129x65_At_Bt_bias_relu": a test name.
std::string matmulCaseName(const MatmulCase& matmul);

/// Packed strides of `dims` whose last two dims are stored row-major, or column-major where
/// `columnMajor` (stride 1 on the second-to-last dim).
std::vector<int64_t> matrixStrides(const std::vector<int64_t>& dims, bool columnMajor);

hipdnn_test_sdk::GraphBuilder matmulGraph(const MatmulCase& matmul);

/// The uid of the graph's output.
int64_t matmulOutputUid(const MatmulCase& matmul);

/// 37 x 129 x 65 in `type`: plain, batched, broadcast A or B, transposed A, B or both, a
/// column-major output, each epilogue, a bias along N, an fp32 output of fp16 / bf16 inputs.
std::vector<MatmulCase> matmulSmokeCases(fb::DataType type);

/// Large problems: up to 1024 x 1024 x 1024, batched with a broadcast operand.
std::vector<MatmulCase> matmulFullCases();

/// A random type, shape (M and N up to 160, K up to 300), batch (up to two dims, one operand may
/// broadcast), layouts and epilogue, within what CUBLASLT_ENGINE runs.
MatmulCase randomMatmulCase(std::mt19937& random);

}  // namespace cuda_kernels_test
