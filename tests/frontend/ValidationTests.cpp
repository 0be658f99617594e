// Graph construction, shape inference and every validate() error path. No backend involved.
#include "FrontendTestUtils.hpp"

using namespace hipdnn_frontend_tests;
using fe::ErrorCode;

namespace {

struct ConvGraph {
    Graph graph = floatGraph("conv");
    TensorPtr x;
    TensorPtr w;
    TensorPtr y;
};

ConvGraph makeConv(const std::vector<int64_t>& xDims, const std::vector<int64_t>& wDims,
                   fe::graph::ConvFpropAttributes attributes = conv3x3()) {
    ConvGraph conv;
    conv.x = input(conv.graph, "x", xDims);
    conv.w = input(conv.graph, "w", wDims);
    conv.y = conv.graph.conv_fprop(conv.x, conv.w, attributes.set_name("conv"));
    conv.y->set_output(true);
    return conv;
}

}  // namespace

TEST(FrontendValidation, ConvFpropInfersOutputShapeAndNchwStrides) {
    auto conv = makeConv({2, 4, 8, 8}, {6, 4, 3, 3});
    ASSERT_FE_OK(conv.graph.validate());
    EXPECT_EQ(conv.y->get_dim(), (std::vector<int64_t>{2, 6, 8, 8}));
    EXPECT_EQ(conv.y->get_stride(), nchwStrides({2, 6, 8, 8}));
    EXPECT_EQ(conv.y->get_data_type(), fe::DataType::FLOAT);
    EXPECT_EQ(conv.y->get_name(), "conv::Y");
}

TEST(FrontendValidation, OutputStridesFollowTheInputLayout) {
    Graph graph = floatGraph();
    auto x = graph.tensor(
        TensorAttributes().set_name("x").set_dim({2, 4, 8, 8}).set_stride(nhwcStrides({2, 4, 8, 8})));
    auto w = graph.tensor(
        TensorAttributes().set_name("w").set_dim({6, 4, 3, 3}).set_stride(nhwcStrides({6, 4, 3, 3})));
    auto y = graph.conv_fprop(x, w, conv3x3());
    auto relu = graph.pointwise(y, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
    ASSERT_FE_OK(graph.validate());
    EXPECT_EQ(y->get_stride(), nhwcStrides({2, 6, 8, 8}));
    EXPECT_EQ(relu->get_stride(), nhwcStrides({2, 6, 8, 8}));
}

TEST(FrontendValidation, ConvStrideDilationAndAsymmetricPadding) {
    auto conv = makeConv({1, 2, 10, 9}, {3, 2, 3, 3},
                         fe::graph::ConvFpropAttributes()
                             .set_pre_padding({1, 0})
                             .set_post_padding({2, 0})
                             .set_stride({2, 3})
                             .set_dilation({2, 1}));
    ASSERT_FE_OK(conv.graph.validate());
    // H: (10 + 3 - 5) / 2 + 1 = 5; W: (9 - 3) / 3 + 1 = 3.
    EXPECT_EQ(conv.y->get_dim(), (std::vector<int64_t>{1, 3, 5, 3}));
}

TEST(FrontendValidation, GroupedConvolution) {
    auto grouped = makeConv({1, 4, 5, 5}, {6, 2, 3, 3});
    ASSERT_FE_OK(grouped.graph.validate());
    EXPECT_EQ(grouped.y->get_dim(), (std::vector<int64_t>{1, 6, 5, 5}));

    auto badGroups = makeConv({1, 4, 5, 5}, {5, 2, 3, 3});
    EXPECT_FE_ERROR(badGroups.graph.validate(), ErrorCode::INVALID_VALUE, "node 'conv'", "group count 2",
                    "(5)");
}

TEST(FrontendValidation, ChannelMismatchNamesBothTensors) {
    auto conv = makeConv({1, 4, 5, 5}, {6, 3, 3, 3});
    EXPECT_FE_ERROR(conv.graph.validate(), ErrorCode::INVALID_VALUE, "node 'conv'", "'x'", "'w'", "(4)",
                    "(3)");
}

TEST(FrontendValidation, RankMismatch) {
    auto conv = makeConv({1, 4, 5, 5}, {6, 4, 3, 3, 3});
    EXPECT_FE_ERROR(conv.graph.validate(), ErrorCode::INVALID_VALUE, "rank 4", "rank 5");
}

TEST(FrontendValidation, BadPaddingStrideDilation) {
    auto missing = makeConv({1, 4, 5, 5}, {6, 4, 3, 3}, fe::graph::ConvFpropAttributes().set_stride({1, 1}));
    EXPECT_FE_ERROR(missing.graph.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "pre-padding is not set");

    auto zeroStride = makeConv({1, 4, 5, 5}, {6, 4, 3, 3}, conv3x3().set_stride({1, 0}));
    EXPECT_FE_ERROR(zeroStride.graph.validate(), ErrorCode::INVALID_VALUE, "stride [1, 0]", "entry 0");

    auto negativePad = makeConv({1, 4, 5, 5}, {6, 4, 3, 3}, conv3x3().set_pre_padding({-1, 1}));
    EXPECT_FE_ERROR(negativePad.graph.validate(), ErrorCode::INVALID_VALUE, "pre-padding [-1, 1]");

    auto zeroDilation = makeConv({1, 4, 5, 5}, {6, 4, 3, 3}, conv3x3().set_dilation({0, 1}));
    EXPECT_FE_ERROR(zeroDilation.graph.validate(), ErrorCode::INVALID_VALUE, "dilation [0, 1]");

    auto wrongCount = makeConv({1, 4, 5, 5}, {6, 4, 3, 3}, conv3x3().set_stride({1, 1, 1}));
    EXPECT_FE_ERROR(wrongCount.graph.validate(), ErrorCode::INVALID_VALUE, "3 entries", "2 spatial dims");

    auto tooLarge = makeConv({1, 4, 2, 2}, {6, 4, 5, 5}, conv3x3().set_padding({0, 0}));
    EXPECT_FE_ERROR(tooLarge.graph.validate(), ErrorCode::INVALID_VALUE, "dilated kernel (5)",
                    "padded input (2)");
}

TEST(FrontendValidation, MissingDimsStridesAndTensors) {
    Graph noDims = floatGraph();
    auto x = noDims.tensor(TensorAttributes().set_name("x"));
    noDims.conv_fprop(x, input(noDims, "w", {6, 4, 3, 3}), conv3x3().set_name("conv"));
    EXPECT_FE_ERROR(noDims.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "node 'conv'", "'x' (port X)",
                    "not set");

    Graph noStrides = floatGraph();
    auto xs = noStrides.tensor(TensorAttributes().set_name("x").set_dim({1, 4, 5, 5}));
    noStrides.conv_fprop(xs, input(noStrides, "w", {6, 4, 3, 3}), conv3x3());
    EXPECT_FE_ERROR(noStrides.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "strides of tensor 'x'");

    Graph noWeight = floatGraph();
    noWeight.conv_fprop(input(noWeight, "x", {1, 4, 5, 5}), nullptr, conv3x3().set_name("conv"));
    EXPECT_FE_ERROR(noWeight.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "node 'conv'", "tensor W is not set");
}

TEST(FrontendValidation, MissingDataTypes) {
    Graph graph;
    auto y = graph.conv_fprop(input(graph, "x", {1, 4, 5, 5}), input(graph, "w", {6, 4, 3, 3}), conv3x3());
    EXPECT_FE_ERROR(graph.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "'x'", "io data type");
}

TEST(FrontendValidation, DuplicateUids) {
    auto conv = makeConv({1, 4, 5, 5}, {6, 4, 3, 3});
    conv.x->set_uid(7);
    conv.w->set_uid(7);
    EXPECT_FE_ERROR(conv.graph.validate(), ErrorCode::INVALID_VALUE, "uid 7", "'x'", "'w'");
}

TEST(FrontendValidation, DisconnectedGraph) {
    Graph graph = floatGraph("split");
    graph.pointwise(input(graph, "a", {4}),
                    fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ABS));
    graph.pointwise(input(graph, "b", {4}),
                    fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::NEG));
    EXPECT_FE_ERROR(graph.validate(), ErrorCode::INVALID_VALUE, "'split' is not connected", "pointwise_1",
                    "pointwise_0");
}

TEST(FrontendValidation, EmptyGraphAndVirtualInput) {
    Graph empty = floatGraph("empty");
    EXPECT_FE_ERROR(empty.validate(), ErrorCode::INVALID_VALUE, "'empty' has no operations");

    Graph graph = floatGraph();
    auto a = input(graph, "a", {4});
    a->set_is_virtual(true);
    graph.pointwise(a, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ABS));
    EXPECT_FE_ERROR(graph.validate(), ErrorCode::INVALID_VALUE, "'a'", "virtual but no node writes it");
}

TEST(FrontendValidation, PointwiseBroadcastAndArity) {
    Graph graph = floatGraph();
    auto x = input(graph, "x", {2, 6, 4, 4});
    auto bias = input(graph, "bias", {1, 6, 1, 1});
    auto sum = graph.pointwise(x, bias, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
    auto scaled = graph.pointwise(sum, graph.tensor(TensorAttributes(2.0f)),
                                  fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::MUL));
    ASSERT_FE_OK(graph.validate());
    EXPECT_EQ(sum->get_dim(), (std::vector<int64_t>{2, 6, 4, 4}));
    EXPECT_EQ(scaled->get_dim(), (std::vector<int64_t>{2, 6, 4, 4}));

    Graph bad = floatGraph();
    bad.pointwise(input(bad, "x", {2, 6, 4, 4}), input(bad, "bias", {1, 5, 1, 1}),
                  fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD).set_name("add"));
    EXPECT_FE_ERROR(bad.validate(), ErrorCode::INVALID_VALUE, "node 'add'", "cannot broadcast", "'bias'",
                    "[1, 5, 1, 1]", "[2, 6, 4, 4]");

    Graph noMode = floatGraph();
    noMode.pointwise(input(noMode, "x", {4}), fe::graph::PointwiseAttributes());
    EXPECT_FE_ERROR(noMode.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "pointwise mode is not set");

    Graph missingOperand = floatGraph();
    missingOperand.pointwise(input(missingOperand, "x", {4}),
                             fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::ADD));
    EXPECT_FE_ERROR(missingOperand.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "tensor IN_1 is not set");

    Graph extraOperand = floatGraph();
    extraOperand.pointwise(input(extraOperand, "x", {4}), input(extraOperand, "y", {4}),
                           fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
    EXPECT_FE_ERROR(extraOperand.validate(), ErrorCode::INVALID_VALUE, "RELU_FWD takes 1 input", "IN_1");

    Graph badClip = floatGraph();
    badClip.pointwise(input(badClip, "x", {4}), fe::graph::PointwiseAttributes()
                                                    .set_mode(fe::PointwiseMode::RELU_FWD)
                                                    .set_relu_lower_clip(2.0f)
                                                    .set_relu_upper_clip(1.0f));
    EXPECT_FE_ERROR(badClip.validate(), ErrorCode::INVALID_VALUE, "lower clip");

    Graph select = floatGraph();
    auto selected = select.pointwise(
        input(select, "a", {3, 4}), input(select, "b", {3, 4}), input(select, "mask", {3, 1}),
        fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::BINARY_SELECT));
    ASSERT_FE_OK(select.validate());
    EXPECT_EQ(selected->get_dim(), (std::vector<int64_t>{3, 4}));
}

TEST(FrontendValidation, Matmul) {
    Graph graph = floatGraph();
    auto c = graph.matmul(input(graph, "a", {4, 1, 8, 16}), input(graph, "b", {1, 3, 16, 5}), {});
    ASSERT_FE_OK(graph.validate());
    EXPECT_EQ(c->get_dim(), (std::vector<int64_t>{4, 3, 8, 5}));

    Graph inner = floatGraph();
    inner.matmul(input(inner, "a", {8, 16}), input(inner, "b", {15, 5}),
                 fe::graph::MatmulAttributes().set_name("mm"));
    EXPECT_FE_ERROR(inner.validate(), ErrorCode::INVALID_VALUE, "node 'mm'", "K = 16", "K = 15");

    Graph batch = floatGraph();
    batch.matmul(input(batch, "a", {3, 8, 16}), input(batch, "b", {2, 16, 5}), {});
    EXPECT_FE_ERROR(batch.validate(), ErrorCode::INVALID_VALUE, "batch dim 0", "A has 3", "B has 2");
}

TEST(FrontendValidation, BatchnormTrainingWithRunningStats) {
    Graph graph = floatGraph();
    auto x = input(graph, "x", {2, 3, 4, 4});
    auto epsilon = graph.tensor(TensorAttributes(1e-5f));
    auto momentum = graph.tensor(TensorAttributes(0.1f));
    auto [y, mean, invVariance, nextMean, nextVariance] = graph.batchnorm(
        x, input(graph, "scale", {1, 3, 1, 1}), input(graph, "bias", {1, 3, 1, 1}),
        fe::graph::BatchnormAttributes().set_epsilon(epsilon).set_previous_running_stats(
            input(graph, "running_mean", {1, 3, 1, 1}), input(graph, "running_var", {1, 3, 1, 1}), momentum));
    ASSERT_FE_OK(graph.validate());
    EXPECT_EQ(y->get_dim(), (std::vector<int64_t>{2, 3, 4, 4}));
    EXPECT_EQ(mean->get_dim(), (std::vector<int64_t>{1, 3, 1, 1}));
    EXPECT_EQ(invVariance->get_dim(), (std::vector<int64_t>{1, 3, 1, 1}));
    ASSERT_TRUE(nextMean && nextVariance);
    EXPECT_EQ(nextVariance->get_dim(), (std::vector<int64_t>{1, 3, 1, 1}));

    Graph partial = floatGraph();
    partial.batchnorm(
        input(partial, "x", {2, 3, 4, 4}), input(partial, "scale", {1, 3, 1, 1}),
        input(partial, "bias", {1, 3, 1, 1}),
        fe::graph::BatchnormAttributes()
            .set_name("bn")
            .set_epsilon(partial.tensor(TensorAttributes(1e-5f)))
            .set_previous_running_stats(input(partial, "running_mean", {1, 3, 1, 1}), nullptr, nullptr));
    EXPECT_FE_ERROR(partial.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "node 'bn'", "PREV_RUNNING_VARIANCE");

    Graph channels = floatGraph();
    channels.batchnorm(
        input(channels, "x", {2, 3, 4, 4}), input(channels, "scale", {1, 4, 1, 1}),
        input(channels, "bias", {1, 3, 1, 1}),
        fe::graph::BatchnormAttributes().set_epsilon(channels.tensor(TensorAttributes(1e-5f))));
    EXPECT_FE_ERROR(channels.validate(), ErrorCode::INVALID_VALUE, "'scale' (port SCALE)", "[1, 4, 1, 1]",
                    "expected [1, 3, 1, 1]");

    Graph noEpsilon = floatGraph();
    noEpsilon.batchnorm(input(noEpsilon, "x", {2, 3, 4, 4}), input(noEpsilon, "scale", {1, 3, 1, 1}),
                        input(noEpsilon, "bias", {1, 3, 1, 1}), {});
    EXPECT_FE_ERROR(noEpsilon.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "tensor EPSILON is not set");
}

TEST(FrontendValidation, BatchnormInferenceAndBackward) {
    Graph graph = floatGraph();
    auto x = input(graph, "x", {2, 3, 4, 4});
    auto channel = [&](const char* name) { return input(graph, name, {1, 3, 1, 1}); };
    auto y = graph.batchnorm_inference(x, channel("mean"), channel("inv_var"), channel("scale"),
                                       channel("bias"), {});
    auto yv = graph.batchnorm_inference_variance_ext(
        y, channel("mean2"), channel("var2"), channel("scale2"), channel("bias2"),
        fe::graph::BatchnormInferenceVarianceAttributes().set_epsilon(graph.tensor(TensorAttributes(1e-5f))));
    auto [dx, dscale, dbias] =
        graph.batchnorm_backward(input(graph, "dy", {2, 3, 4, 4}), yv, channel("scale3"),
                                 fe::graph::BatchnormBackwardAttributes().set_saved_mean_and_inv_variance(
                                     channel("m3"), channel("iv3")));
    ASSERT_FE_OK(graph.validate());
    EXPECT_EQ(dx->get_dim(), (std::vector<int64_t>{2, 3, 4, 4}));
    EXPECT_EQ(dscale->get_dim(), (std::vector<int64_t>{1, 3, 1, 1}));
    EXPECT_EQ(dbias->get_dim(), (std::vector<int64_t>{1, 3, 1, 1}));

    Graph noStatistics = floatGraph();
    noStatistics.batchnorm_backward(input(noStatistics, "dy", {2, 3, 4, 4}),
                                    input(noStatistics, "x", {2, 3, 4, 4}),
                                    input(noStatistics, "scale", {1, 3, 1, 1}), {});
    EXPECT_FE_ERROR(noStatistics.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "neither the saved MEAN");
}

TEST(FrontendValidation, ConvBackwardShapes) {
    Graph dgrad = floatGraph();
    auto dx = dgrad.conv_dgrad(
        input(dgrad, "dy", {1, 6, 5, 5}), input(dgrad, "w", {6, 4, 3, 3}),
        fe::graph::ConvDgradAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    EXPECT_FE_ERROR(dgrad.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "DX");
    dx->set_dim({1, 4, 5, 5});
    ASSERT_FE_OK(dgrad.validate());
    EXPECT_EQ(dx->get_stride(), nchwStrides({1, 4, 5, 5}));
    dx->set_dim({1, 4, 7, 7}).set_stride({});
    EXPECT_FE_ERROR(dgrad.validate(), ErrorCode::INVALID_VALUE, "'dy' (port DY)", "[1, 6, 5, 5]",
                    "[1, 6, 7, 7]");

    Graph wgrad = floatGraph();
    auto dw = wgrad.conv_wgrad(
        input(wgrad, "dy", {1, 6, 5, 5}), input(wgrad, "x", {1, 4, 5, 5}),
        fe::graph::ConvWgradAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    dw->set_dim({6, 4, 3, 3});
    ASSERT_FE_OK(wgrad.validate());
}

TEST(FrontendValidation, ReductionNeedsOutputDims) {
    Graph graph = floatGraph();
    auto y =
        graph.reduction(input(graph, "x", {2, 3, 4}),
                        fe::graph::ReductionAttributes().set_mode(fe::ReductionMode::ADD).set_name("sum"));
    EXPECT_FE_ERROR(graph.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "node 'sum'", "dims of tensor 'sum::Y'");
    y->set_dim({2, 2, 1});
    EXPECT_FE_ERROR(graph.validate(), ErrorCode::INVALID_VALUE, "dim 1", "must be 1 (reduced) or 3");
    y->set_dim({2, 1, 1});
    ASSERT_FE_OK(graph.validate());
}

TEST(FrontendValidation, NormsAndPooling) {
    Graph graph = floatGraph();
    auto x = input(graph, "x", {4, 3, 8});
    auto [y, mean, invVariance] =
        graph.layernorm(x, input(graph, "scale", {1, 3, 8}), input(graph, "bias", {1, 3, 8}),
                        fe::graph::LayernormAttributes()
                            .set_forward_phase(fe::NormFwdPhase::TRAINING)
                            .set_epsilon(graph.tensor(TensorAttributes(1e-5f))));
    auto [r, invRms] = graph.rmsnorm(y, input(graph, "rscale", {1, 3, 8}),
                                     fe::graph::RmsnormAttributes()
                                         .set_forward_phase(fe::NormFwdPhase::TRAINING)
                                         .set_epsilon(graph.tensor(TensorAttributes(1e-5f))));
    auto [dx, dscale, dbias] =
        graph.rmsnorm_backward(input(graph, "dy", {4, 3, 8}), r, input(graph, "s2", {1, 3, 8}), invRms,
                               fe::graph::RmsnormBackwardAttributes().has_dbias(true));
    ASSERT_FE_OK(graph.validate());
    EXPECT_EQ(mean->get_dim(), (std::vector<int64_t>{4, 1, 1}));
    EXPECT_EQ(invRms->get_dim(), (std::vector<int64_t>{4, 1, 1}));
    ASSERT_TRUE(dbias);
    EXPECT_EQ(dbias->get_dim(), (std::vector<int64_t>{1, 3, 8}));

    Graph pool = floatGraph();
    auto [py, index] =
        pool.resample(input(pool, "x", {1, 2, 7, 7}), fe::graph::ResampleAttributes()
                                                          .set_resampling_mode(fe::ResampleMode::MAXPOOL)
                                                          .set_window({3, 3})
                                                          .set_stride({2, 2})
                                                          .set_padding({0, 0})
                                                          .set_generate_index(true));
    ASSERT_FE_OK(pool.validate());
    EXPECT_EQ(py->get_dim(), (std::vector<int64_t>{1, 2, 3, 3}));
    ASSERT_TRUE(index);
    EXPECT_EQ(index->get_data_type(), fe::DataType::INT32);

    Graph noPhase = floatGraph();
    noPhase.layernorm(input(noPhase, "x", {4, 3}), input(noPhase, "s", {1, 3}), input(noPhase, "b", {1, 3}),
                      {});
    EXPECT_FE_ERROR(noPhase.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "forward phase is not set");
}

TEST(FrontendValidation, LayernormBackward) {
    Graph graph = floatGraph();
    auto x = input(graph, "x", {4, 3, 8});
    auto [dx, dscale, dbias] =
        graph.layernorm_backward(input(graph, "dy", {4, 3, 8}), x, input(graph, "scale", {1, 3, 8}),
                                 fe::graph::Layernorm_backward_attributes()
                                     .set_saved_mean_and_inv_variance(input(graph, "mean", {4, 1, 1}),
                                                                      input(graph, "inv_var", {4, 1, 1}))
                                     .set_name("ln_bwd"));
    ASSERT_FE_OK(graph.validate());
    EXPECT_EQ(dx->get_dim(), (std::vector<int64_t>{4, 3, 8}));
    EXPECT_EQ(dscale->get_dim(), (std::vector<int64_t>{1, 3, 8}));
    EXPECT_EQ(dbias->get_dim(), (std::vector<int64_t>{1, 3, 8}));

    Graph noStatistics = floatGraph();
    noStatistics.layernorm_backward(input(noStatistics, "dy", {4, 8}), input(noStatistics, "x", {4, 8}),
                                    input(noStatistics, "scale", {1, 8}), {});
    EXPECT_FE_ERROR(noStatistics.validate(), ErrorCode::ATTRIBUTE_NOT_SET, "MEAN and INV_VARIANCE");

    Graph badMean = floatGraph();
    badMean.layernorm_backward(input(badMean, "dy", {4, 8}), input(badMean, "x", {4, 8}),
                               input(badMean, "scale", {1, 8}),
                               fe::graph::LayernormBackwardAttributes().set_saved_mean_and_inv_variance(
                                   input(badMean, "mean", {1, 8}), input(badMean, "iv", {4, 1})));
    EXPECT_FE_ERROR(badMean.validate(), ErrorCode::INVALID_VALUE, "'mean' (port MEAN)", "[1, 8]", "[4, 1]");

    Graph badSplit = floatGraph();
    badSplit.layernorm_backward(input(badSplit, "dy", {4, 3, 8}), input(badSplit, "x", {4, 3, 8}),
                                input(badSplit, "scale", {1, 3, 8}),
                                fe::graph::LayernormBackwardAttributes()
                                    .set_saved_mean_and_inv_variance(input(badSplit, "mean", {4, 1, 1}),
                                                                     input(badSplit, "iv", {4, 1, 1}))
                                    .set_normalized_dim_count(1));
    EXPECT_FE_ERROR(badSplit.validate(), ErrorCode::INVALID_VALUE, "normalized_dim_count 1 is not supported");
}

TEST(FrontendValidation, DataTypesFollowTheGraph) {
    Graph graph;
    graph.set_io_data_type(fe::DataType::HALF)
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    auto y = graph.conv_fprop(input(graph, "x", {1, 4, 5, 5}), input(graph, "w", {6, 4, 3, 3}), conv3x3());
    auto z = graph.pointwise(y, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::RELU_FWD));
    z->set_output(true);
    ASSERT_FE_OK(graph.validate());
    EXPECT_EQ(y->get_data_type(), fe::DataType::FLOAT);
    EXPECT_EQ(z->get_data_type(), fe::DataType::HALF);
}

TEST(FrontendLifecycleOrder, StepsOutOfOrderAreInvalidState) {
    auto conv = makeConv({1, 4, 5, 5}, {6, 4, 3, 3});
    EXPECT_FE_ERROR(conv.graph.build_operation_graph(nullptr), ErrorCode::INVALID_VALUE, "needs a handle");
    EXPECT_FE_ERROR(conv.graph.create_execution_plans(), ErrorCode::INVALID_STATE, "build_operation_graph");
    EXPECT_FE_ERROR(conv.graph.check_support(), ErrorCode::INVALID_STATE);
    EXPECT_FE_ERROR(conv.graph.build_plans(), ErrorCode::INVALID_STATE);
    std::unordered_map<int64_t, void*> pack;
    EXPECT_FE_ERROR(conv.graph.execute(nullptr, pack, nullptr), ErrorCode::INVALID_STATE, "built plan");
    int64_t size = 0;
    EXPECT_FE_ERROR(conv.graph.get_workspace_size(size), ErrorCode::INVALID_STATE);
    EXPECT_FE_ERROR(conv.graph.build_plan_at_index(0), ErrorCode::INVALID_VALUE, "out of range");
}
