#include "LayernormPlan.hpp"

#include "BatchnormPlan.hpp"
#include "MemoryDesc.hpp"

#include <cmath>

namespace hipdnn_onednn {

using hipdnn_flatbuffers_sdk::GraphWrapper;
using md = dnnl::memory::desc;
using flags = dnnl::normalization_flags;

std::unique_ptr<PlanStep> buildLayernormStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                             const Stage& stage) {
    const auto node = graph.node(stage.primaryNode);
    const auto* a = node.attributesAs<fb::LayernormAttributes>();
    const fb::TensorAttributes& x = graph.tensor(a->x_tensor_uid());
    const fb::TensorAttributes& y = graph.tensor(a->y_tensor_uid());
    const auto dims = dimsOf(x);
    const auto strides = stridesOf(x);
    // oneDNN normalizes over the last dim of a 2-D (N, S) view; that view exists when the
    // normalized dims are one dense block, and scale and bias walk it the same way.
    if (dims.size() < 2 || !sameLayout(x, y) || x.data_type() != y.data_type() || !isDenseFrom(x, 1)) {
        decline(node, "x and y need the same layout with the normalized dims dense (x " + describeTensor(x) +
                          ", y " + describeTensor(y) + ")");
    }
    int64_t normalized = 1;
    for (size_t i = 1; i < dims.size(); ++i) {
        normalized *= dims[i];
    }
    for (int64_t uid : {a->scale_tensor_uid(), a->bias_tensor_uid()}) {
        const fb::TensorAttributes& t = graph.tensor(uid);
        const auto tDims = dimsOf(t);
        const auto tStrides = stridesOf(t);
        bool matches = t.data_type() == fb::DataType::FLOAT && tDims.size() == dims.size() && tDims[0] == 1;
        for (size_t i = 1; matches && i < dims.size(); ++i) {
            matches = tDims[i] == dims[i] && (dims[i] == 1 || tStrides[i] == strides[i]);
        }
        if (!matches) {
            decline(node,
                    "scale and bias must be FLOAT (1, ...) tensors laid out like x's normalized dims (" +
                        describeTensor(t) + ")");
        }
    }
    const std::optional<int64_t> meanUid = a->mean_tensor_uid();
    const std::optional<int64_t> invVarianceUid = a->inv_variance_tensor_uid();
    for (const auto& uid : {meanUid, invVarianceUid}) {
        if (uid && (graph.tensor(*uid).data_type() != fb::DataType::FLOAT ||
                    !isVectorAlong(graph.tensor(*uid), 0, dims[0]))) {
            decline(node, "mean and inv_variance must be FLOAT (N, 1, ...) tensors (" +
                              describeTensor(graph.tensor(*uid)) + ")");
        }
    }
    const auto epsilonValue =
        hipdnn_flatbuffers_sdk::passByValueNumber(graph.tensor(a->epsilon_tensor_uid()));
    if (!epsilonValue) {
        decline(node,
                "epsilon must be a pass-by-value scalar (oneDNN fixes it when the primitive is created)");
    }
    const float epsilon = static_cast<float>(*epsilonValue);
    const bool training = meanUid.has_value() || invVarianceUid.has_value();

    const md data = makeMemoryDesc({dims[0], normalized}, {strides[0], 1}, x.data_type());
    const md stats({dims[0]}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
    const md vector({normalized}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
    const auto prop = training ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
    const dnnl::layer_normalization_forward::primitive_desc pd(
        {prop, data, stats, epsilon, flags::use_scale | flags::use_shift}, userScratchpadAttr(), engine);

    auto step = std::make_unique<PlanStep>(engine);
    PlanStep::Args args{{DNNL_ARG_SRC, step->tensorMemory(data, x.uid())},
                        {DNNL_ARG_DST, step->tensorMemory(data, y.uid())},
                        {DNNL_ARG_SCALE, step->tensorMemory(vector, a->scale_tensor_uid())},
                        {DNNL_ARG_SHIFT, step->tensorMemory(vector, a->bias_tensor_uid())}};
    if (!training) {
        step->addPrimitive(dnnl::layer_normalization_forward(pd), std::move(args), pd.scratchpad_desc());
        return step;
    }
    const md meanDesc =
        meanUid ? makeMemoryDesc({dims[0]}, {stridesOf(graph.tensor(*meanUid))[0]}, fb::DataType::FLOAT)
                : stats;
    args[DNNL_ARG_MEAN] = meanUid ? step->tensorMemory(meanDesc, *meanUid) : step->privateMemory(stats);
    const size_t varianceOffset = step->reservePrivate(stats.get_size());
    args[DNNL_ARG_VARIANCE] = step->privateMemoryAt(stats, varianceOffset);
    step->addPrimitive(dnnl::layer_normalization_forward(pd), std::move(args), pd.scratchpad_desc());
    if (invVarianceUid) {
        const int64_t rows = dims[0];
        const int64_t invStride = stridesOf(graph.tensor(*invVarianceUid))[0];
        const int64_t invUid = *invVarianceUid;
        step->addHostWork([=](const ExecutionBuffers& buffers, std::byte* privateArea) {
            const auto* variance = reinterpret_cast<const float*>(privateArea + varianceOffset);
            auto* inv = static_cast<float*>(buffers.tensor(invUid));
            for (int64_t n = 0; n < rows; ++n) {
                inv[n * invStride] = 1.0F / std::sqrt(variance[n] + epsilon);
            }
        });
    }
    return step;
}

}  // namespace hipdnn_onednn
