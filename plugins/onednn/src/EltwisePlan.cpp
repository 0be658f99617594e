#include "EltwisePlan.hpp"

#include "MemoryDesc.hpp"

#include <limits>

namespace hipdnn_onednn {

using hipdnn_flatbuffers_sdk::GraphWrapper;

bool isPlainRelu(const fb::PointwiseAttributes& attributes) {
    return attributes.operation() == fb::PointwiseMode::RELU_FWD &&
           !attributes.relu_upper_clip().has_value() && attributes.relu_lower_clip().value_or(0.0F) == 0.0F &&
           attributes.relu_lower_clip_slope().value_or(0.0F) == 0.0F;
}

namespace {

// RELU_FWD: y = x above the lower clip (capped by the upper clip), slope * x below a zero clip.
std::optional<EltwiseSpec> reluSpec(const fb::PointwiseAttributes& a, std::string& why) {
    const float lower = a.relu_lower_clip().value_or(0.0F);
    const float slope = a.relu_lower_clip_slope().value_or(0.0F);
    const bool hasUpper = a.relu_upper_clip().has_value();
    if (slope == 0.0F) {
        if (!hasUpper && lower == 0.0F) {
            return EltwiseSpec{dnnl::algorithm::eltwise_relu, 0.0F, 0.0F};
        }
        // clip_v2 keeps x in (lower, upper] and clamps the rest: max(lower, min(x, upper)).
        const float upper = hasUpper ? *a.relu_upper_clip() : std::numeric_limits<float>::max();
        return EltwiseSpec{dnnl::algorithm::eltwise_clip_v2, lower, upper};
    }
    if (lower == 0.0F && !hasUpper) {
        return EltwiseSpec{dnnl::algorithm::eltwise_relu, slope, 0.0F};
    }
    why = "RELU_FWD with a lower clip slope and clip bounds together has no oneDNN eltwise equivalent";
    return std::nullopt;
}

}  // namespace

std::optional<EltwiseSpec> eltwiseSpecFor(const fb::PointwiseAttributes& a, std::string& why) {
    using M = fb::PointwiseMode;
    using alg = dnnl::algorithm;
    switch (a.operation()) {
        case M::RELU_FWD:
            return reluSpec(a, why);
        case M::ABS:
            return EltwiseSpec{alg::eltwise_abs};
        case M::ELU_FWD:
            return EltwiseSpec{alg::eltwise_elu, a.elu_alpha().value_or(1.0F)};
        case M::EXP:
            return EltwiseSpec{alg::eltwise_exp};
        case M::GELU_FWD:
            return EltwiseSpec{alg::eltwise_gelu_erf};
        case M::GELU_APPROX_TANH_FWD:
            return EltwiseSpec{alg::eltwise_gelu_tanh};
        case M::IDENTITY:
            return EltwiseSpec{alg::eltwise_linear, 1.0F, 0.0F};
        case M::LOG:
            return EltwiseSpec{alg::eltwise_log};
        case M::NEG:
            return EltwiseSpec{alg::eltwise_linear, -1.0F, 0.0F};
        case M::RECIPROCAL:
            return EltwiseSpec{alg::eltwise_pow, 1.0F, -1.0F};
        case M::RSQRT:
            return EltwiseSpec{alg::eltwise_pow, 1.0F, -0.5F};
        case M::SIGMOID_FWD:
            return EltwiseSpec{alg::eltwise_logistic};
        case M::SQRT:
            return EltwiseSpec{alg::eltwise_sqrt};
        case M::SWISH_FWD:
            return EltwiseSpec{alg::eltwise_swish, a.swish_beta().value_or(1.0F)};
        case M::TANH_FWD:
            return EltwiseSpec{alg::eltwise_tanh};
        case M::SOFTPLUS_FWD:
            // oneDNN 2.6's soft_relu has no beta parameter.
            if (a.softplus_beta().value_or(1.0F) == 1.0F) {
                return EltwiseSpec{alg::eltwise_soft_relu};
            }
            why = "SOFTPLUS_FWD with softplus_beta != 1 has no oneDNN 2.6 eltwise equivalent";
            return std::nullopt;
        default:
            why = std::string("pointwise mode ") + fb::EnumNamePointwiseMode(a.operation()) +
                  " has no oneDNN eltwise algorithm";
            return std::nullopt;
    }
}

std::unique_ptr<PlanStep> buildEltwiseStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                           const Stage& stage) {
    const auto node = graph.node(stage.primaryNode);
    const auto* a = node.attributesAs<fb::PointwiseAttributes>();
    std::string why;
    const auto spec = eltwiseSpecFor(*a, why);
    const fb::TensorAttributes& x = graph.tensor(a->in_0_tensor_uid());
    const fb::TensorAttributes& y = graph.tensor(a->out_0_tensor_uid());
    // The 2.6 eltwise primitive has one data descriptor for source and destination.
    if (!sameLayout(x, y) || x.data_type() != y.data_type()) {
        decline(node, "eltwise needs in_0 and out_0 with the same dims, strides and data type (" +
                          describeTensor(x) + " vs " + describeTensor(y) + ")");
    }
    const auto desc = makeMemoryDesc(x);
    const dnnl::eltwise_forward::primitive_desc pd(
        {dnnl::prop_kind::forward_inference, spec->algorithm, desc, spec->alpha, spec->beta},
        userScratchpadAttr(), engine);
    auto step = std::make_unique<PlanStep>(engine);
    PlanStep::Args args{{DNNL_ARG_SRC, step->tensorMemory(desc, x.uid())},
                        {DNNL_ARG_DST, step->tensorMemory(desc, y.uid())}};
    step->addPrimitive(dnnl::eltwise_forward(pd), std::move(args), pd.scratchpad_desc());
    return step;
}

}  // namespace hipdnn_onednn
