// CUBLASLT_ENGINE against the CPU reference: fp32 (strict, and TF32 through cublaslt.allow_tf32),
// fp16 and bf16 (also with an fp32 output); batched, broadcast batch, transposed A and B, a
// column-major output; bias, bias + relu, bias + tanh gelu, relu alone; odd and random shapes;
// misaligned pointers; the algorithm knob.
#include "../tests/MatmulGraphs.hpp"
#include "EngineHarness.hpp"

#include <hipdnn_test_sdk/Seed.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace cuda_kernels_integration {
namespace {

using cuda_kernels_test::MatmulCase;
using cuda_kernels_test::matmulCaseName;
using cuda_kernels_test::MatmulEpilogue;
using cuda_kernels_test::matmulGraph;

RunOptions matmulOptions(const MatmulCase& matmul) {
    RunOptions options;
    options.engineId = hipdnn_data_sdk::utilities::CUBLASLT_ENGINE_ID;
    options.tolerance = hipdnn_test_sdk::ToleranceOp::Matmul;
    options.reductionTerms = matmul.k;
    return options;
}

// TF32 keeps 10 of fp32's 23 mantissa bits of each input: every product is off by up to about
// 2^-10 of itself, and K such errors add up like a random walk (inputs in [-1, 1]).
hipdnn_test_sdk::Tolerance tf32Tolerance(int64_t k) {
    return {.absolute = 16 * std::ldexp(1.0, -11) * std::sqrt(static_cast<double>(k)), .relative = 1e-2};
}

std::vector<MatmulCase> smokeCases(fb::DataType type) {
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

std::vector<MatmulCase> allSmokeCases() {
    std::vector<MatmulCase> cases;
    for (const fb::DataType type : {fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16}) {
        const std::vector<MatmulCase> typed = smokeCases(type);
        cases.insert(cases.end(), typed.begin(), typed.end());
    }
    return cases;
}

std::string caseName(const testing::TestParamInfo<MatmulCase>& info) {
    return matmulCaseName(info.param);
}

class Matmul : public testing::TestWithParam<MatmulCase> {};

TEST_P(Matmul, MatchesReference) {
    SKIP_IF_NO_DEVICE();
    expectMatchesReference(matmulGraph(GetParam()), matmulOptions(GetParam()));
}

TEST_P(Matmul, MisalignedPointers) {
    SKIP_IF_NO_DEVICE();
    RunOptions options = matmulOptions(GetParam());
    options.misalign = true;
    expectMatchesReference(matmulGraph(GetParam()), options);
}

INSTANTIATE_TEST_SUITE_P(Smoke, Matmul, testing::ValuesIn(allSmokeCases()), caseName);

INSTANTIATE_TEST_SUITE_P(Full, Matmul,
                         testing::Values(MatmulCase{.type = fb::DataType::FLOAT,
                                                    .m = 512,
                                                    .k = 1024,
                                                    .n = 768,
                                                    .epilogue = MatmulEpilogue::BiasRelu},
                                         MatmulCase{.type = fb::DataType::HALF,
                                                    .m = 1024,
                                                    .k = 1024,
                                                    .n = 1024,
                                                    .epilogue = MatmulEpilogue::BiasGelu},
                                         MatmulCase{.type = fb::DataType::BFLOAT16,
                                                    .m = 768,
                                                    .k = 2048,
                                                    .n = 512,
                                                    .columnMajorB = true,
                                                    .epilogue = MatmulEpilogue::Bias},
                                         MatmulCase{.type = fb::DataType::HALF,
                                                    .m = 128,
                                                    .k = 256,
                                                    .n = 192,
                                                    .batch = {4, 4},
                                                    .bBatch = {1, 1},
                                                    .epilogue = MatmulEpilogue::BiasGelu},
                                         MatmulCase{.type = fb::DataType::BFLOAT16,
                                                    .outputType = fb::DataType::FLOAT,
                                                    .m = 255,
                                                    .k = 1000,
                                                    .n = 129,
                                                    .batch = {6},
                                                    .columnMajorA = true}),
                         caseName);

// cuBLASLt's TF32 engines, asked for through the knob, within TF32's rounding.
TEST(SmokeMatmulTf32, AllowTf32MatchesWithinTf32Rounding) {
    SKIP_IF_NO_DEVICE();
    for (MatmulCase matmul : smokeCases(fb::DataType::FLOAT)) {
        SCOPED_TRACE(matmulCaseName(matmul));
        RunOptions options = matmulOptions(matmul);
        options.knobs["cublaslt.allow_tf32"] = 1;
        options.bounds = tf32Tolerance(matmul.k);
        expectMatchesReference(matmulGraph(matmul), options);
    }
}

// Sums of 32 terms in [1, 1 + 2^-10] (b is all ones): strict fp32 is off by a few 1e-6, while TF32,
// which keeps 10 mantissa bits of each input, is off by about 1.6e-3; the tight bound fails TF32.
TEST(SmokeMatmulStrictFp32, DoesNotRoundInputsToTf32) {
    SKIP_IF_NO_DEVICE();
    const MatmulCase matmul{.type = fb::DataType::FLOAT, .m = 37, .k = 32, .n = 65};
    RunOptions options = matmulOptions(matmul);
    options.ranges[1] = {1.0, 1.0 + std::ldexp(1.0, -10)};
    options.ranges[2] = {1.0, 1.0};
    options.bounds = hipdnn_test_sdk::Tolerance{.absolute = 1e-4, .relative = 0.0};
    expectMatchesReference(matmulGraph(matmul), options);
}

// The knob picks a heuristic candidate other than the best; an index beyond the candidates is
// refused when the plan is built, naming the knob and how many candidates there are.
TEST(SmokeMatmulAlgorithm, EveryCandidateMatchesOrTheIndexIsRefused) {
    SKIP_IF_NO_DEVICE();
    const MatmulCase matmul{
        .type = fb::DataType::HALF, .m = 256, .k = 256, .n = 256, .epilogue = MatmulEpilogue::BiasRelu};
    bool refused = false;
    for (int64_t algorithm = 0; algorithm < 16 && !refused; ++algorithm) {
        SCOPED_TRACE("cublaslt.algorithm = " + std::to_string(algorithm));
        RunOptions options = matmulOptions(matmul);
        options.knobs["cublaslt.algorithm"] = algorithm;
        std::string error;
        options.planError = &error;
        expectMatchesReference(matmulGraph(matmul), options);
        refused = !error.empty();
        if (refused) {
            EXPECT_GT(algorithm, 0) << "the best candidate must plan: " << error;
            EXPECT_NE(error.find("cublaslt.algorithm = " + std::to_string(algorithm) +
                                 " is out of range: cuBLASLt's heuristics returned " +
                                 std::to_string(algorithm) + " candidates"),
                      std::string::npos)
                << error;
        }
    }
}

MatmulCase randomCase(std::mt19937& random) {
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

TEST(SmokeMatmulRandom, RandomShapesLayoutsAndEpilogues) {
    SKIP_IF_NO_DEVICE();
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed());
    for (int i = 0; i < 24; ++i) {
        const MatmulCase matmul = randomCase(random);
        SCOPED_TRACE(matmulCaseName(matmul));
        expectMatchesReference(matmulGraph(matmul), matmulOptions(matmul));
    }
}

}  // namespace
}  // namespace cuda_kernels_integration
