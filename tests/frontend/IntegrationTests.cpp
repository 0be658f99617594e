// Graphs built with the frontend and executed on the CPU reference engine (the shipped plugin in
// the build tree's default plugin directory), compared with the test SDK's CPU references.
#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/Seed.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>
#include <hipdnn_test_sdk/references/References.hpp>

#include <limits>
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

namespace {

// (B, S, H, D) in memory for the (B, H, S, D) dims.
std::vector<int64_t> bshdStrides(const std::vector<int64_t>& dims) {
    return {dims[1] * dims[2] * dims[3], dims[3], dims[1] * dims[3], 1};
}

class FrontendCpuReferenceAttention : public FrontendCpuReference {};

}  // namespace

// Attention forward and backward, grouped-query, causal, with a broadcast bias and padding, in
// BHSD and BSHD, executed by the CPU reference engine through the backend and compared with a
// direct call of the reference.
TEST_P(FrontendCpuReferenceAttention, ForwardAndBackward) {
    const bool bshd = GetParam();
    const auto strides = [&](const std::vector<int64_t>& dims) {
        return bshd ? bshdStrides(dims) : nchwStrides(dims);
    };
    const auto operand = [&](Graph& graph, const std::string& name, const std::vector<int64_t>& dims) {
        return graph.tensor(TensorAttributes().set_name(name).set_dim(dims).set_stride(strides(dims)));
    };
    const auto lengths = [](Graph& graph, const std::string& name) {
        return graph.tensor(TensorAttributes()
                                .set_name(name)
                                .set_dim({2, 1, 1, 1})
                                .set_stride({1, 1, 1, 1})
                                .set_data_type(fe::DataType::INT32));
    };
    std::vector<int32_t> seqLenQ{5, 3};
    std::vector<int32_t> seqLenKv{7, 4};
    refs::AttentionParams params;
    params.scale = 0.375;
    params.causalBottomRight = true;
    params.seqLenQ = std::vector<int64_t>(seqLenQ.begin(), seqLenQ.end());
    params.seqLenKv = std::vector<int64_t>(seqLenKv.begin(), seqLenKv.end());

    Graph forward = floatGraph("sdpa");
    auto q = operand(forward, "q", {2, 4, 5, 8});
    auto k = operand(forward, "k", {2, 2, 7, 8});
    auto v = operand(forward, "v", {2, 2, 7, 6});
    auto bias = input(forward, "bias", {1, 4, 5, 7});
    auto seqQ = lengths(forward, "seq_q");
    auto seqKv = lengths(forward, "seq_kv");
    auto [o, stats] = forward.sdpa(q, k, v,
                                   fe::graph::SdpaAttributes()
                                       .set_generate_stats(true)
                                       .set_attn_scale(0.375F)
                                       .set_causal_mask_bottom_right(true)
                                       .set_bias(bias)
                                       .set_padding_mask(true)
                                       .set_seq_len_q(seqQ)
                                       .set_seq_len_kv(seqKv));
    o->set_output(true);
    stats->set_output(true);
    ASSERT_FE_OK(forward.build(handle));

    Buffer qb(q), kb(k), vb(v), biasb(bias), ob(o), statsb(stats);
    qb.fillRandom(11);
    kb.fillRandom(12);
    vb.fillRandom(13);
    biasb.fillRandom(14);
    std::unordered_map<TensorPtr, void*> pack{{q, qb.values.data()},  {k, kb.values.data()},
                                              {v, vb.values.data()},  {bias, biasb.values.data()},
                                              {seqQ, seqLenQ.data()}, {seqKv, seqLenKv.data()},
                                              {o, ob.values.data()},  {stats, statsb.values.data()}};
    std::vector<uint8_t> workspace(static_cast<size_t>(forward.get_workspace_size()));
    ASSERT_FE_OK(forward.execute(handle, pack, workspace.empty() ? nullptr : workspace.data()));

    Buffer expectedO(o), expectedStats(stats);
    refs::sdpaForward<float>(params, qb.cview(), kb.cview(), vb.cview(), biasb.cview(), expectedO.view(),
                             expectedStats.view());
    expectClose(expectedO, ob, hipdnn_test_sdk::ToleranceOp::Sdpa);
    // Padded rows have +inf statistics on both sides.
    EXPECT_EQ(expectedStats.values, statsb.values);
    EXPECT_EQ(statsb.values[static_cast<size_t>(3 * stats->get_stride()[2] + stats->get_stride()[0])],
              std::numeric_limits<float>::infinity());

    Graph backward = floatGraph("sdpa_backward");
    auto bq = operand(backward, "q", {2, 4, 5, 8});
    auto bk = operand(backward, "k", {2, 2, 7, 8});
    auto bv = operand(backward, "v", {2, 2, 7, 6});
    auto bo = operand(backward, "o", {2, 4, 5, 6});
    auto bdo = operand(backward, "do", {2, 4, 5, 6});
    auto bstats = input(backward, "stats", {2, 4, 5, 1});
    auto bbias = input(backward, "bias", {1, 4, 5, 7});
    auto bseqQ = lengths(backward, "seq_q");
    auto bseqKv = lengths(backward, "seq_kv");
    auto [dq, dk, dv] = backward.sdpa_backward(bq, bk, bv, bo, bdo, bstats,
                                               fe::graph::SdpaBackwardAttributes()
                                                   .set_attn_scale(0.375F)
                                                   .set_causal_mask_bottom_right(true)
                                                   .set_bias(bbias)
                                                   .set_padding_mask(true)
                                                   .set_seq_len_q(bseqQ)
                                                   .set_seq_len_kv(bseqKv));
    for (const auto& gradient : {dq, dk, dv}) {
        gradient->set_output(true);
    }
    ASSERT_FE_OK(backward.build(handle));
    Buffer dOb(bdo), dqb(dq), dkb(dk), dvb(dv);
    dOb.fillRandom(15);
    std::unordered_map<TensorPtr, void*> backwardPack{
        {bq, qb.values.data()},       {bk, kb.values.data()},   {bv, vb.values.data()},
        {bo, ob.values.data()},       {bdo, dOb.values.data()}, {bstats, statsb.values.data()},
        {bbias, biasb.values.data()}, {bseqQ, seqLenQ.data()},  {bseqKv, seqLenKv.data()},
        {dq, dqb.values.data()},      {dk, dkb.values.data()},  {dv, dvb.values.data()}};
    std::vector<uint8_t> backwardWorkspace(static_cast<size_t>(backward.get_workspace_size()));
    ASSERT_FE_OK(backward.execute(handle, backwardPack,
                                  backwardWorkspace.empty() ? nullptr : backwardWorkspace.data()));

    Buffer expectedDq(dq), expectedDk(dk), expectedDv(dv);
    refs::sdpaBackward<float>(params, qb.cview(), kb.cview(), vb.cview(), ob.cview(), dOb.cview(),
                              statsb.cview(), biasb.cview(), expectedDq.view(), expectedDk.view(),
                              expectedDv.view());
    expectClose(expectedDq, dqb, hipdnn_test_sdk::ToleranceOp::SdpaBackward);
    expectClose(expectedDk, dkb, hipdnn_test_sdk::ToleranceOp::SdpaBackward);
    expectClose(expectedDv, dvb, hipdnn_test_sdk::ToleranceOp::SdpaBackward);
}

INSTANTIATE_TEST_SUITE_P(Smoke, FrontendCpuReferenceAttention, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "BSHD" : "BHSD"; });
