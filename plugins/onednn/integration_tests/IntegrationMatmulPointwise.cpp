// Matmul (2-D, batched, batch broadcast from 1, transposed operands through strides) and every
// pointwise mode the engine maps (unary eltwise, binary with broadcast and scalars).
#include "OnednnHarness.hpp"

#include <gtest/gtest.h>

namespace {

using namespace onednn_test;
using hipdnn_test_sdk::PointwiseOptions;
using hipdnn_test_sdk::ToleranceOp;
using Mode = fb::PointwiseMode;
constexpr auto F32 = fb::DataType::FLOAT;

struct MatmulCase {
    std::string name;
    std::vector<int64_t> a, aStrides, b, bStrides, c;
};

class Matmul : public testing::TestWithParam<MatmulCase> {};

TEST_P(Matmul, MatchesReference) {
    const auto& m = GetParam();
    GraphBuilder builder("matmul");
    builder.addTensor(1, "a", F32, m.a, m.aStrides)
        .addTensor(2, "b", F32, m.b, m.bStrides)
        .addTensor(3, "c", F32, m.c)
        .addMatmul("mm", 1, 2, 3);
    expectMatchesReference(builder, ToleranceOp::Matmul, {}, m.a.back());
}

INSTANTIATE_TEST_SUITE_P(
    Smoke, Matmul,
    testing::Values(MatmulCase{"Plain2d", {16, 24}, {}, {24, 8}, {}, {16, 8}},
                    MatmulCase{"Batched", {3, 5, 7}, {}, {3, 7, 4}, {}, {3, 5, 4}},
                    MatmulCase{"BroadcastBatchOfB", {2, 3, 5, 7}, {}, {1, 3, 7, 4}, {}, {2, 3, 5, 4}},
                    MatmulCase{"TransposedB", {9, 12}, {}, {12, 6}, {1, 12}, {9, 6}},
                    MatmulCase{"TransposedA", {4, 10, 6}, {60, 1, 10}, {4, 6, 3}, {}, {4, 10, 3}}),
    [](const testing::TestParamInfo<MatmulCase>& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(Full, Matmul,
                         testing::Values(MatmulCase{"Large", {512, 1024}, {}, {1024, 256}, {}, {512, 256}}),
                         [](const testing::TestParamInfo<MatmulCase>& info) { return info.param.name; });

struct UnaryCase {
    std::string name;
    Mode mode;
    PointwiseOptions options;
    std::pair<float, float> range{-2.0F, 2.0F};
};

struct UnaryParam {
    UnaryCase unary;
    bool channelsLast;
};

class Unary : public testing::TestWithParam<UnaryParam> {};

TEST_P(Unary, MatchesReference) {
    const auto& [u, channelsLast] = GetParam();
    const std::vector<int64_t> dims{2, 5, 3, 4};
    GraphBuilder builder("unary");
    builder.addTensor(1, "x", F32, dims, layoutStrides(dims, channelsLast))
        .addTensor(2, "y", F32, dims, layoutStrides(dims, channelsLast))
        .addPointwise("op", u.mode, 1, 2, {}, {}, u.options);
    expectMatchesReference(builder, ToleranceOp::Pointwise, {{1, u.range}});
}

std::vector<UnaryParam> unaryParams() {
    const std::vector<UnaryCase> cases{
        {"Relu", Mode::RELU_FWD, {}},
        {"ReluClip", Mode::RELU_FWD, reluClip(-0.5F, 1.0F)},
        {"LeakyRelu", Mode::RELU_FWD, leakyRelu(0.2F)},
        {"Abs", Mode::ABS, {}},
        {"Elu", Mode::ELU_FWD, elu(0.5F)},
        {"Exp", Mode::EXP, {}},
        {"Gelu", Mode::GELU_FWD, {}},
        {"GeluTanh", Mode::GELU_APPROX_TANH_FWD, {}},
        {"Identity", Mode::IDENTITY, {}},
        {"Log", Mode::LOG, {}, {0.1F, 4.0F}},
        {"Neg", Mode::NEG, {}},
        {"Reciprocal", Mode::RECIPROCAL, {}, {0.5F, 4.0F}},
        {"Rsqrt", Mode::RSQRT, {}, {0.1F, 4.0F}},
        {"Sigmoid", Mode::SIGMOID_FWD, {}},
        {"Softplus", Mode::SOFTPLUS_FWD, {}},
        {"Sqrt", Mode::SQRT, {}, {0.0F, 4.0F}},
        {"Swish", Mode::SWISH_FWD, {}},
        {"Tanh", Mode::TANH_FWD, {}},
    };
    std::vector<UnaryParam> params;
    for (const auto& c : cases) {
        params.push_back({c, false});
        params.push_back({c, true});
    }
    return params;
}

INSTANTIATE_TEST_SUITE_P(Smoke, Unary, testing::ValuesIn(unaryParams()),
                         [](const testing::TestParamInfo<UnaryParam>& info) {
                             return info.param.unary.name + (info.param.channelsLast ? "_NHWC" : "_NCHW");
                         });

struct BinaryCase {
    std::string name;
    Mode mode;
    std::vector<int64_t> in1;  // broadcast against (2, 6, 3, 5)
};

struct BinaryParam {
    BinaryCase binary;
    bool channelsLast;
};

class Binary : public testing::TestWithParam<BinaryParam> {};

TEST_P(Binary, MatchesReference) {
    const auto& [b, channelsLast] = GetParam();
    const std::vector<int64_t> dims{2, 6, 3, 5};
    GraphBuilder builder("binary");
    builder.addTensor(1, "a", F32, dims, layoutStrides(dims, channelsLast))
        .addTensor(2, "b", F32, b.in1, layoutStrides(b.in1, channelsLast))
        .addTensor(3, "y", F32, dims, layoutStrides(dims, channelsLast))
        .addPointwise("op", b.mode, 1, 3, 2);
    // DIV stays away from zero divisors.
    Ranges ranges;
    if (b.mode == Mode::DIV) {
        ranges[2] = {0.5F, 2.0F};
    }
    expectMatchesReference(builder, ToleranceOp::Pointwise, ranges);
}

std::vector<BinaryParam> binaryParams() {
    const std::vector<int64_t> full{2, 6, 3, 5}, channel{1, 6, 1, 1}, row{1, 1, 1, 5};
    const std::vector<BinaryCase> cases{
        {"AddFull", Mode::ADD, full},
        {"AddChannel", Mode::ADD, channel},
        {"SubRow", Mode::SUB, row},
        {"MulChannel", Mode::MUL, channel},
        {"DivFull", Mode::DIV, full},
        {"MaxFull", Mode::MAX_OP, full},
        {"MinChannel", Mode::MIN_OP, channel},
        {"CmpGt", Mode::CMP_GT, full},
        {"CmpLe", Mode::CMP_LE, channel},
    };
    std::vector<BinaryParam> params;
    for (const auto& c : cases) {
        params.push_back({c, false});
        params.push_back({c, true});
    }
    return params;
}

INSTANTIATE_TEST_SUITE_P(Smoke, Binary, testing::ValuesIn(binaryParams()),
                         [](const testing::TestParamInfo<BinaryParam>& info) {
                             return info.param.binary.name + (info.param.channelsLast ? "_NHWC" : "_NCHW");
                         });

TEST(SmokeBinaryScalar, SubtractPassByValue) {
    GraphBuilder builder("sub_scalar");
    builder.addTensor(1, "a", F32, {4, 7})
        .addScalar(2, "k", F32, 0.25)
        .addTensor(3, "y", F32, {4, 7})
        .addPointwise("sub", Mode::SUB, 1, 3, 2);
    expectMatchesReference(builder, ToleranceOp::Pointwise);
}

TEST(SmokeBinarySwap, BroadcastFirstOperandOfCommutativeMode) {
    GraphBuilder builder("mul_swapped");
    builder.addTensor(1, "channel", F32, {1, 4, 1, 1})
        .addTensor(2, "a", F32, {2, 4, 3, 3})
        .addTensor(3, "y", F32, {2, 4, 3, 3})
        .addPointwise("mul", Mode::MUL, 1, 3, 2);
    expectMatchesReference(builder, ToleranceOp::Pointwise);
}

}  // namespace
