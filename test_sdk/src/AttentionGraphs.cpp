#include <hipdnn_test_sdk/AttentionGraphs.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace hipdnn_test_sdk {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

namespace {

// The case's options; its bias (when it has one) added to `builder` as tensor `biasUid`.
SdpaOptions optionsOf(const AttentionCase& c, GraphBuilder& builder, int64_t biasUid) {
    SdpaOptions options;
    if (c.scaleTensor) {
        builder.addTensor(15, "scale", fb::DataType::FLOAT, {1, 1, 1, 1});
        options.scaleTensor = 15;
    } else {
        options.scale = c.scale;
    }
    options.causal = c.causal && !c.bottomRight;
    options.causalBottomRight = c.causal && c.bottomRight;
    if (c.bias) {
        builder.addTensor(biasUid, "bias", fb::DataType::FLOAT, {1, c.heads, c.seqQ, c.seqKv});
        options.bias = biasUid;
    }
    if (c.padding) {
        builder.addTensor(11, "seq_len_q", fb::DataType::INT32, {c.batch, 1, 1, 1})
            .addTensor(12, "seq_len_kv", fb::DataType::INT32, {c.batch, 1, 1, 1});
        options.seqLenQ = 11;
        options.seqLenKv = 12;
    }
    if (c.dropout > 0.0F) {
        builder.addTensor(13, "seed", fb::DataType::INT64, {1, 1, 1, 1})
            .addTensor(14, "offset", fb::DataType::INT64, {1, 1, 1, 1});
        options.dropoutProbability = c.dropout;
        options.seed = 13;
        options.offset = 14;
    }
    return options;
}

int64_t pick(std::mt19937& random, const std::vector<int64_t>& values) {
    return values[std::uniform_int_distribution<size_t>(0, values.size() - 1)(random)];
}

}  // namespace

// Appended piece by piece: GCC 12 raises a false -Wrestrict on "literal" + std::string chains.
std::string AttentionCase::describe() const {
    std::ostringstream text;
    text << "B" << batch << " H" << heads << "/" << kvHeads << " Sq" << seqQ << " Skv" << seqKv << " D" << dim
         << "/" << valueDim << (bshd ? " bshd" : " bhsd")
         << (causal ? (bottomRight ? " causal-br" : " causal-tl") : "") << (bias ? " bias" : "")
         << (stats ? " stats" : "") << (scaleTensor ? " scale-tensor" : "") << (padding ? " padding" : "");
    if (dropout > 0.0F) {
        text << " dropout" << dropout;
    }
    text << " " << fb::EnumNameDataType(type);
    return text.str();
}

std::vector<int64_t> attentionStrides(int64_t heads, int64_t seq, int64_t dim, bool bshd) {
    if (bshd) {
        return {seq * heads * dim, dim, heads * dim, 1};
    }
    return {heads * seq * dim, seq * dim, dim, 1};
}

AttentionCase randomAttentionCase(std::mt19937& random, const AttentionCaseSpace& space) {
    AttentionCase c;
    c.batch = pick(random, {1, 2});
    c.kvHeads = pick(random, {1, 2});
    c.heads = c.kvHeads * pick(random, {1, 2, 4});
    c.seqQ = pick(random, space.seqQ);
    c.seqKv = pick(random, space.seqKv);
    c.dim = pick(random, space.dims);
    c.valueDim = pick(random, {space.dims.front(), c.dim});
    c.bshd = pick(random, {0, 1}) == 1;
    c.causal = pick(random, {0, 1}) == 1;
    c.bottomRight = pick(random, {0, 1}) == 1;
    c.bias = pick(random, {0, 1}) == 1;
    c.stats = pick(random, {0, 1}) == 1;
    c.scale = 1.0F / std::sqrt(static_cast<float>(c.dim));
    return c;
}

GraphBuilder attentionGraph(const AttentionCase& c) {
    GraphBuilder builder("sdpa");
    const auto t = c.type;
    builder
        .addTensor(1, "q", t, {c.batch, c.heads, c.seqQ, c.dim},
                   attentionStrides(c.heads, c.seqQ, c.dim, c.bshd))
        .addTensor(2, "k", t, {c.batch, c.kvHeads, c.seqKv, c.dim},
                   attentionStrides(c.kvHeads, c.seqKv, c.dim, c.bshd))
        .addTensor(3, "v", t, {c.batch, c.kvHeads, c.seqKv, c.valueDim},
                   attentionStrides(c.kvHeads, c.seqKv, c.valueDim, c.bshd))
        .addTensor(4, "o", t, {c.batch, c.heads, c.seqQ, c.valueDim},
                   attentionStrides(c.heads, c.seqQ, c.valueDim, c.bshd));
    const SdpaOptions options = optionsOf(c, builder, 6);
    if (c.stats) {
        builder.addTensor(5, "stats", fb::DataType::FLOAT, {c.batch, c.heads, c.seqQ, 1});
    }
    builder.addSdpa("sdpa", 1, 2, 3, 4, c.stats ? std::optional<int64_t>(5) : std::nullopt, options);
    return builder;
}

GraphBuilder attentionBackwardGraph(const AttentionCase& c) {
    GraphBuilder builder("sdpa_backward");
    const auto t = c.type;
    const auto q = attentionStrides(c.heads, c.seqQ, c.dim, c.bshd);
    const auto kv = attentionStrides(c.kvHeads, c.seqKv, c.dim, c.bshd);
    const auto v = attentionStrides(c.kvHeads, c.seqKv, c.valueDim, c.bshd);
    const auto o = attentionStrides(c.heads, c.seqQ, c.valueDim, c.bshd);
    builder.addTensor(1, "q", t, {c.batch, c.heads, c.seqQ, c.dim}, q)
        .addTensor(2, "k", t, {c.batch, c.kvHeads, c.seqKv, c.dim}, kv)
        .addTensor(3, "v", t, {c.batch, c.kvHeads, c.seqKv, c.valueDim}, v)
        .addTensor(4, "o", t, {c.batch, c.heads, c.seqQ, c.valueDim}, o)
        .addTensor(5, "dO", t, {c.batch, c.heads, c.seqQ, c.valueDim}, o)
        .addTensor(6, "stats", fb::DataType::FLOAT, {c.batch, c.heads, c.seqQ, 1})
        .addTensor(7, "dq", t, {c.batch, c.heads, c.seqQ, c.dim}, q)
        .addTensor(8, "dk", t, {c.batch, c.kvHeads, c.seqKv, c.dim}, kv)
        .addTensor(9, "dv", t, {c.batch, c.kvHeads, c.seqKv, c.valueDim}, v);
    const SdpaOptions options = optionsOf(c, builder, 10);
    builder.addSdpaBackward("sdpa_backward", 1, 2, 3, 4, 5, 6, 7, 8, 9, options);
    return builder;
}

Tolerance attentionForwardTolerance(const AttentionCase& c) {
    return attentionTolerance(ToleranceOp::Sdpa, c.type, c.seqKv);
}

Tolerance attentionBackwardTolerance(const AttentionCase& c) {
    return attentionTolerance(ToleranceOp::SdpaBackward, c.type,
                              std::max(c.seqKv, c.seqQ * c.heads / c.kvHeads));
}

}  // namespace hipdnn_test_sdk
