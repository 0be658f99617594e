// Attention -> cuDNN's fused flash-attention graphs, checked on the plain-data spec: which
// spelling each variant gets (operation sequence, types of the intermediates, transposed views,
// workspace tensors) and what is declined, with which reason.
#include "GraphTranslator.hpp"
#include "VariantPack.hpp"

#include <hipdnn_test_sdk/AttentionGraphs.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace hipdnn_cudnn_plugin {
namespace {

using hipdnn_test_sdk::AttentionCase;
using DataType = fb::DataType;

constexpr size_t kCudnn914 = 91400;
constexpr size_t kCudnn919 = 91900;
constexpr size_t kCudnn913 = 91300;

CudnnGraphSpec translate(const hipdnn_test_sdk::GraphBuilder& builder, size_t version = kCudnn919) {
    const std::vector<uint8_t> bytes = builder.build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    return translateGraph(graph, TranslationTarget{version});
}

std::string declineReason(const hipdnn_test_sdk::GraphBuilder& builder, size_t version = kCudnn919) {
    try {
        translate(builder, version);
    } catch (const TranslationError& error) {
        return error.what();
    }
    return "";
}

std::vector<std::string> labels(const CudnnGraphSpec& spec) {
    std::vector<std::string> result;
    for (const OperationSpec& operation : spec.operations) {
        result.push_back(operation.label);
    }
    return result;
}

const OperationSpec& operationLabelled(const CudnnGraphSpec& spec, const std::string& label) {
    for (const OperationSpec& operation : spec.operations) {
        if (operation.label == label) {
            return operation;
        }
    }
    throw std::runtime_error("no operation " + label);
}

int64_t portUid(const OperationSpec& operation, cudnnBackendAttributeName_t attribute) {
    const TensorPort* port = operation.port(attribute);
    if (port == nullptr || port->uids.size() != 1) {
        throw std::runtime_error("operation " + operation.label + " lacks the port");
    }
    return port->uids.front();
}

// The seq_len_q and seq_len_kv overrides of a matmul (-1 where it has none).
std::vector<int64_t> overrides(const OperationSpec& matmul) {
    std::vector<int64_t> uids;
    for (const cudnnBackendAttributeName_t attribute :
         {CUDNN_ATTR_OPERATION_MATMUL_GEMM_M_OVERRIDE_DESC, CUDNN_ATTR_OPERATION_MATMUL_GEMM_N_OVERRIDE_DESC,
          CUDNN_ATTR_OPERATION_MATMUL_GEMM_K_OVERRIDE_DESC}) {
        uids.push_back(matmul.port(attribute) == nullptr ? -1 : portUid(matmul, attribute));
    }
    return uids;
}

std::vector<const OperationSpec*> matmuls(const CudnnGraphSpec& spec) {
    std::vector<const OperationSpec*> result;
    for (const OperationSpec& operation : spec.operations) {
        if (operation.label == "MATMUL") {
            result.push_back(&operation);
        }
    }
    return result;
}

cudnnDataType_t mathPrecision(const OperationSpec& pointwise) {
    for (const Attribute& attribute : pointwise.subDescriptor->attributes) {
        if (attribute.name == CUDNN_ATTR_POINTWISE_MATH_PREC) {
            return attribute.first<cudnnDataType_t>();
        }
    }
    throw std::runtime_error("operation " + pointwise.label + " has no math precision");
}

AttentionCase bf16Case() {
    AttentionCase c;
    c.type = DataType::BFLOAT16;
    c.batch = 2;
    c.heads = 4;
    c.kvHeads = 4;
    c.seqQ = 256;
    c.seqKv = 384;
    c.dim = 64;
    c.valueDim = 64;
    c.scale = 0.125F;
    return c;
}

TEST(CudnnSdpaTranslation, UnmaskedForwardIsTheUnifiedOperation) {
    AttentionCase c = bf16Case();
    c.stats = true;
    const CudnnGraphSpec spec = translate(hipdnn_test_sdk::attentionGraph(c));
    ASSERT_EQ(labels(spec), std::vector<std::string>{"SDPA_FWD"});
    const OperationSpec& sdpa = spec.operations.front();
    EXPECT_EQ(portUid(sdpa, CUDNN_ATTR_OPERATION_SDPA_FWD_KDESC), 2);
    EXPECT_EQ(portUid(sdpa, CUDNN_ATTR_OPERATION_SDPA_FWD_STATSDESC), 5);
    // K keeps its natural (B, H, S, D) description.
    EXPECT_EQ(spec.tensors.at(2).dims, (std::vector<int64_t>{2, 4, 384, 64}));
    const TensorSpec& scale = spec.tensors.at(portUid(sdpa, CUDNN_ATTR_OPERATION_SDPA_FWD_SCALEDESC));
    ASSERT_TRUE(scale.byValue.has_value());
    EXPECT_FLOAT_EQ(static_cast<float>(*scale.byValue), 0.125F);
    EXPECT_EQ(scale.dataType, CUDNN_DATA_FLOAT);
    EXPECT_EQ(spec.internalWorkspaceBytes, 0);
    EXPECT_EQ(spec.nondeterminism, "");
}

TEST(CudnnSdpaTranslation, CudnnBeforeTheUnifiedOperationGetsTheComposedForward) {
    const CudnnGraphSpec spec = translate(hipdnn_test_sdk::attentionGraph(bf16Case()), kCudnn913);
    EXPECT_EQ(labels(spec), (std::vector<std::string>{"MATMUL", "POINTWISE MUL attn_scale", "REDUCTION MAX",
                                                      "POINTWISE SUB row_max", "POINTWISE EXP",
                                                      "REDUCTION ADD", "POINTWISE LOG", "POINTWISE ADD stats",
                                                      "POINTWISE DIV row_sum", "MATMUL"}));
    // Without a statistics output the statistics go to the workspace: (B, H, Sq, 1) floats.
    const TensorSpec& stats = spec.tensors.at(
        portUid(operationLabelled(spec, "POINTWISE ADD stats"), CUDNN_ATTR_OPERATION_POINTWISE_YDESC));
    EXPECT_EQ(stats.workspaceOffset, 0);
    EXPECT_EQ(spec.internalWorkspaceBytes, 2 * 4 * 256 * 4);
}

TEST(CudnnSdpaTranslation, CausalForwardMasksTheScoresBeforeTheSoftmax) {
    AttentionCase c = bf16Case();
    c.causal = true;
    c.stats = true;
    const CudnnGraphSpec spec = translate(hipdnn_test_sdk::attentionGraph(c));
    // The fourteen operations cudnn-frontend emits for causal attention with statistics.
    EXPECT_EQ(labels(spec),
              (std::vector<std::string>{
                  "MATMUL", "POINTWISE MUL attn_scale", "POINTWISE GEN_INDEX row",
                  "POINTWISE GEN_INDEX column", "POINTWISE CMP_GE", "POINTWISE BINARY_SELECT causal",
                  "REDUCTION MAX", "POINTWISE SUB row_max", "POINTWISE EXP", "REDUCTION ADD", "POINTWISE LOG",
                  "POINTWISE ADD stats", "POINTWISE DIV row_sum", "MATMUL"}));
    // Q K^T reads K as its transposed view: (B, Hk, D, Skv) over the same memory.
    const TensorSpec& key = spec.tensors.at(2);
    EXPECT_EQ(key.dims, (std::vector<int64_t>{2, 4, 64, 384}));
    EXPECT_EQ(key.strides, (std::vector<int64_t>{4 * 384 * 64, 384 * 64, 1, 64}));
    EXPECT_FALSE(key.isVirtual);

    const TensorSpec& row = spec.tensors.at(
        portUid(operationLabelled(spec, "POINTWISE GEN_INDEX row"), CUDNN_ATTR_OPERATION_POINTWISE_YDESC));
    EXPECT_EQ(row.dataType, CUDNN_DATA_INT32);
    const OperationSpec& compare = operationLabelled(spec, "POINTWISE CMP_GE");
    EXPECT_EQ(spec.tensors.at(portUid(compare, CUDNN_ATTR_OPERATION_POINTWISE_YDESC)).dataType,
              CUDNN_DATA_BOOLEAN);
    bool booleanMath = false;
    for (const Attribute& attribute : compare.subDescriptor->attributes) {
        booleanMath = booleanMath || (attribute.name == CUDNN_ATTR_POINTWISE_MATH_PREC &&
                                      attribute.first<cudnnDataType_t>() == CUDNN_DATA_BOOLEAN);
    }
    EXPECT_TRUE(booleanMath);
    const OperationSpec& select = operationLabelled(spec, "POINTWISE BINARY_SELECT causal");
    const TensorSpec& fill = spec.tensors.at(portUid(select, CUDNN_ATTR_OPERATION_POINTWISE_BDESC));
    ASSERT_TRUE(fill.byValue.has_value());
    EXPECT_TRUE(std::isinf(*fill.byValue) && *fill.byValue < 0);
    EXPECT_NE(select.port(CUDNN_ATTR_OPERATION_POINTWISE_TDESC), nullptr);
    // The second matmul reads the probabilities in the io type.
    const OperationSpec& divide = operationLabelled(spec, "POINTWISE DIV row_sum");
    EXPECT_EQ(spec.tensors.at(portUid(divide, CUDNN_ATTR_OPERATION_POINTWISE_YDESC)).dataType,
              CUDNN_DATA_BFLOAT16);
}

TEST(CudnnSdpaTranslation, BottomRightCausalShiftsTheDiagonalWithInt32Scalars) {
    AttentionCase c = bf16Case();
    c.causal = true;
    c.bottomRight = true;
    const CudnnGraphSpec spec = translate(hipdnn_test_sdk::attentionGraph(c));
    const TensorSpec& seqKv = spec.tensors.at(
        portUid(operationLabelled(spec, "POINTWISE ADD seq_kv"), CUDNN_ATTR_OPERATION_POINTWISE_BDESC));
    EXPECT_EQ(seqKv.dataType, CUDNN_DATA_INT32);
    EXPECT_EQ(seqKv.byValue, 384.0);
    const TensorSpec& seqQ = spec.tensors.at(
        portUid(operationLabelled(spec, "POINTWISE SUB seq_q"), CUDNN_ATTR_OPERATION_POINTWISE_BDESC));
    EXPECT_EQ(seqQ.byValue, 256.0);
    EXPECT_EQ(spec.operations.size(), 16U);  // fourteen and two index shifts

    c.seqQ = 400;  // more queries than keys: rows without any key
    EXPECT_NE(declineReason(hipdnn_test_sdk::attentionGraph(c)).find("rows without keys"), std::string::npos);
}

TEST(CudnnSdpaTranslation, BiasIsAddedAfterTheScale) {
    AttentionCase c = bf16Case();
    c.bias = true;
    const CudnnGraphSpec spec = translate(hipdnn_test_sdk::attentionGraph(c));
    EXPECT_EQ(spec.operations.size(), 11U);
    EXPECT_EQ(spec.operations[2].label, "POINTWISE ADD bias");
    EXPECT_EQ(portUid(spec.operations[2], CUDNN_ATTR_OPERATION_POINTWISE_BDESC), 6);
}

TEST(CudnnSdpaTranslation, BackwardIsTheFlashBackwardGraphWithWorkspaceTensors) {
    AttentionCase c = bf16Case();
    c.causal = true;
    const CudnnGraphSpec spec = translate(hipdnn_test_sdk::attentionBackwardGraph(c));
    // The twenty-two operations cudnn-frontend emits for causal attention backward.
    EXPECT_EQ(labels(spec), (std::vector<std::string>{"POINTWISE MUL do o",
                                                      "REDUCTION ADD",
                                                      "POINTWISE MUL one",
                                                      "MATMUL",
                                                      "POINTWISE MUL attn_scale",
                                                      "POINTWISE SUB stats",
                                                      "POINTWISE GEN_INDEX row",
                                                      "POINTWISE GEN_INDEX column",
                                                      "POINTWISE CMP_GE",
                                                      "POINTWISE BINARY_SELECT causal",
                                                      "POINTWISE EXP",
                                                      "RESHAPE probabilities_t",
                                                      "MATMUL",
                                                      "MATMUL",
                                                      "POINTWISE SUB softmax_sum",
                                                      "POINTWISE MUL probabilities",
                                                      "POINTWISE MUL attn_scale",
                                                      "RESHAPE ds_t",
                                                      "MATMUL",
                                                      "RESHAPE k",
                                                      "MATMUL",
                                                      "POINTWISE IDENTITY dq"}));
    // K and V are read transposed; P^T and dS^T are io-type views of the row-major scores.
    EXPECT_EQ(spec.tensors.at(2).dims, (std::vector<int64_t>{2, 4, 64, 384}));
    EXPECT_EQ(spec.tensors.at(3).dims, (std::vector<int64_t>{2, 4, 64, 384}));
    const TensorSpec& transposed = spec.tensors.at(
        portUid(operationLabelled(spec, "RESHAPE probabilities_t"), CUDNN_ATTR_OPERATION_RESHAPE_YDESC));
    EXPECT_EQ(transposed.dims, (std::vector<int64_t>{2, 4, 384, 256}));
    EXPECT_EQ(transposed.strides, (std::vector<int64_t>{4 * 256 * 384, 256 * 384, 1, 384}));
    EXPECT_EQ(transposed.dataType, CUDNN_DATA_BFLOAT16);

    // softmax_sum (B, H, Sq, 1) and the dQ accumulator (B, H, Sq, D) in float, in the workspace.
    const TensorSpec& sum = spec.tensors.at(
        portUid(operationLabelled(spec, "POINTWISE MUL one"), CUDNN_ATTR_OPERATION_POINTWISE_YDESC));
    const TensorSpec& accumulator = spec.tensors.at(
        portUid(operationLabelled(spec, "POINTWISE IDENTITY dq"), CUDNN_ATTR_OPERATION_POINTWISE_XDESC));
    ASSERT_TRUE(sum.workspaceOffset && accumulator.workspaceOffset);
    EXPECT_FALSE(sum.isVirtual);
    EXPECT_EQ(sum.dataType, CUDNN_DATA_FLOAT);
    EXPECT_EQ(accumulator.dims, (std::vector<int64_t>{2, 4, 256, 64}));
    EXPECT_NE(*sum.workspaceOffset, *accumulator.workspaceOffset);
    EXPECT_EQ(spec.internalWorkspaceBytes, 2 * 4 * 256 * 4 + 2 * 4 * 256 * 64 * 4);
    EXPECT_NE(spec.nondeterminism.find("atomic"), std::string::npos);
}

TEST(CudnnSdpaTranslation, GroupedHeadsSumTheirGradientsPerKeyHead) {
    AttentionCase c = bf16Case();
    c.kvHeads = 1;
    c.bshd = true;
    const CudnnGraphSpec spec = translate(hipdnn_test_sdk::attentionBackwardGraph(c));
    EXPECT_EQ(spec.operations.size(), 20U);  // 18 without the mask, + 2 head reductions
    int headReductions = 0;
    for (const OperationSpec& operation : spec.operations) {
        if (operation.label == "REDUCTION ADD heads") {
            ++headReductions;
            const TensorSpec& full =
                spec.tensors.at(portUid(operation, CUDNN_ATTR_OPERATION_REDUCTION_XDESC));
            EXPECT_EQ(full.dims[1], 4);
            EXPECT_EQ(full.dataType, CUDNN_DATA_BFLOAT16);
        }
    }
    EXPECT_EQ(headReductions, 2);
}

// Lengths: seq_len_q uid 11, seq_len_kv uid 12 (AttentionGraphs).
constexpr int64_t kSeqLenQ = 11;
constexpr int64_t kSeqLenKv = 12;

TEST(CudnnSdpaTranslation, PaddedForwardMasksRowsAndColumnsAndOverridesTheMatmuls) {
    AttentionCase c = bf16Case();
    c.padding = true;
    // Composed even where the unmasked forward is the unified operation.
    const CudnnGraphSpec spec = translate(hipdnn_test_sdk::attentionGraph(c));
    // cudnn-frontend's padding mask: row < seq_len_q and column < seq_len_kv, else -inf.
    EXPECT_EQ(labels(spec),
              (std::vector<std::string>{
                  "MATMUL", "POINTWISE MUL attn_scale", "POINTWISE GEN_INDEX padding_row",
                  "POINTWISE GEN_INDEX padding_column", "POINTWISE CMP_LT seq_len_q",
                  "POINTWISE CMP_LT seq_len_kv", "POINTWISE LOGICAL_AND", "POINTWISE BINARY_SELECT padding",
                  "REDUCTION MAX", "POINTWISE SUB row_max", "POINTWISE EXP", "REDUCTION ADD", "POINTWISE LOG",
                  "POINTWISE ADD stats", "POINTWISE DIV row_sum", "MATMUL"}));
    // Q K^T runs over seq_len_q x seq_len_kv, P V over seq_len_q rows summing seq_len_kv keys.
    const auto products = matmuls(spec);
    ASSERT_EQ(products.size(), 2U);
    EXPECT_EQ(overrides(*products[0]), (std::vector<int64_t>{kSeqLenQ, kSeqLenKv, -1}));
    EXPECT_EQ(overrides(*products[1]), (std::vector<int64_t>{kSeqLenQ, -1, kSeqLenKv}));

    const OperationSpec& rowIndex = operationLabelled(spec, "POINTWISE GEN_INDEX padding_row");
    EXPECT_EQ(mathPrecision(rowIndex), CUDNN_DATA_INT32);
    const OperationSpec& queryValid = operationLabelled(spec, "POINTWISE CMP_LT seq_len_q");
    EXPECT_EQ(portUid(queryValid, CUDNN_ATTR_OPERATION_POINTWISE_XDESC),
              portUid(rowIndex, CUDNN_ATTR_OPERATION_POINTWISE_YDESC));
    EXPECT_EQ(portUid(queryValid, CUDNN_ATTR_OPERATION_POINTWISE_BDESC), kSeqLenQ);
    EXPECT_EQ(mathPrecision(queryValid), CUDNN_DATA_BOOLEAN);
    EXPECT_EQ(
        portUid(operationLabelled(spec, "POINTWISE CMP_LT seq_len_kv"), CUDNN_ATTR_OPERATION_POINTWISE_BDESC),
        kSeqLenKv);
    const OperationSpec& both = operationLabelled(spec, "POINTWISE LOGICAL_AND");
    EXPECT_EQ(spec.tensors.at(portUid(both, CUDNN_ATTR_OPERATION_POINTWISE_YDESC)).dataType,
              CUDNN_DATA_BOOLEAN);
    const OperationSpec& select = operationLabelled(spec, "POINTWISE BINARY_SELECT padding");
    EXPECT_EQ(portUid(select, CUDNN_ATTR_OPERATION_POINTWISE_TDESC),
              portUid(both, CUDNN_ATTR_OPERATION_POINTWISE_YDESC));
    const TensorSpec& fill = spec.tensors.at(portUid(select, CUDNN_ATTR_OPERATION_POINTWISE_BDESC));
    ASSERT_TRUE(fill.byValue.has_value());
    EXPECT_TRUE(std::isinf(*fill.byValue) && *fill.byValue < 0);

    // The lengths are INT32 device tensors; timing reads the full lengths from its scratch copies.
    for (const auto& [uid, full] : {std::pair{kSeqLenQ, 256}, std::pair{kSeqLenKv, 384}}) {
        const TensorSpec& lengths = spec.tensors.at(uid);
        EXPECT_EQ(lengths.dataType, CUDNN_DATA_INT32);
        EXPECT_FALSE(lengths.isVirtual || lengths.byValue.has_value());
        EXPECT_EQ(lengths.timingValue, full);
    }
    // cuDNN leaves O's rows past seq_len_q undefined: execute zeroes all of O first.
    EXPECT_TRUE(spec.tensors.at(4).zeroedBeforeExecute);
    const PlanBindings bindings = PlanBindings::fromSpec(spec);
    ASSERT_EQ(bindings.zeroedOutputs.size(), 1U);
    EXPECT_EQ(bindings.zeroedOutputs[0].uid, 4);
    EXPECT_EQ(bindings.zeroedOutputs[0].bytes, 2 * 4 * 256 * 64 * 2);
    EXPECT_TRUE(std::any_of(bindings.deviceTensors.begin(), bindings.deviceTensors.end(),
                            [](const DeviceTensor& tensor) { return tensor.uid == kSeqLenQ; }));
}

TEST(CudnnSdpaTranslation, PaddingMaskComesAfterTheBiasAndBeforeTheCausalMask) {
    AttentionCase c = bf16Case();
    c.padding = true;
    c.causal = true;
    c.bias = true;
    c.bshd = true;
    const CudnnGraphSpec spec = translate(hipdnn_test_sdk::attentionGraph(c));
    EXPECT_EQ(labels(spec), (std::vector<std::string>{"MATMUL",
                                                      "POINTWISE MUL attn_scale",
                                                      "POINTWISE ADD bias",
                                                      "POINTWISE GEN_INDEX padding_row",
                                                      "POINTWISE GEN_INDEX padding_column",
                                                      "POINTWISE CMP_LT seq_len_q",
                                                      "POINTWISE CMP_LT seq_len_kv",
                                                      "POINTWISE LOGICAL_AND",
                                                      "POINTWISE BINARY_SELECT padding",
                                                      "POINTWISE GEN_INDEX row",
                                                      "POINTWISE GEN_INDEX column",
                                                      "POINTWISE CMP_GE",
                                                      "POINTWISE BINARY_SELECT causal",
                                                      "REDUCTION MAX",
                                                      "POINTWISE SUB row_max",
                                                      "POINTWISE EXP",
                                                      "REDUCTION ADD",
                                                      "POINTWISE LOG",
                                                      "POINTWISE ADD stats",
                                                      "POINTWISE DIV row_sum",
                                                      "MATMUL"}));
    const OperationSpec& bias = operationLabelled(spec, "POINTWISE ADD bias");
    const OperationSpec& padding = operationLabelled(spec, "POINTWISE BINARY_SELECT padding");
    const OperationSpec& causal = operationLabelled(spec, "POINTWISE BINARY_SELECT causal");
    EXPECT_EQ(portUid(padding, CUDNN_ATTR_OPERATION_POINTWISE_XDESC),
              portUid(bias, CUDNN_ATTR_OPERATION_POINTWISE_YDESC));
    EXPECT_EQ(portUid(causal, CUDNN_ATTR_OPERATION_POINTWISE_XDESC),
              portUid(padding, CUDNN_ATTR_OPERATION_POINTWISE_YDESC));
    // The causal mask's indices keep the compute type cudnn-frontend gives them.
    EXPECT_EQ(mathPrecision(operationLabelled(spec, "POINTWISE GEN_INDEX row")), CUDNN_DATA_FLOAT);
    // O in BSHD is dense too.
    EXPECT_TRUE(spec.tensors.at(4).zeroedBeforeExecute);
}

TEST(CudnnSdpaTranslation, PaddedBottomRightDiagonalEndsAtEachBatchsLengths) {
    AttentionCase c = bf16Case();
    c.padding = true;
    c.causal = true;
    c.bottomRight = true;
    const CudnnGraphSpec spec = translate(hipdnn_test_sdk::attentionGraph(c));
    EXPECT_EQ(spec.operations.size(), 22U);  // the sixteen and the padding mask's six
    EXPECT_EQ(portUid(operationLabelled(spec, "POINTWISE ADD seq_kv"), CUDNN_ATTR_OPERATION_POINTWISE_BDESC),
              kSeqLenKv);
    EXPECT_EQ(portUid(operationLabelled(spec, "POINTWISE SUB seq_q"), CUDNN_ATTR_OPERATION_POINTWISE_BDESC),
              kSeqLenQ);
    // More queries than keys: rows without keys are a matter of the lengths, masked per batch.
    c.seqQ = 400;
    EXPECT_EQ(declineReason(hipdnn_test_sdk::attentionGraph(c)), "");
}

TEST(CudnnSdpaTranslation, PaddedBackwardOverridesEveryMatmulWithTheLengths) {
    AttentionCase c = bf16Case();
    c.padding = true;
    c.causal = true;
    c.kvHeads = 2;
    c.seqKv = 200;
    // The padding mask is the workaround for cuDNN 9.14's NaN gradients at key lengths that are no
    // multiple of 128.
    const CudnnGraphSpec spec = translate(hipdnn_test_sdk::attentionBackwardGraph(c), kCudnn914);
    const std::vector<std::string> all = labels(spec);
    const std::vector<std::string> masks(all.begin() + 3, all.begin() + 16);
    EXPECT_EQ(masks,
              (std::vector<std::string>{
                  "MATMUL", "POINTWISE MUL attn_scale", "POINTWISE GEN_INDEX padding_row",
                  "POINTWISE GEN_INDEX padding_column", "POINTWISE CMP_LT seq_len_q",
                  "POINTWISE CMP_LT seq_len_kv", "POINTWISE LOGICAL_AND", "POINTWISE BINARY_SELECT padding",
                  "POINTWISE SUB stats", "POINTWISE GEN_INDEX row", "POINTWISE GEN_INDEX column",
                  "POINTWISE CMP_GE", "POINTWISE BINARY_SELECT causal"}));
    // Q K^T and dO V^T over seq_len_q x seq_len_kv; dV = P^T dO and dK = dS^T Q over seq_len_kv
    // rows summing seq_len_q queries (per query head, then summed per key head); dQ = dS K over
    // seq_len_q rows summing seq_len_kv keys.
    const auto products = matmuls(spec);
    ASSERT_EQ(products.size(), 5U);
    EXPECT_EQ(overrides(*products[0]), (std::vector<int64_t>{kSeqLenQ, kSeqLenKv, -1}));
    EXPECT_EQ(overrides(*products[1]), (std::vector<int64_t>{kSeqLenKv, -1, kSeqLenQ}));
    EXPECT_EQ(overrides(*products[2]), (std::vector<int64_t>{kSeqLenQ, kSeqLenKv, -1}));
    EXPECT_EQ(overrides(*products[3]), (std::vector<int64_t>{kSeqLenKv, -1, kSeqLenQ}));
    EXPECT_EQ(overrides(*products[4]), (std::vector<int64_t>{kSeqLenQ, -1, kSeqLenKv}));
    // cuDNN writes zeros to the padded rows of dQ, dK and dV itself.
    EXPECT_TRUE(PlanBindings::fromSpec(spec).zeroedOutputs.empty());

    c.padding = false;  // the unpadded graph stays declined there
    EXPECT_NE(
        declineReason(hipdnn_test_sdk::attentionBackwardGraph(c), kCudnn914).find("without a padding mask"),
        std::string::npos);
}

TEST(CudnnSdpaTranslation, DeclinesPaddingCasesWithTheReason) {
    // cuDNN writes -inf as the statistics of padded rows; the graph defines +inf.
    AttentionCase withStats = bf16Case();
    withStats.padding = true;
    withStats.stats = true;
    EXPECT_NE(declineReason(hipdnn_test_sdk::attentionGraph(withStats))
                  .find("node 0 'sdpa': a padding mask with a stats output is not mapped"),
              std::string::npos);

    // A graph of one batch with the lengths of its mask as given, o with the given strides.
    const auto paddedGraph = [](DataType lengthType, bool byValue, std::vector<int64_t> oStrides) {
        hipdnn_test_sdk::GraphBuilder builder("padded");
        const DataType type = DataType::HALF;
        builder.addTensor(1, "q", type, {1, 2, 64, 32})
            .addTensor(2, "k", type, {1, 2, 96, 32})
            .addTensor(3, "v", type, {1, 2, 96, 32})
            .addTensor(4, "o", type, {1, 2, 64, 32}, std::move(oStrides));
        if (byValue) {
            builder.addScalar(kSeqLenQ, "seq_len_q", lengthType, 50.0, {1, 1, 1, 1})
                .addScalar(kSeqLenKv, "seq_len_kv", lengthType, 70.0, {1, 1, 1, 1});
        } else {
            builder.addTensor(kSeqLenQ, "seq_len_q", lengthType, {1, 1, 1, 1})
                .addTensor(kSeqLenKv, "seq_len_kv", lengthType, {1, 1, 1, 1});
        }
        hipdnn_test_sdk::SdpaOptions options;
        options.seqLenQ = kSeqLenQ;
        options.seqLenKv = kSeqLenKv;
        builder.addSdpa("sdpa", 1, 2, 3, 4, std::nullopt, options);
        return builder;
    };
    EXPECT_EQ(declineReason(paddedGraph(DataType::INT32, false, {})), "");
    EXPECT_NE(
        declineReason(paddedGraph(DataType::INT64, false, {}))
            .find("seq_len_q has data type INT64; cuDNN's fused attention reads INT32 sequence lengths"),
        std::string::npos);
    EXPECT_NE(
        declineReason(paddedGraph(DataType::INT32, true, {}))
            .find("seq_len_q is passed by value; cuDNN's fused attention reads the sequence lengths from "
                  "device memory"),
        std::string::npos);
    // o with a gap after each row of 32 values: zeroing its span would overwrite the gaps.
    EXPECT_NE(declineReason(paddedGraph(DataType::INT32, false, {2 * 64 * 48, 64 * 48, 48, 1}))
                  .find("o has gaps between its elements"),
              std::string::npos);
}

TEST(CudnnSdpaTranslation, DeclinesWhatCudnnCannotRunWithTheReason) {
    AttentionCase fp32 = bf16Case();
    fp32.type = DataType::FLOAT;
    EXPECT_NE(declineReason(hipdnn_test_sdk::attentionGraph(fp32)).find("q has data type FLOAT"),
              std::string::npos);

    AttentionCase oddDim = bf16Case();
    oddDim.dim = 36;
    EXPECT_NE(
        declineReason(hipdnn_test_sdk::attentionGraph(oddDim)).find("head dim 36 is not a multiple of 8"),
        std::string::npos);

    // cuDNN 9.14's backward needs a padding mask for key lengths that are not multiples of 128.
    AttentionCase shortKeys = bf16Case();
    shortKeys.seqKv = 200;
    EXPECT_NE(declineReason(hipdnn_test_sdk::attentionBackwardGraph(shortKeys), kCudnn914).find("NaN"),
              std::string::npos);
    EXPECT_EQ(declineReason(hipdnn_test_sdk::attentionBackwardGraph(shortKeys), kCudnn919), "");

    hipdnn_test_sdk::GraphBuilder dropout("dropout");
    const AttentionCase c = bf16Case();
    dropout.addTensor(1, "q", c.type, {2, 4, 256, 64})
        .addTensor(2, "k", c.type, {2, 4, 384, 64})
        .addTensor(3, "v", c.type, {2, 4, 384, 64})
        .addTensor(4, "o", c.type, {2, 4, 256, 64})
        .addTensor(5, "seed", DataType::INT64, {1, 1, 1, 1})
        .addTensor(6, "offset", DataType::INT64, {1, 1, 1, 1});
    hipdnn_test_sdk::SdpaOptions options;
    options.dropoutProbability = 0.25F;
    options.seed = 5;
    options.offset = 6;
    dropout.addSdpa("sdpa", 1, 2, 3, 4, std::nullopt, options);
    EXPECT_NE(declineReason(dropout).find("dropout is not mapped"), std::string::npos);

    hipdnn_test_sdk::GraphBuilder twoNodes = hipdnn_test_sdk::attentionGraph(bf16Case());
    twoNodes.addTensor(7, "relu", c.type, {2, 4, 256, 64})
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 4, 7);
    EXPECT_NE(declineReason(twoNodes).find("only node; this graph has 2 nodes"), std::string::npos);
}

}  // namespace
}  // namespace hipdnn_cudnn_plugin
