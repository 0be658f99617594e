// Batch norm (inference from inv_variance, inference from variance + epsilon, training with
// running statistics, backward) and layer norm (inference, training) against the CPU reference.
#include "OnednnHarness.hpp"

#include <gtest/gtest.h>

namespace {

using namespace onednn_test;
using hipdnn_test_sdk::ToleranceOp;
constexpr auto F32 = fb::DataType::FLOAT;

struct NormParam {
    std::string name;
    std::vector<int64_t> x;
    bool channelsLast;
};

std::vector<NormParam> normParams(const std::vector<std::pair<std::string, std::vector<int64_t>>>& shapes) {
    std::vector<NormParam> params;
    for (const auto& [name, dims] : shapes) {
        params.push_back({name + "_ChannelsFirst", dims, false});
        params.push_back({name + "_ChannelsLast", dims, true});
    }
    return params;
}

std::string normName(const testing::TestParamInfo<NormParam>& info) {
    return info.param.name;
}

class Batchnorm : public testing::TestWithParam<NormParam> {
protected:
    std::vector<int64_t> channelDims() const {
        std::vector<int64_t> c(GetParam().x.size(), 1);
        c[1] = GetParam().x[1];
        return c;
    }
    std::vector<int64_t> strides(const std::vector<int64_t>& dims) const {
        return layoutStrides(dims, GetParam().channelsLast);
    }
};

TEST_P(Batchnorm, InferenceFromInverseVariance) {
    const auto& x = GetParam().x;
    const auto c = channelDims();
    GraphBuilder builder("bn_inference");
    builder.addTensor(1, "x", F32, x, strides(x))
        .addTensor(2, "mean", F32, c, strides(c))
        .addTensor(3, "inv_variance", F32, c, strides(c))
        .addTensor(4, "scale", F32, c, strides(c))
        .addTensor(5, "bias", F32, c, strides(c))
        .addTensor(6, "y", F32, x, strides(x))
        .addBatchnormInference("bn", 1, 2, 3, 4, 5, 6);
    expectMatchesReference(builder, ToleranceOp::BatchnormInference, {{3, {0.5F, 2.0F}}});
}

TEST_P(Batchnorm, InferenceFromVariance) {
    const auto& x = GetParam().x;
    const auto c = channelDims();
    GraphBuilder builder("bn_inference_variance");
    builder.addTensor(1, "x", F32, x, strides(x))
        .addTensor(2, "mean", F32, c, strides(c))
        .addTensor(3, "variance", F32, c, strides(c))
        .addTensor(4, "scale", F32, c, strides(c))
        .addTensor(5, "bias", F32, c, strides(c))
        .addScalar(6, "epsilon", F32, 1e-3)
        .addTensor(7, "y", F32, x, strides(x))
        .addBatchnormInferenceVariance("bn", 1, 2, 3, 4, 5, 6, 7);
    expectMatchesReference(builder, ToleranceOp::BatchnormInferenceVariance, {{3, {0.1F, 2.0F}}});
}

TEST_P(Batchnorm, TrainingWithRunningStatistics) {
    const auto& x = GetParam().x;
    const auto c = channelDims();
    GraphBuilder builder("bn_training");
    builder.addTensor(1, "x", F32, x, strides(x))
        .addTensor(2, "scale", F32, c, strides(c))
        .addTensor(3, "bias", F32, c, strides(c))
        .addScalar(4, "epsilon", F32, 1e-5)
        .addTensor(5, "y", F32, x, strides(x))
        .addTensor(6, "mean", F32, c, strides(c))
        .addTensor(7, "inv_variance", F32, c, strides(c))
        .addTensor(8, "prev_running_mean", F32, c, strides(c))
        .addTensor(9, "prev_running_variance", F32, c, strides(c))
        .addScalar(10, "momentum", F32, 0.1)
        .addTensor(11, "next_running_mean", F32, c, strides(c))
        .addTensor(12, "next_running_variance", F32, c, strides(c));
    hipdnn_test_sdk::BatchnormTrainingPorts ports;
    ports.x = 1;
    ports.scale = 2;
    ports.bias = 3;
    ports.epsilon = 4;
    ports.y = 5;
    ports.mean = 6;
    ports.invVariance = 7;
    ports.prevRunningMean = 8;
    ports.prevRunningVariance = 9;
    ports.momentum = 10;
    ports.nextRunningMean = 11;
    ports.nextRunningVariance = 12;
    builder.addBatchnormTraining("bn", ports);
    expectMatchesReference(builder, ToleranceOp::BatchnormTraining, {{9, {0.5F, 2.0F}}});
}

TEST_P(Batchnorm, Backward) {
    const auto& x = GetParam().x;
    const auto c = channelDims();
    GraphBuilder builder("bn_backward");
    builder.addTensor(1, "dy", F32, x, strides(x))
        .addTensor(2, "x", F32, x, strides(x))
        .addTensor(3, "mean", F32, c, strides(c))
        .addTensor(4, "inv_variance", F32, c, strides(c))
        .addTensor(5, "scale", F32, c, strides(c))
        .addTensor(6, "dx", F32, x, strides(x))
        .addTensor(7, "dscale", F32, c, strides(c))
        .addTensor(8, "dbias", F32, c, strides(c));
    hipdnn_test_sdk::BatchnormBackwardPorts ports;
    ports.dy = 1;
    ports.x = 2;
    ports.scale = 5;
    ports.dx = 6;
    ports.dscale = 7;
    ports.dbias = 8;
    ports.mean = 3;
    ports.invVariance = 4;
    builder.addBatchnormBackward("bn_bwd", ports);
    expectMatchesReference(builder, ToleranceOp::BatchnormBackward, {{4, {0.5F, 2.0F}}});
}

INSTANTIATE_TEST_SUITE_P(Smoke, Batchnorm,
                         testing::ValuesIn(normParams({{"2d", {2, 5, 4, 3}}, {"3d", {2, 3, 3, 4, 2}}})),
                         normName);
INSTANTIATE_TEST_SUITE_P(Full, Batchnorm, testing::ValuesIn(normParams({{"Resnet", {8, 64, 28, 28}}})),
                         normName);

class Layernorm : public testing::TestWithParam<NormParam> {
protected:
    void run(bool training) {
        const auto& [name, x, channelsLast] = GetParam();
        std::vector<int64_t> params = x;
        params[0] = 1;
        std::vector<int64_t> stats(x.size(), 1);
        stats[0] = x[0];
        GraphBuilder builder("layernorm");
        builder.addTensor(1, "x", F32, x, layoutStrides(x, channelsLast))
            .addTensor(2, "scale", F32, params, layoutStrides(params, channelsLast))
            .addTensor(3, "bias", F32, params, layoutStrides(params, channelsLast))
            .addScalar(4, "epsilon", F32, 1e-5)
            .addTensor(5, "y", F32, x, layoutStrides(x, channelsLast));
        if (training) {
            builder.addTensor(6, "mean", F32, stats, layoutStrides(stats, channelsLast))
                .addTensor(7, "inv_variance", F32, stats, layoutStrides(stats, channelsLast))
                .addLayernorm("ln", 1, 2, 3, 4, 5, 6, 7);
        } else {
            builder.addLayernorm("ln", 1, 2, 3, 4, 5);
        }
        expectMatchesReference(builder, hipdnn_test_sdk::ToleranceOp::Layernorm);
    }
};

TEST_P(Layernorm, Inference) {
    run(false);
}
TEST_P(Layernorm, Training) {
    run(true);
}

INSTANTIATE_TEST_SUITE_P(Smoke, Layernorm,
                         testing::ValuesIn(normParams({{"Nchw", {3, 4, 5, 6}}, {"Ncl", {4, 8, 16}}})),
                         normName);
INSTANTIATE_TEST_SUITE_P(Full, Layernorm, testing::ValuesIn(normParams({{"Wide", {16, 64, 32, 32}}})),
                         normName);

}  // namespace
