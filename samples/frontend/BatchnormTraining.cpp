// Batch normalization training with running statistics: Y, the batch MEAN and INV_VARIANCE, and
// the next running mean / variance, checked against a CPU computation.
#include "SampleUtils.hpp"

int main() {
    using namespace samples;
    namespace graph = fe::graph;
    const int64_t n = 2, c = 3, h = 4, w = 4;
    const float epsilonValue = 1e-5f, momentumValue = 0.1f;

    graph::Graph g;
    g.set_name("batchnorm_training")
        .set_io_data_type(fe::DataType::FLOAT)
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    auto x = g.tensor(
        graph::TensorAttributes().set_name("x").set_dim({n, c, h, w}).set_stride({c * h * w, h * w, w, 1}));
    auto channel = [&](const char* name) {
        return g.tensor(
            graph::TensorAttributes().set_name(name).set_dim({1, c, 1, 1}).set_stride({c, 1, 1, 1}));
    };
    auto scale = channel("scale"), bias = channel("bias");
    auto runningMean = channel("running_mean"), runningVariance = channel("running_variance");
    auto epsilon = g.tensor(graph::TensorAttributes(epsilonValue).set_name("epsilon"));
    auto momentum = g.tensor(graph::TensorAttributes(momentumValue).set_name("momentum"));
    auto [y, mean, invVariance, nextMean, nextVariance] =
        g.batchnorm(x, scale, bias,
                    graph::BatchnormAttributes().set_epsilon(epsilon).set_previous_running_stats(
                        runningMean, runningVariance, momentum));
    for (const auto& output : {y, mean, invVariance, nextMean, nextVariance}) {
        output->set_output(true);
    }

    CpuHandle handle;
    check(g.build(handle), "build");

    auto xData = randomValues(static_cast<size_t>(x->get_volume()), 6);
    auto scaleData = randomValues(static_cast<size_t>(c), 7);
    auto biasData = randomValues(static_cast<size_t>(c), 8);
    std::vector<float> runningMeanData(static_cast<size_t>(c), 0.5f),
        runningVarianceData(static_cast<size_t>(c), 2.0f);
    std::vector<float> yData(static_cast<size_t>(x->get_volume())), meanData(static_cast<size_t>(c)),
        invVarianceData(static_cast<size_t>(c)), nextMeanData(static_cast<size_t>(c)),
        nextVarianceData(static_cast<size_t>(c));
    std::vector<uint8_t> workspace(static_cast<size_t>(g.get_workspace_size()));
    std::unordered_map<graph::TensorPtr, void*> pack{{x, xData.data()},
                                                     {scale, scaleData.data()},
                                                     {bias, biasData.data()},
                                                     {runningMean, runningMeanData.data()},
                                                     {runningVariance, runningVarianceData.data()},
                                                     {y, yData.data()},
                                                     {mean, meanData.data()},
                                                     {invVariance, invVarianceData.data()},
                                                     {nextMean, nextMeanData.data()},
                                                     {nextVariance, nextVarianceData.data()}};
    check(g.execute(handle, pack, workspace.empty() ? nullptr : workspace.data()), "execute");

    // Per-channel statistics over N, H, W; the running variance uses the unbiased estimate.
    const int64_t count = n * h * w;
    std::vector<float> expectedY(yData.size()), expectedMean(static_cast<size_t>(c)),
        expectedInvVariance(static_cast<size_t>(c)), expectedNextMean(static_cast<size_t>(c)),
        expectedNextVariance(static_cast<size_t>(c));
    for (int64_t ic = 0; ic < c; ++ic) {
        double sum = 0.0, squares = 0.0;
        for (int64_t in = 0; in < n; ++in)
            for (int64_t i = 0; i < h * w; ++i) {
                const double value = xData[static_cast<size_t>((in * c + ic) * h * w + i)];
                sum += value;
                squares += value * value;
            }
        const double batchMean = sum / static_cast<double>(count);
        const double variance = squares / static_cast<double>(count) - batchMean * batchMean;
        const double invStd = 1.0 / std::sqrt(variance + epsilonValue);
        const auto index = static_cast<size_t>(ic);
        expectedMean[index] = static_cast<float>(batchMean);
        expectedInvVariance[index] = static_cast<float>(invStd);
        expectedNextMean[index] =
            static_cast<float>((1.0 - momentumValue) * runningMeanData[index] + momentumValue * batchMean);
        expectedNextVariance[index] = static_cast<float>(
            (1.0 - momentumValue) * runningVarianceData[index] +
            momentumValue * variance * static_cast<double>(count) / static_cast<double>(count - 1));
        for (int64_t in = 0; in < n; ++in)
            for (int64_t i = 0; i < h * w; ++i) {
                const auto at = static_cast<size_t>((in * c + ic) * h * w + i);
                expectedY[at] =
                    static_cast<float>(scaleData[index] * (xData[at] - batchMean) * invStd + biasData[index]);
            }
    }
    const bool ok = allClose(yData, expectedY, 1e-4f, "y") &&
                    allClose(meanData, expectedMean, 1e-4f, "mean") &&
                    allClose(invVarianceData, expectedInvVariance, 1e-3f, "inv_variance") &&
                    allClose(nextMeanData, expectedNextMean, 1e-4f, "next_running_mean") &&
                    allClose(nextVarianceData, expectedNextVariance, 1e-3f, "next_running_variance");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
