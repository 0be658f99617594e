#include "MatmulGraphs.hpp"

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

std::string dimsTag(const std::vector<int64_t>& dims) {
    std::string text;
    for (size_t i = 0; i < dims.size(); ++i) {
        text += i > 0 ? "x" : "";
        text += std::to_string(dims[i]);
    }
    return text;
}

std::vector<int64_t> withMatrix(std::vector<int64_t> batch, int64_t rows, int64_t columns) {
    batch.push_back(rows);
    batch.push_back(columns);
    return batch;
}

}  // namespace

std::string matmulCaseName(const MatmulCase& matmul) {
    std::string name = typeTag(matmul.type);
    if (matmul.outputType != fb::DataType::UNSET && matmul.outputType != matmul.type) {
        name += "_to_";
        name += typeTag(matmul.outputType);
    }
    for (const auto& [tag, dims] : {std::pair{"_batch", &matmul.batch}, std::pair{"_a", &matmul.aBatch},
                                    std::pair{"_b", &matmul.bBatch}}) {
        if (!dims->empty()) {
            name += tag;
            name += dimsTag(*dims);
        }
    }
    name += "_";
    name += dimsTag({matmul.m, matmul.k, matmul.n});
    name += matmul.columnMajorA ? "_At" : "";
    name += matmul.columnMajorB ? "_Bt" : "";
    name += matmul.columnMajorOutput ? "_Ct" : "";
    switch (matmul.epilogue) {
        case MatmulEpilogue::None:
            break;
        case MatmulEpilogue::Bias:
            name += "_bias";
            break;
        case MatmulEpilogue::BiasRelu:
            name += "_bias_relu";
            break;
        case MatmulEpilogue::BiasGelu:
            name += "_bias_gelu";
            break;
        case MatmulEpilogue::Relu:
            name += "_relu";
            break;
    }
    return name + (matmul.biasAlongN ? "_alongN" : "");
}

std::vector<int64_t> matrixStrides(const std::vector<int64_t>& dims, bool columnMajor) {
    const size_t rank = dims.size();
    std::vector<int64_t> strides(rank);
    const int64_t rows = dims[rank - 2];
    const int64_t columns = dims[rank - 1];
    strides[rank - 2] = columnMajor ? 1 : columns;
    strides[rank - 1] = columnMajor ? rows : 1;
    int64_t span = rows * columns;
    for (size_t i = rank - 2; i-- > 0;) {
        strides[i] = span;
        span *= dims[i];
    }
    return strides;
}

int64_t matmulOutputUid(const MatmulCase& matmul) {
    switch (matmul.epilogue) {
        case MatmulEpilogue::None:
            return 3;
        case MatmulEpilogue::Bias:
            return 5;
        default:
            return 6;
    }
}

hipdnn_test_sdk::GraphBuilder matmulGraph(const MatmulCase& matmul) {
    const fb::DataType output = matmul.outputType == fb::DataType::UNSET ? matmul.type : matmul.outputType;
    const std::vector<int64_t> aDims =
        withMatrix(matmul.aBatch.empty() ? matmul.batch : matmul.aBatch, matmul.m, matmul.k);
    const std::vector<int64_t> bDims =
        withMatrix(matmul.bBatch.empty() ? matmul.batch : matmul.bBatch, matmul.k, matmul.n);
    const std::vector<int64_t> cDims = withMatrix(matmul.batch, matmul.m, matmul.n);
    const std::vector<int64_t> cStrides = matrixStrides(cDims, matmul.columnMajorOutput);
    const int64_t outputUid = matmulOutputUid(matmul);
    hipdnn_test_sdk::GraphBuilder graph("matmul_" + matmulCaseName(matmul));
    graph.setIoDataType(matmul.type)
        .setIntermediateDataType(fb::DataType::FLOAT)
        .setComputeDataType(fb::DataType::FLOAT)
        .addTensor(1, "a", matmul.type, aDims, matrixStrides(aDims, matmul.columnMajorA))
        .addTensor(2, "b", matmul.type, bDims, matrixStrides(bDims, matmul.columnMajorB))
        .addTensor(3, "c", outputUid == 3 ? output : fb::DataType::FLOAT, cDims, cStrides, outputUid != 3)
        .addMatmul("matmul", 1, 2, 3);
    switch (matmul.epilogue) {
        case MatmulEpilogue::None:
            return graph;
        case MatmulEpilogue::Relu:
            return graph.addTensor(6, "y", output, cDims, cStrides)
                .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 3, 6);
        default:
            break;
    }
    std::vector<int64_t> biasDims(cDims.size(), 1);
    biasDims[cDims.size() - (matmul.biasAlongN ? 2 : 1)] = matmul.biasAlongN ? matmul.m : matmul.n;
    graph.addTensor(4, "bias", output, biasDims)
        .addTensor(5, "biased", outputUid == 5 ? output : fb::DataType::FLOAT, cDims, cStrides,
                   outputUid != 5)
        .addPointwise("bias", fb::PointwiseMode::ADD, 3, 5, 4);
    if (matmul.epilogue == MatmulEpilogue::BiasRelu) {
        graph.addTensor(6, "y", output, cDims, cStrides)
            .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 5, 6);
    } else if (matmul.epilogue == MatmulEpilogue::BiasGelu) {
        graph.addTensor(6, "y", output, cDims, cStrides)
            .addPointwise("gelu", fb::PointwiseMode::GELU_APPROX_TANH_FWD, 5, 6);
    }
    return graph;
}

}  // namespace cuda_kernels_test
