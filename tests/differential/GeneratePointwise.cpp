// Chains of one to four pointwise nodes over broadcasting operands (dims of 1, pass-by-value
// scalars), intermediates virtual.
#include "Epilogue.hpp"

namespace hipdnn_differential {

namespace {

using Mode = fb::PointwiseMode;

struct Binary {
    Mode mode;
    const char* name;
    ValueRange operandRange;
};

// The operand of DIV stays away from zero so that the quotient is well conditioned.
const std::vector<Binary>& binaries() {
    static const std::vector<Binary> modes{
        {Mode::ADD, "add", {}},    {Mode::SUB, "sub", {}},    {Mode::MUL, "mul", {}},
        {Mode::MAX_OP, "max", {}}, {Mode::MIN_OP, "min", {}}, {Mode::DIV, "div", {0.5, 2.0}},
    };
    return modes;
}

// Comparisons flip on a rounding difference, so they only read inputs, never computed values.
const std::vector<Binary>& comparisons() {
    static const std::vector<Binary> modes{{Mode::CMP_EQ, "cmp_eq", {}}, {Mode::CMP_NEQ, "cmp_neq", {}},
                                           {Mode::CMP_GT, "cmp_gt", {}}, {Mode::CMP_GE, "cmp_ge", {}},
                                           {Mode::CMP_LT, "cmp_lt", {}}, {Mode::CMP_LE, "cmp_le", {}}};
    return modes;
}

struct Unary {
    Mode mode;
    const char* name;
    ValueRange domain;
};

// Functions with a restricted or steep domain; only the first node applies them, to inputs.
const std::vector<Unary>& domainUnaries() {
    static const std::vector<Unary> modes{{Mode::SQRT, "sqrt", {0.25, 4.0}},
                                          {Mode::RSQRT, "rsqrt", {0.25, 4.0}},
                                          {Mode::LOG, "log", {0.25, 4.0}},
                                          {Mode::RECIPROCAL, "reciprocal", {0.5, 2.0}},
                                          {Mode::EXP, "exp", {-2.0, 2.0}}};
    return modes;
}

// The dims of an operand that broadcasts into `dims`: each dim kept or set to 1.
Dims broadcastDims(Random& random, const Dims& dims) {
    Dims result = dims;
    for (int64_t& dim : result) {
        if (random.chance(0.5)) {
            dim = 1;
        }
    }
    return result;
}

}  // namespace

Problem generatePointwise(Random& random) {
    ProblemBuilder builder(random, "pointwise", hipdnn_test_sdk::ToleranceOp::Pointwise);
    const size_t rank = static_cast<size_t>(random.between(2, 5));
    Dims dims;
    for (size_t dim = 0; dim < rank; ++dim) {
        dims.push_back(random.between(1, rank >= 4 ? 6 : 12));
    }
    const bool channelsLast = random.chance(0.5);
    const Dims strides = activationStrides(dims, channelsLast);
    const DataType type = pickIoType(random);
    const int64_t nodeCount = random.between(1, 4);

    // The first node decides the input's domain.
    ValueRange inputRange;
    const int64_t first = random.between(0, 3);  // 0: domain unary, 1: comparison, else the common set
    std::optional<Unary> firstUnary;
    std::optional<Binary> firstComparison;
    if (first == 0) {
        firstUnary = random.pick(domainUnaries());
        inputRange = firstUnary->domain;
    } else if (first == 1) {
        firstComparison = random.pick(comparisons());
    }
    const int64_t x = builder.tensor("x", type, dims, strides, inputRange);

    struct Node {
        std::string name;
        Mode mode;
        int64_t in0;
        int64_t out;
        std::optional<int64_t> in1;
        hipdnn_test_sdk::PointwiseOptions options;
    };
    std::vector<Node> nodes;
    int64_t current = x;
    for (int64_t index = 0; index < nodeCount; ++index) {
        const bool last = index + 1 == nodeCount;
        const std::string suffix = std::to_string(index);
        const auto output = [&] {
            return last ? builder.tensor("y", type, dims, strides)
                        : builder.intermediate("t" + suffix, dims, strides);
        };
        const auto operand = [&](const Binary& binary) {
            if (random.chance(0.2)) {
                return builder.scalar("s" + suffix,
                                      random.real(binary.operandRange.low, binary.operandRange.high));
            }
            const Dims operandDims = broadcastDims(random, dims);
            return builder.tensor("b" + suffix, type, operandDims,
                                  activationStrides(operandDims, channelsLast), binary.operandRange);
        };
        if (index == 0 && firstUnary) {
            const int64_t out = output();
            nodes.push_back({firstUnary->name + suffix, firstUnary->mode, current, out, std::nullopt, {}});
            builder.addToFamily(firstUnary->name);
            current = out;
        } else if (index == 0 && firstComparison) {
            const int64_t in1 = operand(*firstComparison);
            const int64_t out = output();
            nodes.push_back({firstComparison->name + suffix, firstComparison->mode, current, out, in1, {}});
            builder.addToFamily(firstComparison->name);
            current = out;
        } else if (random.chance(0.5)) {
            const Binary& binary = random.pick(binaries());
            const int64_t in1 = operand(binary);
            const int64_t out = output();
            nodes.push_back({binary.name + suffix, binary.mode, current, out, in1, {}});
            builder.addToFamily(binary.name);
            current = out;
        } else {
            const Activation activation = pickActivation(random);
            const int64_t out = output();
            nodes.push_back(
                {activation.name + suffix, activation.mode, current, out, std::nullopt, activation.options});
            builder.addToFamily(activation.name);
            current = out;
        }
    }
    for (const Node& node : nodes) {
        builder.problem().graph.addPointwise(node.name, node.mode, node.in0, node.out, node.in1, std::nullopt,
                                             node.options);
    }
    return std::move(builder.problem());
}

}  // namespace hipdnn_differential
