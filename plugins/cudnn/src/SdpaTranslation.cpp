// Attention -> cuDNN 9's fused flash-attention graphs, spelled as cudnn-frontend spells them, since
// cuDNN recognizes its fused attention engines by the graph's exact shape:
// - forward without mask or bias: the single SDPA_FWD operation (cuDNN >= 9.13.1);
// - forward with a padding mask, a causal mask or a bias: matmul, scale, [bias], [padding mask],
//   [causal mask], softmax with the statistics (in the workspace when the graph has no statistics
//   output), matmul;
// - backward: the flash backward graph, with the row sums of dO * O and the dQ accumulator in
//   the workspace, dQ accumulated with atomics (so the deterministic engine declines it).
// A padding mask's per-batch lengths also override the matmuls' M, N and K, so that padded rows and
// columns are never computed.
// K (and V in backward) are described to cuDNN as transposed views of the caller's buffers.
#include "GraphTranslator.hpp"

#include <limits>
#include <tuple>

namespace hipdnn_cudnn_plugin {

namespace {

// cudnn-frontend uses the unified operation from this release on.
constexpr size_t kUnifiedForwardVersion = 91301;
// Releases up to 9.15.0 return NaN gradients when the key sequence is not a multiple of 128
// unless the graph has a padding mask (cudnn-frontend issue 160; its workaround adds one of full
// lengths); this engine adds none, so graphs without one are declined there.
constexpr size_t kBackwardAnyLengthVersion = 91501;
constexpr int64_t kBackwardLengthMultiple = 128;
constexpr int64_t kMaxHeadDim = 256;
constexpr int64_t kHeadDimMultiple = 8;

// B, H, S, D positions of attention tensors.
constexpr size_t kHeads = 1;
constexpr size_t kSeq = 2;
constexpr size_t kDim = 3;

struct Shapes {
    int64_t batch, queryHeads, kvHeads, seqQ, seqKv, headDim, valueDim;
    cudnnDataType_t ioType;

    std::vector<int64_t> scores() const { return {batch, queryHeads, seqQ, seqKv}; }
    std::vector<int64_t> rows() const { return {batch, queryHeads, seqQ, 1}; }
    // Scores transposed, (B, H, Skv, Sq), over the row-major scores' memory.
    std::vector<int64_t> transposedScores() const { return {batch, queryHeads, seqKv, seqQ}; }
    std::vector<int64_t> transposedScoreStrides() const {
        return {queryHeads * seqQ * seqKv, seqQ * seqKv, 1, seqKv};
    }
};

// The masks and scale both directions share, read from either attribute table.
struct Options {
    std::optional<int64_t> bias;
    std::optional<int64_t> scale;
    std::optional<float> scaleValue;
    bool causal = false;
    bool bottomRight = false;
    // The padding mask's per-batch lengths, (B, 1, 1, 1) tensors: both or neither.
    std::optional<int64_t> seqLenQ;
    std::optional<int64_t> seqLenKv;

    bool padding() const { return seqLenQ.has_value(); }
    // A matmul's overrides by what its M, N and K run over (none without a padding mask).
    GemmOverrides queriesByKeys() const { return {seqLenQ, seqLenKv, std::nullopt}; }
    GemmOverrides queriesOverKeys() const { return {seqLenQ, std::nullopt, seqLenKv}; }
    GemmOverrides keysOverQueries() const { return {seqLenKv, std::nullopt, seqLenQ}; }
};

template <class Attributes>
Options optionsOf(const Attributes& a) {
    Options options;
    options.bias = a.attn_mask_tensor_uid();
    options.scale = a.scale_tensor_uid();
    options.scaleValue = a.attn_scale_value();
    const bool bottomRightAlignment = a.diagonal_alignment() == fb::DiagonalAlignment::BOTTOM_RIGHT;
    options.bottomRight = a.causal_mask_bottom_right() || (a.causal_mask() && bottomRightAlignment);
    options.causal = a.causal_mask() && !options.bottomRight;
    // The graph contract gives both lengths exactly when padding_mask is set.
    options.seqLenQ = a.seq_len_q_tensor_uid();
    options.seqLenKv = a.seq_len_kv_tensor_uid();
    return options;
}

const char* typeName(cudnnDataType_t type) {
    switch (type) {
        case CUDNN_DATA_FLOAT:
            return "FLOAT";
        case CUDNN_DATA_HALF:
            return "HALF";
        case CUDNN_DATA_BFLOAT16:
            return "BFLOAT16";
        case CUDNN_DATA_INT32:
            return "INT32";
        case CUDNN_DATA_INT64:
            return "INT64";
        default:
            return "a type other than HALF and BFLOAT16";
    }
}

// The padding mask's lengths bound cuDNN's matmuls, so cuDNN reads them as INT32 from device memory
// (the graph contract has checked their dims). global.benchmarking times with the full lengths.
void checkLengths(TranslationContext& context, const Options& options, const Shapes& shapes) {
    for (const auto& [uid, port, full] : {std::tuple{*options.seqLenQ, "seq_len_q", shapes.seqQ},
                                          std::tuple{*options.seqLenKv, "seq_len_kv", shapes.seqKv}}) {
        const TensorSpec& lengths = context.tensorSpec(context.tensor(uid, port));
        if (lengths.byValue) {
            context.fail(
                std::string(port) +
                " is passed by value; cuDNN's fused attention reads the sequence lengths from device "
                "memory");
        }
        if (lengths.dataType != CUDNN_DATA_INT32) {
            context.fail(std::string(port) + " has data type " + typeName(lengths.dataType) +
                         "; cuDNN's fused attention reads INT32 sequence lengths");
        }
        context.setTimingValue(uid, static_cast<int32_t>(full));
    }
}

// What cuDNN's fused attention needs of every graph; declines the rest by name.
template <class Attributes>
Shapes checkCommon(TranslationContext& context, const Attributes& a, int64_t q, int64_t k, int64_t v,
                   int64_t o) {
    if (context.nodeCount() != 1) {
        context.fail("cuDNN's fused attention runs attention as the graph's only node; this graph has " +
                     std::to_string(context.nodeCount()) + " nodes");
    }
    if (a.dropout_probability().value_or(0.0F) > 0.0F) {
        context.fail(
            "dropout is not mapped to cuDNN: its Philox mask differs from the graph's counter-hash mask, "
            "so results would disagree with every other engine");
    }
    const TensorSpec& query = context.tensorSpec(q);
    const TensorSpec& key = context.tensorSpec(k);
    const TensorSpec& value = context.tensorSpec(v);
    const Shapes shapes{query.dims[0],  query.dims[kHeads], key.dims[kHeads], query.dims[kSeq],
                        key.dims[kSeq], query.dims[kDim],   value.dims[kDim], query.dataType};
    if (shapes.ioType != CUDNN_DATA_HALF && shapes.ioType != CUDNN_DATA_BFLOAT16) {
        context.fail(std::string("q has data type ") + typeName(shapes.ioType) +
                     "; cuDNN's fused attention runs HALF and BFLOAT16");
    }
    for (const auto& [uid, port] :
         {std::pair{q, "q"}, std::pair{k, "k"}, std::pair{v, "v"}, std::pair{o, "o"}}) {
        const TensorSpec& tensor = context.tensorSpec(uid);
        if (tensor.dataType != shapes.ioType) {
            context.fail(std::string(port) + " has data type " + typeName(tensor.dataType) + " but q has " +
                         typeName(shapes.ioType) + "; cuDNN's fused attention needs one type");
        }
        if (tensor.strides[kDim] != 1) {
            context.fail(std::string(port) + " has stride " + std::to_string(tensor.strides[kDim]) +
                         " along the head dim; cuDNN's fused attention needs 1");
        }
    }
    for (const auto& [dim, name] :
         {std::pair{shapes.headDim, "q/k head dim"}, std::pair{shapes.valueDim, "v head dim"}}) {
        if (dim % kHeadDimMultiple != 0 || dim > kMaxHeadDim) {
            context.fail(std::string(name) + " " + std::to_string(dim) + " is not a multiple of " +
                         std::to_string(kHeadDimMultiple) + " up to " + std::to_string(kMaxHeadDim) +
                         ", as cuDNN's fused attention needs");
        }
    }
    const Options options = optionsOf(a);
    if (options.padding()) {
        checkLengths(context, options, shapes);
    }
    // With a padding mask, rows without keys are a matter of the lengths, which cuDNN masks per batch
    // (cudnn-frontend allows more queries than keys there).
    if (options.bottomRight && !options.padding() && shapes.seqQ > shapes.seqKv) {
        context.fail("a bottom-right causal mask with more queries (" + std::to_string(shapes.seqQ) +
                     ") than keys (" + std::to_string(shapes.seqKv) +
                     ") leaves rows without keys, which cuDNN's fused attention does not run");
    }
    if (options.scale && context.tensorSpec(*options.scale).dataType != CUDNN_DATA_FLOAT) {
        context.fail("the scale tensor must be FLOAT for cuDNN's fused attention");
    }
    if (options.bias) {
        const TensorSpec& bias = context.tensorSpec(*options.bias);
        if (bias.dims[kSeq] != shapes.seqQ || bias.dims[kDim] != shapes.seqKv) {
            context.fail("attn_mask has dims (" + std::to_string(bias.dims[kSeq]) + ", " +
                         std::to_string(bias.dims[kDim]) +
                         ") along the sequences; cuDNN's fused attention broadcasts a bias over batch and "
                         "heads only");
        }
    }
    return shapes;
}

// The statistics (and the backward's workspace rows) must be dense (B, H, Sq, 1): cuDNN's
// attention engines accept other strides and write wrong values.
void requireDenseRows(TranslationContext& context, int64_t stats, const Shapes& shapes) {
    const std::vector<int64_t> dense{shapes.queryHeads * shapes.seqQ, shapes.seqQ, 1, 1};
    const TensorSpec& tensor = context.tensorSpec(stats);
    for (size_t d = 0; d < 3; ++d) {
        if (tensor.dims[d] > 1 && tensor.strides[d] != dense[d]) {
            context.fail("stats must be dense (B, Hq, Sq, 1) for cuDNN's fused attention; its stride " +
                         std::to_string(tensor.strides[d]) + " along dim " + std::to_string(d) + " is not " +
                         std::to_string(dense[d]));
        }
    }
}

int64_t scaleTensor(TranslationContext& context, const Options& options) {
    if (options.scale) {
        return *options.scale;
    }
    return context.addScalar(options.scaleValue.value_or(1.0F), CUDNN_DATA_FLOAT, "attn_scale");
}

// scale * scores [+ bias]: returns the new scores.
int64_t scaledScores(TranslationContext& context, const Options& options, const Shapes& shapes, int64_t scale,
                     int64_t scores) {
    const int64_t scaled = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, "scaled_scores");
    addPointwiseOperation(context, CUDNN_POINTWISE_MUL, "MUL attn_scale", scores, scale, scaled);
    if (!options.bias) {
        return scaled;
    }
    const int64_t biased = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, "biased_scores");
    addPointwiseOperation(context, CUDNN_POINTWISE_ADD, "ADD bias", scaled, *options.bias, biased);
    return biased;
}

PointwiseOptions computedIn(cudnnDataType_t precision) {
    PointwiseOptions options;
    options.mathPrecision = precision;
    return options;
}

// GEN_INDEX of the scores along `axis` (kSeq: the query row, kDim: the key column), INT32.
int64_t scoreIndex(TranslationContext& context, const Shapes& shapes, int64_t scores, size_t axis,
                   const std::string& name, PointwiseOptions options = {}) {
    options.axis = static_cast<int64_t>(axis);
    const int64_t index = context.addVirtual(shapes.scores(), CUDNN_DATA_INT32, name + "_index");
    addPointwiseOperation(context, CUDNN_POINTWISE_GEN_INDEX, "GEN_INDEX " + name, scores, std::nullopt,
                          index, options);
    return index;
}

// The scores where the BOOLEAN `keep` holds, -inf elsewhere.
int64_t keptScores(TranslationContext& context, const Shapes& shapes, int64_t scores, int64_t keep,
                   const std::string& mask) {
    PointwiseOptions select;
    select.t = keep;
    const int64_t masked = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, mask + "_masked_scores");
    addPointwiseOperation(
        context, CUDNN_POINTWISE_BINARY_SELECT, "BINARY_SELECT " + mask, scores,
        context.addScalar(-std::numeric_limits<double>::infinity(), CUDNN_DATA_FLOAT, "minus_inf"), masked,
        select);
    return masked;
}

// Scores of query rows i >= seq_len_q or key columns j >= seq_len_kv of their batch set to -inf.
int64_t paddingMasked(TranslationContext& context, const Options& options, const Shapes& shapes,
                      int64_t scores) {
    if (!options.padding()) {
        return scores;
    }
    const int64_t row =
        scoreIndex(context, shapes, scores, kSeq, "padding_row", computedIn(CUDNN_DATA_INT32));
    const int64_t column =
        scoreIndex(context, shapes, scores, kDim, "padding_column", computedIn(CUDNN_DATA_INT32));
    const PointwiseOptions boolean = computedIn(CUDNN_DATA_BOOLEAN);
    const int64_t queryValid = context.addVirtual(shapes.scores(), CUDNN_DATA_BOOLEAN, "query_valid");
    addPointwiseOperation(context, CUDNN_POINTWISE_CMP_LT, "CMP_LT seq_len_q", row, *options.seqLenQ,
                          queryValid, boolean);
    const int64_t keyValid = context.addVirtual(shapes.scores(), CUDNN_DATA_BOOLEAN, "key_valid");
    addPointwiseOperation(context, CUDNN_POINTWISE_CMP_LT, "CMP_LT seq_len_kv", column, *options.seqLenKv,
                          keyValid, boolean);
    const int64_t keep = context.addVirtual(shapes.scores(), CUDNN_DATA_BOOLEAN, "padding_keep");
    addPointwiseOperation(context, CUDNN_POINTWISE_LOGICAL_AND, "LOGICAL_AND", queryValid, keyValid, keep,
                          boolean);
    return keptScores(context, shapes, scores, keep, "padding");
}

// Scores where key j lies past query i's diagonal set to -inf: keep j <= i (top-left) or
// j <= i + Skv - Sq (bottom-right; with a padding mask its lengths per batch).
int64_t causalMasked(TranslationContext& context, const Options& options, const Shapes& shapes,
                     int64_t scores) {
    if (!options.causal && !options.bottomRight) {
        return scores;
    }
    int64_t row = scoreIndex(context, shapes, scores, kSeq, "row");
    if (options.bottomRight) {
        const int64_t keys = options.padding() ? *options.seqLenKv
                                               : context.addScalar(static_cast<double>(shapes.seqKv),
                                                                   CUDNN_DATA_INT32, "seq_kv");
        const int64_t queries = options.padding() ? *options.seqLenQ
                                                  : context.addScalar(static_cast<double>(shapes.seqQ),
                                                                      CUDNN_DATA_INT32, "seq_q");
        const PointwiseOptions integer = computedIn(CUDNN_DATA_INT32);
        const int64_t plusKeys = context.addVirtual(shapes.scores(), CUDNN_DATA_INT32, "row_plus_seq_kv");
        addPointwiseOperation(context, CUDNN_POINTWISE_ADD, "ADD seq_kv", row, keys, plusKeys, integer);
        const int64_t diagonal = context.addVirtual(shapes.scores(), CUDNN_DATA_INT32, "diagonal");
        addPointwiseOperation(context, CUDNN_POINTWISE_SUB, "SUB seq_q", plusKeys, queries, diagonal,
                              integer);
        row = diagonal;
    }
    const int64_t column = scoreIndex(context, shapes, scores, kDim, "column");
    const int64_t keep = context.addVirtual(shapes.scores(), CUDNN_DATA_BOOLEAN, "causal_keep");
    addPointwiseOperation(context, CUDNN_POINTWISE_CMP_GE, "CMP_GE", row, column, keep,
                          computedIn(CUDNN_DATA_BOOLEAN));
    return keptScores(context, shapes, scores, keep, "causal");
}

void translateUnifiedForward(TranslationContext& context, const Options& options, int64_t q, int64_t k,
                             int64_t v, int64_t o, std::optional<int64_t> stats) {
    OperationSpec& operation = context.addOperation(CUDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR, "SDPA_FWD");
    operation.ports = {{CUDNN_ATTR_OPERATION_SDPA_FWD_QDESC, {q}},
                       {CUDNN_ATTR_OPERATION_SDPA_FWD_KDESC, {k}},
                       {CUDNN_ATTR_OPERATION_SDPA_FWD_VDESC, {v}},
                       {CUDNN_ATTR_OPERATION_SDPA_FWD_ODESC, {o}},
                       {CUDNN_ATTR_OPERATION_SDPA_FWD_SCALEDESC, {scaleTensor(context, options)}}};
    if (stats) {
        operation.ports.push_back({CUDNN_ATTR_OPERATION_SDPA_FWD_STATSDESC, {*stats}});
    }
}

}  // namespace

void translateSdpa(TranslationContext& context, const fb::SdpaAttributes& attributes) {
    const int64_t q = context.tensor(attributes.q_tensor_uid(), "q");
    const int64_t k = context.tensor(attributes.k_tensor_uid(), "k");
    const int64_t v = context.tensor(attributes.v_tensor_uid(), "v");
    const int64_t o = context.tensor(attributes.o_tensor_uid(), "o");
    const std::optional<int64_t> stats = attributes.stats_tensor_uid();
    const Shapes shapes = checkCommon(context, attributes, q, k, v, o);
    if (stats) {
        requireDenseRows(context, context.tensor(*stats, "stats"), shapes);
    }
    const Options options = optionsOf(attributes);
    if (options.padding()) {
        if (stats) {
            context.fail(
                "a padding mask with a stats output is not mapped: cuDNN writes -inf as the statistics of "
                "query rows past seq_len_q (releases before 9.14 leave them undefined), where the graph "
                "defines +inf for a row that sees no key");
        }
        // cuDNN leaves O's rows past seq_len_q undefined (cudnn-frontend's tests zero them on both
        // sides before comparing), where the graph defines 0.
        context.zeroBeforeExecute(o, "o");
    }
    const bool masked = options.bias || options.causal || options.bottomRight || options.padding();
    if (!masked && context.target().cudnnVersion >= kUnifiedForwardVersion) {
        translateUnifiedForward(context, options, q, k, v, o, stats);
        return;
    }

    context.swapDims(k, kSeq, kDim);  // K^T: (B, Hk, D, Skv)
    const int64_t scores = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, "scores");
    addMatmulOperation(context, q, k, scores, options.queriesByKeys());
    const int64_t logits = causalMasked(
        context, options, shapes,
        paddingMasked(context, options, shapes,
                      scaledScores(context, options, shapes, scaleTensor(context, options), scores)));

    const int64_t maximum = context.addVirtual(shapes.rows(), CUDNN_DATA_FLOAT, "row_max");
    addReductionOperation(context, CUDNN_REDUCE_TENSOR_MAX, "MAX", logits, maximum);
    const int64_t shifted = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, "shifted");
    addPointwiseOperation(context, CUDNN_POINTWISE_SUB, "SUB row_max", logits, maximum, shifted);
    const int64_t exponentials = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, "exp");
    addPointwiseOperation(context, CUDNN_POINTWISE_EXP, "EXP", shifted, std::nullopt, exponentials);
    const int64_t sum = context.addVirtual(shapes.rows(), CUDNN_DATA_FLOAT, "row_sum");
    addReductionOperation(context, CUDNN_REDUCE_TENSOR_ADD, "ADD", exponentials, sum);
    // cuDNN 9.19 has no engine for the masked forward without statistics (observed on the H200):
    // a forward whose graph does not ask for them writes them to the workspace.
    const int64_t statistics =
        stats ? *stats : context.addWorkspaceTensor(shapes.rows(), CUDNN_DATA_FLOAT, "stats");
    const int64_t logSum = context.addVirtual(shapes.rows(), CUDNN_DATA_FLOAT, "log_row_sum");
    addPointwiseOperation(context, CUDNN_POINTWISE_LOG, "LOG", sum, std::nullopt, logSum);
    addPointwiseOperation(context, CUDNN_POINTWISE_ADD, "ADD stats", maximum, logSum, statistics);
    // cuDNN's fused attention reads the probabilities in the io type.
    const int64_t probabilities = context.addVirtual(shapes.scores(), shapes.ioType, "probabilities");
    addPointwiseOperation(context, CUDNN_POINTWISE_DIV, "DIV row_sum", exponentials, sum, probabilities);
    addMatmulOperation(context, probabilities, v, o, options.queriesOverKeys());
}

void translateSdpaBackward(TranslationContext& context, const fb::SdpaBackwardAttributes& attributes) {
    const int64_t q = context.tensor(attributes.q_tensor_uid(), "q");
    const int64_t k = context.tensor(attributes.k_tensor_uid(), "k");
    const int64_t v = context.tensor(attributes.v_tensor_uid(), "v");
    const int64_t o = context.tensor(attributes.o_tensor_uid(), "o");
    const int64_t dO = context.tensor(attributes.do_tensor_uid(), "do");
    const int64_t stats = context.tensor(attributes.stats_tensor_uid(), "stats");
    const int64_t dQ = context.tensor(attributes.dq_tensor_uid(), "dq");
    const int64_t dK = context.tensor(attributes.dk_tensor_uid(), "dk");
    const int64_t dV = context.tensor(attributes.dv_tensor_uid(), "dv");
    const Shapes shapes = checkCommon(context, attributes, q, k, v, o);
    requireDenseRows(context, stats, shapes);
    for (const auto& [uid, port] :
         {std::pair{dO, "do"}, std::pair{dQ, "dq"}, std::pair{dK, "dk"}, std::pair{dV, "dv"}}) {
        const TensorSpec& tensor = context.tensorSpec(uid);
        if (tensor.dataType != shapes.ioType || tensor.strides[kDim] != 1) {
            context.fail(std::string(port) + " must have q's data type " + typeName(shapes.ioType) +
                         " and stride 1 along the head dim for cuDNN's fused attention");
        }
    }
    const Options options = optionsOf(attributes);
    if (!options.padding() && context.target().cudnnVersion < kBackwardAnyLengthVersion &&
        shapes.seqKv % kBackwardLengthMultiple != 0) {
        context.fail("cuDNN " + std::to_string(context.target().cudnnVersion) +
                     " computes NaN attention gradients for a key sequence (" + std::to_string(shapes.seqKv) +
                     ") that is not a multiple of " + std::to_string(kBackwardLengthMultiple) +
                     " without a padding mask; cuDNN 9.15.1 and later run any length");
    }
    context.setNondeterminism("cuDNN's fused attention backward accumulates dQ with atomic additions");
    const bool grouped = shapes.kvHeads != shapes.queryHeads;
    const std::vector<int64_t> kStrides = context.tensorSpec(k).strides;

    // softmax_sum = rowsum(dO * O), the correction term of the softmax gradient.
    const int64_t softmaxSum = context.addWorkspaceTensor(shapes.rows(), CUDNN_DATA_FLOAT, "softmax_sum");
    const int64_t dQAccumulator = context.addWorkspaceTensor(
        {shapes.batch, shapes.queryHeads, shapes.seqQ, shapes.headDim}, CUDNN_DATA_FLOAT, "dq_accumulator");
    const int64_t product = context.addVirtual(
        {shapes.batch, shapes.queryHeads, shapes.seqQ, shapes.valueDim}, CUDNN_DATA_FLOAT, "do_times_o");
    addPointwiseOperation(context, CUDNN_POINTWISE_MUL, "MUL do o", dO, o, product);
    const int64_t rowSum = context.addVirtual(shapes.rows(), CUDNN_DATA_FLOAT, "do_o_row_sum");
    addReductionOperation(context, CUDNN_REDUCE_TENSOR_ADD, "ADD", product, rowSum);
    addPointwiseOperation(context, CUDNN_POINTWISE_MUL, "MUL one", rowSum,
                          context.addScalar(1.0, CUDNN_DATA_FLOAT, "one"), softmaxSum);

    // P = exp(scale * Q K^T [+ bias] - stats), masked.
    context.swapDims(k, kSeq, kDim);  // K^T: (B, Hk, D, Skv)
    context.swapDims(v, kSeq, kDim);  // V^T: (B, Hk, Dv, Skv)
    const int64_t scores = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, "scores");
    addMatmulOperation(context, q, k, scores, options.queriesByKeys());
    const int64_t scale = scaleTensor(context, options);
    const int64_t logits =
        paddingMasked(context, options, shapes, scaledScores(context, options, shapes, scale, scores));
    const int64_t centered = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, "minus_stats");
    addPointwiseOperation(context, CUDNN_POINTWISE_SUB, "SUB stats", logits, stats, centered);
    const int64_t masked = causalMasked(context, options, shapes, centered);
    const int64_t probabilities = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, "probabilities");
    addPointwiseOperation(context, CUDNN_POINTWISE_EXP, "EXP", masked, std::nullopt, probabilities);

    // A reshape is how cuDNN's graph transposes a virtual tensor.
    const auto transposed = [&](int64_t scoresLike, const std::string& name) {
        const int64_t view = context.addVirtual(shapes.transposedScores(), shapes.ioType, name,
                                                shapes.transposedScoreStrides());
        OperationSpec& reshape =
            context.addOperation(CUDNN_BACKEND_OPERATION_RESHAPE_DESCRIPTOR, "RESHAPE " + name);
        reshape.ports = {{CUDNN_ATTR_OPERATION_RESHAPE_XDESC, {scoresLike}},
                         {CUDNN_ATTR_OPERATION_RESHAPE_YDESC, {view}}};
        return view;
    };
    // With grouped heads the gradient of each query head is formed, then summed per key head. The
    // per-head gradients must be in the io type: cuDNN 9.19 accepts FLOAT there and computes
    // wrong dK and dV (observed on the H200). Both gradients run over the keys, summing over the
    // queries.
    const auto gradient = [&](int64_t a, int64_t b, int64_t out, int64_t dim, const std::string& name) {
        if (!grouped) {
            addMatmulOperation(context, a, b, out, options.keysOverQueries());
            return;
        }
        const int64_t full = context.addVirtual({shapes.batch, shapes.queryHeads, shapes.seqKv, dim},
                                                shapes.ioType, name + "_all_heads");
        addMatmulOperation(context, a, b, full, options.keysOverQueries());
        addReductionOperation(context, CUDNN_REDUCE_TENSOR_ADD, "ADD heads", full, out);
    };
    gradient(transposed(probabilities, "probabilities_t"), dO, dV, shapes.valueDim, "dv");

    // dS = scale * P * (dO V^T - softmax_sum).
    const int64_t dP = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, "dp");
    addMatmulOperation(context, dO, v, dP, options.queriesByKeys());
    const int64_t corrected = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, "dp_minus_sum");
    addPointwiseOperation(context, CUDNN_POINTWISE_SUB, "SUB softmax_sum", dP, softmaxSum, corrected);
    const int64_t weighted = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, "dp_times_p");
    addPointwiseOperation(context, CUDNN_POINTWISE_MUL, "MUL probabilities", corrected, probabilities,
                          weighted);
    const int64_t dS = context.addVirtual(shapes.scores(), CUDNN_DATA_FLOAT, "ds");
    addPointwiseOperation(context, CUDNN_POINTWISE_MUL, "MUL attn_scale", weighted, scale, dS);
    gradient(transposed(dS, "ds_t"), q, dK, shapes.headDim, "dk");

    // dQ = dS K, accumulated in float in the workspace, then converted.
    const int64_t keys = context.addVirtual({shapes.batch, shapes.kvHeads, shapes.seqKv, shapes.headDim},
                                            CUDNN_DATA_FLOAT, "k_view", kStrides);
    OperationSpec& reshape = context.addOperation(CUDNN_BACKEND_OPERATION_RESHAPE_DESCRIPTOR, "RESHAPE k");
    reshape.ports = {{CUDNN_ATTR_OPERATION_RESHAPE_XDESC, {k}}, {CUDNN_ATTR_OPERATION_RESHAPE_YDESC, {keys}}};
    addMatmulOperation(context, dS, keys, dQAccumulator, options.queriesOverKeys());
    addPointwiseOperation(context, CUDNN_POINTWISE_IDENTITY, "IDENTITY dq", dQAccumulator, std::nullopt, dQ);
}

}  // namespace hipdnn_cudnn_plugin
