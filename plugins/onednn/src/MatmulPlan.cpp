#include "MatmulPlan.hpp"

#include "BinaryPlan.hpp"
#include "MemoryDesc.hpp"

namespace hipdnn_onednn {

using hipdnn_flatbuffers_sdk::GraphWrapper;

std::unique_ptr<PlanStep> buildMatmulStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                          const Stage& stage) {
    const auto node = graph.node(stage.primaryNode);
    const auto* attributes = node.attributesAs<fb::MatmulAttributes>();
    const fb::TensorAttributes& a = graph.tensor(attributes->a_tensor_uid());
    const fb::TensorAttributes& b = graph.tensor(attributes->b_tensor_uid());
    const fb::TensorAttributes& c = graph.tensor(stage.outputUid);
    const auto aDims = dimsOf(a);
    const auto bDims = dimsOf(b);
    const auto cDims = dimsOf(c);
    if (aDims.size() < 2 || aDims.size() != bDims.size() || aDims.size() != cDims.size()) {
        decline(node, "a, b and c need the same rank, at least 2 (a " + describeTensor(a) + ", b " +
                          describeTensor(b) + ", c " + describeTensor(c) + ")");
    }
    // oneDNN broadcasts a batch dim only from 1, not from a divisor.
    for (size_t i = 0; i + 2 < aDims.size(); ++i) {
        const bool aOk = aDims[i] == cDims[i] || aDims[i] == 1;
        const bool bOk = bDims[i] == cDims[i] || bDims[i] == 1;
        if (!aOk || !bOk) {
            decline(node, "batch dim " + std::to_string(i) + " broadcasts other than from 1 (a " +
                              std::to_string(aDims[i]) + ", b " + std::to_string(bDims[i]) + ", c " +
                              std::to_string(cDims[i]) + ")");
        }
    }
    auto step = std::make_unique<PlanStep>(engine);
    const auto aDesc = makeMemoryDesc(a);
    const auto bDesc = makeMemoryDesc(b);
    const auto cDesc = makeMemoryDesc(c);
    PlanStep::Args args{{DNNL_ARG_SRC, step->tensorMemory(aDesc, a.uid())},
                        {DNNL_ARG_WEIGHTS, step->tensorMemory(bDesc, b.uid())},
                        {DNNL_ARG_DST, step->tensorMemory(cDesc, c.uid())}};
    dnnl::post_ops postOps;
    appendPostOps(graph, stage, cDims.size(), postOps, *step, args);
    dnnl::primitive_attr attr = userScratchpadAttr();
    attr.set_post_ops(postOps);
    if (stage.biasUid) {
        const auto biasDesc = makeMemoryDesc(graph.tensor(*stage.biasUid));
        args[DNNL_ARG_BIAS] = step->tensorMemory(biasDesc, *stage.biasUid);
        const dnnl::matmul::primitive_desc pd({aDesc, bDesc, biasDesc, cDesc}, attr, engine);
        step->addPrimitive(dnnl::matmul(pd), std::move(args), pd.scratchpad_desc());
    } else {
        const dnnl::matmul::primitive_desc pd({aDesc, bDesc, cDesc}, attr, engine);
        step->addPrimitive(dnnl::matmul(pd), std::move(args), pd.scratchpad_desc());
    }
    return step;
}

}  // namespace hipdnn_onednn
