// CUBLASLT_ENGINE against the CPU reference: fp32 (strict, and TF32 through cublaslt.allow_tf32),
// fp16 and bf16 (also with an fp32 output); batched, broadcast batch, transposed A and B, a
// column-major output; bias, bias + relu, bias + tanh gelu, relu alone; odd and random shapes;
// misaligned pointers; the algorithm knob; plans of non-default knobs rebuilt from their bytes.
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

std::vector<MatmulCase> allSmokeCases() {
    std::vector<MatmulCase> cases;
    for (const fb::DataType type : {fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16}) {
        const std::vector<MatmulCase> typed = cuda_kernels_test::matmulSmokeCases(type);
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

INSTANTIATE_TEST_SUITE_P(Full, Matmul, testing::ValuesIn(cuda_kernels_test::matmulFullCases()), caseName);

// cuBLASLt's TF32 engines, asked for through the knob, within TF32's rounding.
TEST(SmokeMatmulTf32, AllowTf32MatchesWithinTf32Rounding) {
    SKIP_IF_NO_DEVICE();
    for (MatmulCase matmul : cuda_kernels_test::matmulSmokeCases(fb::DataType::FLOAT)) {
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

// Plans of non-default configurations rebuilt from their serialized bytes: the second heuristic
// candidate (SmokeMatmulAlgorithm finds several for this graph), and TF32 under a 1 MiB workspace
// limit. Had the rebuilt plan lost its knobs, it would run another algorithm, or strict fp32, whose
// bits differ from the first run's on random inputs.
TEST(SmokeMatmulSerialization, SerializedPlansKeepTheirKnobsAndRunBitIdentically) {
    SKIP_IF_NO_DEVICE();
    const MatmulCase half{
        .type = fb::DataType::HALF, .m = 256, .k = 256, .n = 256, .epilogue = MatmulEpilogue::BiasRelu};
    RunOptions second = matmulOptions(half);
    second.knobs["cublaslt.algorithm"] = 1;
    second.roundTripSerialization = true;
    expectMatchesReference(matmulGraph(half), second);

    const MatmulCase single{.type = fb::DataType::FLOAT, .m = 37, .k = 129, .n = 65};
    RunOptions tf32 = matmulOptions(single);
    tf32.knobs["cublaslt.allow_tf32"] = 1;
    tf32.knobs["global.workspace_size_limit"] = int64_t{1} << 20;
    tf32.bounds = tf32Tolerance(single.k);
    tf32.roundTripSerialization = true;
    expectMatchesReference(matmulGraph(single), tf32);
}

TEST(SmokeMatmulRandom, RandomShapesLayoutsAndEpilogues) {
    SKIP_IF_NO_DEVICE();
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed());
    for (int i = 0; i < 24; ++i) {
        const MatmulCase matmul = cuda_kernels_test::randomMatmulCase(random);
        SCOPED_TRACE(matmulCaseName(matmul));
        expectMatchesReference(matmulGraph(matmul), matmulOptions(matmul));
    }
}

}  // namespace
}  // namespace cuda_kernels_integration
