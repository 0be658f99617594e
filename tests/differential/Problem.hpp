// A random graph with what its comparison needs, and the helpers every generator uses to add
// tensors to it (layouts, value ranges, uids).
#pragma once

#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace hipdnn_differential {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using DataType = fb::DataType;
using Dims = std::vector<int64_t>;

/// The per-graph random source: every choice of a generator comes from here, so a graph is a
/// function of its seed.
class Random {
public:
    explicit Random(uint64_t seed) : _engine(seed) {}

    /// Uniform in [low, high].
    int64_t between(int64_t low, int64_t high) {
        return std::uniform_int_distribution<int64_t>(low, high)(_engine);
    }
    double real(double low, double high) {
        return std::uniform_real_distribution<double>(low, high)(_engine);
    }
    bool chance(double probability) { return std::bernoulli_distribution(probability)(_engine); }
    template <class T>
    const T& pick(const std::vector<T>& choices) {
        return choices[static_cast<size_t>(between(0, static_cast<int64_t>(choices.size()) - 1))];
    }

private:
    std::mt19937_64 _engine;
};

/// Inputs are drawn uniformly from a range; [-1, 1] unless the operation needs another domain.
struct ValueRange {
    double low = -1.0;
    double high = 1.0;
};

struct Problem {
    std::string family;  // "conv_fprop+bias+relu", for the reproducer
    hipdnn_test_sdk::GraphBuilder graph{"differential"};
    hipdnn_test_sdk::ToleranceOp toleranceOp = hipdnn_test_sdk::ToleranceOp::Pointwise;
    /// The longest sum behind one output element and a bound of its terms' magnitude: the fixed
    /// tolerance is widened for it (0 keeps the fixed table).
    int64_t reductionTerms = 0;
    double maxAbsTerm = 1.0;
    std::map<int64_t, ValueRange> ranges;
};

/// Adds tensors to a Problem with fresh uids.
class ProblemBuilder {
public:
    ProblemBuilder(Random& random, std::string family, hipdnn_test_sdk::ToleranceOp op) : _random(random) {
        _problem.family = std::move(family);
        _problem.toleranceOp = op;
    }

    Random& random() { return _random; }
    Problem& problem() { return _problem; }
    void addToFamily(const std::string& part) { _problem.family += "+" + part; }

    /// A real tensor with the given strides (packed row-major when empty).
    int64_t tensor(const std::string& name, DataType type, const Dims& dims, const Dims& strides = {},
                   ValueRange range = {});
    /// A virtual FLOAT intermediate in the layout of `strides`.
    int64_t intermediate(const std::string& name, const Dims& dims, const Dims& strides);
    int64_t scalar(const std::string& name, double value);

private:
    Random& _random;
    Problem _problem;
    int64_t _nextUid = 1;
};

/// Packed strides for an activation-like tensor (N, C, spatial...): channels second or last.
Dims activationStrides(const Dims& dims, bool channelsLast);

/// (1, C, 1, ...) for per-channel parameters of an activation of rank `rank`.
Dims channelDims(int64_t channels, size_t rank);

/// FLOAT most of the time; HALF and BFLOAT16 for the engines that claim them.
DataType pickIoType(Random& random);

/// Which families a generator makes; each returns a graph valid by construction.
Problem generateConvolution(Random& random);
Problem generateMatmul(Random& random);
Problem generatePointwise(Random& random);
Problem generateBatchnorm(Random& random);
Problem generateLayerRmsNorm(Random& random);
Problem generateReduction(Random& random);
Problem generatePooling(Random& random);

/// One graph of a family drawn from `random`.
Problem generateProblem(Random& random);

}  // namespace hipdnn_differential
