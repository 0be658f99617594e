#include "BinaryPlan.hpp"

#include "MemoryDesc.hpp"

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

void appendPostOps(const GraphWrapper& graph, const Stage& stage, size_t rank, dnnl::post_ops& postOps,
                   PlanStep& step, PlanStep::Args& args) {
    for (size_t i = 0; i < stage.postOps.size(); ++i) {
        const PostOp& op = stage.postOps[i];
        if (op.kind == PostOp::Kind::Eltwise) {
            postOps.append_eltwise(1.0F, op.algorithm, op.alpha, op.beta);
            continue;
        }
        const auto desc = makeOperandDesc(graph.tensor(op.operandUid), rank);
        postOps.append_binary(op.algorithm, desc);
        args.insert_or_assign(DNNL_ARG_ATTR_MULTIPLE_POST_OP(static_cast<int>(i)) | DNNL_ARG_SRC_1,
                              step.tensorMemory(desc, op.operandUid));
    }
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
