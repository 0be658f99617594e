#include "ConvPlan.hpp"

#include "BinaryPlan.hpp"
#include "MemoryDesc.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace hipdnn_onednn {

using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::NodeWrapper;
using md = dnnl::memory::desc;

dnnl::memory::desc makeGroupedWeightsDesc(const std::vector<int64_t>& dims,
                                          const std::vector<int64_t>& strides, int64_t groups,
                                          dnnl::memory::data_type type) {
    if (groups == 1) {
        return md(dims, type, strides);
    }
    std::vector<int64_t> groupedDims{groups, dims[0] / groups};
    std::vector<int64_t> groupedStrides{strides[0] * (dims[0] / groups), strides[0]};
    groupedDims.insert(groupedDims.end(), dims.begin() + 1, dims.end());
    groupedStrides.insert(groupedStrides.end(), strides.begin() + 1, strides.end());
    return md(groupedDims, type, groupedStrides);
}

namespace {

/// Convolution parameters in oneDNN terms.
struct ConvGeometry {
    dnnl::memory::dims strides;
    dnnl::memory::dims dilation;  // oneDNN counts skipped elements: ours - 1
    dnnl::memory::dims padLeft;
    dnnl::memory::dims padRight;
    int64_t groups = 1;
};

template <class Attributes>
ConvGeometry geometryOf(const NodeWrapper& node, const Attributes& a, const fb::TensorAttributes& x,
                        const fb::TensorAttributes& w) {
    if (a.conv_mode() != fb::ConvMode::CROSS_CORRELATION) {
        decline(node, "only CROSS_CORRELATION is supported (oneDNN does not flip the filter)");
    }
    const auto xDims = dimsOf(x);
    const auto wDims = dimsOf(w);
    const size_t spatial = xDims.size() - 2;
    if (xDims.size() < 3 || xDims.size() > 5 || wDims.size() != xDims.size()) {
        decline(node, "oneDNN convolutions are 1-D, 2-D or 3-D (x " + describeTensor(x) + ", w " +
                          describeTensor(w) + ")");
    }
    auto vectorOf = [&](const flatbuffers::Vector<int64_t>* values, std::string_view what, int64_t offset) {
        if (values == nullptr || values->size() != spatial) {
            decline(node, std::string(what) + " needs one entry per spatial dimension (" +
                              std::to_string(spatial) + ")");
        }
        dnnl::memory::dims result;
        for (int64_t v : *values) {
            result.push_back(v + offset);
        }
        return result;
    };
    ConvGeometry g;
    g.strides = vectorOf(a.stride(), "stride", 0);
    g.dilation = vectorOf(a.dilation(), "dilation", -1);
    g.padLeft = vectorOf(a.pre_padding(), "pre_padding", 0);
    g.padRight = vectorOf(a.post_padding(), "post_padding", 0);
    if (wDims[1] <= 0 || xDims[1] % wDims[1] != 0 || wDims[0] % (xDims[1] / wDims[1]) != 0) {
        decline(node, "channel counts do not form whole groups (x C = " + std::to_string(xDims[1]) +
                          ", w C/groups = " + std::to_string(wDims[1]) + ", K = " + std::to_string(wDims[0]) +
                          ")");
    }
    g.groups = xDims[1] / wDims[1];
    return g;
}

md anyOf(const md& desc) {
    return md(desc.dims(), desc.data_type(), dnnl::memory::format_tag::any);
}

md userWeights(const fb::TensorAttributes& w, int64_t groups) {
    return makeGroupedWeightsDesc(dimsOf(w), stridesOf(w), groups, makeMemoryDesc(w).data_type());
}

bool isReference(const std::string& implementation) {
    return implementation.rfind("ref", 0) == 0;
}

/// oneDNN's gemm-based forward convolution ("gemm:jit", chosen for shapes its direct kernels do
/// not take, such as few channels, or plain NCHW).
bool isGemm(const std::string& implementation) {
    return implementation.find("gemm:") != std::string::npos;
}

/// The first of the stage's post-ops that oneDNN 2.6's forward convolution kernel
/// `implementation` misreads, or the post-op count when there is none. `y` is the convolution's
/// output and `groups` its group count.
///  - The gemm convolution's channels-last kernel (gemm_convolution_fwd_t::execute_forward_thr_nspc)
///    runs binary post-ops through ref_post_ops_t with the logical offset (g * OC + oc) * OS, the
///    offset of element (n = 0, c, spatial = 0) whatever the output element: an operand that
///    varies along the batch or a spatial dim (a residual) is read at the wrong element;
///    per-channel and scalar operands come out right. oneDNN 3.0 stopped offering gemm for such
///    operands, whatever the layout (commit 53fa392, "cpu: gemm conv: disable unsupported binary
///    po bcasts").
///  - The AVX-512 kernels read a binary operand of more than one element with full 16-float loads
///    also on a tail of fewer output channels, past the operand's end ("brgconv:avx512_core" on a
///    1x1 output of 4 channels with a `max` operand of 4 floats read 48 bytes past it).
size_t firstMisreadPostOp(const GraphWrapper& graph, const Stage& stage, const std::string& implementation,
                          const fb::TensorAttributes& y, int64_t groups) {
    constexpr int64_t kAvx512Floats = 16;
    const bool avx512ChannelTail =
        implementation.find("avx512") != std::string::npos && dimsOf(y)[1] / groups % kAvx512Floats != 0;
    for (size_t i = 0; i < stage.postOps.size(); ++i) {
        if (stage.postOps[i].kind != PostOp::Kind::Binary) {
            continue;
        }
        const auto dims = dimsOf(graph.tensor(stage.postOps[i].operandUid));
        for (size_t d = 0; d < dims.size(); ++d) {
            if (dims[d] > 1 && ((d != 1 && isGemm(implementation)) || avx512ChannelTail)) {
                return i;
            }
        }
    }
    return stage.postOps.size();
}

bool isChannelsLast(const md& desc) {
    using tag = dnnl::memory::format_tag;
    const size_t rank = desc.dims().size();
    const tag channelsLast = rank == 3   ? tag::nwc
                             : rank == 4 ? tag::nhwc
                             : rank == 5 ? tag::ndhwc
                                         : tag::undef;
    return channelsLast != tag::undef && desc == md(desc.dims(), desc.data_type(), channelsLast);
}

/// oneDNN 2.6's AVX2 direct convolution ("jit:avx2") runs 1.1-2.1x faster on its blocked
/// activation layout than on channels-last activations, the reorders of x and y included
/// (ResNet-50's 3x3 layers at N=4, fp32; docs/performance.md). Its 1x1 kernel ("jit_1x1:avx2")
/// and the AVX-512 BRGEMM kernels are faster on the user's layout, so they are left alone.
bool blockedActivationsFaster(const md& userActivations, const std::string& implementation) {
    return implementation == "jit:avx2" && isChannelsLast(userActivations);
}

/// Binds graph tensor `uid` as input `desc` of a primitive: directly when the primitive reads
/// the user's layout, else through a reorder into the step's private area.
dnnl::memory bindInput(PlanStep& step, const md& wanted, const md& user, int64_t uid) {
    dnnl::memory source = step.tensorMemory(user, uid);
    if (wanted == user) {
        return source;
    }
    dnnl::memory target = step.privateMemory(wanted);
    const dnnl::reorder::primitive_desc pd(step.engine(), user, step.engine(), wanted, userScratchpadAttr());
    step.addPrimitive(dnnl::reorder(pd), {{DNNL_ARG_SRC, source}, {DNNL_ARG_DST, target}},
                      pd.scratchpad_desc());
    return target;
}

/// The output counterpart: returns the memory the primitive writes and, when it is not the
/// user's tensor, the reorder to run after it.
struct BoundOutput {
    dnnl::memory memory;
    std::optional<dnnl::reorder::primitive_desc> reorderBack;
    dnnl::memory user;
};

BoundOutput bindOutput(PlanStep& step, const md& produced, const md& user, int64_t uid) {
    BoundOutput out;
    out.user = step.tensorMemory(user, uid);
    if (produced == user) {
        out.memory = out.user;
        return out;
    }
    out.memory = step.privateMemory(produced);
    out.reorderBack.emplace(step.engine(), produced, step.engine(), user, userScratchpadAttr());
    return out;
}

void finishOutput(PlanStep& step, const BoundOutput& out) {
    if (out.reorderBack) {
        step.addPrimitive(dnnl::reorder(*out.reorderBack),
                          {{DNNL_ARG_SRC, out.memory}, {DNNL_ARG_DST, out.user}},
                          out.reorderBack->scratchpad_desc());
    }
}

}  // namespace

std::unique_ptr<PlanStep> buildConvFwdStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                           const Stage& stage) {
    const NodeWrapper node = graph.node(stage.primaryNode);
    const auto* a = node.attributesAs<fb::ConvolutionFwdAttributes>();
    const fb::TensorAttributes& x = graph.tensor(a->x_tensor_uid());
    const fb::TensorAttributes& w = graph.tensor(a->w_tensor_uid());
    const fb::TensorAttributes& y = graph.tensor(stage.outputUid);
    const ConvGeometry g = geometryOf(node, *a, x, w);

    const md xUser = makeMemoryDesc(x);
    const md wUser = userWeights(w, g.groups);
    const md yUser = makeMemoryDesc(y);
    const std::optional<md> bias =
        stage.biasUid ? std::optional<md>(makeChannelDesc(graph.tensor(*stage.biasUid))) : std::nullopt;

    const size_t rank = dimsOf(y).size();

    // A primitive descriptor with the first `fused` post-ops. The user's activation layout is used
    // as is, unless oneDNN would fall back to its reference kernel or its blocked layout is known
    // to be faster (then with reorders of x and y). Weights always take oneDNN's preferred layout:
    // the reorder is cheap next to the convolution and unlocks the JIT kernels.
    auto choose = [&](size_t fused) {
        dnnl::primitive_attr attr = userScratchpadAttr();
        attr.set_post_ops(makePostOps(graph, stage, rank, 0, fused));
        auto makePd = [&](const md& src, const md& dst) {
            const md weights = anyOf(wUser);
            const auto d = bias ? dnnl::convolution_forward::desc(
                                      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                      src, weights, *bias, dst, g.strides, g.dilation, g.padLeft, g.padRight)
                                : dnnl::convolution_forward::desc(
                                      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                      src, weights, dst, g.strides, g.dilation, g.padLeft, g.padRight);
            return dnnl::convolution_forward::primitive_desc(d, attr, engine);
        };
        auto pd = makePd(xUser, yUser);
        if (isReference(pd.impl_info_str()) || blockedActivationsFaster(xUser, pd.impl_info_str())) {
            auto blocked = makePd(anyOf(xUser), anyOf(yUser));
            if (!isReference(blocked.impl_info_str())) {
                pd = blocked;
            }
        }
        return pd;
    };
    size_t fused = stage.postOps.size();
    auto pd = choose(fused);
    // When oneDNN picks a kernel that misreads a binary post-op, the post-ops from that one on run
    // as a binary primitive after the convolution (and the convolution is chosen again without
    // them).
    if (const size_t split = firstMisreadPostOp(graph, stage, pd.impl_info_str(), y, g.groups);
        split < fused) {
        fused = split;
        pd = choose(fused);
    }

    auto step = std::make_unique<PlanStep>(engine);
    PlanStep::Args args;
    bindPostOpOperands(graph, stage, rank, *step, args, 0, fused);
    args[DNNL_ARG_SRC] = bindInput(*step, pd.src_desc(), xUser, x.uid());
    args[DNNL_ARG_WEIGHTS] = bindInput(*step, pd.weights_desc(), wUser, w.uid());
    if (bias) {
        args[DNNL_ARG_BIAS] = step->tensorMemory(*bias, *stage.biasUid);
    }
    const BoundOutput out = bindOutput(*step, pd.dst_desc(), yUser, y.uid());
    args[DNNL_ARG_DST] = out.memory;
    step->addPrimitive(dnnl::convolution_forward(pd), std::move(args), pd.scratchpad_desc());
    finishOutput(*step, out);
    if (fused < stage.postOps.size()) {
        appendPostOpsAsBinaryStep(engine, graph, stage, fused, out.user, yUser, *step);
    }
    return step;
}

std::unique_ptr<PlanStep> buildConvBwdDataStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                               const Stage& stage) {
    const NodeWrapper node = graph.node(stage.primaryNode);
    const auto* a = node.attributesAs<fb::ConvolutionBwdAttributes>();
    const fb::TensorAttributes& dy = graph.tensor(a->dy_tensor_uid());
    const fb::TensorAttributes& w = graph.tensor(a->w_tensor_uid());
    const fb::TensorAttributes& dx = graph.tensor(a->dx_tensor_uid());
    const ConvGeometry g = geometryOf(node, *a, dx, w);

    const md dxUser = makeMemoryDesc(dx);
    const md wUser = userWeights(w, g.groups);
    const md dyUser = makeMemoryDesc(dy);
    auto makePd = [&](const md& diffSrc, const md& diffDst) {
        const dnnl::convolution_forward::primitive_desc hint(
            {dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct, diffSrc, anyOf(wUser),
             diffDst, g.strides, g.dilation, g.padLeft, g.padRight},
            engine);
        return dnnl::convolution_backward_data::primitive_desc(
            {dnnl::algorithm::convolution_direct, diffSrc, anyOf(wUser), diffDst, g.strides, g.dilation,
             g.padLeft, g.padRight},
            userScratchpadAttr(), engine, hint);
    };
    auto pd = makePd(dxUser, dyUser);
    if (isReference(pd.impl_info_str())) {
        auto blocked = makePd(anyOf(dxUser), anyOf(dyUser));
        if (!isReference(blocked.impl_info_str())) {
            pd = blocked;
        }
    }
    auto step = std::make_unique<PlanStep>(engine);
    PlanStep::Args args;
    args[DNNL_ARG_DIFF_DST] = bindInput(*step, pd.diff_dst_desc(), dyUser, dy.uid());
    args[DNNL_ARG_WEIGHTS] = bindInput(*step, pd.weights_desc(), wUser, w.uid());
    const BoundOutput out = bindOutput(*step, pd.diff_src_desc(), dxUser, dx.uid());
    args[DNNL_ARG_DIFF_SRC] = out.memory;
    step->addPrimitive(dnnl::convolution_backward_data(pd), std::move(args), pd.scratchpad_desc());
    finishOutput(*step, out);
    return step;
}

/// oneDNN 2.6's 1x1 weight-gradient kernel ("jit_1x1:avx512_core") on channels-last activations
/// with a stride above 1 writes past the scratchpad it reports (about 1.5 KiB for a 1x1, stride 2
/// NHWC case), with several threads into the workspace regions after it too, giving a wrong dw.
bool overrunsScratchpad(const dnnl::convolution_backward_weights::primitive_desc& pd, const ConvGeometry& g) {
    const bool strided = std::any_of(g.strides.begin(), g.strides.end(), [](int64_t s) { return s > 1; });
    return strided && std::string(pd.impl_info_str()).rfind("jit_1x1", 0) == 0 &&
           isChannelsLast(pd.src_desc());
}

std::unique_ptr<PlanStep> buildConvBwdWeightsStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                                  const Stage& stage) {
    const NodeWrapper node = graph.node(stage.primaryNode);
    const auto* a = node.attributesAs<fb::ConvolutionWrwAttributes>();
    const fb::TensorAttributes& x = graph.tensor(a->x_tensor_uid());
    const fb::TensorAttributes& dy = graph.tensor(a->dy_tensor_uid());
    const fb::TensorAttributes& dw = graph.tensor(a->dw_tensor_uid());
    const ConvGeometry g = geometryOf(node, *a, x, dw);

    const md xUser = makeMemoryDesc(x);
    const md dwUser = userWeights(dw, g.groups);
    const md dyUser = makeMemoryDesc(dy);
    auto makePd = [&](const md& src, const md& diffDst) {
        const dnnl::convolution_forward::primitive_desc hint(
            {dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct, src, anyOf(dwUser),
             diffDst, g.strides, g.dilation, g.padLeft, g.padRight},
            engine);
        return dnnl::convolution_backward_weights::primitive_desc(
            {dnnl::algorithm::convolution_direct, src, anyOf(dwUser), diffDst, g.strides, g.dilation,
             g.padLeft, g.padRight},
            userScratchpadAttr(), engine, hint);
    };
    auto pd = makePd(xUser, dyUser);
    if (isReference(pd.impl_info_str()) || overrunsScratchpad(pd, g)) {
        auto blocked = makePd(anyOf(xUser), anyOf(dyUser));
        if (!isReference(blocked.impl_info_str())) {
            pd = blocked;
        }
    }
    if (overrunsScratchpad(pd, g)) {
        decline(node, "oneDNN 2.6's strided 1x1 weight gradient on channels-last activations (" +
                          std::string(pd.impl_info_str()) + ") writes past its scratchpad");
    }
    auto step = std::make_unique<PlanStep>(engine);
    PlanStep::Args args;
    args[DNNL_ARG_SRC] = bindInput(*step, pd.src_desc(), xUser, x.uid());
    args[DNNL_ARG_DIFF_DST] = bindInput(*step, pd.diff_dst_desc(), dyUser, dy.uid());
    const BoundOutput out = bindOutput(*step, pd.diff_weights_desc(), dwUser, dw.uid());
    args[DNNL_ARG_DIFF_WEIGHTS] = out.memory;
    step->addPrimitive(dnnl::convolution_backward_weights(pd), std::move(args), pd.scratchpad_desc());
    finishOutput(*step, out);
    return step;
}

}  // namespace hipdnn_onednn
