#include "ReductionPlan.hpp"

#include "MemoryDesc.hpp"

namespace hipdnn_onednn {

using hipdnn_flatbuffers_sdk::GraphWrapper;

std::optional<ReductionSpec> reductionSpecFor(fb::ReductionMode mode) {
    using M = fb::ReductionMode;
    using alg = dnnl::algorithm;
    switch (mode) {
        case M::ADD:
            return ReductionSpec{alg::reduction_sum};
        case M::MUL:
            return ReductionSpec{alg::reduction_mul};
        case M::MIN_OP:
            return ReductionSpec{alg::reduction_min};
        case M::MAX_OP:
            return ReductionSpec{alg::reduction_max};
        case M::AVG:
            return ReductionSpec{alg::reduction_mean};
        case M::NORM1:
            return ReductionSpec{alg::reduction_norm_lp_sum, 1.0F};
        case M::NORM2:
            return ReductionSpec{alg::reduction_norm_lp_sum, 2.0F};
        default:
            return std::nullopt;
    }
}

std::unique_ptr<PlanStep> buildReductionStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                             const Stage& stage) {
    const auto node = graph.node(stage.primaryNode);
    const auto* a = node.attributesAs<fb::ReductionAttributes>();
    const auto spec = reductionSpecFor(a->mode());
    if (!spec) {
        decline(node, std::string("reduction mode ") + fb::EnumNameReductionMode(a->mode()) +
                          " has no oneDNN reduction algorithm");
    }
    const fb::TensorAttributes& in = graph.tensor(a->in_tensor_uid());
    const fb::TensorAttributes& out = graph.tensor(a->out_tensor_uid());
    const auto inDims = dimsOf(in);
    const auto outDims = dimsOf(out);
    bool valid = inDims.size() == outDims.size();
    for (size_t i = 0; valid && i < inDims.size(); ++i) {
        valid = outDims[i] == inDims[i] || outDims[i] == 1;
    }
    if (!valid) {
        decline(node, "output dims must equal the input's or be 1 (in " + describeTensor(in) + ", out " +
                          describeTensor(out) + ")");
    }
    const auto src = makeMemoryDesc(in);
    const auto dst = makeMemoryDesc(out);
    const dnnl::reduction::primitive_desc pd({spec->algorithm, src, dst, spec->p, 0.0F}, userScratchpadAttr(),
                                             engine);
    auto step = std::make_unique<PlanStep>(engine);
    PlanStep::Args args{{DNNL_ARG_SRC, step->tensorMemory(src, in.uid())},
                        {DNNL_ARG_DST, step->tensorMemory(dst, out.uid())}};
    step->addPrimitive(dnnl::reduction(pd), std::move(args), pd.scratchpad_desc());
    return step;
}

}  // namespace hipdnn_onednn
