// Batch norm inference (inv_variance or variance + epsilon), training (with or without running
// statistics) and backward, 1-D to 3-D, channels first or last, with a fused relu after the
// forward ones.
#include "Problem.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

namespace hipdnn_differential {

using hipdnn_test_sdk::ToleranceOp;

namespace {

// Per-channel tensors are FLOAT with a unit channel stride, as the batch norm contract asks.
int64_t channelTensor(ProblemBuilder& builder, const std::string& name, int64_t channels, size_t rank,
                      ValueRange range = {}) {
    return builder.tensor(name, DataType::FLOAT, channelDims(channels, rank), {}, range);
}

}  // namespace

Problem generateBatchnorm(Random& random) {
    const int64_t kind = random.between(0, 3);  // inference, inference with variance, training, backward
    static const char* const names[] = {"bn_inference", "bn_inference_variance", "bn_training",
                                        "bn_backward"};
    static const ToleranceOp ops[] = {ToleranceOp::BatchnormInference,
                                      ToleranceOp::BatchnormInferenceVariance, ToleranceOp::BatchnormTraining,
                                      ToleranceOp::BatchnormBackward};
    ProblemBuilder builder(random, names[kind], ops[kind]);
    const size_t rank = static_cast<size_t>(random.between(3, 5));
    const int64_t c = random.between(1, 8);
    Dims dims{random.between(1, 4), c};
    for (size_t dim = 2; dim < rank; ++dim) {
        dims.push_back(random.between(1, rank == 5 ? 4 : 7));
    }
    // Training divides by (count - 1) for the unbiased running variance: at least two values.
    if (kind == 2 && hipdnn_data_sdk::utilities::elementCount(dims) / c < 2) {
        dims[0] = 2;
    }
    const Dims strides = activationStrides(dims, random.chance(0.5));
    const DataType type = pickIoType(random);
    const ValueRange positive{0.5, 2.0};
    auto& problem = builder.problem();
    problem.reductionTerms = hipdnn_data_sdk::utilities::elementCount(dims) / c;

    // The forward kinds may end in a relu that an engine fuses into the normalization.
    const bool relu = kind != 3 && random.chance(0.3);
    const auto output = [&](int64_t& normalized) {
        normalized =
            relu ? builder.intermediate("bn_y", dims, strides) : builder.tensor("y", type, dims, strides);
        return relu ? builder.tensor("y", type, dims, strides) : normalized;
    };

    const int64_t x = builder.tensor("x", type, dims, strides);
    int64_t normalized = 0;
    if (kind == 0) {
        const int64_t mean = channelTensor(builder, "mean", c, rank);
        const int64_t invVariance = channelTensor(builder, "inv_variance", c, rank, positive);
        const int64_t scale = channelTensor(builder, "scale", c, rank);
        const int64_t bias = channelTensor(builder, "bias", c, rank);
        const int64_t y = output(normalized);
        problem.graph.addBatchnormInference(names[kind], x, mean, invVariance, scale, bias, normalized);
        if (relu) {
            problem.graph.addPointwise("relu", fb::PointwiseMode::RELU_FWD, normalized, y);
        }
    } else if (kind == 1) {
        const int64_t mean = channelTensor(builder, "mean", c, rank);
        const int64_t variance = channelTensor(builder, "variance", c, rank, positive);
        const int64_t scale = channelTensor(builder, "scale", c, rank);
        const int64_t bias = channelTensor(builder, "bias", c, rank);
        const int64_t epsilon = builder.scalar("epsilon", 1e-5);
        const int64_t y = output(normalized);
        problem.graph.addBatchnormInferenceVariance(names[kind], x, mean, variance, scale, bias, epsilon,
                                                    normalized);
        if (relu) {
            problem.graph.addPointwise("relu", fb::PointwiseMode::RELU_FWD, normalized, y);
        }
    } else if (kind == 2) {
        hipdnn_test_sdk::BatchnormTrainingPorts ports;
        ports.x = x;
        ports.scale = channelTensor(builder, "scale", c, rank);
        ports.bias = channelTensor(builder, "bias", c, rank);
        ports.epsilon = builder.scalar("epsilon", 1e-5);
        if (random.chance(0.7)) {
            ports.prevRunningMean = channelTensor(builder, "running_mean", c, rank);
            ports.prevRunningVariance = channelTensor(builder, "running_variance", c, rank, positive);
            ports.momentum = builder.scalar("momentum", 0.1);
            ports.nextRunningMean = channelTensor(builder, "next_running_mean", c, rank);
            ports.nextRunningVariance = channelTensor(builder, "next_running_variance", c, rank);
            builder.addToFamily("running_stats");
        }
        ports.mean = channelTensor(builder, "saved_mean", c, rank);
        ports.invVariance = channelTensor(builder, "saved_inv_variance", c, rank);
        const int64_t y = output(normalized);
        ports.y = normalized;
        problem.graph.addBatchnormTraining(names[kind], ports);
        if (relu) {
            problem.graph.addPointwise("relu", fb::PointwiseMode::RELU_FWD, normalized, y);
        }
    } else {
        hipdnn_test_sdk::BatchnormBackwardPorts ports;
        ports.dy = builder.tensor("dy", type, dims, strides);
        ports.x = x;
        ports.scale = channelTensor(builder, "scale", c, rank);
        ports.mean = channelTensor(builder, "saved_mean", c, rank, {-0.1, 0.1});
        ports.invVariance = channelTensor(builder, "saved_inv_variance", c, rank, positive);
        ports.dx = builder.tensor("dx", type, dims, strides);
        ports.dscale = channelTensor(builder, "dscale", c, rank);
        ports.dbias = channelTensor(builder, "dbias", c, rank);
        problem.graph.addBatchnormBackward(names[kind], ports);
    }
    if (relu) {
        builder.addToFamily("relu");
    }
    return std::move(builder.problem());
}

}  // namespace hipdnn_differential
