#include "GraphGraphs.hpp"

#include <algorithm>

namespace cuda_kernels_test {

namespace {

std::string typeTag(fb::DataType type) {
    switch (type) {
        case fb::DataType::HALF:
            return "fp16";
        case fb::DataType::BFLOAT16:
            return "bf16";
        default:
            return "fp32";
    }
}

std::string chainTag(const std::vector<ChainOp>& chain) {
    std::string text;
    for (const ChainOp op : chain) {
        switch (op) {
            case ChainOp::Bias:
                text += "_bias";
                break;
            case ChainOp::Residual:
                text += "_add";
                break;
            case ChainOp::Relu:
                text += "_relu";
                break;
            case ChainOp::Gelu:
                text += "_gelu";
                break;
            case ChainOp::Tanh:
                text += "_tanh";
                break;
            case ChainOp::Sigmoid:
                text += "_sigmoid";
                break;
            case ChainOp::Scale:
                text += "_scale";
                break;
        }
    }
    return text;
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& dims) {
    std::vector<int64_t> strides(dims.size());
    int64_t span = 1;
    for (size_t d = dims.size(); d-- > 0;) {
        strides[d] = span;
        span *= dims[d];
    }
    return strides;
}

// Appends the chain after the anchor output 3 of `dims` / `strides`; `channelDim` is where a bias
// has its extent.
void appendChain(hipdnn_test_sdk::GraphBuilder& graph, fb::DataType type, const std::vector<ChainOp>& chain,
                 const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, size_t channelDim) {
    int64_t previous = 3;
    for (size_t i = 0; i < chain.size(); ++i) {
        const auto operand = static_cast<int64_t>(10 + i);
        const auto output = static_cast<int64_t>(20 + i);
        const bool last = i + 1 == chain.size();
        const std::string step = std::to_string(i);
        graph.addTensor(output, "t" + step, last ? type : fb::DataType::FLOAT, dims, strides, !last);
        switch (chain[i]) {
            case ChainOp::Bias: {
                std::vector<int64_t> biasDims(dims.size(), 1);
                biasDims[channelDim] = dims[channelDim];
                graph.addTensor(operand, "bias" + step, type, biasDims)
                    .addPointwise("bias" + step, fb::PointwiseMode::ADD, previous, output, operand);
                break;
            }
            case ChainOp::Residual:
                graph.addTensor(operand, "residual" + step, type, dims, strides)
                    .addPointwise("residual" + step, fb::PointwiseMode::ADD, previous, output, operand);
                break;
            case ChainOp::Scale:
                graph.addScalar(operand, "scale" + step, fb::DataType::FLOAT, 0.5)
                    .addPointwise("scale" + step, fb::PointwiseMode::MUL, previous, output, operand);
                break;
            case ChainOp::Relu:
                graph.addPointwise("relu" + step, fb::PointwiseMode::RELU_FWD, previous, output);
                break;
            case ChainOp::Gelu:
                graph.addPointwise("gelu" + step, fb::PointwiseMode::GELU_FWD, previous, output);
                break;
            case ChainOp::Tanh:
                graph.addPointwise("tanh" + step, fb::PointwiseMode::TANH_FWD, previous, output);
                break;
            case ChainOp::Sigmoid:
                graph.addPointwise("sigmoid" + step, fb::PointwiseMode::SIGMOID_FWD, previous, output);
                break;
        }
        previous = output;
    }
}

std::vector<ChainOp> randomChain(std::mt19937& random) {
    const ChainOp ops[] = {ChainOp::Bias, ChainOp::Residual, ChainOp::Relu, ChainOp::Gelu,
                           ChainOp::Tanh, ChainOp::Sigmoid,  ChainOp::Scale};
    std::vector<ChainOp> chain(std::uniform_int_distribution<size_t>(0, 4)(random));
    for (ChainOp& op : chain) {
        op = ops[std::uniform_int_distribution<size_t>(0, std::size(ops) - 1)(random)];
    }
    return chain;
}

fb::DataType randomType(std::mt19937& random) {
    const fb::DataType types[] = {fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16};
    return types[std::uniform_int_distribution<size_t>(0, 2)(random)];
}

int64_t between(std::mt19937& random, int64_t low, int64_t high) {
    return std::uniform_int_distribution<int64_t>(low, high)(random);
}

}  // namespace

std::string convChainName(const ConvChainCase& conv) {
    const char* direction = conv.direction == ConvDirection::Fprop   ? "fprop"
                            : conv.direction == ConvDirection::Dgrad ? "dgrad"
                                                                     : "wgrad";
    return typeTag(conv.type) + (conv.channelsLast ? "_nhwc_" : "_nchw_") + direction + "_n" +
           std::to_string(conv.n) + "c" + std::to_string(conv.c) + "h" + std::to_string(conv.h) + "w" +
           std::to_string(conv.w) + "k" + std::to_string(conv.k) + "r" + std::to_string(conv.r) + "s" +
           std::to_string(conv.s) + "p" + std::to_string(conv.padding) + "u" + std::to_string(conv.stride) +
           "d" + std::to_string(conv.dilation) + chainTag(conv.chain);
}

std::string matmulChainName(const MatmulChainCase& matmul) {
    std::string name = typeTag(matmul.type);
    for (const int64_t extent : matmul.batch) {
        name += "_b" + std::to_string(extent);
    }
    return name + "_" + std::to_string(matmul.m) + "x" + std::to_string(matmul.k) + "x" +
           std::to_string(matmul.n) + (matmul.columnMajorB ? "_Bt" : "") + chainTag(matmul.chain);
}

int64_t convOutputExtent(const ConvChainCase& conv, int64_t input, int64_t filter) {
    return (input + 2 * conv.padding - conv.dilation * (filter - 1) - 1) / conv.stride + 1;
}

std::vector<int64_t> convStrides(const std::vector<int64_t>& dims, bool channelsLast) {
    if (!channelsLast) {
        return rowMajorStrides(dims);
    }
    std::vector<int64_t> strides(dims.size());
    int64_t span = 1;
    strides[1] = span;
    span *= dims[1];
    for (size_t d = dims.size(); d-- > 2;) {
        strides[d] = span;
        span *= dims[d];
    }
    strides[0] = span;
    return strides;
}

int64_t chainOutputUid(const std::vector<ChainOp>& chain) {
    return chain.empty() ? 3 : static_cast<int64_t>(20 + chain.size() - 1);
}

hipdnn_test_sdk::GraphBuilder convChainGraph(const ConvChainCase& conv) {
    const std::vector<int64_t> x{conv.n, conv.c, conv.h, conv.w};
    const std::vector<int64_t> w{conv.k, conv.c, conv.r, conv.s};
    const std::vector<int64_t> y{conv.n, conv.k, convOutputExtent(conv, conv.h, conv.r),
                                 convOutputExtent(conv, conv.w, conv.s)};
    const hipdnn_test_sdk::ConvolutionGeometry geometry{.prePadding = {conv.padding, conv.padding},
                                                        .postPadding = {conv.padding, conv.padding},
                                                        .stride = {conv.stride, conv.stride},
                                                        .dilation = {conv.dilation, conv.dilation}};
    const bool chained = !conv.chain.empty();
    const fb::DataType anchorType = chained ? fb::DataType::FLOAT : conv.type;
    hipdnn_test_sdk::GraphBuilder graph("graph_conv_" + convChainName(conv));
    graph.setIoDataType(conv.type)
        .setIntermediateDataType(fb::DataType::FLOAT)
        .setComputeDataType(fb::DataType::FLOAT);
    const auto strides = [&](const std::vector<int64_t>& dims) {
        return convStrides(dims, conv.channelsLast);
    };
    std::vector<int64_t> output;
    switch (conv.direction) {
        case ConvDirection::Fprop:
            graph.addTensor(1, "x", conv.type, x, strides(x))
                .addTensor(2, "w", conv.type, w, strides(w))
                .addTensor(3, "y", anchorType, y, strides(y), chained)
                .addConvFprop("conv", 1, 2, 3, geometry);
            output = y;
            break;
        case ConvDirection::Dgrad:
            graph.addTensor(1, "dy", conv.type, y, strides(y))
                .addTensor(2, "w", conv.type, w, strides(w))
                .addTensor(3, "dx", anchorType, x, strides(x), chained)
                .addConvDgrad("dgrad", 1, 2, 3, geometry);
            output = x;
            break;
        case ConvDirection::Wgrad:
            graph.addTensor(1, "x", conv.type, x, strides(x))
                .addTensor(2, "dy", conv.type, y, strides(y))
                .addTensor(3, "dw", anchorType, w, strides(w), chained)
                .addConvWgrad("wgrad", 1, 2, 3, geometry);
            output = w;
            break;
    }
    appendChain(graph, conv.type, conv.chain, output, strides(output), 1);
    return graph;
}

hipdnn_test_sdk::GraphBuilder matmulChainGraph(const MatmulChainCase& matmul) {
    std::vector<int64_t> a = matmul.batch;
    a.insert(a.end(), {matmul.m, matmul.k});
    std::vector<int64_t> b = matmul.batch;
    b.insert(b.end(), {matmul.k, matmul.n});
    std::vector<int64_t> c = matmul.batch;
    c.insert(c.end(), {matmul.m, matmul.n});
    std::vector<int64_t> bStrides = rowMajorStrides(b);
    if (matmul.columnMajorB) {
        const size_t rank = b.size();
        bStrides[rank - 2] = 1;
        bStrides[rank - 1] = matmul.k;
    }
    const bool chained = !matmul.chain.empty();
    hipdnn_test_sdk::GraphBuilder graph("graph_matmul_" + matmulChainName(matmul));
    graph.setIoDataType(matmul.type)
        .setIntermediateDataType(fb::DataType::FLOAT)
        .setComputeDataType(fb::DataType::FLOAT)
        .addTensor(1, "a", matmul.type, a, rowMajorStrides(a))
        .addTensor(2, "b", matmul.type, b, bStrides)
        .addTensor(3, "c", chained ? fb::DataType::FLOAT : matmul.type, c, rowMajorStrides(c), chained)
        .addMatmul("matmul", 1, 2, 3);
    appendChain(graph, matmul.type, matmul.chain, c, rowMajorStrides(c), c.size() - 1);
    return graph;
}

int64_t convReductionTerms(const ConvChainCase& conv) {
    switch (conv.direction) {
        case ConvDirection::Fprop:
            return conv.c * conv.r * conv.s;
        case ConvDirection::Dgrad:
            return conv.k * conv.r * conv.s;
        case ConvDirection::Wgrad:
            break;
    }
    return conv.n * convOutputExtent(conv, conv.h, conv.r) * convOutputExtent(conv, conv.w, conv.s);
}

ConvChainCase supportTableResidualConv(fb::DataType type, bool channelsLast) {
    return {.type = type,
            .channelsLast = channelsLast,
            .chain = {ChainOp::Bias, ChainOp::Residual, ChainOp::Relu}};
}

MatmulChainCase supportTableMatmulBiasGelu(fb::DataType type) {
    return {.type = type, .chain = {ChainOp::Bias, ChainOp::Gelu}};
}

ConvChainCase randomConvChain(std::mt19937& random) {
    ConvChainCase conv;
    conv.type = randomType(random);
    conv.channelsLast = between(random, 0, 1) == 1;
    conv.direction = static_cast<ConvDirection>(between(random, 0, 2));
    conv.n = between(random, 1, 3);
    conv.c = between(random, 2, 12);
    conv.k = between(random, 2, 12);
    conv.r = between(random, 0, 1) == 1 ? 3 : 1;
    conv.s = between(random, 0, 1) == 1 ? 3 : 1;
    conv.padding = between(random, 0, 1);
    conv.stride = between(random, 1, 2);
    conv.dilation = between(random, 1, 2);
    // Outputs of at least 2 x 2, so that no data tensor has only unit spatial dims (cuDNN reads
    // those as channels-last).
    do {
        conv.h = between(random, 5, 14);
        conv.w = between(random, 5, 14);
    } while (convOutputExtent(conv, conv.h, conv.r) < 2 || convOutputExtent(conv, conv.w, conv.s) < 2);
    conv.chain = randomChain(random);
    return conv;
}

MatmulChainCase randomMatmulChain(std::mt19937& random) {
    MatmulChainCase matmul;
    matmul.type = randomType(random);
    switch (between(random, 0, 2)) {
        case 1:
            matmul.batch = {between(random, 2, 3)};
            break;
        case 2:
            matmul.batch = {2, between(random, 2, 3)};
            break;
        default:
            break;
    }
    matmul.m = between(random, 1, 64);
    matmul.k = between(random, 1, 96);
    matmul.n = between(random, 1, 64);
    matmul.columnMajorB = between(random, 0, 1) == 1;
    matmul.chain = randomChain(random);
    return matmul;
}

}  // namespace cuda_kernels_test
