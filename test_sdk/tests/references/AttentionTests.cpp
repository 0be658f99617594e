// The attention reference against a plain fp64 loop written here from the definition, and its
// backward pass against central differences of that loop: causal masks of both alignments,
// padding, grouped-query heads, broadcast bias, dropout, BSHD strides and seeded random shapes.
#include "ReferenceTestHelpers.hpp"

#include <hipdnn_test_sdk/Seed.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>
#include <hipdnn_test_sdk/references/Attention.hpp>

#include <hipdnn_data_sdk/types.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace reference_tests;
using hipdnn_data_sdk::types::bfloat16;
using hipdnn_data_sdk::types::half;
using refs::AttentionParams;
using Dims = std::vector<int64_t>;
using DataType = hipdnn_flatbuffers_sdk::data_objects::DataType;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct Problem {
    int64_t batch = 1, queryHeads = 1, kvHeads = 1, seqQ = 1, seqKv = 1, headDim = 1, valueDim = 1;
    Dims biasDims;  // empty: no bias
    bool bshd = false;
    AttentionParams params;

    Dims q() const { return {batch, queryHeads, seqQ, headDim}; }
    Dims k() const { return {batch, kvHeads, seqKv, headDim}; }
    Dims v() const { return {batch, kvHeads, seqKv, valueDim}; }
    Dims o() const { return {batch, queryHeads, seqQ, valueDim}; }
    Dims stats() const { return {batch, queryHeads, seqQ, 1}; }

    std::string describe() const {
        return "B" + std::to_string(batch) + " Hq" + std::to_string(queryHeads) + " Hk" +
               std::to_string(kvHeads) + " Sq" + std::to_string(seqQ) + " Skv" + std::to_string(seqKv) +
               " D" + std::to_string(headDim) + " Dv" + std::to_string(valueDim) +
               (params.causal ? " causal" : "") + (params.causalBottomRight ? " causal-bottom-right" : "") +
               (params.seqLenQ ? " padded" : "") + (biasDims.empty() ? "" : " bias") + (bshd ? " bshd" : "") +
               (params.dropoutProbability > 0 ? " dropout" : "");
    }
};

// Logical (row-major) values of every input, as doubles.
struct Inputs {
    std::vector<double> q, k, v, bias, dO;
};

// Values that are exact in every data type under test (multiples of 1/16 in [-1, 1]).
std::vector<double> randomValues(std::mt19937& random, int64_t count) {
    std::uniform_int_distribution<int> step(-16, 16);
    std::vector<double> values(static_cast<size_t>(count));
    for (auto& value : values) {
        value = step(random) / 16.0;
    }
    return values;
}

Inputs randomInputs(const Problem& p, std::mt19937& random) {
    Inputs in;
    in.q = randomValues(random, refs::elementCount(p.q()));
    in.k = randomValues(random, refs::elementCount(p.k()));
    in.v = randomValues(random, refs::elementCount(p.v()));
    in.bias =
        p.biasDims.empty() ? std::vector<double>{} : randomValues(random, refs::elementCount(p.biasDims));
    in.dO = randomValues(random, refs::elementCount(p.o()));
    return in;
}

int64_t at(const Dims& dims, int64_t a, int64_t b, int64_t c, int64_t d) {
    return ((a * dims[1] + b) * dims[2] + c) * dims[3] + d;
}

// softmax(scale q k^T + bias + mask) v straight from the definition, in double.
struct Explicit {
    std::vector<double> o, stats;
};

Explicit explicitForward(const Problem& p, const Inputs& in) {
    Explicit result{std::vector<double>(static_cast<size_t>(refs::elementCount(p.o())), 0.0),
                    std::vector<double>(static_cast<size_t>(refs::elementCount(p.stats())), kInfinity)};
    const int64_t group = p.queryHeads / p.kvHeads;
    for (int64_t b = 0; b < p.batch; ++b) {
        const int64_t rows = p.params.seqLenQ ? (*p.params.seqLenQ)[static_cast<size_t>(b)] : p.seqQ;
        const int64_t columns = p.params.seqLenKv ? (*p.params.seqLenKv)[static_cast<size_t>(b)] : p.seqKv;
        for (int64_t h = 0; h < p.queryHeads; ++h) {
            for (int64_t i = 0; i < rows; ++i) {
                std::vector<int64_t> keys;
                std::vector<double> scores;
                for (int64_t j = 0; j < columns; ++j) {
                    const bool hidden =
                        (p.params.causal && j > i) || (p.params.causalBottomRight && j > i + columns - rows);
                    if (hidden) {
                        continue;
                    }
                    double s = 0;
                    for (int64_t d = 0; d < p.headDim; ++d) {
                        s += in.q[at(p.q(), b, h, i, d)] * in.k[at(p.k(), b, h / group, j, d)];
                    }
                    s *= p.params.scale;
                    if (!p.biasDims.empty()) {
                        const Dims& bd = p.biasDims;
                        s += in.bias[at(bd, bd[0] == 1 ? 0 : b, bd[1] == 1 ? 0 : h, bd[2] == 1 ? 0 : i,
                                        bd[3] == 1 ? 0 : j)];
                    }
                    keys.push_back(j);
                    scores.push_back(s);
                }
                if (keys.empty()) {
                    continue;
                }
                double sum = 0;
                for (const double s : scores) {
                    sum += std::exp(s);
                }
                result.stats[at(p.stats(), b, h, i, 0)] = std::log(sum);
                for (size_t n = 0; n < keys.size(); ++n) {
                    const int64_t j = keys[n];
                    double weight = std::exp(scores[n]) / sum;
                    if (p.params.dropoutProbability > 0) {
                        const auto index =
                            static_cast<uint64_t>(at({p.batch, p.queryHeads, p.seqQ, p.seqKv}, b, h, i, j));
                        weight = refs::dropoutUniform(p.params.dropoutSeed, p.params.dropoutOffset, index) <
                                         p.params.dropoutProbability
                                     ? 0.0
                                     : weight / (1.0 - p.params.dropoutProbability);
                    }
                    for (int64_t d = 0; d < p.valueDim; ++d) {
                        result.o[at(p.o(), b, h, i, d)] += weight * in.v[at(p.v(), b, h / group, j, d)];
                    }
                }
            }
        }
    }
    return result;
}

// (B, S, H, D) in memory for the (B, H, S, D) dims.
Dims bshdStrides(const Dims& dims) {
    return {dims[1] * dims[2] * dims[3], dims[3], dims[1] * dims[3], 1};
}

template <class T>
StridedTensor<T> tensorOf(const Dims& dims, const std::vector<double>& values, bool bshd) {
    std::vector<T> converted;
    for (const double value : values) {
        converted.push_back(static_cast<T>(value));
    }
    return StridedTensor<T>(dims, bshd ? bshdStrides(dims) : refs::packedStrides(dims), converted);
}

template <class T>
std::vector<double> valuesOf(const StridedTensor<T>& tensor) {
    std::vector<double> values;
    for (const T& value : tensor.rowMajor()) {
        values.push_back(static_cast<double>(value));
    }
    return values;
}

// The reference's forward and backward results, as logical doubles.
struct ReferenceResult {
    std::vector<double> o, stats, dq, dk, dv;
};

template <class T>
ReferenceResult runReference(const Problem& p, const Inputs& in, bool backward) {
    const auto q = tensorOf<T>(p.q(), in.q, p.bshd);
    const auto k = tensorOf<T>(p.k(), in.k, p.bshd);
    const auto v = tensorOf<T>(p.v(), in.v, p.bshd);
    const auto bias = tensorOf<float>(p.biasDims, in.bias, false);
    std::optional<refs::TensorView<const float>> biasView;
    if (!p.biasDims.empty()) {
        biasView = bias.constView();
    }
    auto o = StridedTensor<T>(p.o(), p.bshd ? bshdStrides(p.o()) : refs::packedStrides(p.o()));
    auto stats = packedZeros<float>(p.stats());
    refs::sdpaForward<T>(p.params, q.constView(), k.constView(), v.constView(), biasView, o.view(),
                         stats.view());
    ReferenceResult result{valuesOf(o), valuesOf(stats), {}, {}, {}};
    if (!backward) {
        return result;
    }
    const auto dO = tensorOf<T>(p.o(), in.dO, p.bshd);
    auto dq = StridedTensor<T>(p.q(), p.bshd ? bshdStrides(p.q()) : refs::packedStrides(p.q()));
    auto dk = StridedTensor<T>(p.k(), p.bshd ? bshdStrides(p.k()) : refs::packedStrides(p.k()));
    auto dv = StridedTensor<T>(p.v(), p.bshd ? bshdStrides(p.v()) : refs::packedStrides(p.v()));
    refs::sdpaBackward<T>(p.params, q.constView(), k.constView(), v.constView(), o.constView(),
                          dO.constView(), stats.constView(), biasView, dq.view(), dk.view(), dv.view());
    result.dq = valuesOf(dq);
    result.dk = valuesOf(dk);
    result.dv = valuesOf(dv);
    return result;
}

void expectClose(const std::vector<double>& actual, const std::vector<double>& expected,
                 hipdnn_test_sdk::Tolerance tolerance, const std::string& what) {
    ASSERT_EQ(actual.size(), expected.size()) << what;
    for (size_t n = 0; n < actual.size(); ++n) {
        if (std::isinf(expected[n])) {
            EXPECT_EQ(actual[n], expected[n]) << what << " element " << n;
            continue;
        }
        EXPECT_NEAR(actual[n], expected[n], tolerance.absolute + tolerance.relative * std::fabs(expected[n]))
            << what << " element " << n;
    }
}

// d(sum(o * dO)) / d(input) by central differences of the explicit loop.
std::vector<double> numericGradient(const Problem& p, Inputs in, std::vector<double> Inputs::*input) {
    constexpr double kStep = 1e-5;
    std::vector<double> gradient((in.*input).size());
    const auto loss = [&] {
        const auto forward = explicitForward(p, in);
        double sum = 0;
        for (size_t n = 0; n < forward.o.size(); ++n) {
            sum += forward.o[n] * in.dO[n];
        }
        return sum;
    };
    for (size_t n = 0; n < gradient.size(); ++n) {
        const double saved = (in.*input)[n];
        (in.*input)[n] = saved + kStep;
        const double up = loss();
        (in.*input)[n] = saved - kStep;
        const double down = loss();
        (in.*input)[n] = saved;
        gradient[n] = (up - down) / (2 * kStep);
    }
    return gradient;
}

// Forward against the explicit loop and, in float, backward against central differences.
void checkProblem(const Problem& p, std::mt19937& random) {
    SCOPED_TRACE(p.describe());
    const Inputs in = randomInputs(p, random);
    const Explicit expected = explicitForward(p, in);
    const auto result = runReference<float>(p, in, true);
    // Only the final rounding to float separates the two: both accumulate in double.
    const hipdnn_test_sdk::Tolerance forwardTolerance{1e-6, 1e-6};
    expectClose(result.o, expected.o, forwardTolerance, "o");
    expectClose(result.stats, expected.stats, forwardTolerance, "stats");
    // The float rounding of o and the stats, then central differences (step 1e-5) of a loss of
    // order 1, bound the gradients' disagreement well below 1e-4.
    const hipdnn_test_sdk::Tolerance backwardTolerance{1e-4, 1e-4};
    expectClose(result.dq, numericGradient(p, in, &Inputs::q), backwardTolerance, "dq");
    expectClose(result.dk, numericGradient(p, in, &Inputs::k), backwardTolerance, "dk");
    expectClose(result.dv, numericGradient(p, in, &Inputs::v), backwardTolerance, "dv");
}

Problem problem(int64_t batch, int64_t queryHeads, int64_t kvHeads, int64_t seqQ, int64_t seqKv,
                int64_t headDim, int64_t valueDim) {
    Problem p;
    p.batch = batch;
    p.queryHeads = queryHeads;
    p.kvHeads = kvHeads;
    p.seqQ = seqQ;
    p.seqKv = seqKv;
    p.headDim = headDim;
    p.valueDim = valueDim;
    p.params.scale = 1.0 / std::sqrt(static_cast<double>(headDim));
    return p;
}

std::mt19937 seeded() {
    return std::mt19937(hipdnn_test_sdk::globalTestSeed());
}

TEST(Attention, PlainAndGroupedQueryHeads) {
    auto random = seeded();
    checkProblem(problem(1, 1, 1, 3, 4, 4, 4), random);
    checkProblem(problem(2, 4, 2, 3, 5, 4, 3), random);  // GQA, Dv != D
    checkProblem(problem(1, 3, 1, 2, 3, 2, 2), random);  // MQA
}

TEST(Attention, CausalMasksOfBothAlignments) {
    auto random = seeded();
    for (const auto& [seqQ, seqKv] : {std::pair{4, 4}, std::pair{3, 6}, std::pair{6, 3}}) {
        Problem topLeft = problem(1, 2, 1, seqQ, seqKv, 3, 3);
        topLeft.params.causal = true;
        checkProblem(topLeft, random);
        Problem bottomRight = topLeft;
        bottomRight.params.causal = false;
        bottomRight.params.causalBottomRight = true;
        checkProblem(bottomRight, random);
    }
}

TEST(Attention, PaddingMasksRowsAndColumnsPastTheLengths) {
    auto random = seeded();
    Problem p = problem(3, 2, 2, 5, 6, 3, 2);
    p.params.seqLenQ = std::vector<int64_t>{5, 2, 0};
    p.params.seqLenKv = std::vector<int64_t>{6, 3, 4};
    checkProblem(p, random);
    p.params.causalBottomRight = true;
    checkProblem(p, random);

    const Inputs in = randomInputs(p, random);
    const auto result = runReference<float>(p, in, true);
    // Batch 1 has rows 2.. padded: o and dq are 0 there, stats +inf; its keys 3.. get no gradient.
    for (int64_t h = 0; h < 2; ++h) {
        for (int64_t i = 2; i < 5; ++i) {
            EXPECT_EQ(result.o[at(p.o(), 1, h, i, 0)], 0.0);
            EXPECT_EQ(result.dq[at(p.q(), 1, h, i, 0)], 0.0);
            EXPECT_EQ(result.stats[at(p.stats(), 1, h, i, 0)], kInfinity);
        }
        for (int64_t j = 3; j < 6; ++j) {
            EXPECT_EQ(result.dk[at(p.k(), 1, h, j, 0)], 0.0);
            EXPECT_EQ(result.dv[at(p.v(), 1, h, j, 0)], 0.0);
        }
    }
}

TEST(Attention, FullyMaskedRowsAreZeroWithInfiniteStatsAndNoNaN) {
    auto random = seeded();
    // Bottom-right with Sq > Skv: the first Sq - Skv queries see no key.
    Problem p = problem(1, 1, 1, 5, 2, 2, 2);
    p.params.causalBottomRight = true;
    const auto result = runReference<float>(p, randomInputs(p, random), true);
    for (int64_t i = 0; i < 3; ++i) {
        EXPECT_EQ(result.stats[static_cast<size_t>(i)], kInfinity);
        for (int64_t d = 0; d < 2; ++d) {
            EXPECT_EQ(result.o[at(p.o(), 0, 0, i, d)], 0.0);
            EXPECT_EQ(result.dq[at(p.q(), 0, 0, i, d)], 0.0);
        }
    }
    for (const auto* values : {&result.o, &result.stats, &result.dq, &result.dk, &result.dv}) {
        for (const double value : *values) {
            EXPECT_FALSE(std::isnan(value));
        }
    }
    EXPECT_TRUE(std::isfinite(result.stats[3]));
}

TEST(Attention, BiasBroadcastsOverEveryDimOfOne) {
    auto random = seeded();
    for (const Dims& biasDims : {Dims{2, 2, 3, 4}, Dims{1, 2, 1, 4}, Dims{2, 1, 3, 1}, Dims{1, 1, 1, 1}}) {
        Problem p = problem(2, 2, 1, 3, 4, 3, 3);
        p.biasDims = biasDims;
        checkProblem(p, random);
    }
    // A bias of -inf masks like the causal mask does.
    Problem masked = problem(1, 1, 1, 2, 3, 2, 2);
    masked.biasDims = {1, 1, 2, 3};
    Inputs in = randomInputs(masked, random);
    in.bias = {0, -kInfinity, -kInfinity, 0, 0, -kInfinity};
    Problem causal = masked;
    causal.biasDims.clear();
    causal.params.causal = true;
    const auto withBias = runReference<float>(masked, in, false);
    const auto withCausal = runReference<float>(causal, in, false);
    EXPECT_EQ(withBias.o, withCausal.o);
    EXPECT_EQ(withBias.stats, withCausal.stats);
}

TEST(Attention, BshdStridesGiveTheSameResults) {
    auto random = seeded();
    Problem p = problem(2, 4, 2, 3, 5, 4, 3);
    p.params.causal = true;
    p.bshd = true;
    checkProblem(p, random);
    const Inputs in = randomInputs(p, random);
    const auto strided = runReference<float>(p, in, true);
    p.bshd = false;
    const auto packedResult = runReference<float>(p, in, true);
    EXPECT_EQ(strided.o, packedResult.o);
    EXPECT_EQ(strided.dq, packedResult.dq);
    EXPECT_EQ(strided.dk, packedResult.dk);
}

TEST(Attention, DropoutIsReproducibleAndConsistentWithBackward) {
    auto random = seeded();
    Problem p = problem(1, 2, 1, 4, 5, 3, 3);
    p.params.dropoutProbability = 0.3;
    p.params.dropoutSeed = 1234;
    p.params.dropoutOffset = 7;
    checkProblem(p, random);

    const Inputs in = randomInputs(p, random);
    const auto first = runReference<float>(p, in, false);
    EXPECT_EQ(runReference<float>(p, in, false).o, first.o);
    p.params.dropoutSeed = 4321;
    EXPECT_NE(runReference<float>(p, in, false).o, first.o);
    // Dropout leaves the statistics (of the weights before dropping) alone.
    EXPECT_EQ(runReference<float>(p, in, false).stats, first.stats);
}

TEST(Attention, DropoutDropsTheRequestedFraction) {
    constexpr double kProbability = 0.3;
    constexpr int kDraws = 100000;
    int dropped = 0;
    double sum = 0;
    for (int n = 0; n < kDraws; ++n) {
        const double u = refs::dropoutUniform(99, 5, static_cast<uint64_t>(n));
        ASSERT_GE(u, 0.0);
        ASSERT_LT(u, 1.0);
        dropped += u < kProbability ? 1 : 0;
        sum += u;
    }
    // Four standard deviations of a binomial count and of a uniform mean.
    const double sigma = std::sqrt(kDraws * kProbability * (1 - kProbability));
    EXPECT_NEAR(dropped, kDraws * kProbability, 4 * sigma);
    EXPECT_NEAR(sum / kDraws, 0.5, 4 * std::sqrt(1.0 / 12 / kDraws));
    // The offset shifts the counter: offset + index is what is hashed.
    EXPECT_EQ(refs::dropoutUniform(99, 5, 10), refs::dropoutUniform(99, 10, 5));
    EXPECT_NE(refs::dropoutUniform(99, 5, 10), refs::dropoutUniform(100, 5, 10));
}

TEST(Attention, HalfAndBfloat16RoundOnceOnStore) {
    auto random = seeded();
    Problem p = problem(2, 4, 2, 6, 7, 8, 8);
    p.params.causal = true;
    const Inputs in = randomInputs(p, random);
    const Explicit expected = explicitForward(p, in);
    const auto fp16 = runReference<half>(p, in, false);
    const auto bf16 = runReference<bfloat16>(p, in, false);
    // One rounding of a value of magnitude <= 1: half and bfloat16's unit roundoff.
    expectClose(fp16.o, expected.o, {std::ldexp(1.0, -11), std::ldexp(1.0, -11)}, "half o");
    expectClose(bf16.o, expected.o, {std::ldexp(1.0, -8), std::ldexp(1.0, -8)}, "bfloat16 o");
    // The statistics stay float.
    expectClose(fp16.stats, expected.stats, {1e-6, 1e-6}, "half stats");
}

TEST(Attention, SeededRandomProblems) {
    auto random = seeded();
    std::uniform_int_distribution<int64_t> small(1, 6);
    std::uniform_int_distribution<int> coin(0, 1);
    for (int n = 0; n < 40; ++n) {
        const int64_t kvHeads = small(random) % 2 + 1;
        Problem p = problem(small(random) % 2 + 1, kvHeads * (small(random) % 3 + 1), kvHeads,
                            small(random) + 1, small(random) + 1, small(random), small(random));
        const int mask = static_cast<int>(small(random) % 3);
        p.params.causal = mask == 1;
        p.params.causalBottomRight = mask == 2;
        if (coin(random) == 1) {
            p.params.scale = 0.25 * static_cast<double>(small(random));
        }
        if (coin(random) == 1) {
            p.biasDims = {coin(random) == 1 ? p.batch : 1, coin(random) == 1 ? p.queryHeads : 1,
                          coin(random) == 1 ? p.seqQ : 1, coin(random) == 1 ? p.seqKv : 1};
        }
        if (coin(random) == 1) {
            std::vector<int64_t> seqLenQ, seqLenKv;
            for (int64_t b = 0; b < p.batch; ++b) {
                seqLenQ.push_back(std::uniform_int_distribution<int64_t>(0, p.seqQ)(random));
                seqLenKv.push_back(std::uniform_int_distribution<int64_t>(0, p.seqKv)(random));
            }
            p.params.seqLenQ = seqLenQ;
            p.params.seqLenKv = seqLenKv;
        }
        if (coin(random) == 1) {
            p.params.dropoutProbability = 0.2;
            p.params.dropoutSeed = static_cast<uint64_t>(random());
            p.params.dropoutOffset = static_cast<uint64_t>(small(random));
        }
        p.bshd = coin(random) == 1;
        checkProblem(p, random);
    }
}

TEST(Attention, InconsistentInputsThrowNamingTheValue) {
    Problem p = problem(2, 2, 1, 3, 4, 2, 2);
    std::mt19937 random(1);
    const Inputs in = randomInputs(p, random);
    p.params.seqLenKv = std::vector<int64_t>{4, 5};
    p.params.seqLenQ = std::vector<int64_t>{3, 3};
    try {
        runReference<float>(p, in, false);
        FAIL() << "a sequence length beyond Skv was accepted";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("seq_len_kv[1] = 5 is outside [0, 4]"), std::string::npos)
            << error.what();
    }
    Problem heads = problem(1, 3, 2, 2, 2, 2, 2);
    const Inputs headInputs = randomInputs(heads, random);
    EXPECT_THROW(runReference<float>(heads, headInputs, false), std::invalid_argument);
    Problem bias = problem(1, 2, 1, 2, 3, 2, 2);
    bias.biasDims = {1, 2, 2, 2};
    const Inputs biasInputs = randomInputs(bias, random);
    EXPECT_THROW(runReference<float>(bias, biasInputs, false), std::invalid_argument);
}

TEST(Attention, ToleranceGrowsWithTheSquareRootOfTheReductionLength) {
    using hipdnn_test_sdk::attentionTolerance;
    using hipdnn_test_sdk::ToleranceOp;
    const auto base = attentionTolerance(ToleranceOp::Sdpa, DataType::HALF, 64);
    EXPECT_EQ(base.absolute, hipdnn_test_sdk::fixedTolerance(ToleranceOp::Sdpa, DataType::HALF).absolute);
    EXPECT_DOUBLE_EQ(attentionTolerance(ToleranceOp::Sdpa, DataType::HALF, 128 * 16).absolute,
                     4 * base.absolute);
    EXPECT_GT(attentionTolerance(ToleranceOp::SdpaBackward, DataType::HALF, 1).relative, base.relative);
    EXPECT_THROW(attentionTolerance(ToleranceOp::Matmul, DataType::HALF, 1), std::invalid_argument);
}

}  // namespace
