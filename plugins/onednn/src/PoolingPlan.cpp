#include "PoolingPlan.hpp"

#include "MemoryDesc.hpp"

namespace hipdnn_onednn {

using hipdnn_flatbuffers_sdk::GraphWrapper;

std::unique_ptr<PlanStep> buildPoolingStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                           const Stage& stage) {
    const auto node = graph.node(stage.primaryNode);
    const auto* a = node.attributesAs<fb::ResampleFwdAttributes>();
    const fb::TensorAttributes& x = graph.tensor(a->x_tensor_uid());
    const fb::TensorAttributes& y = graph.tensor(a->y_tensor_uid());
    if (a->generate_index() || a->index_tensor_uid().has_value()) {
        decline(node, "pooling indices are not produced (oneDNN keeps its own workspace format)");
    }
    const size_t rank = dimsOf(x).size();
    if (rank < 3 || rank > 5) {
        decline(node, "oneDNN pooling takes 3-D to 5-D tensors (" + describeTensor(x) + ")");
    }
    const size_t spatial = rank - 2;
    auto vectorOf = [&](const flatbuffers::Vector<int64_t>* values, const char* what) {
        if (values == nullptr || values->size() != spatial) {
            decline(node, std::string(what) + " needs one entry per spatial dimension (" +
                              std::to_string(spatial) + ")");
        }
        return dnnl::memory::dims(values->begin(), values->end());
    };
    const auto window = vectorOf(a->window(), "window");
    const auto stride = vectorOf(a->stride(), "stride");
    const auto padLeft = vectorOf(a->pre_padding(), "pre_padding");
    const auto padRight = vectorOf(a->post_padding(), "post_padding");
    bool padded = false;
    for (size_t i = 0; i < spatial; ++i) {
        padded = padded || padLeft[i] != 0 || padRight[i] != 0;
    }

    dnnl::algorithm algorithm = dnnl::algorithm::undef;
    switch (a->resample_mode()) {
        case fb::ResampleMode::MAXPOOL:
            // oneDNN max pooling ignores padded elements, which is -inf padding.
            if (padded && a->padding_mode() != fb::PaddingMode::NEG_INF_PAD &&
                a->padding_mode() != fb::PaddingMode::PADDING_NOT_SET) {
                decline(node, std::string("max pooling with padding mode ") +
                                  fb::EnumNamePaddingMode(a->padding_mode()) + " (oneDNN pads with -inf)");
            }
            algorithm = dnnl::algorithm::pooling_max;
            break;
        case fb::ResampleMode::AVGPOOL_INCLUDE_PADDING:
            algorithm = dnnl::algorithm::pooling_avg_include_padding;
            break;
        case fb::ResampleMode::AVGPOOL_EXCLUDE_PADDING:
            algorithm = dnnl::algorithm::pooling_avg_exclude_padding;
            break;
        default:
            decline(node, std::string("resample mode ") + fb::EnumNameResampleMode(a->resample_mode()) +
                              " is not a pooling mode oneDNN offers");
    }
    const auto src = makeMemoryDesc(x);
    const auto dst = makeMemoryDesc(y);
    const dnnl::pooling_forward::primitive_desc pd(
        {dnnl::prop_kind::forward_inference, algorithm, src, dst, stride, window, padLeft, padRight},
        userScratchpadAttr(), engine);
    auto step = std::make_unique<PlanStep>(engine);
    PlanStep::Args args{{DNNL_ARG_SRC, step->tensorMemory(src, x.uid())},
                        {DNNL_ARG_DST, step->tensorMemory(dst, y.uid())}};
    step->addPrimitive(dnnl::pooling_forward(pd), std::move(args), pd.scratchpad_desc());
    return step;
}

}  // namespace hipdnn_onednn
