// Randomized differential test: a few hundred random fused convolution graphs (1-D to 3-D shapes,
// channels-first and channels-last layouts chosen per tensor, residuals in their own layout, some
// broadcast, strides, asymmetric padding, dilation, groups, and an epilogue of bias / add / mul /
// activations in random order) run through the onednn plugin and the CPU reference. The graphs
// come from HIPDNN_GLOBAL_TEST_SEED, so a failure is reproduced by rerunning with the seed it
// prints; every failure names the graph.
#include "OnednnHarness.hpp"

#include <hipdnn_test_sdk/Seed.hpp>

#include <gtest/gtest.h>

#include <ostream>
#include <random>
#include <sstream>

namespace {

using namespace onednn_test;
using hipdnn_test_sdk::ToleranceOp;
using Mode = fb::PointwiseMode;
constexpr auto F32 = fb::DataType::FLOAT;

constexpr int kShards = 10;
constexpr int kGraphsPerShard = 30;

std::string listOf(const std::vector<int64_t>& values) {
    std::ostringstream out;
    out << '[';
    for (size_t i = 0; i < values.size(); ++i) {
        out << (i == 0 ? "" : ",") << values[i];
    }
    out << ']';
    return out.str();
}

class RandomGraph {
public:
    explicit RandomGraph(uint32_t seed) : _random(seed) {}

    int64_t between(int64_t low, int64_t high) {
        return std::uniform_int_distribution<int64_t>(low, high)(_random);
    }
    bool chance(double p) { return std::bernoulli_distribution(p)(_random); }
    template <class T>
    const T& pick(const std::vector<T>& values) {
        return values[static_cast<size_t>(between(0, static_cast<int64_t>(values.size()) - 1))];
    }

private:
    std::mt19937 _random;
};

struct Built {
    GraphBuilder builder{"random_fused_conv"};
    std::string description;
    int64_t reductionTerms = 0;
};

const char* layoutName(bool channelsLast) {
    return channelsLast ? "channels-last" : "channels-first";
}

Built randomFusedConvolution(RandomGraph& r) {
    Built built;
    std::ostringstream text;
    const int64_t spatial = r.pick<int64_t>({1, 2, 2, 2, 2, 2, 3});
    const int64_t groups = r.pick<int64_t>({1, 1, 1, 1, 2, 3, 4});
    // Mostly small channel counts, sometimes the widths at which oneDNN switches kernels.
    const int64_t perGroupIn = r.chance(0.15) ? r.pick<int64_t>({16, 32}) : r.between(1, 8);
    const int64_t perGroupOut = r.chance(0.15) ? r.pick<int64_t>({16, 32}) : r.between(1, 8);
    const int64_t n = r.between(1, 3);
    std::vector<int64_t> x{n, groups * perGroupIn};
    std::vector<int64_t> w{groups * perGroupOut, perGroupIn};
    std::vector<int64_t> y{n, groups * perGroupOut};
    hipdnn_test_sdk::ConvolutionGeometry geometry;
    int64_t filterVolume = 1;
    for (int64_t i = 0; i < spatial; ++i) {
        const int64_t filter = spatial == 3 ? r.between(1, 2) : r.pick<int64_t>({1, 1, 2, 3, 3, 5});
        const int64_t dilation = r.chance(0.25) ? 2 : 1;
        const int64_t stride = r.chance(0.3) ? 2 : 1;
        const int64_t extent = (filter - 1) * dilation + 1;
        const int64_t pre = r.between(0, extent - 1);
        const int64_t post = r.between(0, extent - 1);
        const int64_t input =
            spatial == 3 ? r.between(extent, 5) : r.between(std::max<int64_t>(extent, 1), 12);
        const int64_t output = (input + pre + post - extent) / stride + 1;
        x.push_back(input);
        w.push_back(filter);
        y.push_back(output);
        geometry.prePadding.push_back(pre);
        geometry.postPadding.push_back(post);
        geometry.stride.push_back(stride);
        geometry.dilation.push_back(dilation);
        filterVolume *= filter;
    }
    built.reductionTerms = perGroupIn * filterVolume;
    const bool xLast = r.chance(0.5);
    const bool wLast = r.chance(0.5);
    const bool yLast = r.chance(0.5);
    text << "x " << listOf(x) << ' ' << layoutName(xLast) << ", w " << listOf(w) << ' ' << layoutName(wLast)
         << ", groups " << groups << ", pre_padding " << listOf(geometry.prePadding) << ", post_padding "
         << listOf(geometry.postPadding) << ", stride " << listOf(geometry.stride) << ", dilation "
         << listOf(geometry.dilation) << ", y " << listOf(y) << ' ' << layoutName(yLast);

    auto& b = built.builder;
    int64_t nextUid = 1;
    const int64_t xUid = nextUid++;
    const int64_t wUid = nextUid++;
    b.addTensor(xUid, "x", F32, x, layoutStrides(x, xLast))
        .addTensor(wUid, "w", F32, w, layoutStrides(w, wLast));

    enum class Op { Bias, Add, Mul, Relu, Tanh, Sigmoid };
    const int64_t opCount = r.pick<int64_t>({0, 1, 1, 2, 2, 2, 3, 3, 4});
    std::vector<Op> ops;
    for (int64_t i = 0; i < opCount; ++i) {
        ops.push_back(r.pick<Op>({Op::Bias, Op::Add, Op::Add, Op::Add, Op::Mul, Op::Mul, Op::Relu, Op::Relu,
                                  Op::Tanh, Op::Sigmoid}));
    }
    // The running result: virtual while more nodes follow it, except now and then a non-virtual
    // intermediate (an extra output that splits the fused chain).
    int64_t current = nextUid++;
    auto addResult = [&](const std::string& name, bool last) {
        const bool isVirtual = !last && !r.chance(0.1);
        b.addTensor(current, name, F32, y, layoutStrides(y, yLast), isVirtual);
    };
    addResult("conv", ops.empty());
    b.addConvFprop("conv", xUid, wUid, current, geometry);
    text << "; epilogue:";
    if (ops.empty()) {
        text << " none";
    }
    for (size_t i = 0; i < ops.size(); ++i) {
        const bool last = i + 1 == ops.size();
        const int64_t in = current;
        const std::string step = "op" + std::to_string(i);
        if (ops[i] == Op::Relu || ops[i] == Op::Tanh || ops[i] == Op::Sigmoid) {
            const Mode mode = ops[i] == Op::Relu   ? Mode::RELU_FWD
                              : ops[i] == Op::Tanh ? Mode::TANH_FWD
                                                   : Mode::SIGMOID_FWD;
            current = nextUid++;
            addResult(step, last);
            b.addPointwise(step, mode, in, current);
            text << ' ' << fb::EnumNamePointwiseMode(mode);
            continue;
        }
        // A binary operand: per-channel for bias; for add and mul a full tensor, a per-channel
        // tensor or one broadcast along a random subset of dims, each in its own layout.
        std::vector<int64_t> operand(y.size(), 1);
        std::string shape;
        if (ops[i] == Op::Bias) {
            operand[1] = y[1];
            shape = "per-channel";
        } else {
            const int64_t kind = r.between(0, 9);
            if (kind < 6) {
                operand = y;
                shape = "full";
            } else if (kind < 8) {
                operand[1] = y[1];
                shape = "per-channel";
            } else {
                for (size_t d = 0; d < y.size(); ++d) {
                    operand[d] = r.chance(0.5) ? y[d] : 1;
                }
                shape = "broadcast";
            }
        }
        const bool operandLast = r.chance(0.5);
        const int64_t operandUid = nextUid++;
        b.addTensor(operandUid, step + "_operand", F32, operand, layoutStrides(operand, operandLast));
        current = nextUid++;
        addResult(step, last);
        const Mode mode = ops[i] == Op::Mul ? Mode::MUL : Mode::ADD;
        const bool operandFirst = r.chance(0.5);
        b.addPointwise(step, mode, operandFirst ? operandUid : in, current, operandFirst ? in : operandUid);
        text << ' ' << (ops[i] == Op::Bias ? "bias" : fb::EnumNamePointwiseMode(mode)) << '(' << shape << ' '
             << listOf(operand) << ' ' << layoutName(operandLast) << (operandFirst ? ", as in_0" : "") << ')';
    }
    built.description = text.str();
    return built;
}

class RandomFusedConvolution : public testing::TestWithParam<int> {};

TEST_P(RandomFusedConvolution, MatchesReference) {
    const int shard = GetParam();
    const uint32_t seed = hipdnn_test_sdk::globalTestSeed();
    RandomGraph random(seed * 7919U + static_cast<uint32_t>(shard) * 104729U + 17U);
    int failedGraphs = 0;
    for (int i = 0; i < kGraphsPerShard && failedGraphs < 5; ++i) {
        Built graph = randomFusedConvolution(random);
        SCOPED_TRACE("HIPDNN_GLOBAL_TEST_SEED=" + std::to_string(seed) + ", shard " + std::to_string(shard) +
                     ", graph " + std::to_string(i) + ": " + graph.description);
        const bool failedBefore = HasFailure();
        const int partsBefore =
            testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count();
        expectMatchesReference(graph.builder, ToleranceOp::ConvolutionFwd, {}, graph.reductionTerms);
        const int partsAfter =
            testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count();
        if (partsAfter > partsBefore || (!failedBefore && HasFailure())) {
            ++failedGraphs;
        }
    }
}

// The two reports that the random graphs generalize: shapes for which oneDNN 2.6 picks its gemm
// convolution on channels-last data, whose binary post-ops read the residual at the wrong element
// (213 of 216 and 280 of 288 elements wrong before).
struct GemmCase {
    std::vector<int64_t> x, w, padding;
    bool residualChannelsLast;
};

void PrintTo(const GemmCase& c, std::ostream* out) {
    *out << "x " << listOf(c.x) << " w " << listOf(c.w) << " padding " << listOf(c.padding) << " residual "
         << layoutName(c.residualChannelsLast);
}

class GemmConvolutionResidual : public testing::TestWithParam<GemmCase> {};

TEST_P(GemmConvolutionResidual, MatchesReference) {
    const auto& c = GetParam();
    std::vector<int64_t> y{c.x[0], c.w[0]};
    for (size_t i = 0; i < 2; ++i) {
        y.push_back(c.x[i + 2] + 2 * c.padding[i] - c.w[i + 2] + 1);
    }
    GraphBuilder builder("conv_add");
    builder.addTensor(1, "x", F32, c.x, layoutStrides(c.x, true))
        .addTensor(2, "w", F32, c.w, layoutStrides(c.w, true))
        .addTensor(3, "conv", F32, y, layoutStrides(y, true), true)
        .addTensor(4, "residual", F32, y, layoutStrides(y, c.residualChannelsLast))
        .addTensor(5, "y", F32, y, layoutStrides(y, true))
        .addConvFprop("conv", 1, 2, 3, {c.padding, c.padding, {1, 1}, {1, 1}})
        .addPointwise("add", Mode::ADD, 3, 5, 4);
    expectMatchesReference(builder, ToleranceOp::ConvolutionFwd, {}, c.w[1] * c.w[2] * c.w[3]);
}

INSTANTIATE_TEST_SUITE_P(Smoke, GemmConvolutionResidual,
                         testing::Values(GemmCase{{1, 2, 7, 7}, {3, 2, 2, 1}, {1, 1}, true},
                                         GemmCase{{1, 2, 7, 7}, {3, 2, 2, 1}, {1, 1}, false},
                                         GemmCase{{2, 64, 14, 14}, {64, 64, 3, 3}, {1, 1}, false}),
                         [](const testing::TestParamInfo<GemmCase>& info) {
                             return "C" + std::to_string(info.param.x[1]) + "K" +
                                    std::to_string(info.param.w[0]) +
                                    (info.param.residualChannelsLast ? "_ResidualNHWC" : "_ResidualNCHW");
                         });

INSTANTIATE_TEST_SUITE_P(Smoke, RandomFusedConvolution, testing::Range(0, kShards),
                         [](const testing::TestParamInfo<int>& info) {
                             return "Shard" + std::to_string(info.param);
                         });

}  // namespace
