// Graphs CUDA_GRAPH_ENGINE runs node by node, for the unit tests (segmentation, workspace tensors,
// declines) and the integration tests: a convolution (fprop, dgrad or wgrad) or a matmul followed by
// a pointwise chain, as tools/driver builds them (io type for tensors in memory, FLOAT virtual
// intermediates with the anchor's layout, FLOAT compute). Uids: the anchor's inputs 1 and 2, its
// output 3, the chain's operands 10 + i and outputs 20 + i for chain step i; the last is the graph's
// output.
#pragma once

#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace cuda_kernels_test {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

/// One pointwise node of a chain; each reads the previous result (as in_0).
enum class ChainOp {
    Bias,      // ADD of a tensor with the anchor output's extent along the channel (or N) dim, 1 elsewhere
    Residual,  // ADD of a tensor of the output's dims and layout
    Relu,
    Gelu,  // GELU_FWD, the erf form
    Tanh,
    Sigmoid,
    Scale,  // MUL by a pass-by-value 0.5
};

enum class ConvDirection { Fprop, Dgrad, Wgrad };

struct ConvChainCase {
    fb::DataType type = fb::DataType::FLOAT;
    bool channelsLast = false;
    ConvDirection direction = ConvDirection::Fprop;
    int64_t n = 1;
    int64_t c = 8;
    int64_t h = 8;
    int64_t w = 8;
    int64_t k = 8;
    int64_t r = 3;
    int64_t s = 3;
    int64_t padding = 1;
    int64_t stride = 1;
    int64_t dilation = 1;
    std::vector<ChainOp> chain{};
};

struct MatmulChainCase {
    fb::DataType type = fb::DataType::FLOAT;
    std::vector<int64_t> batch{};
    int64_t m = 16;
    int64_t k = 16;
    int64_t n = 16;
    bool columnMajorB = false;
    std::vector<ChainOp> chain{};
};

/// "fp16_nhwc_fprop_n2c8h9w7k16r3s3p1s2d1_bias_add_relu": a test name.
std::string convChainName(const ConvChainCase& conv);
std::string matmulChainName(const MatmulChainCase& matmul);

/// Output extent of the convolution along a spatial dim of `input` with `filter` taps.
int64_t convOutputExtent(const ConvChainCase& conv, int64_t input, int64_t filter);

/// Packed strides of `dims` in NCHW order, or with dim 1 innermost (NHWC, KRSC) where `channelsLast`.
std::vector<int64_t> convStrides(const std::vector<int64_t>& dims, bool channelsLast);

hipdnn_test_sdk::GraphBuilder convChainGraph(const ConvChainCase& conv);
hipdnn_test_sdk::GraphBuilder matmulChainGraph(const MatmulChainCase& matmul);

/// The uid of the graph's output: 20 + the last chain step, else the anchor's 3.
int64_t chainOutputUid(const std::vector<ChainOp>& chain);

/// Terms of each output element's sum: C·R·S (fprop), K·R·S (dgrad), N·P·Q (wgrad).
int64_t convReductionTerms(const ConvChainCase& conv);

/// The support table's "conv fprop + bias + add + relu" problem (n1 c8 8x8 k8 3x3 p1) in `type`.
ConvChainCase supportTableResidualConv(fb::DataType type, bool channelsLast);

/// The support table's "matmul + bias + gelu" problem (16 x 16 x 16, GELU_FWD) in `type`.
MatmulChainCase supportTableMatmulBiasGelu(fb::DataType type);

/// Random small convolutions (direction, type, layout, shape, stride, dilation) with random chains.
ConvChainCase randomConvChain(std::mt19937& random);
/// Random small matmuls (type, batch, shape, B's layout) with random chains.
MatmulChainCase randomMatmulChain(std::mt19937& random);

}  // namespace cuda_kernels_test
