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

std::vector<MatmulCase> matmulSmokeCases(fb::DataType type) {
    const MatmulCase odd{.type = type, .m = 37, .k = 129, .n = 65};
    std::vector<MatmulCase> cases;
    const auto add = [&](auto&& change) {
        MatmulCase matmul = odd;
        change(matmul);
        cases.push_back(matmul);
    };
    add([](MatmulCase&) {});
    add([](MatmulCase& m) { m.batch = {2, 3}; });
    add([](MatmulCase& m) {
        m.batch = {2, 3};
        m.bBatch = {1, 1};
    });
    add([](MatmulCase& m) {
        m.batch = {4};
        m.aBatch = {1};
        m.columnMajorA = true;
    });
    add([](MatmulCase& m) { m.columnMajorA = true; });
    add([](MatmulCase& m) { m.columnMajorB = true; });
    add([](MatmulCase& m) {
        m.columnMajorA = true;
        m.columnMajorB = true;
    });
    add([](MatmulCase& m) { m.columnMajorOutput = true; });
    add([](MatmulCase& m) { m.epilogue = MatmulEpilogue::Bias; });
    add([](MatmulCase& m) {
        m.batch = {3};
        m.epilogue = MatmulEpilogue::BiasRelu;
    });
    add([](MatmulCase& m) {
        m.columnMajorB = true;
        m.epilogue = MatmulEpilogue::BiasGelu;
    });
    add([](MatmulCase& m) { m.epilogue = MatmulEpilogue::Relu; });
    add([](MatmulCase& m) {
        m.columnMajorOutput = true;
        m.biasAlongN = true;
        m.epilogue = MatmulEpilogue::BiasRelu;
    });
    if (type != fb::DataType::FLOAT) {
        add([](MatmulCase& m) {
            m.outputType = fb::DataType::FLOAT;
            m.epilogue = MatmulEpilogue::BiasGelu;
        });
    }
    return cases;
}

std::vector<MatmulCase> matmulFullCases() {
    std::vector<MatmulCase> cases(5);
    cases[0] = {
        .type = fb::DataType::FLOAT, .m = 512, .k = 1024, .n = 768, .epilogue = MatmulEpilogue::BiasRelu};
    cases[1] = {
        .type = fb::DataType::HALF, .m = 1024, .k = 1024, .n = 1024, .epilogue = MatmulEpilogue::BiasGelu};
    cases[2] = {.type = fb::DataType::BFLOAT16,
                .m = 768,
                .k = 2048,
                .n = 512,
                .columnMajorB = true,
                .epilogue = MatmulEpilogue::Bias};
    cases[3] = {.type = fb::DataType::HALF,
                .m = 128,
                .k = 256,
                .n = 192,
                .batch = {4, 4},
                .bBatch = {1, 1},
                .epilogue = MatmulEpilogue::BiasGelu};
    cases[4] = {.type = fb::DataType::BFLOAT16,
                .outputType = fb::DataType::FLOAT,
                .m = 255,
                .k = 1000,
                .n = 129,
                .batch = {6},
                .columnMajorA = true};
    return cases;
}

MatmulCase randomMatmulCase(std::mt19937& random) {
    const auto pick = [&](int64_t low, int64_t high) {
        return std::uniform_int_distribution<int64_t>(low, high)(random);
    };
    const fb::DataType types[] = {fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16};
    MatmulCase matmul{.type = types[pick(0, 2)], .m = pick(1, 160), .k = pick(1, 300), .n = pick(1, 160)};
    for (int64_t dims = pick(0, 2); dims > 0; --dims) {
        matmul.batch.push_back(pick(1, 3));
    }
    // One operand may broadcast over every batch dim.
    const int64_t broadcast = matmul.batch.empty() ? 0 : pick(0, 2);
    if (broadcast == 1) {
        matmul.aBatch.assign(matmul.batch.size(), 1);
    } else if (broadcast == 2) {
        matmul.bBatch.assign(matmul.batch.size(), 1);
    }
    matmul.columnMajorA = pick(0, 1) == 1;
    matmul.columnMajorB = pick(0, 1) == 1;
    matmul.epilogue = static_cast<MatmulEpilogue>(pick(0, 4));
    const bool bias = matmul.epilogue == MatmulEpilogue::Bias ||
                      matmul.epilogue == MatmulEpilogue::BiasRelu ||
                      matmul.epilogue == MatmulEpilogue::BiasGelu;
    // A bias along N needs the column-major output; along M the row-major one.
    matmul.biasAlongN = bias && pick(0, 1) == 1;
    matmul.columnMajorOutput = bias ? matmul.biasAlongN : pick(0, 1) == 1;
    return matmul;
}

}  // namespace cuda_kernels_test
