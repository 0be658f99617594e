// The attention operations' contract: the shapes, types and options GraphWrapper accepts, and a
// message naming the field, tensor and values for each it refuses.
#include "TestGraphs.hpp"

#include "hipdnn_flatbuffers_sdk/GraphWrapper.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_flatbuffers_sdk::GraphError;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::test::packedStrides;
using hipdnn_flatbuffers_sdk::test::TensorSpec;
using hipdnn_flatbuffers_sdk::test::TestGraph;
using testing::AllOf;
using testing::HasSubstr;
using testing::IsEmpty;

using Dims = std::vector<int64_t>;

TensorSpec spec(int64_t uid, std::string name, Dims dims, fb::DataType type = fb::DataType::FLOAT) {
    auto strides = packedStrides(dims);
    return {uid, std::move(name), std::move(dims), std::move(strides), false, type, std::nullopt};
}

// Q (2, 4, 6, 8), K (2, 2, 5, 8), V (2, 2, 5, 3), O (2, 4, 6, 3) unless replaced: grouped-query
// attention with 2 query heads per KV head and a value dim of its own.
std::vector<TensorSpec> operands(Dims q = {2, 4, 6, 8}, Dims k = {2, 2, 5, 8}, Dims v = {2, 2, 5, 3},
                                 Dims o = {2, 4, 6, 3}) {
    return {spec(1, "q", std::move(q)), spec(2, "k", std::move(k)), spec(3, "v", std::move(v)),
            spec(4, "o", std::move(o))};
}

// The GraphWrapper message for the graph, empty when it is accepted.
std::string verdict(const std::vector<TensorSpec>& tensors, fb::NodeAttributes type,
                    const hipdnn_flatbuffers_sdk::test::AttributesFactory& attributes) {
    TestGraph graph;
    for (const auto& tensor : tensors) {
        graph.tensor(tensor);
    }
    graph.node("attention", type, attributes);
    const auto bytes = graph.build();
    try {
        const GraphWrapper wrapper(bytes.data(), bytes.size());
        return {};
    } catch (const GraphError& error) {
        return error.what();
    }
}

using ForwardOptions = std::function<void(fb::SdpaAttributesBuilder&)>;

std::string forward(std::vector<TensorSpec> tensors, const ForwardOptions& options = {}) {
    return verdict(tensors, fb::NodeAttributes::SdpaAttributes, [&](auto& b) {
        fb::SdpaAttributesBuilder sdpa(b);
        sdpa.add_q_tensor_uid(1);
        sdpa.add_k_tensor_uid(2);
        sdpa.add_v_tensor_uid(3);
        sdpa.add_o_tensor_uid(4);
        if (options) {
            options(sdpa);
        }
        return sdpa.Finish().Union();
    });
}

std::vector<TensorSpec> with(std::vector<TensorSpec> tensors, std::initializer_list<TensorSpec> extra) {
    tensors.insert(tensors.end(), extra.begin(), extra.end());
    return tensors;
}

TEST(AttentionContract, AcceptsGroupedQueryAttentionWithEveryImplementedOption) {
    const auto tensors =
        with(operands(), {spec(5, "stats", {2, 4, 6, 1}), spec(6, "bias", {1, 4, 1, 5}, fb::DataType::HALF),
                          spec(7, "seq_q", {2, 1, 1, 1}, fb::DataType::INT32),
                          spec(8, "seq_kv", {2, 1, 1, 1}, fb::DataType::INT64),
                          spec(9, "seed", {1, 1, 1, 1}, fb::DataType::INT64),
                          spec(10, "offset", {1}, fb::DataType::INT32)});
    EXPECT_THAT(forward(tensors,
                        [](auto& s) {
                            s.add_stats_tensor_uid(5);
                            s.add_generate_stats(true);
                            s.add_attn_mask_tensor_uid(6);
                            s.add_padding_mask(true);
                            s.add_seq_len_q_tensor_uid(7);
                            s.add_seq_len_kv_tensor_uid(8);
                            s.add_causal_mask_bottom_right(true);
                            s.add_dropout_probability(0.25F);
                            s.add_seed_tensor_uid(9);
                            s.add_offset_tensor_uid(10);
                            s.add_attn_scale_value(0.125F);
                        }),
                IsEmpty());
}

TEST(AttentionContract, InconsistentOperandsNameTheTensorAndTheDims) {
    EXPECT_THAT(forward(operands({2, 4, 6})),
                HasSubstr("port q: tensor uid 1 'q' has rank 3 (dims [2, 4, 6])"));
    EXPECT_THAT(
        forward(operands({2, 4, 6, 8}, {2, 2, 5, 16})),
        HasSubstr("port k (tensor uid 2 'k') has dims [2, 2, 5, 16] but its batch (dim 0) and head dim "
                  "(dim 3) must be q's 2 and 8"));
    EXPECT_THAT(forward(operands({2, 4, 6, 8}, {3, 2, 5, 8})),
                HasSubstr("port k (tensor uid 2 'k') has dims [3"));
    EXPECT_THAT(forward(operands({2, 4, 6, 8}, {2, 3, 5, 8}, {2, 3, 5, 3})),
                HasSubstr("has 3 heads, which do not divide q's 4"));
    EXPECT_THAT(
        forward(operands({2, 4, 6, 8}, {2, 2, 5, 8}, {2, 2, 7, 3})),
        HasSubstr("port v (tensor uid 3 'v') has dims [2, 2, 7, 3] but (B, H, S) must be k's (2, 2, 5)"));
    EXPECT_THAT(
        forward(operands({2, 4, 6, 8}, {2, 2, 5, 8}, {2, 2, 5, 3}, {2, 4, 6, 8})),
        HasSubstr("port o (tensor uid 4 'o') has dims [2, 4, 6, 8] but (B, Hq, Sq, Dv) from q and v is "
                  "[2, 4, 6, 3]"));
}

TEST(AttentionContract, StatsAreFloatPerQueryRow) {
    const auto stats = [](Dims dims, fb::DataType type) {
        return forward(with(operands(), {spec(5, "stats", std::move(dims), type)}),
                       [](auto& s) { s.add_stats_tensor_uid(5); });
    };
    EXPECT_THAT(stats({2, 4, 6, 1}, fb::DataType::FLOAT), IsEmpty());
    EXPECT_THAT(stats({2, 4, 6, 5}, fb::DataType::FLOAT),
                HasSubstr("port stats (tensor uid 5 'stats') has dims [2, 4, 6, 5]; expected [2, 4, 6, 1]"));
    EXPECT_THAT(stats({2, 4, 6, 1}, fb::DataType::HALF), HasSubstr("has data type HALF; it must be FLOAT"));
    EXPECT_THAT(forward(operands(), [](auto& s) { s.add_generate_stats(true); }),
                HasSubstr("generate_stats is true but no stats tensor is given"));
}

TEST(AttentionContract, BiasBroadcastsToTheScores) {
    const auto bias = [](Dims dims) {
        return forward(with(operands(), {spec(5, "bias", std::move(dims))}),
                       [](auto& s) { s.add_attn_mask_tensor_uid(5); });
    };
    EXPECT_THAT(bias({2, 4, 6, 5}), IsEmpty());
    EXPECT_THAT(bias({1, 1, 6, 5}), IsEmpty());
    EXPECT_THAT(bias({1, 1, 1, 1}), IsEmpty());
    EXPECT_THAT(bias({2, 2, 6, 5}),
                HasSubstr("has dims [2, 2, 6, 5], which do not broadcast to [2, 4, 6, 5]"));
    EXPECT_THAT(bias({6, 5}), HasSubstr("port attn_mask: tensor uid 5 'bias' has rank 2"));
}

TEST(AttentionContract, PaddingNeedsPerBatchIntegerLengths) {
    const auto padding = [](Dims dims, fb::DataType type, bool mask) {
        return forward(with(operands(), {spec(5, "seq_q", dims, type), spec(6, "seq_kv", dims, type)}),
                       [mask](auto& s) {
                           s.add_padding_mask(mask);
                           s.add_seq_len_q_tensor_uid(5);
                           s.add_seq_len_kv_tensor_uid(6);
                       });
    };
    EXPECT_THAT(padding({2, 1, 1, 1}, fb::DataType::INT32, true), IsEmpty());
    EXPECT_THAT(
        padding({1, 1, 1, 1}, fb::DataType::INT32, true),
        HasSubstr("port seq_len_q (tensor uid 5 'seq_q') has dims [1, 1, 1, 1]; expected [2, 1, 1, 1]"));
    EXPECT_THAT(padding({2, 1, 1, 1}, fb::DataType::FLOAT, true),
                HasSubstr("has data type FLOAT; it must be INT32 or INT64"));
    EXPECT_THAT(padding({2, 1, 1, 1}, fb::DataType::INT32, false),
                HasSubstr("padding_mask is not set with seq_len_q given and seq_len_kv given"));
    EXPECT_THAT(forward(operands(), [](auto& s) { s.add_padding_mask(true); }),
                HasSubstr("padding_mask is set with seq_len_q absent and seq_len_kv absent"));
}

TEST(AttentionContract, DropoutNeedsAProbabilityInRangeAndIntegerSeedAndOffset) {
    const auto dropout = [](float probability, fb::DataType seedType, Dims seedDims = {1}) {
        return forward(with(operands(), {spec(5, "seed", std::move(seedDims), seedType),
                                         spec(6, "offset", {1}, fb::DataType::INT64)}),
                       [probability](auto& s) {
                           s.add_dropout_probability(probability);
                           s.add_seed_tensor_uid(5);
                           s.add_offset_tensor_uid(6);
                       });
    };
    EXPECT_THAT(dropout(0.1F, fb::DataType::INT64), IsEmpty());
    EXPECT_THAT(dropout(1.0F, fb::DataType::INT64),
                HasSubstr("dropout_probability 1.000000 is outside [0, 1)"));
    EXPECT_THAT(dropout(-0.5F, fb::DataType::INT64),
                HasSubstr("dropout_probability -0.500000 is outside [0, 1)"));
    EXPECT_THAT(dropout(std::numeric_limits<float>::quiet_NaN(), fb::DataType::INT64),
                HasSubstr("dropout_probability nan is outside [0, 1)"));
    EXPECT_THAT(dropout(0.1F, fb::DataType::FLOAT),
                HasSubstr("port seed: tensor uid 5 'seed' has data type FLOAT; it must be INT32 or INT64"));
    EXPECT_THAT(dropout(0.1F, fb::DataType::INT64, {2}), HasSubstr("it must hold exactly one element"));
    EXPECT_THAT(forward(operands(), [](auto& s) { s.add_dropout_probability(0.5F); }),
                HasSubstr("dropout_probability 0.500000 with seed absent and offset absent"));
    EXPECT_THAT(forward(operands(), [](auto& s) { s.add_dropout_probability(0.0F); }), IsEmpty());
}

TEST(AttentionContract, ScaleAndCausalOptionsAreConsistent) {
    EXPECT_THAT(
        forward(operands(), [](auto& s) { s.add_attn_scale_value(std::numeric_limits<float>::infinity()); }),
        HasSubstr("has attn_scale_value inf; it must be finite"));
    EXPECT_THAT(forward(with(operands(), {hipdnn_flatbuffers_sdk::test::scalarTensor(5, "scale", 0.5F)}),
                        [](auto& s) {
                            s.add_scale_tensor_uid(5);
                            s.add_attn_scale_value(0.5F);
                        }),
                HasSubstr("scale is given both as a tensor and as attn_scale_value"));
    EXPECT_THAT(
        forward(with(operands(), {spec(5, "scale", {1, 2})}), [](auto& s) { s.add_scale_tensor_uid(5); }),
        HasSubstr("port scale (tensor uid 5 'scale') has dims [1, 2]; a scalar needs exactly one element"));
    EXPECT_THAT(forward(operands(),
                        [](auto& s) {
                            s.add_causal_mask(true);
                            s.add_causal_mask_bottom_right(true);
                        }),
                HasSubstr("causal_mask and causal_mask_bottom_right are both set"));
    EXPECT_THAT(forward(operands(),
                        [](auto& s) {
                            s.add_causal_mask(true);
                            s.add_diagonal_alignment(fb::DiagonalAlignment::BOTTOM_RIGHT);
                        }),
                IsEmpty());
}

TEST(AttentionContract, FieldsThisVersionDoesNotImplementAreRefusedByName) {
    const auto refused = [](const ForwardOptions& options, std::vector<TensorSpec> extra = {}) {
        auto tensors = operands();
        tensors.insert(tensors.end(), extra.begin(), extra.end());
        return forward(tensors, options);
    };
    EXPECT_THAT(refused([](auto& s) { s.add_alibi_mask(true); }),
                HasSubstr("alibi_mask is set, but the ALiBi mask is not supported"));
    EXPECT_THAT(refused([](auto& s) { s.add_left_bound(4); }), HasSubstr("left_bound is set"));
    EXPECT_THAT(refused([](auto& s) { s.add_right_bound(4); }), HasSubstr("right_bound is set"));
    EXPECT_THAT(refused([](auto& s) { s.add_max_seq_len_kv(64); }),
                HasSubstr("max_seq_len_kv is set, but paged attention is not supported"));
    EXPECT_THAT(refused([](auto& s) { s.add_implementation(fb::AttentionImplementation::COMPOSITE); }),
                HasSubstr("implementation is set, but an implementation other than AUTO is not supported"));
    EXPECT_THAT(refused([](auto& s) { s.add_mma_core_mode(fb::DataType::FP8_E4M3); }),
                HasSubstr("mma_core_mode is set"));
    EXPECT_THAT(refused([](auto& s) { s.add_page_table_k_tensor_uid(5); },
                        {spec(5, "pages", {2, 1, 4, 1}, fb::DataType::INT32)}),
                HasSubstr("page_table_k is set, but paged attention is not supported"));
    EXPECT_THAT(refused([](auto& s) { s.add_descale_q_tensor_uid(5); }, {spec(5, "descale", {1, 1, 1, 1})}),
                HasSubstr("descale_q is set, but fp8 attention is not supported"));
    EXPECT_THAT(refused([](auto& s) { s.add_max_tensor_uid(5); }, {spec(5, "max", {2, 4, 6, 1})}),
                HasSubstr("max is set, but a row-maximum output is not supported"));
    EXPECT_THAT(refused([](auto& s) { s.add_dropout_mask_tensor_uid(5); }, {spec(5, "mask", {2, 4, 6, 5})}),
                HasSubstr("dropout_mask is set, but a caller-given dropout mask is not supported"));
}

using BackwardOptions = std::function<void(fb::SdpaBackwardAttributesBuilder&)>;

// The forward operands plus dO (5), stats (6), dQ (7), dK (8) and dV (9).
std::string backward(Dims dq = {2, 4, 6, 8}, Dims dOut = {2, 4, 6, 3}, const BackwardOptions& options = {},
                     std::vector<TensorSpec> extra = {}) {
    auto tensors = with(
        operands(), {spec(5, "do", std::move(dOut)), spec(6, "stats", {2, 4, 6, 1}),
                     spec(7, "dq", std::move(dq)), spec(8, "dk", {2, 2, 5, 8}), spec(9, "dv", {2, 2, 5, 3})});
    tensors.insert(tensors.end(), extra.begin(), extra.end());
    return verdict(tensors, fb::NodeAttributes::SdpaBackwardAttributes, [&](auto& b) {
        fb::SdpaBackwardAttributesBuilder sdpa(b);
        sdpa.add_q_tensor_uid(1);
        sdpa.add_k_tensor_uid(2);
        sdpa.add_v_tensor_uid(3);
        sdpa.add_o_tensor_uid(4);
        sdpa.add_do_tensor_uid(5);
        sdpa.add_stats_tensor_uid(6);
        sdpa.add_dq_tensor_uid(7);
        sdpa.add_dk_tensor_uid(8);
        sdpa.add_dv_tensor_uid(9);
        if (options) {
            options(sdpa);
        }
        return sdpa.Finish().Union();
    });
}

TEST(AttentionContract, BackwardGradientsHaveTheirOperandsDims) {
    EXPECT_THAT(backward(), IsEmpty());
    EXPECT_THAT(backward({2, 4, 6, 3}),
                HasSubstr("port dq (tensor uid 7 'dq') has dims [2, 4, 6, 3] but port q has [2, 4, 6, 8]"));
    EXPECT_THAT(backward({2, 4, 6, 8}, {2, 4, 5, 3}),
                HasSubstr("port do (tensor uid 5 'do') has dims [2, 4, 5, 3] but port o has [2, 4, 6, 3]"));
    EXPECT_THAT(backward({2, 4, 6, 8}, {2, 4, 6, 3}, [](auto& s) { s.add_dbias_tensor_uid(10); },
                         {spec(10, "dbias", {1, 4, 6, 5})}),
                HasSubstr("dbias is set, but the bias gradient is not supported"));
    EXPECT_THAT(backward({2, 4, 6, 8}, {2, 4, 6, 3}, [](auto& s) { s.add_causal_mask(true); }), IsEmpty());
    EXPECT_THAT(backward({2, 4, 6, 8}, {2, 4, 6, 3}, [](auto& s) { s.add_alibi_mask(true); }),
                HasSubstr("alibi_mask is set"));
}

}  // namespace
