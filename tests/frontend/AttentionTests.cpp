// Scaled dot-product attention in the frontend: shape inference of O, STATS and the gradients,
// every validate() rejection, and binary / JSON round trips. No backend involved.
#include "FrontendTestUtils.hpp"

#include <limits>

using namespace hipdnn_frontend_tests;
using fe::ErrorCode;
using fe::graph::SdpaAttributes;
using fe::graph::SdpaBackwardAttributes;

namespace {

using Dims = std::vector<int64_t>;

// (B, S, H, D) in memory, dims still (B, H, S, D).
Dims bshdStrides(const Dims& dims) {
    return {dims[1] * dims[2] * dims[3], dims[3], dims[1] * dims[3], 1};
}

TensorPtr integerInput(Graph& graph, const std::string& name, const Dims& dims,
                       fe::DataType type = fe::DataType::INT32) {
    return graph.tensor(
        TensorAttributes().set_name(name).set_dim(dims).set_stride(nchwStrides(dims)).set_data_type(type));
}

// Q (2, 8, 16, 64), K (2, 2, 32, 64), V (2, 2, 32, 32): 4 query heads per KV head.
struct ForwardGraph {
    Graph graph = floatGraph("attention");
    TensorPtr q = input(graph, "q", {2, 8, 16, 64});
    TensorPtr k = input(graph, "k", {2, 2, 32, 64});
    TensorPtr v = input(graph, "v", {2, 2, 32, 32});

    std::array<TensorPtr, 2> add(SdpaAttributes attributes) {
        auto outputs = graph.sdpa(q, k, v, attributes.set_name("sdpa"));
        outputs[0]->set_output(true);
        if (outputs[1]) {
            outputs[1]->set_output(true);
        }
        return outputs;
    }
};

fe::Error validateForward(SdpaAttributes attributes) {
    ForwardGraph forward;
    forward.add(std::move(attributes));
    return forward.graph.validate();
}

}  // namespace

TEST(FrontendAttention, ForwardInfersOutputAndStatistics) {
    ForwardGraph forward;
    auto [o, stats] = forward.add(SdpaAttributes().set_generate_stats(true));
    ASSERT_FE_OK(forward.graph.validate());
    EXPECT_EQ(o->get_dim(), (Dims{2, 8, 16, 32}));
    EXPECT_EQ(o->get_stride(), nchwStrides({2, 8, 16, 32}));
    EXPECT_EQ(o->get_data_type(), fe::DataType::FLOAT);
    ASSERT_TRUE(stats);
    EXPECT_EQ(stats->get_dim(), (Dims{2, 8, 16, 1}));
    EXPECT_EQ(stats->get_stride(), nchwStrides({2, 8, 16, 1}));
    EXPECT_EQ(stats->get_data_type(), fe::DataType::FLOAT);
}

TEST(FrontendAttention, InferenceHasNoStatisticsAndHalfStatsAreRefused) {
    ForwardGraph forward;
    auto [o, stats] = forward.add(fe::graph::SDPA_attributes().set_is_inference(true));
    EXPECT_FALSE(stats);
    ASSERT_FE_OK(forward.graph.validate());

    ForwardGraph halfStats;
    auto outputs = halfStats.add(SdpaAttributes().set_generate_stats(true));
    outputs[1]->set_data_type(fe::DataType::HALF);
    EXPECT_FE_ERROR(halfStats.graph.validate(), ErrorCode::INVALID_VALUE, "port STATS",
                    "has data type HALF; attention statistics are FLOAT");
}

TEST(FrontendAttention, OutputFollowsTheBshdLayoutOfQ) {
    Graph graph = floatGraph();
    const Dims qDims{2, 4, 8, 16};
    auto q = graph.tensor(TensorAttributes().set_name("q").set_dim(qDims).set_stride(bshdStrides(qDims)));
    auto k = graph.tensor(
        TensorAttributes().set_name("k").set_dim({2, 4, 8, 16}).set_stride(bshdStrides({2, 4, 8, 16})));
    auto v = graph.tensor(
        TensorAttributes().set_name("v").set_dim({2, 4, 8, 16}).set_stride(bshdStrides({2, 4, 8, 16})));
    auto [o, stats] = graph.sdpa(q, k, v, SdpaAttributes());
    o->set_output(true);
    ASSERT_FE_OK(graph.validate());
    EXPECT_EQ(o->get_stride(), bshdStrides(qDims));
}

TEST(FrontendAttention, InconsistentOperandsAreRefusedWithTheirDims) {
    const auto check = [](const Dims& q, const Dims& k, const Dims& v, std::vector<std::string> fragments) {
        Graph graph = floatGraph();
        auto [o, stats] =
            graph.sdpa(input(graph, "q", q), input(graph, "k", k), input(graph, "v", v), SdpaAttributes());
        o->set_output(true);
        const fe::Error error = graph.validate();
        EXPECT_EQ(error.code, ErrorCode::INVALID_VALUE) << error.message;
        for (const auto& fragment : fragments) {
            EXPECT_NE(error.message.find(fragment), std::string::npos)
                << error.message << " lacks " << fragment;
        }
    };
    check({2, 8, 16}, {2, 2, 32, 64}, {2, 2, 32, 32}, {"'q' (port Q", "has dims [2, 8, 16]", "rank 4"});
    check({2, 8, 16, 64}, {2, 2, 32, 32}, {2, 2, 32, 32}, {"'k' (port K", "[2, 2, 32, 32]", "Q's 2 and 64"});
    check({2, 8, 16, 64}, {2, 3, 32, 64}, {2, 3, 32, 32}, {"has 3 heads, which do not divide Q's 8"});
    check({2, 8, 16, 64}, {2, 2, 32, 64}, {2, 2, 30, 32}, {"'v' (port V", "must be K's (2, 2, 32)"});
}

TEST(FrontendAttention, OptionConflictsAreRefused) {
    EXPECT_FE_ERROR(
        validateForward(SdpaAttributes().set_causal_mask(true).set_causal_mask_bottom_right(true)),
        ErrorCode::INVALID_VALUE, "causal_mask and causal_mask_bottom_right are both set");
    EXPECT_FE_ERROR(validateForward(SdpaAttributes().set_attn_scale(std::numeric_limits<float>::infinity())),
                    ErrorCode::INVALID_VALUE, "attn_scale inf is not finite");
    EXPECT_FE_ERROR(validateForward(SdpaAttributes().set_dropout(1.5F, nullptr, nullptr)),
                    ErrorCode::INVALID_VALUE, "dropout probability 1.500000 is outside [0, 1)");
    EXPECT_FE_ERROR(validateForward(SdpaAttributes().set_dropout(0.1F, nullptr, nullptr)),
                    ErrorCode::ATTRIBUTE_NOT_SET, "tensor SEED is not set");
    EXPECT_FE_ERROR(validateForward(SdpaAttributes().set_padding_mask(true)), ErrorCode::ATTRIBUTE_NOT_SET,
                    "tensor SEQ_LEN_Q is not set");

    ForwardGraph bothScales;
    bothScales.add(SdpaAttributes().set_attn_scale(0.5F).set_attn_scale(
        bothScales.graph.tensor(TensorAttributes(0.5F).set_name("scale"))));
    EXPECT_FE_ERROR(bothScales.graph.validate(), ErrorCode::INVALID_VALUE,
                    "attn_scale is set both as a value (0.500000) and as a tensor");

    ForwardGraph wideScale;
    wideScale.add(SdpaAttributes().set_attn_scale(input(wideScale.graph, "scale", {1, 2})));
    EXPECT_FE_ERROR(wideScale.graph.validate(), ErrorCode::INVALID_VALUE, "'scale' (port ATTN_SCALE",
                    "must hold one element");
}

TEST(FrontendAttention, BiasMustBroadcastToTheScores) {
    ForwardGraph broadcast;
    broadcast.add(SdpaAttributes().set_bias(input(broadcast.graph, "bias", {1, 8, 1, 32})));
    ASSERT_FE_OK(broadcast.graph.validate());

    ForwardGraph wrong;
    wrong.add(SdpaAttributes().set_bias(input(wrong.graph, "bias", {1, 2, 16, 32})));
    EXPECT_FE_ERROR(wrong.graph.validate(), ErrorCode::INVALID_VALUE, "'bias' (port BIAS",
                    "[1, 2, 16, 32], which do not broadcast to the scores [2, 8, 16, 32]");
}

TEST(FrontendAttention, PaddingNeedsPerBatchIntegerLengths) {
    ForwardGraph good;
    good.add(SdpaAttributes()
                 .set_padding_mask(true)
                 .set_seq_len_q(integerInput(good.graph, "seq_q", {2, 1, 1, 1}))
                 .set_seq_len_kv(integerInput(good.graph, "seq_kv", {2, 1, 1, 1}, fe::DataType::INT64)));
    ASSERT_FE_OK(good.graph.validate());

    ForwardGraph wrongDims;
    wrongDims.add(SdpaAttributes()
                      .set_padding_mask(true)
                      .set_seq_len_q(integerInput(wrongDims.graph, "seq_q", {1, 1, 1, 1}))
                      .set_seq_len_kv(integerInput(wrongDims.graph, "seq_kv", {2, 1, 1, 1})));
    EXPECT_FE_ERROR(wrongDims.graph.validate(), ErrorCode::INVALID_VALUE, "'seq_q' (port SEQ_LEN_Q",
                    "has dims [1, 1, 1, 1]; expected [2, 1, 1, 1]");

    ForwardGraph floatLengths;
    floatLengths.add(SdpaAttributes()
                         .set_padding_mask(true)
                         .set_seq_len_q(input(floatLengths.graph, "seq_q", {2, 1, 1, 1}))
                         .set_seq_len_kv(integerInput(floatLengths.graph, "seq_kv", {2, 1, 1, 1})));
    EXPECT_FE_ERROR(floatLengths.graph.validate(), ErrorCode::INVALID_VALUE,
                    "has data type FLOAT; it must be INT32 or INT64");

    ForwardGraph noMask;
    noMask.add(SdpaAttributes()
                   .set_seq_len_q(integerInput(noMask.graph, "seq_q", {2, 1, 1, 1}))
                   .set_seq_len_kv(integerInput(noMask.graph, "seq_kv", {2, 1, 1, 1})));
    EXPECT_FE_ERROR(noMask.graph.validate(), ErrorCode::INVALID_VALUE,
                    "sequence lengths are set but the padding mask is not");
}

TEST(FrontendAttention, DropoutNeedsIntegerSeedAndOffset) {
    ForwardGraph good;
    good.add(SdpaAttributes().set_dropout(0.2F, good.graph.tensor(TensorAttributes(int64_t{7})),
                                          good.graph.tensor(TensorAttributes(int64_t{0}))));
    ASSERT_FE_OK(good.graph.validate());

    ForwardGraph floatSeed;
    floatSeed.add(SdpaAttributes().set_dropout(0.2F,
                                               floatSeed.graph.tensor(TensorAttributes(7.0F).set_name("s")),
                                               floatSeed.graph.tensor(TensorAttributes(int64_t{0}))));
    EXPECT_FE_ERROR(floatSeed.graph.validate(), ErrorCode::INVALID_VALUE, "'s' (port SEED",
                    "has data type FLOAT; it must be INT32 or INT64");

    ForwardGraph seedWithoutDropout;
    seedWithoutDropout.add(
        SdpaAttributes().set_dropout(0.0F, seedWithoutDropout.graph.tensor(TensorAttributes(int64_t{7})),
                                     seedWithoutDropout.graph.tensor(TensorAttributes(int64_t{0}))));
    EXPECT_FE_ERROR(seedWithoutDropout.graph.validate(), ErrorCode::INVALID_VALUE,
                    "dropout seed or offset is set but the dropout probability is not above 0");
}

namespace {

struct BackwardGraph {
    Graph graph = floatGraph("attention_backward");
    TensorPtr q = input(graph, "q", {2, 8, 16, 64});
    TensorPtr k = input(graph, "k", {2, 2, 32, 64});
    TensorPtr v = input(graph, "v", {2, 2, 32, 32});
    TensorPtr o = input(graph, "o", {2, 8, 16, 32});
    TensorPtr dO = input(graph, "do", {2, 8, 16, 32});
    TensorPtr stats = input(graph, "stats", {2, 8, 16, 1});

    std::array<TensorPtr, 3> add(SdpaBackwardAttributes attributes) {
        auto gradients = graph.sdpa_backward(q, k, v, o, dO, stats, attributes.set_name("sdpa_backward"));
        for (const auto& gradient : gradients) {
            gradient->set_output(true);
        }
        return gradients;
    }
};

}  // namespace

TEST(FrontendAttention, BackwardGradientsTakeTheirOperandsShapeAndLayout) {
    BackwardGraph backward;
    backward.k->set_stride(bshdStrides(backward.k->get_dim()));
    auto [dq, dk, dv] = backward.add(fe::graph::SDPA_backward_attributes().set_causal_mask(true));
    ASSERT_FE_OK(backward.graph.validate());
    EXPECT_EQ(dq->get_dim(), (Dims{2, 8, 16, 64}));
    EXPECT_EQ(dk->get_dim(), (Dims{2, 2, 32, 64}));
    EXPECT_EQ(dk->get_stride(), bshdStrides({2, 2, 32, 64}));
    EXPECT_EQ(dv->get_dim(), (Dims{2, 2, 32, 32}));
}

TEST(FrontendAttention, BackwardInputsMustMatchTheForwardShapes) {
    BackwardGraph wrongO;
    wrongO.o->set_dim({2, 8, 16, 64}).set_stride(nchwStrides({2, 8, 16, 64}));
    wrongO.add(SdpaBackwardAttributes());
    EXPECT_FE_ERROR(wrongO.graph.validate(), ErrorCode::INVALID_VALUE, "'o' (port O",
                    "has dims [2, 8, 16, 64]; expected [2, 8, 16, 32]");

    BackwardGraph wrongDo;
    wrongDo.dO->set_dim({2, 8, 15, 32}).set_stride(nchwStrides({2, 8, 15, 32}));
    wrongDo.add(SdpaBackwardAttributes());
    EXPECT_FE_ERROR(wrongDo.graph.validate(), ErrorCode::INVALID_VALUE, "'do' (port DO");

    BackwardGraph halfStats;
    halfStats.stats->set_data_type(fe::DataType::HALF);
    halfStats.add(SdpaBackwardAttributes());
    EXPECT_FE_ERROR(halfStats.graph.validate(), ErrorCode::INVALID_VALUE, "'stats' (port STATS",
                    "attention statistics are FLOAT");

    BackwardGraph wrongStats;
    wrongStats.stats->set_dim({2, 8, 16, 32}).set_stride(nchwStrides({2, 8, 16, 32}));
    wrongStats.add(SdpaBackwardAttributes());
    EXPECT_FE_ERROR(wrongStats.graph.validate(), ErrorCode::INVALID_VALUE, "'stats' (port STATS",
                    "[2, 8, 16, 32] but the node's inputs imply [2, 8, 16, 1]");
}

TEST(FrontendAttention, ForwardRoundTripKeepsEveryOption) {
    ForwardGraph forward;
    forward.add(SdpaAttributes()
                    .set_generate_stats(true)
                    .set_attn_scale(0.125F)
                    .set_causal_mask(true)
                    .set_diagonal_alignment(fe::DiagonalAlignment::BOTTOM_RIGHT)
                    .set_bias(input(forward.graph, "bias", {1, 1, 16, 32}))
                    .set_padding_mask(true)
                    .set_seq_len_q(integerInput(forward.graph, "seq_q", {2, 1, 1, 1}))
                    .set_seq_len_kv(integerInput(forward.graph, "seq_kv", {2, 1, 1, 1}))
                    .set_dropout(0.25F,
                                 forward.graph.tensor(TensorAttributes(int64_t{1234}).set_name("seed")),
                                 forward.graph.tensor(TensorAttributes(int64_t{5}).set_name("offset"))));
    std::vector<uint8_t> bytes;
    ASSERT_FE_OK(forward.graph.serialize(bytes));
    Graph restored;
    ASSERT_FE_OK(restored.deserialize(nullptr, bytes));
    std::vector<uint8_t> again;
    ASSERT_FE_OK(restored.serialize(again));
    EXPECT_EQ(bytes, again);
    EXPECT_EQ(forward.graph.key(), restored.key());

    std::string json;
    ASSERT_FE_OK(forward.graph.serialize(json));
    for (const char* field :
         {"SdpaAttributes", "\"causal_mask\": true", "BOTTOM_RIGHT", "\"dropout_probability\": 0.25",
          "\"attn_scale_value\": 0.125", "\"padding_mask\": true", "\"generate_stats\": true"}) {
        EXPECT_NE(json.find(field), std::string::npos) << field << " missing from " << json;
    }
    Graph fromJson;
    ASSERT_FE_OK(fromJson.deserialize(nullptr, json));
    std::string jsonAgain;
    ASSERT_FE_OK(fromJson.serialize(jsonAgain));
    EXPECT_EQ(json, jsonAgain);
}

TEST(FrontendAttention, BackwardRoundTrip) {
    BackwardGraph backward;
    backward.add(SdpaBackwardAttributes().set_causal_mask_bottom_right(true).set_attn_scale(
        backward.graph.tensor(TensorAttributes(0.5F).set_name("scale"))));
    std::vector<uint8_t> bytes;
    ASSERT_FE_OK(backward.graph.serialize(bytes));
    Graph restored;
    ASSERT_FE_OK(restored.deserialize(nullptr, bytes));
    std::vector<uint8_t> again;
    ASSERT_FE_OK(restored.serialize(again));
    EXPECT_EQ(bytes, again);
    std::string json;
    ASSERT_FE_OK(restored.serialize(json));
    EXPECT_NE(json.find("SdpaBackwardAttributes"), std::string::npos) << json;
    EXPECT_NE(json.find("\"causal_mask_bottom_right\": true"), std::string::npos) << json;
}
