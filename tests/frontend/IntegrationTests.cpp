// Graphs built with the frontend and executed on the CPU reference engine (the shipped plugin in
// the build tree's default plugin directory), compared with the test SDK's CPU references.
#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/Seed.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>
#include <hipdnn_test_sdk/references/References.hpp>

#include <random>

#include "FrontendTestUtils.hpp"

using namespace hipdnn_frontend_tests;
namespace refs = hipdnn_test_sdk::references;
namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

namespace {

class CpuHandle {
public:
    CpuHandle() { status_ = hipdnnCreateForDevice_ext(&handle_, HIPDNN_DEVICE_TYPE_CPU_EXT, 0); }
    ~CpuHandle() {
        if (handle_ != nullptr) {
            hipdnnDestroy(handle_);
        }
    }
    CpuHandle(const CpuHandle&) = delete;
    CpuHandle& operator=(const CpuHandle&) = delete;
    [[nodiscard]] hipdnnStatus_t status() const { return status_; }
    operator hipdnnHandle_t() const { return handle_; }

private:
    hipdnnHandle_t handle_ = nullptr;
    hipdnnStatus_t status_ = HIPDNN_STATUS_SUCCESS;
};

// Host storage for one graph tensor, sized from its (inferred) dims and strides.
struct Buffer {
    TensorPtr tensor;
    std::vector<float> values;

    explicit Buffer(TensorPtr t) : tensor(std::move(t)) {
        values.assign(static_cast<size_t>(hipdnn_data_sdk::utilities::storageElementCount(
                          tensor->get_dim(), tensor->get_stride())),
                      0.0f);
    }
    void fillRandom(uint32_t salt) {
        std::mt19937 generator(hipdnn_test_sdk::globalTestSeed() + salt);
        std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
        for (float& value : values) {
            value = distribution(generator);
        }
    }
    refs::TensorView<float> view() { return {values.data(), tensor->get_dim(), tensor->get_stride()}; }
    refs::TensorView<const float> cview() const {
        return {values.data(), tensor->get_dim(), tensor->get_stride()};
    }
    hipdnn_test_sdk::ErasedTensorView erased() const {
        return {fbs::DataType::FLOAT, values.data(), tensor->get_dim(), tensor->get_stride()};
    }
};

void execute(const Graph& graph, hipdnnHandle_t handle, std::vector<Buffer*> buffers) {
    std::unordered_map<TensorPtr, void*> pack;
    for (Buffer* buffer : buffers) {
        pack[buffer->tensor] = buffer->values.data();
    }
    std::vector<uint8_t> workspace(static_cast<size_t>(graph.get_workspace_size()));
    ASSERT_FE_OK(graph.execute(handle, pack, workspace.empty() ? nullptr : workspace.data()));
}

void expectClose(const Buffer& expected, const Buffer& actual, hipdnn_test_sdk::ToleranceOp op) {
    const auto report = hipdnn_test_sdk::allClose(expected.erased(), actual.erased(),
                                                  hipdnn_test_sdk::fixedTolerance(op, fbs::DataType::FLOAT));
    EXPECT_TRUE(report.passed) << actual.tensor->get_name() << ": " << report.describe();
}

class FrontendCpuReference : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override { ASSERT_EQ(handle.status(), HIPDNN_STATUS_SUCCESS); }
    CpuHandle handle;
};

}  // namespace

// Conv + bias + relu in NCHW and NHWC, with the engine named by the heuristics.
TEST_P(FrontendCpuReference, ConvBiasRelu) {
    const bool nhwc = GetParam();
    auto strides = [&](const std::vector<int64_t>& dims) {
        return nhwc ? nhwcStrides(dims) : nchwStrides(dims);
    };
    Graph graph = floatGraph("conv_bias_relu");
    auto x = graph.tensor(
        TensorAttributes().set_name("x").set_dim({2, 3, 7, 6}).set_stride(strides({2, 3, 7, 6})));
    auto w = graph.tensor(
        TensorAttributes().set_name("w").set_dim({4, 3, 3, 3}).set_stride(strides({4, 3, 3, 3})));
    auto bias =
        graph.tensor(TensorAttributes().set_name("bias").set_dim({1, 4, 1, 1}).set_stride({4, 1, 1, 1}));
    auto conv = graph.conv_fprop(
        x, w, fe::graph::ConvFpropAttributes().set_padding({1, 0}).set_stride({2, 1}).set_dilation({1, 1}));
    conv->set_output(true);
    auto biased =
        graph.pointwise(conv, bias, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
    auto y = graph.pointwise(biased, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
    y->set_output(true);
    ASSERT_FE_OK(graph.build(handle));
    std::string engine;
    ASSERT_FE_OK(graph.get_plan_name(engine));
    EXPECT_FALSE(engine.empty());

    Buffer xb(x), wb(w), bb(bias), convb(conv), yb(y);
    xb.fillRandom(1);
    wb.fillRandom(2);
    bb.fillRandom(3);
    ASSERT_NO_FATAL_FAILURE(execute(graph, handle, {&xb, &wb, &bb, &convb, &yb}));

    Buffer expectedConv(conv), expectedY(y);
    refs::convolutionFprop<float>(xb.cview(), wb.cview(), expectedConv.view(),
                                  refs::ConvolutionParams{{1, 0}, {1, 0}, {2, 1}, {1, 1}});
    expectClose(expectedConv, convb, hipdnn_test_sdk::ToleranceOp::ConvolutionFwd);
    hipdnn_data_sdk::utilities::forEachIndex(y->get_dim(), [&](const std::vector<int64_t>& index) {
        const float value = expectedConv.values[static_cast<size_t>(
                                hipdnn_data_sdk::utilities::offsetOf(index, conv->get_stride()))] +
                            bb.values[static_cast<size_t>(index[1])];
        expectedY.values[static_cast<size_t>(hipdnn_data_sdk::utilities::offsetOf(index, y->get_stride()))] =
            std::max(value, 0.0f);
    });
    expectClose(expectedY, yb, hipdnn_test_sdk::ToleranceOp::Pointwise);
}

INSTANTIATE_TEST_SUITE_P(Smoke, FrontendCpuReference, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "NHWC" : "NCHW"; });

TEST(FrontendCpuReferenceOps, BatchnormTrainingWithRunningStats) {
    CpuHandle handle;
    ASSERT_EQ(handle.status(), HIPDNN_STATUS_SUCCESS);
    Graph graph = floatGraph("bn");
    auto x = input(graph, "x", {2, 3, 4, 5});
    auto scale = input(graph, "scale", {1, 3, 1, 1});
    auto bias = input(graph, "bias", {1, 3, 1, 1});
    auto prevMean = input(graph, "prev_mean", {1, 3, 1, 1});
    auto prevVariance = input(graph, "prev_var", {1, 3, 1, 1});
    auto outputs = graph.batchnorm(
        x, scale, bias,
        fe::graph::BatchnormAttributes()
            .set_epsilon(graph.tensor(TensorAttributes(1e-5f)))
            .set_previous_running_stats(prevMean, prevVariance, graph.tensor(TensorAttributes(0.25f))));
    for (const auto& output : outputs) {
        output->set_output(true);
    }
    ASSERT_FE_OK(graph.build(handle));

    Buffer xb(x), sb(scale), bb(bias), pm(prevMean), pv(prevVariance);
    xb.fillRandom(4);
    sb.fillRandom(5);
    bb.fillRandom(6);
    pm.fillRandom(7);
    pv.fillRandom(8);
    for (float& value : pv.values) {
        value = std::fabs(value) + 0.5f;
    }
    Buffer y(outputs[0]), mean(outputs[1]), invVariance(outputs[2]), nextMean(outputs[3]),
        nextVariance(outputs[4]);
    ASSERT_NO_FATAL_FAILURE(
        execute(graph, handle, {&xb, &sb, &bb, &pm, &pv, &y, &mean, &invVariance, &nextMean, &nextVariance}));

    Buffer ey(outputs[0]), emean(outputs[1]), einv(outputs[2]), enext(outputs[3]), enextVar(outputs[4]);
    refs::batchnormTraining<float, float>(
        xb.cview(), sb.cview(), bb.cview(), 1e-5, ey.view(), emean.view(), einv.view(),
        refs::BatchnormRunningStats<float>{pm.cview(), pv.cview(), enext.view(), enextVar.view(), 0.25});
    for (auto [expected, actual] :
         {std::pair{&ey, &y}, std::pair{&emean, &mean}, std::pair{&einv, &invVariance},
          std::pair{&enext, &nextMean}, std::pair{&enextVar, &nextVariance}}) {
        expectClose(*expected, *actual, hipdnn_test_sdk::ToleranceOp::BatchnormTraining);
    }
}

TEST(FrontendCpuReferenceOps, BatchedMatmulWithBroadcast) {
    CpuHandle handle;
    ASSERT_EQ(handle.status(), HIPDNN_STATUS_SUCCESS);
    Graph graph = floatGraph("matmul");
    auto a = input(graph, "a", {3, 4, 5});
    auto b = input(graph, "b", {1, 5, 6});
    auto c = graph.matmul(a, b, {});
    c->set_output(true);
    ASSERT_FE_OK(graph.build(handle));
    Buffer ab(a), bb(b), cb(c), expected(c);
    ab.fillRandom(9);
    bb.fillRandom(10);
    ASSERT_NO_FATAL_FAILURE(execute(graph, handle, {&ab, &bb, &cb}));
    refs::matmul<float, float>(ab.cview(), bb.cview(), expected.view());
    expectClose(expected, cb, hipdnn_test_sdk::ToleranceOp::Matmul);
}
