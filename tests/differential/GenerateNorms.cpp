// Layer norm (inference, or training with saved statistics; backward from saved statistics) and
// RMS norm (forward and backward) over every dim but the first; scale and bias cover the trailing dims from a
// random split on (broadcast over the others) and are laid out like x.
#include "Problem.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

namespace hipdnn_differential {

using hipdnn_test_sdk::ToleranceOp;

Problem generateLayerRmsNorm(Random& random) {
    const int64_t kind = random.between(0, 3);  // layernorm, rmsnorm, rmsnorm backward, layernorm backward
    static const char* const names[] = {"layernorm", "rmsnorm", "rmsnorm_backward", "layernorm_backward"};
    const bool layernorm = kind == 0 || kind == 3;
    ProblemBuilder builder(random, names[kind], layernorm ? ToleranceOp::Layernorm : ToleranceOp::RmsNorm);
    const size_t rank = static_cast<size_t>(random.between(2, 4));
    Dims dims;
    for (size_t dim = 0; dim < rank; ++dim) {
        dims.push_back(random.between(1, rank == 4 ? 6 : 16));
    }
    const auto split = static_cast<size_t>(random.between(1, static_cast<int64_t>(rank) - 1));
    Dims parameterDims = dims;
    for (size_t dim = 0; dim < split; ++dim) {
        parameterDims[dim] = 1;
    }
    Dims statisticsDims(rank, 1);
    statisticsDims[0] = dims[0];
    const bool channelsLast = random.chance(0.5);
    const Dims strides = activationStrides(dims, channelsLast);
    const Dims parameterStrides = activationStrides(parameterDims, channelsLast);
    const DataType type = pickIoType(random);
    auto& problem = builder.problem();
    problem.reductionTerms = hipdnn_data_sdk::utilities::elementCount(dims) / dims[0];
    const auto parameter = [&](const std::string& name, ValueRange range = {}) {
        return builder.tensor(name, DataType::FLOAT, parameterDims, parameterStrides, range);
    };
    const auto statistic = [&](const std::string& name, ValueRange range = {}) {
        return builder.tensor(name, DataType::FLOAT, statisticsDims, {}, range);
    };

    if (kind == 0) {
        const int64_t x = builder.tensor("x", type, dims, strides);
        const int64_t scale = parameter("scale");
        const int64_t bias = parameter("bias");
        const int64_t epsilon = builder.scalar("epsilon", 1e-5);
        const int64_t y = builder.tensor("y", type, dims, strides);
        std::optional<int64_t> mean;
        std::optional<int64_t> invVariance;
        if (random.chance(0.5)) {
            mean = statistic("mean");
            invVariance = statistic("inv_variance");
            builder.addToFamily("training");
        }
        problem.graph.addLayernorm(names[kind], x, scale, bias, epsilon, y, mean, invVariance);
    } else if (kind == 1) {
        const int64_t x = builder.tensor("x", type, dims, strides);
        const int64_t scale = parameter("scale");
        const int64_t epsilon = builder.scalar("epsilon", 1e-5);
        const int64_t y = builder.tensor("y", type, dims, strides);
        const std::optional<int64_t> bias =
            random.chance(0.5) ? std::optional(parameter("bias")) : std::nullopt;
        const std::optional<int64_t> invRms =
            random.chance(0.5) ? std::optional(statistic("inv_rms")) : std::nullopt;
        problem.graph.addRmsNorm(names[kind], x, scale, epsilon, y, bias, invRms);
    } else if (kind == 2) {
        const int64_t dy = builder.tensor("dy", type, dims, strides);
        const int64_t x = builder.tensor("x", type, dims, strides);
        const int64_t scale = parameter("scale");
        const int64_t invRms = statistic("inv_rms", {0.5, 2.0});
        const int64_t dx = builder.tensor("dx", type, dims, strides);
        const int64_t dscale = parameter("dscale");
        const std::optional<int64_t> dbias =
            random.chance(0.5) ? std::optional(parameter("dbias")) : std::nullopt;
        problem.graph.addRmsNormBackward(names[kind], dy, x, scale, invRms, dx, dscale, dbias);
    } else {
        const int64_t dy = builder.tensor("dy", type, dims, strides);
        const int64_t x = builder.tensor("x", type, dims, strides);
        const int64_t scale = parameter("scale");
        const int64_t mean = statistic("mean");
        const int64_t invVariance = statistic("inv_variance", {0.5, 2.0});
        const int64_t dx = builder.tensor("dx", type, dims, strides);
        const int64_t dscale = parameter("dscale");
        const int64_t dbias = parameter("dbias");
        problem.graph.addLayernormBackward(names[kind], dy, x, scale, mean, invVariance, dx, dscale, dbias);
    }
    return std::move(builder.problem());
}

}  // namespace hipdnn_differential
