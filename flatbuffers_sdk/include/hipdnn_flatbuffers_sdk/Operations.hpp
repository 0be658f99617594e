// The operation catalogue: what each operation of the schema is, written once. One traits block
// per operation, keyed by its schema attributes table, gives its name, its ports (schema field,
// direction, role; presence follows from the field's type) and its contract: the rules between
// its tensors and attributes that the schema cannot state. Port enumeration (NodeWrapper),
// graph validation (GraphWrapper, so the backend, every plugin and the test SDK), the CPU
// executor's signatures and the frontend's deserialization all read it.
//
// Adding an operation: its table in schemas/<name>_attributes.fbs, its union member in
// schemas/graph.fbs, a traits block here, its entry in `Operations` below (moved out of
// `FormatOnlyOperations`, if it is one of those). docs/PluginDevelopment.md lists the rest.
#pragma once

#include "hipdnn_flatbuffers_sdk/operations/Contract.hpp"
#include "hipdnn_flatbuffers_sdk/operations/Pointwise.hpp"
#include "hipdnn_flatbuffers_sdk/operations/Port.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <algorithm>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace hipdnn_flatbuffers_sdk::operations {

namespace fb = data_objects;

template <class Attributes>
struct OperationTraits;

namespace detail {

using UidPort = std::pair<const char*, int64_t>;

// x: (N, C, spatial...), w: (K, C / groups, kernel...), y: (N, K, out...), out per spatial dim
// from SlidingWindow. The three convolutions pass their own tensors for x, w and y.
template <class Attributes>
void checkConvolution(const Contract<Attributes>& c, UidPort x, UidPort w, UidPort y) {
    const auto& a = c.attributes;
    const size_t spatial = c.spatialRank({x, w, y});
    const auto pre = c.spatialVector("pre_padding", a.pre_padding(), spatial, 0);
    const auto post = c.spatialVector("post_padding", a.post_padding(), spatial, 0);
    const auto stride = c.spatialVector("stride", a.stride(), spatial, 1);
    const auto dilation = c.spatialVector("dilation", a.dilation(), spatial, 1);
    c.mode("conv_mode", a.conv_mode(), fb::ConvMode::UNSET, fb::EnumNameConvMode);

    const auto xDims = c.dims(x.second);
    const auto wDims = c.dims(w.second);
    const auto yDims = c.dims(y.second);
    if (xDims.size() > 5) {
        c.fail(x.first, x.second,
               "has rank " + std::to_string(xDims.size()) +
                   "; convolutions support 1 to 3 spatial dims (rank 3 to 5)");
    }
    if (xDims[1] % wDims[1] != 0) {
        c.fail(w.first, w.second,
               "has " + std::to_string(wDims[1]) + " input channels per group, which does not divide " +
                   x.first + "'s " + std::to_string(xDims[1]) + " channels");
    }
    const int64_t groups = xDims[1] / wDims[1];
    if (wDims[0] % groups != 0) {
        c.fail(w.first, w.second,
               "has " + std::to_string(wDims[0]) + " output channels, not divisible by " +
                   std::to_string(groups) + " groups");
    }
    if (yDims[0] != xDims[0] || yDims[1] != wDims[0]) {
        c.fail(y.first, y.second,
               "has dims " + c.formatDims(yDims) + " but N must be " + std::to_string(xDims[0]) + " (from " +
                   x.first + ") and C must be " + std::to_string(wDims[0]) + " (from " + w.first + ")");
    }
    for (size_t s = 0; s < spatial; ++s) {
        const hipdnn_data_sdk::utilities::SlidingWindow window{xDims[s + 2], wDims[s + 2], pre[s],
                                                               post[s],      stride[s],    dilation[s]};
        const auto expected = window.outputLength();
        if (!expected) {
            c.fail(w.first, w.second,
                   "spatial dim " + std::to_string(s) +
                       ": the dilated kernel is larger than the padded input: " + window.formula() +
                       " is not positive");
        }
        if (yDims[s + 2] != *expected) {
            c.fail(y.first, y.second,
                   "has dims[" + std::to_string(s + 2) + "] = " + std::to_string(yDims[s + 2]) +
                       " but the convolution output size is " + window.formula() + " = " +
                       std::to_string(*expected));
        }
    }
}

// Layer norm (forward and backward) normalizes every dim but the first; 0 (absent) says the same.
template <class Attributes>
void requireEveryDimButFirstNormalized(const Contract<Attributes>& c, int64_t normalizedDimCount,
                                       const std::vector<int64_t>& x) {
    const int64_t trailing = static_cast<int64_t>(x.size()) - 1;
    c.require(normalizedDimCount == 0 || normalizedDimCount == trailing,
              "layernorm normalized_dim_count " + std::to_string(normalizedDimCount) +
                  " is not supported: only every dim but the first (" + std::to_string(trailing) +
                  " for x of rank " + std::to_string(x.size()) + ") can be normalized");
}

}  // namespace detail

template <>
struct OperationTraits<fb::ConvolutionFwdAttributes> {
    using A = fb::ConvolutionFwdAttributes;
    static constexpr std::string_view name = "convolution forward";
    static constexpr auto ports =
        std::tuple{input("x", &A::x_tensor_uid), input("w", &A::w_tensor_uid), output("y", &A::y_tensor_uid)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        detail::checkConvolution(c, {"x", a.x_tensor_uid()}, {"w", a.w_tensor_uid()},
                                 {"y", a.y_tensor_uid()});
    }
};

template <>
struct OperationTraits<fb::ConvolutionBwdAttributes> {
    using A = fb::ConvolutionBwdAttributes;
    static constexpr std::string_view name = "convolution backward data";
    static constexpr auto ports = std::tuple{input("dy", &A::dy_tensor_uid), input("w", &A::w_tensor_uid),
                                             output("dx", &A::dx_tensor_uid)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        detail::checkConvolution(c, {"dx", a.dx_tensor_uid()}, {"w", a.w_tensor_uid()},
                                 {"dy", a.dy_tensor_uid()});
    }
};

template <>
struct OperationTraits<fb::ConvolutionWrwAttributes> {
    using A = fb::ConvolutionWrwAttributes;
    static constexpr std::string_view name = "convolution backward weights";
    static constexpr auto ports = std::tuple{input("x", &A::x_tensor_uid), input("dy", &A::dy_tensor_uid),
                                             output("dw", &A::dw_tensor_uid)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        detail::checkConvolution(c, {"x", a.x_tensor_uid()}, {"dw", a.dw_tensor_uid()},
                                 {"dy", a.dy_tensor_uid()});
    }
};

template <>
struct OperationTraits<fb::BatchnormInferenceAttributes> {
    using A = fb::BatchnormInferenceAttributes;
    static constexpr std::string_view name = "batch norm inference";
    static constexpr auto ports =
        std::tuple{input("x", &A::x_tensor_uid),
                   input("mean", &A::mean_tensor_uid, PortRole::Statistic),
                   input("inv_variance", &A::inv_variance_tensor_uid, PortRole::Statistic),
                   input("scale", &A::scale_tensor_uid, PortRole::Parameter),
                   input("bias", &A::bias_tensor_uid, PortRole::Parameter),
                   output("y", &A::y_tensor_uid)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        c.sameDims("y", a.y_tensor_uid(), "x", a.x_tensor_uid());
        const int64_t channels = c.channelsOf(a.x_tensor_uid());
        c.perChannel("mean", a.mean_tensor_uid(), channels);
        c.perChannel("inv_variance", a.inv_variance_tensor_uid(), channels);
        c.perChannel("scale", a.scale_tensor_uid(), channels);
        c.perChannel("bias", a.bias_tensor_uid(), channels);
    }
};

template <>
struct OperationTraits<fb::BatchnormInferenceAttributesVarianceExt> {
    using A = fb::BatchnormInferenceAttributesVarianceExt;
    static constexpr std::string_view name = "batch norm inference from variance";
    static constexpr auto ports = std::tuple{input("x", &A::x_tensor_uid),
                                             input("mean", &A::mean_tensor_uid, PortRole::Statistic),
                                             input("variance", &A::variance_tensor_uid, PortRole::Statistic),
                                             input("scale", &A::scale_tensor_uid, PortRole::Parameter),
                                             input("bias", &A::bias_tensor_uid, PortRole::Parameter),
                                             output("y", &A::y_tensor_uid),
                                             input("epsilon", &A::epsilon_tensor_uid, PortRole::Scalar)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        c.scalar("epsilon", a.epsilon_tensor_uid());
        c.sameDims("y", a.y_tensor_uid(), "x", a.x_tensor_uid());
        const int64_t channels = c.channelsOf(a.x_tensor_uid());
        c.perChannel("mean", a.mean_tensor_uid(), channels);
        c.perChannel("variance", a.variance_tensor_uid(), channels);
        c.perChannel("scale", a.scale_tensor_uid(), channels);
        c.perChannel("bias", a.bias_tensor_uid(), channels);
    }
};

template <>
struct OperationTraits<fb::BatchnormAttributes> {
    using A = fb::BatchnormAttributes;
    static constexpr std::string_view name = "batch norm training";
    static constexpr auto ports = std::tuple{
        input("x", &A::x_tensor_uid),
        input("scale", &A::scale_tensor_uid, PortRole::Parameter),
        input("bias", &A::bias_tensor_uid, PortRole::Parameter),
        input("epsilon", &A::epsilon_tensor_uid, PortRole::Scalar),
        input("peer_stats", &A::peer_stats_tensor_uid, PortRole::Statistic),
        input("prev_running_mean", &A::prev_running_mean_tensor_uid, PortRole::Statistic),
        input("prev_running_variance", &A::prev_running_variance_tensor_uid, PortRole::Statistic),
        input("momentum", &A::momentum_tensor_uid, PortRole::Scalar),
        output("y", &A::y_tensor_uid),
        output("mean", &A::mean_tensor_uid, PortRole::Statistic),
        output("inv_variance", &A::inv_variance_tensor_uid, PortRole::Statistic),
        output("next_running_mean", &A::next_running_mean_tensor_uid, PortRole::Statistic),
        output("next_running_variance", &A::next_running_variance_tensor_uid, PortRole::Statistic)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        c.scalar("epsilon", a.epsilon_tensor_uid());
        c.scalar("momentum", a.momentum_tensor_uid());
        const int runningStatCount =
            a.prev_running_mean_tensor_uid().has_value() + a.prev_running_variance_tensor_uid().has_value() +
            a.momentum_tensor_uid().has_value() + a.next_running_mean_tensor_uid().has_value() +
            a.next_running_variance_tensor_uid().has_value();
        c.require(runningStatCount == 0 || runningStatCount == 5,
                  "running statistics need all of prev_running_mean, prev_running_variance, momentum, "
                  "next_running_mean and next_running_variance, or none");
        c.sameDims("y", a.y_tensor_uid(), "x", a.x_tensor_uid());
        const int64_t channels = c.channelsOf(a.x_tensor_uid());
        c.perChannel("scale", a.scale_tensor_uid(), channels);
        c.perChannel("bias", a.bias_tensor_uid(), channels);
        c.perChannel("mean", a.mean_tensor_uid(), channels);
        c.perChannel("inv_variance", a.inv_variance_tensor_uid(), channels);
        c.perChannel("prev_running_mean", a.prev_running_mean_tensor_uid(), channels);
        c.perChannel("prev_running_variance", a.prev_running_variance_tensor_uid(), channels);
        c.perChannel("next_running_mean", a.next_running_mean_tensor_uid(), channels);
        c.perChannel("next_running_variance", a.next_running_variance_tensor_uid(), channels);
    }
};

template <>
struct OperationTraits<fb::BatchnormBackwardAttributes> {
    using A = fb::BatchnormBackwardAttributes;
    static constexpr std::string_view name = "batch norm backward";
    static constexpr auto ports =
        std::tuple{input("dy", &A::dy_tensor_uid),
                   input("x", &A::x_tensor_uid),
                   input("mean", &A::mean_tensor_uid, PortRole::Statistic),
                   input("inv_variance", &A::inv_variance_tensor_uid, PortRole::Statistic),
                   input("scale", &A::scale_tensor_uid, PortRole::Parameter),
                   input("peer_stats", &A::peer_stats_tensor_uid, PortRole::Statistic),
                   output("dx", &A::dx_tensor_uid),
                   output("dscale", &A::dscale_tensor_uid, PortRole::Parameter),
                   output("dbias", &A::dbias_tensor_uid, PortRole::Parameter),
                   input("epsilon", &A::epsilon_tensor_uid, PortRole::Scalar)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        const bool hasMean = a.mean_tensor_uid().has_value();
        c.require(hasMean == a.inv_variance_tensor_uid().has_value(),
                  "saved mean and inv_variance must be given together");
        c.require(hasMean || a.epsilon_tensor_uid().has_value(),
                  "without saved mean and inv_variance an epsilon tensor is needed");
        c.scalar("epsilon", a.epsilon_tensor_uid());
        c.sameDims("dy", a.dy_tensor_uid(), "x", a.x_tensor_uid());
        c.sameDims("dx", a.dx_tensor_uid(), "x", a.x_tensor_uid());
        const int64_t channels = c.channelsOf(a.x_tensor_uid());
        c.perChannel("scale", a.scale_tensor_uid(), channels);
        c.perChannel("mean", a.mean_tensor_uid(), channels);
        c.perChannel("inv_variance", a.inv_variance_tensor_uid(), channels);
        c.perChannel("dscale", a.dscale_tensor_uid(), channels);
        c.perChannel("dbias", a.dbias_tensor_uid(), channels);
    }
};

template <>
struct OperationTraits<fb::PointwiseAttributes> {
    using A = fb::PointwiseAttributes;
    static constexpr std::string_view name = "pointwise";
    static constexpr auto ports =
        std::tuple{input("in_0", &A::in_0_tensor_uid), input("in_1", &A::in_1_tensor_uid),
                   input("in_2", &A::in_2_tensor_uid), output("out_0", &A::out_0_tensor_uid)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        c.mode("pointwise operation", a.operation(), fb::PointwiseMode::UNSET, fb::EnumNamePointwiseMode);
        const int inputCount = pointwiseInputCount(a.operation());
        const std::string mode = fb::EnumNamePointwiseMode(a.operation());
        c.require(inputCount < 2 || a.in_1_tensor_uid().has_value(),
                  "pointwise mode " + mode + " needs in_1");
        c.require(inputCount < 3 || a.in_2_tensor_uid().has_value(),
                  "pointwise mode " + mode + " needs in_2");
        c.number("relu_lower_clip", a.relu_lower_clip(), false);
        c.number("relu_upper_clip", a.relu_upper_clip(), false);
        c.number("relu_lower_clip_slope", a.relu_lower_clip_slope(), true);
        c.number("swish_beta", a.swish_beta(), true);
        c.number("elu_alpha", a.elu_alpha(), true);
        c.number("softplus_beta", a.softplus_beta(), true);
        const auto out = c.dims(a.out_0_tensor_uid());
        if (a.operation() == fb::PointwiseMode::GEN_INDEX) {
            c.require(a.axis_tensor_uid().has_value(),
                      "pointwise mode GEN_INDEX needs axis_tensor_uid (the axis)");
            c.require(*a.axis_tensor_uid() >= 0 && *a.axis_tensor_uid() < static_cast<int64_t>(out.size()),
                      "GEN_INDEX axis " + std::to_string(*a.axis_tensor_uid()) + " is outside 0.." +
                          std::to_string(out.size() - 1));
        }
        c.broadcastsTo("in_0", a.in_0_tensor_uid(), out);
        c.broadcastsTo("in_1", a.in_1_tensor_uid(), out);
        c.broadcastsTo("in_2", a.in_2_tensor_uid(), out);
    }
};

template <>
struct OperationTraits<fb::MatmulAttributes> {
    using A = fb::MatmulAttributes;
    static constexpr std::string_view name = "matmul";
    static constexpr auto ports =
        std::tuple{input("a", &A::a_tensor_uid), input("b", &A::b_tensor_uid), output("c", &A::c_tensor_uid)};

    // C[..., M, N] = A[..., M, K] x B[..., K, N]; each batch dim of c is a multiple of a's and b's.
    static void check(const Contract<A>& c) {
        const auto& m = c.attributes;
        for (const auto& [port, uid] : {std::pair{"a", m.a_tensor_uid()}, std::pair{"b", m.b_tensor_uid()},
                                        std::pair{"c", m.c_tensor_uid()}}) {
            if (c.rank(uid) < 2) {
                c.failTensor(port, uid,
                             "has rank " + std::to_string(c.rank(uid)) + "; matmul tensors need rank >= 2");
            }
        }
        const auto a = c.dims(m.a_tensor_uid());
        const auto b = c.dims(m.b_tensor_uid());
        const auto out = c.dims(m.c_tensor_uid());
        c.require(a.size() == b.size() && a.size() == out.size(),
                  "matmul tensors must have one rank; a " + c.formatDims(a) + ", b " + c.formatDims(b) +
                      ", c " + c.formatDims(out));
        const size_t r = a.size();
        if (a[r - 1] != b[r - 2]) {
            c.fail("b", m.b_tensor_uid(),
                   "has K = dims[" + std::to_string(r - 2) + "] = " + std::to_string(b[r - 2]) +
                       " but a has K = " + std::to_string(a[r - 1]));
        }
        if (out[r - 2] != a[r - 2] || out[r - 1] != b[r - 1]) {
            c.fail("c", m.c_tensor_uid(),
                   "has dims " + c.formatDims(out) + " but M x N must be " + std::to_string(a[r - 2]) +
                       " x " + std::to_string(b[r - 1]));
        }
        for (size_t i = 0; i + 2 < r; ++i) {
            if (out[i] % a[i] != 0 || out[i] % b[i] != 0) {
                c.fail("c", m.c_tensor_uid(),
                       "batch dim " + std::to_string(i) + " = " + std::to_string(out[i]) +
                           " is not a multiple of a's " + std::to_string(a[i]) + " and b's " +
                           std::to_string(b[i]));
            }
        }
    }
};

template <>
struct OperationTraits<fb::ReductionAttributes> {
    using A = fb::ReductionAttributes;
    static constexpr std::string_view name = "reduction";
    static constexpr auto ports =
        std::tuple{input("in", &A::in_tensor_uid), output("out", &A::out_tensor_uid)};

    // Output dims of 1 where the input's are larger are reduced.
    static void check(const Contract<A>& c) {
        const auto& r = c.attributes;
        c.mode("reduction mode", r.mode(), fb::ReductionMode::NOT_SET, fb::EnumNameReductionMode);
        const auto in = c.dims(r.in_tensor_uid());
        const auto out = c.dims(r.out_tensor_uid());
        bool ok = in.size() == out.size();
        for (size_t i = 0; ok && i < in.size(); ++i) {
            ok = out[i] == in[i] || out[i] == 1;
        }
        if (!ok) {
            c.fail("out", r.out_tensor_uid(),
                   "has dims " + c.formatDims(out) + "; each must equal in's " + c.formatDims(in) +
                       " or be 1 (reduced)");
        }
    }
};

template <>
struct OperationTraits<fb::LayernormAttributes> {
    using A = fb::LayernormAttributes;
    static constexpr std::string_view name = "layer norm";
    static constexpr auto ports =
        std::tuple{input("x", &A::x_tensor_uid),
                   input("scale", &A::scale_tensor_uid, PortRole::Parameter),
                   input("bias", &A::bias_tensor_uid, PortRole::Parameter),
                   input("epsilon", &A::epsilon_tensor_uid, PortRole::Scalar),
                   output("y", &A::y_tensor_uid),
                   output("mean", &A::mean_tensor_uid, PortRole::Statistic),
                   output("inv_variance", &A::inv_variance_tensor_uid, PortRole::Statistic)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        c.mode("forward_phase", a.forward_phase(), fb::NormFwdPhase::NOT_SET, fb::EnumNameNormFwdPhase);
        c.scalar("epsilon", a.epsilon_tensor_uid());
        c.require(a.forward_phase() != fb::NormFwdPhase::TRAINING ||
                      (a.mean_tensor_uid().has_value() && a.inv_variance_tensor_uid().has_value()),
                  "layernorm TRAINING needs mean and inv_variance outputs");
        const auto x = c.dims(a.x_tensor_uid());
        detail::requireEveryDimButFirstNormalized(c, a.normalized_dim_count(), x);
        c.sameDims("y", a.y_tensor_uid(), "x", a.x_tensor_uid());
        c.normParameter("scale", a.scale_tensor_uid(), x);
        c.normParameter("bias", a.bias_tensor_uid(), x);
        c.normStatistic("mean", a.mean_tensor_uid(), x);
        c.normStatistic("inv_variance", a.inv_variance_tensor_uid(), x);
        c.require(a.mean_tensor_uid().has_value() == a.inv_variance_tensor_uid().has_value(),
                  "mean and inv_variance must be given together");
    }
};

template <>
struct OperationTraits<fb::RMSNormAttributes> {
    using A = fb::RMSNormAttributes;
    static constexpr std::string_view name = "RMS norm";
    static constexpr auto ports = std::tuple{input("x", &A::x_tensor_uid),
                                             input("scale", &A::scale_tensor_uid, PortRole::Parameter),
                                             input("epsilon", &A::epsilon_tensor_uid, PortRole::Scalar),
                                             output("y", &A::y_tensor_uid),
                                             input("bias", &A::bias_tensor_uid, PortRole::Parameter),
                                             output("inv_rms", &A::inv_rms_tensor_uid, PortRole::Statistic)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        c.mode("forward_phase", a.forward_phase(), fb::NormFwdPhase::NOT_SET, fb::EnumNameNormFwdPhase);
        c.scalar("epsilon", a.epsilon_tensor_uid());
        c.require(a.forward_phase() != fb::NormFwdPhase::TRAINING || a.inv_rms_tensor_uid().has_value(),
                  "rmsnorm TRAINING needs an inv_rms output");
        const auto x = c.dims(a.x_tensor_uid());
        c.sameDims("y", a.y_tensor_uid(), "x", a.x_tensor_uid());
        c.normParameter("scale", a.scale_tensor_uid(), x);
        c.normParameter("bias", a.bias_tensor_uid(), x);
        c.normStatistic("inv_rms", a.inv_rms_tensor_uid(), x);
    }
};

template <>
struct OperationTraits<fb::RMSNormBackwardAttributes> {
    using A = fb::RMSNormBackwardAttributes;
    static constexpr std::string_view name = "RMS norm backward";
    static constexpr auto ports = std::tuple{input("dy", &A::dy_tensor_uid),
                                             input("x", &A::x_tensor_uid),
                                             input("scale", &A::scale_tensor_uid, PortRole::Parameter),
                                             input("inv_rms", &A::inv_rms_tensor_uid, PortRole::Statistic),
                                             output("dx", &A::dx_tensor_uid),
                                             output("dscale", &A::dscale_tensor_uid, PortRole::Parameter),
                                             output("dbias", &A::dbias_tensor_uid, PortRole::Parameter)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        c.require(a.inv_rms_tensor_uid().has_value(),
                  "rmsnorm backward needs inv_rms (the forward pass's normalizer); recomputing it is not "
                  "supported");
        const auto x = c.dims(a.x_tensor_uid());
        c.sameDims("dy", a.dy_tensor_uid(), "x", a.x_tensor_uid());
        c.sameDims("dx", a.dx_tensor_uid(), "x", a.x_tensor_uid());
        c.normParameter("scale", a.scale_tensor_uid(), x);
        c.normStatistic("inv_rms", a.inv_rms_tensor_uid(), x);
        c.sameDims("dscale", a.dscale_tensor_uid(), "scale", a.scale_tensor_uid());
        c.sameDims("dbias", a.dbias_tensor_uid(), "scale", a.scale_tensor_uid());
    }
};

template <>
struct OperationTraits<fb::LayernormBackwardAttributes> {
    using A = fb::LayernormBackwardAttributes;
    static constexpr std::string_view name = "layer norm backward";
    static constexpr auto ports =
        std::tuple{input("dy", &A::dy_tensor_uid),
                   input("x", &A::x_tensor_uid),
                   input("scale", &A::scale_tensor_uid, PortRole::Parameter),
                   input("mean", &A::mean_tensor_uid, PortRole::Statistic),
                   input("inv_variance", &A::inv_variance_tensor_uid, PortRole::Statistic),
                   input("epsilon", &A::epsilon_tensor_uid, PortRole::Scalar),
                   output("dx", &A::dx_tensor_uid),
                   output("dscale", &A::dscale_tensor_uid, PortRole::Parameter),
                   output("dbias", &A::dbias_tensor_uid, PortRole::Parameter)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        c.require(a.mean_tensor_uid().has_value() && a.inv_variance_tensor_uid().has_value(),
                  "layernorm backward needs mean and inv_variance (the forward pass's statistics); "
                  "recomputing them is not supported");
        c.scalar("epsilon", a.epsilon_tensor_uid());
        const auto x = c.dims(a.x_tensor_uid());
        detail::requireEveryDimButFirstNormalized(c, a.normalized_dim_count(), x);
        c.sameDims("dy", a.dy_tensor_uid(), "x", a.x_tensor_uid());
        c.sameDims("dx", a.dx_tensor_uid(), "x", a.x_tensor_uid());
        c.normParameter("scale", a.scale_tensor_uid(), x);
        c.normStatistic("mean", a.mean_tensor_uid(), x);
        c.normStatistic("inv_variance", a.inv_variance_tensor_uid(), x);
        c.sameDims("dscale", a.dscale_tensor_uid(), "scale", a.scale_tensor_uid());
        c.sameDims("dbias", a.dbias_tensor_uid(), "scale", a.scale_tensor_uid());
    }
};

template <>
struct OperationTraits<fb::ResampleFwdAttributes> {
    using A = fb::ResampleFwdAttributes;
    static constexpr std::string_view name = "pooling forward";
    static constexpr auto ports = std::tuple{input("x", &A::x_tensor_uid), output("y", &A::y_tensor_uid),
                                             output("index", &A::index_tensor_uid)};

    // Pooling over the spatial dims of (N, C, spatial...); y's from SlidingWindow without dilation.
    static void check(const Contract<A>& c) {
        const auto& r = c.attributes;
        const size_t spatial = c.spatialRank({{"x", r.x_tensor_uid()}, {"y", r.y_tensor_uid()}});
        const auto pre = c.spatialVector("pre_padding", r.pre_padding(), spatial, 0);
        const auto post = c.spatialVector("post_padding", r.post_padding(), spatial, 0);
        const auto stride = c.spatialVector("stride", r.stride(), spatial, 1);
        const auto window = c.spatialVector("window", r.window(), spatial, 1);
        c.mode("resample_mode", r.resample_mode(), fb::ResampleMode::NOT_SET, fb::EnumNameResampleMode);
        c.knownValue("padding_mode", r.padding_mode());
        c.require(!r.generate_index() || r.index_tensor_uid().has_value(),
                  "sets generate_index but has no index tensor");
        const auto x = c.dims(r.x_tensor_uid());
        const auto y = c.dims(r.y_tensor_uid());
        if (x.size() > 5) {
            c.fail("x", r.x_tensor_uid(),
                   "has rank " + std::to_string(x.size()) + "; pooling supports rank 3 to 5");
        }
        if (y[0] != x[0] || y[1] != x[1]) {
            c.fail("y", r.y_tensor_uid(),
                   "has dims " + c.formatDims(y) + " but N and C must match x " + c.formatDims(x));
        }
        for (size_t s = 0; s < spatial; ++s) {
            const hipdnn_data_sdk::utilities::SlidingWindow pooling{x[s + 2], window[s], pre[s], post[s],
                                                                    stride[s]};
            const auto expected = pooling.outputLength();
            if (expected != y[s + 2]) {
                c.fail("y", r.y_tensor_uid(),
                       "has dims[" + std::to_string(s + 2) + "] = " + std::to_string(y[s + 2]) +
                           " but the pooling output size is " + pooling.formula(false) +
                           (expected ? " = " + std::to_string(*expected)
                                     : " (window larger than the padded input)"));
            }
        }
        if (r.index_tensor_uid().has_value()) {
            const int64_t index = *r.index_tensor_uid();
            if (r.resample_mode() != fb::ResampleMode::MAXPOOL) {
                c.fail("index", index, "is set, but only MAXPOOL produces indices");
            }
            c.sameDims("index", index, "y", r.y_tensor_uid());
        }
    }
};

namespace detail {

// Q (B, Hq, Sq, D), K (B, Hk, Skv, D), V (B, Hk, Skv, Dv), O (B, Hq, Sq, Dv): the dims of attention's
// operands, whatever their layout (BHSD or BSHD is a matter of strides).
struct AttentionDims {
    int64_t batch, queryHeads, kvHeads, seqQ, seqKv, headDim, valueDim;

    std::vector<int64_t> scores() const { return {batch, queryHeads, seqQ, seqKv}; }
    std::vector<int64_t> statistics() const { return {batch, queryHeads, seqQ, 1}; }
};

template <class Attributes>
void requireRank4(const Contract<Attributes>& c, UidPort port) {
    if (c.rank(port.second) != 4) {
        c.failTensor(port.first, port.second,
                     "has rank " + std::to_string(c.rank(port.second)) + " (dims " +
                         c.formatDims(c.dims(port.second)) + "); attention tensors are (B, H, S, D)");
    }
}

template <class Attributes>
AttentionDims checkAttentionOperands(const Contract<Attributes>& c, UidPort q, UidPort k, UidPort v,
                                     UidPort o) {
    for (const UidPort& port : {q, k, v, o}) {
        requireRank4(c, port);
    }
    const auto qDims = c.dims(q.second);
    const auto kDims = c.dims(k.second);
    const auto vDims = c.dims(v.second);
    const AttentionDims dims{qDims[0], qDims[1], kDims[1], qDims[2], kDims[2], qDims[3], vDims[3]};
    if (kDims[0] != dims.batch || kDims[3] != dims.headDim) {
        c.fail(k.first, k.second,
               "has dims " + c.formatDims(kDims) + " but its batch (dim 0) and head dim (dim 3) must be " +
                   q.first + "'s " + std::to_string(dims.batch) + " and " + std::to_string(dims.headDim));
    }
    if (dims.queryHeads % dims.kvHeads != 0) {
        c.fail(k.first, k.second,
               "has " + std::to_string(dims.kvHeads) + " heads, which do not divide " + q.first + "'s " +
                   std::to_string(dims.queryHeads) + " (grouped-query attention needs Hq % Hk == 0)");
    }
    if (vDims[0] != dims.batch || vDims[1] != dims.kvHeads || vDims[2] != dims.seqKv) {
        c.fail(v.first, v.second,
               "has dims " + c.formatDims(vDims) + " but (B, H, S) must be " + k.first + "'s (" +
                   std::to_string(dims.batch) + ", " + std::to_string(dims.kvHeads) + ", " +
                   std::to_string(dims.seqKv) + ")");
    }
    const std::vector<int64_t> expectedO{dims.batch, dims.queryHeads, dims.seqQ, dims.valueDim};
    if (c.dims(o.second) != expectedO) {
        c.fail(o.first, o.second,
               "has dims " + c.formatDims(c.dims(o.second)) + " but (B, Hq, Sq, Dv) from " + q.first +
                   " and " + v.first + " is " + c.formatDims(expectedO));
    }
    return dims;
}

template <class Attributes>
void requireDataType(const Contract<Attributes>& c, std::string_view port, OptionalUid present,
                     std::initializer_list<fb::DataType> allowed, std::string_view what) {
    if (!present.has_value()) {
        return;
    }
    const fb::DataType type = c.tensor(*present).data_type();
    if (std::find(allowed.begin(), allowed.end(), type) == allowed.end()) {
        c.failTensor(
            port, *present,
            "has data type " + std::string(fb::EnumNameDataType(type)) + "; it must be " + std::string(what));
    }
}

template <class Attributes>
void requireDims(const Contract<Attributes>& c, std::string_view port, OptionalUid present,
                 const std::vector<int64_t>& expected, std::string_view what) {
    if (present.has_value() && c.dims(*present) != expected) {
        c.fail(port, *present,
               "has dims " + c.formatDims(c.dims(*present)) + "; expected " + c.formatDims(expected) + " (" +
                   std::string(what) + ")");
    }
}

// A single-element integer tensor (the dropout seed and offset).
template <class Attributes>
void requireIntegerScalar(const Contract<Attributes>& c, std::string_view port, OptionalUid present) {
    if (!present.has_value()) {
        return;
    }
    if (c.dims(*present) != std::vector<int64_t>(c.rank(*present), 1)) {
        c.fail(port, *present,
               "has dims " + c.formatDims(c.dims(*present)) + "; it must hold exactly one element");
    }
    requireDataType(c, port, present, {fb::DataType::INT32, fb::DataType::INT64}, "INT32 or INT64");
}

// A field of the format that this version does not implement.
struct UnsupportedField {
    std::string_view field;
    bool present;
    std::string_view feature;
};

template <class Attributes>
void refuseUnsupported(const Contract<Attributes>& c, std::initializer_list<UnsupportedField> fields) {
    for (const auto& field : fields) {
        c.require(!field.present, std::string(field.field) + " is set, but " + std::string(field.feature) +
                                      " is not supported");
    }
}

// What the forward and backward tables share: masks, scale, padding and dropout.
template <class Attributes>
void checkAttentionOptions(const Contract<Attributes>& c, const AttentionDims& dims) {
    const auto& a = c.attributes;
    refuseUnsupported(
        c, {{"alibi_mask", a.alibi_mask(), "the ALiBi mask"},
            {"left_bound", a.left_bound().has_value(), "a sliding-window mask"},
            {"right_bound", a.right_bound().has_value(), "a sliding-window mask"},
            {"dropout_mask", a.dropout_mask_tensor_uid().has_value(), "a caller-given dropout mask"},
            {"dropout_scale", a.dropout_scale_tensor_uid().has_value(), "a caller-given dropout scale"}});
    c.knownValue("diagonal_alignment", a.diagonal_alignment());
    c.require(!(a.causal_mask() && a.causal_mask_bottom_right()),
              "causal_mask and causal_mask_bottom_right are both set; set one (causal_mask with "
              "diagonal_alignment BOTTOM_RIGHT is the same as causal_mask_bottom_right)");

    if (a.attn_mask_tensor_uid().has_value()) {
        const int64_t mask = *a.attn_mask_tensor_uid();
        requireRank4(c, {"attn_mask", mask});
        c.broadcastsTo("attn_mask", mask, dims.scores());
    }

    c.require(!(a.scale_tensor_uid().has_value() && a.attn_scale_value().has_value()),
              "scale is given both as a tensor and as attn_scale_value; give one");
    c.scalar("scale", a.scale_tensor_uid());
    c.number("attn_scale_value", a.attn_scale_value(), true);

    const bool hasSeqLenQ = a.seq_len_q_tensor_uid().has_value();
    const bool hasSeqLenKv = a.seq_len_kv_tensor_uid().has_value();
    c.require(a.padding_mask() == hasSeqLenQ && a.padding_mask() == hasSeqLenKv,
              std::string("padding_mask is ") + (a.padding_mask() ? "set" : "not set") + " with seq_len_q " +
                  (hasSeqLenQ ? "given" : "absent") + " and seq_len_kv " +
                  (hasSeqLenKv ? "given" : "absent") +
                  "; the padding mask needs both sequence-length tensors, and they need the mask");
    const std::vector<int64_t> perBatch{dims.batch, 1, 1, 1};
    for (const auto& [port, uid] : {std::pair{"seq_len_q", a.seq_len_q_tensor_uid()},
                                    std::pair{"seq_len_kv", a.seq_len_kv_tensor_uid()}}) {
        requireDims(c, port, uid, perBatch, "one length per batch");
        requireDataType(c, port, uid, {fb::DataType::INT32, fb::DataType::INT64}, "INT32 or INT64");
    }

    if (a.dropout_probability().has_value()) {
        const float probability = *a.dropout_probability();
        if (!(probability >= 0.0F && probability < 1.0F)) {
            c.fail("dropout_probability " + c.formatNumber(probability) + " is outside [0, 1)");
        }
    }
    const bool dropout = a.dropout_probability().has_value() && *a.dropout_probability() > 0.0F;
    const bool hasSeed = a.seed_tensor_uid().has_value();
    const bool hasOffset = a.offset_tensor_uid().has_value();
    c.require(
        dropout == hasSeed && dropout == hasOffset,
        std::string("dropout_probability ") +
            (a.dropout_probability().has_value() ? c.formatNumber(*a.dropout_probability()) : "absent") +
            " with seed " + (hasSeed ? "given" : "absent") + " and offset " +
            (hasOffset ? "given" : "absent") +
            "; dropout needs both the seed and the offset tensors, and they need a probability above 0");
    requireIntegerScalar(c, "seed", a.seed_tensor_uid());
    requireIntegerScalar(c, "offset", a.offset_tensor_uid());
}

}  // namespace detail

// Scores are scale * Q K^T + attn_mask, the scale from the scale tensor or attn_scale_value, and 1
// (no scaling) without either, as in cuDNN.
template <>
struct OperationTraits<fb::SdpaAttributes> {
    using A = fb::SdpaAttributes;
    static constexpr std::string_view name = "scaled dot-product attention";
    static constexpr auto ports =
        std::tuple{input("q", &A::q_tensor_uid),
                   input("k", &A::k_tensor_uid),
                   input("v", &A::v_tensor_uid),
                   output("o", &A::o_tensor_uid),
                   input("attn_mask", &A::attn_mask_tensor_uid),
                   input("scale", &A::scale_tensor_uid, PortRole::Scalar),
                   input("seq_len_q", &A::seq_len_q_tensor_uid, PortRole::Metadata),
                   input("seq_len_kv", &A::seq_len_kv_tensor_uid, PortRole::Metadata),
                   input("seed", &A::seed_tensor_uid, PortRole::Metadata),
                   input("offset", &A::offset_tensor_uid, PortRole::Metadata),
                   input("dropout_mask", &A::dropout_mask_tensor_uid),
                   input("dropout_scale", &A::dropout_scale_tensor_uid, PortRole::Scalar),
                   input("page_table_k", &A::page_table_k_tensor_uid, PortRole::Metadata),
                   input("page_table_v", &A::page_table_v_tensor_uid, PortRole::Metadata),
                   input("block_mask", &A::block_mask_tensor_uid, PortRole::Metadata),
                   input("sink_token", &A::sink_token_tensor_uid, PortRole::Parameter),
                   input("descale_q", &A::descale_q_tensor_uid, PortRole::Scalar),
                   input("descale_k", &A::descale_k_tensor_uid, PortRole::Scalar),
                   input("descale_v", &A::descale_v_tensor_uid, PortRole::Scalar),
                   input("descale_s", &A::descale_s_tensor_uid, PortRole::Scalar),
                   input("scale_s", &A::scale_s_tensor_uid, PortRole::Scalar),
                   input("scale_o", &A::scale_o_tensor_uid, PortRole::Scalar),
                   output("stats", &A::stats_tensor_uid, PortRole::Statistic),
                   output("max", &A::max_tensor_uid, PortRole::Statistic),
                   output("sum_exp", &A::sum_exp_tensor_uid, PortRole::Statistic),
                   output("rng_dump", &A::rng_dump_tensor_uid, PortRole::Metadata),
                   output("amax_s", &A::amax_s_tensor_uid, PortRole::Scalar),
                   output("amax_o", &A::amax_o_tensor_uid, PortRole::Scalar)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        detail::refuseUnsupported(
            c, {{"page_table_k", a.page_table_k_tensor_uid().has_value(), "paged attention"},
                {"page_table_v", a.page_table_v_tensor_uid().has_value(), "paged attention"},
                {"max_seq_len_kv", a.max_seq_len_kv().has_value(), "paged attention"},
                {"block_mask", a.block_mask_tensor_uid().has_value(), "a block mask"},
                {"sink_token", a.sink_token_tensor_uid().has_value(), "a sink token"},
                {"descale_q", a.descale_q_tensor_uid().has_value(), "fp8 attention"},
                {"descale_k", a.descale_k_tensor_uid().has_value(), "fp8 attention"},
                {"descale_v", a.descale_v_tensor_uid().has_value(), "fp8 attention"},
                {"descale_s", a.descale_s_tensor_uid().has_value(), "fp8 attention"},
                {"scale_s", a.scale_s_tensor_uid().has_value(), "fp8 attention"},
                {"scale_o", a.scale_o_tensor_uid().has_value(), "fp8 attention"},
                {"amax_s", a.amax_s_tensor_uid().has_value(), "fp8 attention"},
                {"amax_o", a.amax_o_tensor_uid().has_value(), "fp8 attention"},
                {"max", a.max_tensor_uid().has_value(), "a row-maximum output"},
                {"sum_exp", a.sum_exp_tensor_uid().has_value(), "a row-sum output"},
                {"rng_dump", a.rng_dump_tensor_uid().has_value(), "dumping the dropout random numbers"},
                {"mma_core_mode", a.mma_core_mode() != fb::DataType::UNSET, "choosing the MMA core type"},
                {"implementation", a.implementation() != fb::AttentionImplementation::AUTO,
                 "an implementation other than AUTO"}});
        const auto dims = detail::checkAttentionOperands(c, {"q", a.q_tensor_uid()}, {"k", a.k_tensor_uid()},
                                                         {"v", a.v_tensor_uid()}, {"o", a.o_tensor_uid()});
        detail::checkAttentionOptions(c, dims);
        const bool hasStats = a.stats_tensor_uid().has_value();
        c.require(!a.generate_stats().has_value() || *a.generate_stats() == hasStats,
                  std::string("generate_stats is ") +
                      (hasStats ? "false but a stats tensor is given" : "true but no stats tensor is given"));
        detail::requireDims(c, "stats", a.stats_tensor_uid(), dims.statistics(),
                            "(B, Hq, Sq, 1): one log-sum-exp per query row");
        detail::requireDataType(c, "stats", a.stats_tensor_uid(), {fb::DataType::FLOAT}, "FLOAT");
    }
};

template <>
struct OperationTraits<fb::SdpaBackwardAttributes> {
    using A = fb::SdpaBackwardAttributes;
    static constexpr std::string_view name = "scaled dot-product attention backward";
    static constexpr auto ports =
        std::tuple{input("q", &A::q_tensor_uid),
                   input("k", &A::k_tensor_uid),
                   input("v", &A::v_tensor_uid),
                   input("o", &A::o_tensor_uid),
                   input("do", &A::do_tensor_uid),
                   input("stats", &A::stats_tensor_uid, PortRole::Statistic),
                   output("dq", &A::dq_tensor_uid),
                   output("dk", &A::dk_tensor_uid),
                   output("dv", &A::dv_tensor_uid),
                   input("scale", &A::scale_tensor_uid, PortRole::Scalar),
                   input("attn_mask", &A::attn_mask_tensor_uid),
                   input("seq_len_q", &A::seq_len_q_tensor_uid, PortRole::Metadata),
                   input("seq_len_kv", &A::seq_len_kv_tensor_uid, PortRole::Metadata),
                   input("seed", &A::seed_tensor_uid, PortRole::Metadata),
                   input("offset", &A::offset_tensor_uid, PortRole::Metadata),
                   input("dropout_mask", &A::dropout_mask_tensor_uid),
                   input("dropout_scale", &A::dropout_scale_tensor_uid, PortRole::Scalar),
                   input("dropout_scale_inv", &A::dropout_scale_inv_tensor_uid, PortRole::Scalar),
                   output("dbias", &A::dbias_tensor_uid)};

    static void check(const Contract<A>& c) {
        const auto& a = c.attributes;
        detail::refuseUnsupported(c, {{"dropout_scale_inv", a.dropout_scale_inv_tensor_uid().has_value(),
                                       "a caller-given dropout scale"},
                                      {"dbias", a.dbias_tensor_uid().has_value(), "the bias gradient"}});
        const auto dims = detail::checkAttentionOperands(c, {"q", a.q_tensor_uid()}, {"k", a.k_tensor_uid()},
                                                         {"v", a.v_tensor_uid()}, {"o", a.o_tensor_uid()});
        detail::checkAttentionOptions(c, dims);
        c.sameDims("do", a.do_tensor_uid(), "o", a.o_tensor_uid());
        c.sameDims("dq", a.dq_tensor_uid(), "q", a.q_tensor_uid());
        c.sameDims("dk", a.dk_tensor_uid(), "k", a.k_tensor_uid());
        c.sameDims("dv", a.dv_tensor_uid(), "v", a.v_tensor_uid());
        detail::requireDims(c, "stats", a.stats_tensor_uid(), dims.statistics(),
                            "(B, Hq, Sq, 1): the forward pass's log-sum-exp per query row");
        detail::requireDataType(c, "stats", a.stats_tensor_uid(), {fb::DataType::FLOAT}, "FLOAT");
    }
};

template <class... Attributes>
struct OperationList {};

// Every operation of the schema that this version runs, in union order.
using Operations =
    OperationList<fb::BatchnormInferenceAttributes, fb::PointwiseAttributes, fb::BatchnormBackwardAttributes,
                  fb::BatchnormAttributes, fb::ConvolutionFwdAttributes, fb::ConvolutionBwdAttributes,
                  fb::ConvolutionWrwAttributes, fb::BatchnormInferenceAttributesVarianceExt,
                  fb::MatmulAttributes, fb::RMSNormAttributes, fb::LayernormAttributes, fb::SdpaAttributes,
                  fb::SdpaBackwardAttributes, fb::RMSNormBackwardAttributes, fb::ReductionAttributes,
                  fb::ResampleFwdAttributes, fb::LayernormBackwardAttributes>;

// Union members declared only so that the format's type indices stay upstream's: a graph with
// one of them is refused with a message that names it.
using FormatOnlyOperations = OperationList<fb::BlockScaleDequantizeAttributes,
                                           fb::BlockScaleQuantizeAttributes, fb::CustomOpAttributes>;

template <class... Attributes>
constexpr size_t operationCount(OperationList<Attributes...>) {
    return sizeof...(Attributes);
}

static_assert(operationCount(Operations{}) + operationCount(FormatOnlyOperations{}) ==
                  static_cast<size_t>(fb::NodeAttributes::MAX) - static_cast<size_t>(fb::NodeAttributes::MIN),
              "every member of the NodeAttributes union needs a traits block and an entry in Operations, "
              "or an entry in FormatOnlyOperations");

// True when `type` is a member of FormatOnlyOperations.
inline bool isFormatOnly(fb::NodeAttributes type) {
    return []<class... Attributes>(OperationList<Attributes...>, fb::NodeAttributes t) {
        return ((fb::NodeAttributesTraits<Attributes>::enum_value == t) || ...);
    }(FormatOnlyOperations{}, type);
}

// Calls visit(std::type_identity<Attributes>{}) for the operation whose union member is `type`;
// false when no operation has it (NONE or a value the schema does not declare).
template <class Visitor>
bool visitOperation(fb::NodeAttributes type, Visitor&& visit) {
    return [&]<class... Attributes>(OperationList<Attributes...>) {
        return ((fb::NodeAttributesTraits<Attributes>::enum_value == type
                     ? (visit(std::type_identity<Attributes>{}), true)
                     : false) ||
                ...);
    }(Operations{});
}

}  // namespace hipdnn_flatbuffers_sdk::operations
