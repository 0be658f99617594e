#include "BinaryPlan.hpp"

#include "MemoryDesc.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace hipdnn_onednn {

using hipdnn_flatbuffers_sdk::GraphWrapper;

std::optional<dnnl::algorithm> binaryAlgorithmFor(fb::PointwiseMode mode) {
    using M = fb::PointwiseMode;
    using alg = dnnl::algorithm;
    switch (mode) {
        case M::ADD:
            return alg::binary_add;
        case M::SUB:
            return alg::binary_sub;
        case M::MUL:
            return alg::binary_mul;
        case M::DIV:
            return alg::binary_div;
        case M::MAX_OP:
            return alg::binary_max;
        case M::MIN_OP:
            return alg::binary_min;
        case M::CMP_EQ:
            return alg::binary_eq;
        case M::CMP_NEQ:
            return alg::binary_ne;
        case M::CMP_GT:
            return alg::binary_gt;
        case M::CMP_GE:
            return alg::binary_ge;
        case M::CMP_LT:
            return alg::binary_lt;
        case M::CMP_LE:
            return alg::binary_le;
        default:
            return std::nullopt;
    }
}

bool isCommutative(fb::PointwiseMode mode) {
    using M = fb::PointwiseMode;
    return mode == M::ADD || mode == M::MUL || mode == M::MAX_OP || mode == M::MIN_OP || mode == M::CMP_EQ ||
           mode == M::CMP_NEQ;
}

dnnl::memory::desc makeOperandDesc(const fb::TensorAttributes& tensor, size_t rank) {
    const auto dims = dimsOf(tensor);
    int64_t count = 1;
    for (int64_t d : dims) {
        count *= d;
    }
    // Pass-by-value scalars live in the plan as one float whatever their declared type.
    const fb::DataType type =
        tensor.value_type() != fb::TensorValue::NONE ? fb::DataType::FLOAT : tensor.data_type();
    if (count == 1 && (dims.size() != rank || tensor.value_type() != fb::TensorValue::NONE)) {
        return makeMemoryDesc(std::vector<int64_t>(rank, 1), std::vector<int64_t>(rank, 1), type);
    }
    return makeMemoryDesc(dims, stridesOf(tensor), type);
}

namespace {

// Appends post-ops first..last-1 and, when `step` is given, binds their binary operands.
void addPostOps(const GraphWrapper& graph, const Stage& stage, size_t rank, dnnl::post_ops& postOps,
                size_t first, size_t last, PlanStep* step, PlanStep::Args* args) {
    last = std::min(last, stage.postOps.size());
    for (size_t i = first; i < last; ++i) {
        const PostOp& op = stage.postOps[i];
        if (op.kind == PostOp::Kind::Eltwise) {
            postOps.append_eltwise(1.0F, op.algorithm, op.alpha, op.beta);
            continue;
        }
        const auto desc = makeOperandDesc(graph.tensor(op.operandUid), rank);
        postOps.append_binary(op.algorithm, desc);
        if (step != nullptr) {
            args->insert_or_assign(
                DNNL_ARG_ATTR_MULTIPLE_POST_OP(static_cast<int>(i - first)) | DNNL_ARG_SRC_1,
                step->tensorMemory(desc, op.operandUid));
        }
    }
}

}  // namespace

dnnl::post_ops makePostOps(const GraphWrapper& graph, const Stage& stage, size_t rank, size_t first,
                           size_t last) {
    dnnl::post_ops postOps;
    addPostOps(graph, stage, rank, postOps, first, last, nullptr, nullptr);
    return postOps;
}

void bindPostOpOperands(const GraphWrapper& graph, const Stage& stage, size_t rank, PlanStep& step,
                        PlanStep::Args& args, size_t first, size_t last) {
    dnnl::post_ops unused;
    addPostOps(graph, stage, rank, unused, first, last, &step, &args);
}

void appendPostOps(const GraphWrapper& graph, const Stage& stage, size_t rank, dnnl::post_ops& postOps,
                   PlanStep& step, PlanStep::Args& args, size_t first, size_t last) {
    addPostOps(graph, stage, rank, postOps, first, last, &step, &args);
}

void appendPostOpsAsBinaryStep(const dnnl::engine& engine, const GraphWrapper& graph, const Stage& stage,
                               size_t first, const dnnl::memory& result, const dnnl::memory::desc& resultDesc,
                               PlanStep& step) {
    const PostOp& op = stage.postOps.at(first);
    if (op.kind != PostOp::Kind::Binary) {
        throw std::invalid_argument("post-op " + std::to_string(first) + " is not binary");
    }
    const size_t rank = resultDesc.dims().size();
    const auto operandDesc = makeOperandDesc(graph.tensor(op.operandUid), rank);
    // In place: oneDNN's binary allows dst to be src0 when both have one descriptor.
    PlanStep::Args args{{DNNL_ARG_SRC_0, result},
                        {DNNL_ARG_SRC_1, step.tensorMemory(operandDesc, op.operandUid)},
                        {DNNL_ARG_DST, result}};
    dnnl::post_ops postOps;
    appendPostOps(graph, stage, rank, postOps, step, args, first + 1);
    dnnl::primitive_attr attr = userScratchpadAttr();
    attr.set_post_ops(postOps);
    const dnnl::binary::primitive_desc pd({op.algorithm, resultDesc, operandDesc, resultDesc}, attr, engine);
    step.addPrimitive(dnnl::binary(pd), std::move(args), pd.scratchpad_desc());
}

std::unique_ptr<PlanStep> buildBinaryStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                          const Stage& stage) {
    const auto node = graph.node(stage.primaryNode);
    const auto* a = node.attributesAs<fb::PointwiseAttributes>();
    const fb::TensorAttributes& out = graph.tensor(a->out_0_tensor_uid());
    int64_t src0 = a->in_0_tensor_uid();
    int64_t src1 = *a->in_1_tensor_uid();
    // oneDNN broadcasts only the second source.
    if (dimsOf(graph.tensor(src0)) != dimsOf(out)) {
        if (!isCommutative(a->operation()) || dimsOf(graph.tensor(src1)) != dimsOf(out)) {
            decline(node, "only in_1 may be broadcast for a non-commutative binary mode (in_0 " +
                              describeTensor(graph.tensor(src0)) + ", out_0 " + describeTensor(out) + ")");
        }
        std::swap(src0, src1);
    }
    const fb::TensorAttributes& dst = graph.tensor(stage.outputUid);
    const size_t rank = dimsOf(dst).size();
    auto step = std::make_unique<PlanStep>(engine);
    const auto src0Desc = makeOperandDesc(graph.tensor(src0), rank);
    const auto src1Desc = makeOperandDesc(graph.tensor(src1), rank);
    const auto dstDesc = makeMemoryDesc(dst);
    PlanStep::Args args{{DNNL_ARG_SRC_0, step->tensorMemory(src0Desc, src0)},
                        {DNNL_ARG_SRC_1, step->tensorMemory(src1Desc, src1)},
                        {DNNL_ARG_DST, step->tensorMemory(dstDesc, dst.uid())}};
    dnnl::post_ops postOps;
    appendPostOps(graph, stage, rank, postOps, *step, args);
    dnnl::primitive_attr attr = userScratchpadAttr();
    attr.set_post_ops(postOps);
    const dnnl::binary::primitive_desc pd({*binaryAlgorithmFor(a->operation()), src0Desc, src1Desc, dstDesc},
                                          attr, engine);
    step->addPrimitive(dnnl::binary(pd), std::move(args), pd.scratchpad_desc());
    return step;
}

}  // namespace hipdnn_onednn
