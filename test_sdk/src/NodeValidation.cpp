// Shape and mode checks per operation, run before anything executes so that a graph the
// references would reject is declined with a message naming the node, the tensor and the
// expected value.
#include "ExecutorSupport.hpp"

#include <hipdnn_test_sdk/ElementAccess.hpp>

namespace hipdnn_test_sdk::detail {

namespace {

using fb::DataType;
using fb::NodeAttributes;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::NodeWrapper;
using Reason = std::optional<std::string>;

std::vector<int64_t> toVector(const flatbuffers::Vector<int64_t>* values) {
    return values != nullptr ? std::vector<int64_t>(values->begin(), values->end()) : std::vector<int64_t>{};
}

// Helpers bound to one node so that every message starts with the node's description.
class NodeChecker {
public:
    NodeChecker(const GraphWrapper& graph, const NodeWrapper& node) : _graph(graph), _node(node) {}

    std::vector<int64_t> dims(int64_t uid) const { return dimsOf(_graph.tensor(uid)); }

    std::string fail(const std::string& port, int64_t uid, const std::string& problem) const {
        return _node.describe() + ": port " + port + " (" + tensorLabel(_graph.tensor(uid)) + ") " + problem;
    }

    std::string fail(const std::string& problem) const { return _node.describe() + ": " + problem; }

    Reason sameDims(const std::string& port, int64_t uid, const std::string& referencePort,
                    int64_t referenceUid) const {
        if (dims(uid) != dims(referenceUid)) {
            return fail(port, uid,
                        "has dims " + formatDims(dims(uid)) + " but port " + referencePort + " has " +
                            formatDims(dims(referenceUid)) + "; they must be equal");
        }
        return std::nullopt;
    }

    // Dims (1, C, 1, ...): the layout of batchnorm's per-channel tensors.
    Reason perChannel(const std::string& port, int64_t uid, int64_t channels) const {
        const auto d = dims(uid);
        bool ok = d.size() >= 2 && d[1] == channels;
        for (size_t i = 0; ok && i < d.size(); ++i) {
            ok = i == 1 || d[i] == 1;
        }
        if (!ok) {
            return fail(port, uid,
                        "has dims " + formatDims(d) + "; a per-channel tensor needs (1, " +
                            std::to_string(channels) + ", 1, ...)");
        }
        return std::nullopt;
    }

    // Every dim of `uid`, aligned from the right, equals the target's or is 1.
    Reason broadcastsTo(const std::string& port, int64_t uid, const std::vector<int64_t>& target) const {
        const auto d = dims(uid);
        bool ok = d.size() <= target.size();
        for (size_t i = 0; ok && i < d.size(); ++i) {
            const int64_t dim = d[d.size() - 1 - i];
            ok = dim == 1 || dim == target[target.size() - 1 - i];
        }
        if (!ok) {
            return fail(port, uid,
                        "has dims " + formatDims(d) + ", which do not broadcast to " + formatDims(target));
        }
        return std::nullopt;
    }

    // Dims of norm scale/bias: same rank as x, dims[0] == 1, others equal to x's or 1.
    Reason normParameter(const std::string& port, int64_t uid, const std::vector<int64_t>& x) const {
        const auto d = dims(uid);
        bool ok = d.size() == x.size() && d[0] == 1;
        for (size_t i = 1; ok && i < d.size(); ++i) {
            ok = d[i] == 1 || d[i] == x[i];
        }
        if (!ok) {
            return fail(port, uid,
                        "has dims " + formatDims(d) + "; expected (1, ...) matching x " + formatDims(x) +
                            " or 1 in each dim");
        }
        return std::nullopt;
    }

    // Dims (N, 1, ..., 1): per-row statistics of layer/RMS norm.
    Reason normStatistic(const std::string& port, int64_t uid, const std::vector<int64_t>& x) const {
        std::vector<int64_t> expected(x.size(), 1);
        expected[0] = x[0];
        if (dims(uid) != expected) {
            return fail(port, uid,
                        "has dims " + formatDims(dims(uid)) + "; expected " + formatDims(expected));
        }
        return std::nullopt;
    }

    Reason scalar(const std::string& port, int64_t uid) const {
        if (elementCountOf(dims(uid)) != 1) {
            return fail(port, uid,
                        "has dims " + formatDims(dims(uid)) + "; a scalar needs exactly one element");
        }
        return std::nullopt;
    }

    static int64_t elementCountOf(const std::vector<int64_t>& d) {
        int64_t count = 1;
        for (const int64_t v : d) {
            count *= v;
        }
        return count;
    }

private:
    const GraphWrapper& _graph;
    const NodeWrapper& _node;
};

// Reason the first check that fails gives, or nullopt.
Reason firstOf(std::initializer_list<Reason> reasons) {
    for (const auto& reason : reasons) {
        if (reason) {
            return reason;
        }
    }
    return std::nullopt;
}

// x: (N, C, spatial...), w: (K, C/groups, kernel...), y: (N, K, out...) with
// out = (in + pre + post - (dilation * (kernel - 1) + 1)) / stride + 1.
template <class Attributes>
Reason checkConvolution(const NodeChecker& check, const Attributes& a, std::pair<std::string, int64_t> x,
                        std::pair<std::string, int64_t> w, std::pair<std::string, int64_t> y) {
    const auto xDims = check.dims(x.second);
    const auto wDims = check.dims(w.second);
    const auto yDims = check.dims(y.second);
    if (xDims.size() > 5) {
        return check.fail(x.first, x.second,
                          "has rank " + std::to_string(xDims.size()) +
                              "; convolutions support 1 to 3 spatial dims (rank 3 to 5)");
    }
    if (xDims[1] % wDims[1] != 0) {
        return check.fail(w.first, w.second,
                          "has " + std::to_string(wDims[1]) +
                              " input channels per group, which does not divide " + x.first + "'s " +
                              std::to_string(xDims[1]) + " channels");
    }
    const int64_t groups = xDims[1] / wDims[1];
    if (wDims[0] % groups != 0) {
        return check.fail(w.first, w.second,
                          "has " + std::to_string(wDims[0]) + " output channels, not divisible by " +
                              std::to_string(groups) + " groups");
    }
    if (yDims[0] != xDims[0] || yDims[1] != wDims[0]) {
        return check.fail(y.first, y.second,
                          "has dims " + formatDims(yDims) + " but N must be " + std::to_string(xDims[0]) +
                              " (from " + x.first + ") and C must be " + std::to_string(wDims[0]) +
                              " (from " + w.first + ")");
    }
    const auto pre = toVector(a.pre_padding());
    const auto post = toVector(a.post_padding());
    const auto stride = toVector(a.stride());
    const auto dilation = toVector(a.dilation());
    for (size_t s = 0; s + 2 < xDims.size(); ++s) {
        const int64_t in = xDims[s + 2];
        const int64_t kernel = wDims[s + 2];
        const int64_t span = in + pre[s] + post[s] - (dilation[s] * (kernel - 1) + 1);
        const std::string formula = "(" + std::to_string(in) + " + " + std::to_string(pre[s]) + " + " +
                                    std::to_string(post[s]) + " - (" + std::to_string(dilation[s]) + " * (" +
                                    std::to_string(kernel) + " - 1) + 1)) / " + std::to_string(stride[s]) +
                                    " + 1";
        if (span < 0) {
            return check.fail(w.first, w.second,
                              "spatial dim " + std::to_string(s) +
                                  ": the dilated kernel is larger than the padded input: " + formula +
                                  " is not positive");
        }
        const int64_t expected = span / stride[s] + 1;
        if (yDims[s + 2] != expected) {
            return check.fail(y.first, y.second,
                              "has dims[" + std::to_string(s + 2) + "] = " + std::to_string(yDims[s + 2]) +
                                  " but the convolution output size is " + formula + " = " +
                                  std::to_string(expected));
        }
    }
    return std::nullopt;
}

Reason checkPeerStats(const NodeChecker& check, const flatbuffers::Vector<int64_t>* peerStats) {
    if (peerStats != nullptr && peerStats->size() > 0) {
        return check.fail(
            "unsupported mode: peer_stats (multi-device batch statistics) has no CPU reference");
    }
    return std::nullopt;
}

Reason checkBatchnormLike(const NodeChecker& check, int64_t x,
                          std::initializer_list<std::pair<const char*, std::optional<int64_t>>> perChannel) {
    const auto xDims = check.dims(x);
    if (xDims.size() < 2) {
        return check.fail("x", x,
                          "has rank " + std::to_string(xDims.size()) + "; batchnorm needs (N, C, ...)");
    }
    for (const auto& [port, uid] : perChannel) {
        if (uid) {
            if (auto reason = check.perChannel(port, *uid, xDims[1])) {
                return reason;
            }
        }
    }
    return std::nullopt;
}

std::optional<int64_t> opt(flatbuffers::Optional<int64_t> value) {
    return value.has_value() ? std::optional<int64_t>(*value) : std::nullopt;
}

Reason checkMatmul(const NodeChecker& check, const fb::MatmulAttributes& m) {
    const auto a = check.dims(m.a_tensor_uid());
    const auto b = check.dims(m.b_tensor_uid());
    const auto c = check.dims(m.c_tensor_uid());
    if (a.size() != b.size() || a.size() != c.size()) {
        return check.fail("matmul tensors must have one rank; a " + formatDims(a) + ", b " + formatDims(b) +
                          ", c " + formatDims(c));
    }
    const size_t r = a.size();
    if (a[r - 1] != b[r - 2]) {
        return check.fail("b", m.b_tensor_uid(),
                          "has K = dims[" + std::to_string(r - 2) + "] = " + std::to_string(b[r - 2]) +
                              " but a has K = " + std::to_string(a[r - 1]));
    }
    if (c[r - 2] != a[r - 2] || c[r - 1] != b[r - 1]) {
        return check.fail("c", m.c_tensor_uid(),
                          "has dims " + formatDims(c) + " but M x N must be " + std::to_string(a[r - 2]) +
                              " x " + std::to_string(b[r - 1]));
    }
    for (size_t i = 0; i + 2 < r; ++i) {
        if (c[i] % a[i] != 0 || c[i] % b[i] != 0) {
            return check.fail("c", m.c_tensor_uid(),
                              "batch dim " + std::to_string(i) + " = " + std::to_string(c[i]) +
                                  " is not a multiple of a's " + std::to_string(a[i]) + " and b's " +
                                  std::to_string(b[i]));
        }
    }
    return std::nullopt;
}

Reason checkReduction(const NodeChecker& check, const fb::ReductionAttributes& r) {
    const auto in = check.dims(r.in_tensor_uid());
    const auto out = check.dims(r.out_tensor_uid());
    bool ok = in.size() == out.size();
    for (size_t i = 0; ok && i < in.size(); ++i) {
        ok = out[i] == in[i] || out[i] == 1;
    }
    if (!ok) {
        return check.fail("out", r.out_tensor_uid(),
                          "has dims " + formatDims(out) + "; each must equal in's " + formatDims(in) +
                              " or be 1 (reduced)");
    }
    return std::nullopt;
}

Reason checkResample(const NodeChecker& check, const fb::ResampleFwdAttributes& r) {
    using Mode = fb::ResampleMode;
    const Mode mode = r.resample_mode();
    if (mode != Mode::MAXPOOL && mode != Mode::AVGPOOL_EXCLUDE_PADDING &&
        mode != Mode::AVGPOOL_INCLUDE_PADDING) {
        return check.fail(
            std::string("unsupported mode: resample_mode ") + fb::EnumNameResampleMode(mode) +
            " (the CPU reference implements MAXPOOL, AVGPOOL_EXCLUDE_PADDING and AVGPOOL_INCLUDE_PADDING)");
    }
    const auto x = check.dims(r.x_tensor_uid());
    const auto y = check.dims(r.y_tensor_uid());
    if (x.size() > 5) {
        return check.fail("x", r.x_tensor_uid(),
                          "has rank " + std::to_string(x.size()) + "; pooling supports rank 3 to 5");
    }
    if (y[0] != x[0] || y[1] != x[1]) {
        return check.fail("y", r.y_tensor_uid(),
                          "has dims " + formatDims(y) + " but N and C must match x " + formatDims(x));
    }
    const auto pre = toVector(r.pre_padding());
    const auto post = toVector(r.post_padding());
    const auto stride = toVector(r.stride());
    const auto window = toVector(r.window());
    for (size_t s = 0; s + 2 < x.size(); ++s) {
        const int64_t span = x[s + 2] + pre[s] + post[s] - window[s];
        const std::string formula = "(" + std::to_string(x[s + 2]) + " + " + std::to_string(pre[s]) + " + " +
                                    std::to_string(post[s]) + " - " + std::to_string(window[s]) + ") / " +
                                    std::to_string(stride[s]) + " + 1";
        if (span < 0 || y[s + 2] != span / stride[s] + 1) {
            return check.fail("y", r.y_tensor_uid(),
                              "has dims[" + std::to_string(s + 2) + "] = " + std::to_string(y[s + 2]) +
                                  " but the pooling output size is " + formula +
                                  (span < 0 ? " (window larger than the padded input)"
                                            : " = " + std::to_string(span / stride[s] + 1)));
        }
    }
    if (r.index_tensor_uid().has_value()) {
        const int64_t index = *r.index_tensor_uid();
        if (mode != Mode::MAXPOOL) {
            return check.fail("index", index, "is set, but only MAXPOOL produces indices");
        }
        if (check.dims(index) != y) {
            return check.fail("index", index,
                              "has dims " + formatDims(check.dims(index)) + " but y has " + formatDims(y));
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> validateNode(const GraphWrapper& graph, const NodeWrapper& node) {
    const NodeChecker check(graph, node);
    switch (node.type()) {
        case NodeAttributes::ConvolutionFwdAttributes: {
            const auto& a = *node.attributesAs<fb::ConvolutionFwdAttributes>();
            return checkConvolution(check, a, {"x", a.x_tensor_uid()}, {"w", a.w_tensor_uid()},
                                    {"y", a.y_tensor_uid()});
        }
        case NodeAttributes::ConvolutionBwdAttributes: {
            const auto& a = *node.attributesAs<fb::ConvolutionBwdAttributes>();
            return checkConvolution(check, a, {"dx", a.dx_tensor_uid()}, {"w", a.w_tensor_uid()},
                                    {"dy", a.dy_tensor_uid()});
        }
        case NodeAttributes::ConvolutionWrwAttributes: {
            const auto& a = *node.attributesAs<fb::ConvolutionWrwAttributes>();
            return checkConvolution(check, a, {"x", a.x_tensor_uid()}, {"dw", a.dw_tensor_uid()},
                                    {"dy", a.dy_tensor_uid()});
        }
        case NodeAttributes::BatchnormInferenceAttributes: {
            const auto& a = *node.attributesAs<fb::BatchnormInferenceAttributes>();
            return firstOf({check.sameDims("y", a.y_tensor_uid(), "x", a.x_tensor_uid()),
                            checkBatchnormLike(check, a.x_tensor_uid(),
                                               {{"mean", a.mean_tensor_uid()},
                                                {"inv_variance", a.inv_variance_tensor_uid()},
                                                {"scale", a.scale_tensor_uid()},
                                                {"bias", a.bias_tensor_uid()}})});
        }
        case NodeAttributes::BatchnormInferenceVarianceExtAttributes: {
            const auto& a = *node.attributesAs<fb::BatchnormInferenceVarianceExtAttributes>();
            return firstOf({check.sameDims("y", a.y_tensor_uid(), "x", a.x_tensor_uid()),
                            check.scalar("epsilon", a.epsilon_tensor_uid()),
                            checkBatchnormLike(check, a.x_tensor_uid(),
                                               {{"mean", a.mean_tensor_uid()},
                                                {"variance", a.variance_tensor_uid()},
                                                {"scale", a.scale_tensor_uid()},
                                                {"bias", a.bias_tensor_uid()}})});
        }
        case NodeAttributes::BatchnormAttributes: {
            const auto& a = *node.attributesAs<fb::BatchnormAttributes>();
            return firstOf(
                {checkPeerStats(check, a.peer_stats_tensor_uid()),
                 check.sameDims("y", a.y_tensor_uid(), "x", a.x_tensor_uid()),
                 check.scalar("epsilon", a.epsilon_tensor_uid()),
                 a.momentum_tensor_uid().has_value() ? check.scalar("momentum", *a.momentum_tensor_uid())
                                                     : std::nullopt,
                 checkBatchnormLike(check, a.x_tensor_uid(),
                                    {{"scale", a.scale_tensor_uid()},
                                     {"bias", a.bias_tensor_uid()},
                                     {"mean", opt(a.mean_tensor_uid())},
                                     {"inv_variance", opt(a.inv_variance_tensor_uid())},
                                     {"prev_running_mean", opt(a.prev_running_mean_tensor_uid())},
                                     {"prev_running_variance", opt(a.prev_running_variance_tensor_uid())},
                                     {"next_running_mean", opt(a.next_running_mean_tensor_uid())},
                                     {"next_running_variance", opt(a.next_running_variance_tensor_uid())}})});
        }
        case NodeAttributes::BatchnormBackwardAttributes: {
            const auto& a = *node.attributesAs<fb::BatchnormBackwardAttributes>();
            return firstOf({checkPeerStats(check, a.peer_stats_tensor_uid()),
                            check.sameDims("dy", a.dy_tensor_uid(), "x", a.x_tensor_uid()),
                            check.sameDims("dx", a.dx_tensor_uid(), "x", a.x_tensor_uid()),
                            a.epsilon_tensor_uid().has_value()
                                ? check.scalar("epsilon", *a.epsilon_tensor_uid())
                                : std::nullopt,
                            checkBatchnormLike(check, a.x_tensor_uid(),
                                               {{"scale", a.scale_tensor_uid()},
                                                {"mean", opt(a.mean_tensor_uid())},
                                                {"inv_variance", opt(a.inv_variance_tensor_uid())},
                                                {"dscale", a.dscale_tensor_uid()},
                                                {"dbias", a.dbias_tensor_uid()}})});
        }
        case NodeAttributes::PointwiseAttributes: {
            const auto& a = *node.attributesAs<fb::PointwiseAttributes>();
            const auto out = check.dims(a.out_0_tensor_uid());
            if (a.operation() == fb::PointwiseMode::GEN_INDEX &&
                (*a.axis() < 0 || *a.axis() >= static_cast<int64_t>(out.size()))) {
                return check.fail("GEN_INDEX axis " + std::to_string(*a.axis()) + " is outside 0.." +
                                  std::to_string(out.size() - 1));
            }
            return firstOf(
                {check.broadcastsTo("in_0", a.in_0_tensor_uid(), out),
                 a.in_1_tensor_uid().has_value() ? check.broadcastsTo("in_1", *a.in_1_tensor_uid(), out)
                                                 : std::nullopt,
                 a.in_2_tensor_uid().has_value() ? check.broadcastsTo("in_2", *a.in_2_tensor_uid(), out)
                                                 : std::nullopt});
        }
        case NodeAttributes::MatmulAttributes:
            return checkMatmul(check, *node.attributesAs<fb::MatmulAttributes>());
        case NodeAttributes::ReductionAttributes:
            return checkReduction(check, *node.attributesAs<fb::ReductionAttributes>());
        case NodeAttributes::LayernormAttributes: {
            const auto& a = *node.attributesAs<fb::LayernormAttributes>();
            const auto x = check.dims(a.x_tensor_uid());
            return firstOf(
                {check.sameDims("y", a.y_tensor_uid(), "x", a.x_tensor_uid()),
                 check.scalar("epsilon", a.epsilon_tensor_uid()),
                 check.normParameter("scale", a.scale_tensor_uid(), x),
                 check.normParameter("bias", a.bias_tensor_uid(), x),
                 a.mean_tensor_uid().has_value() ? check.normStatistic("mean", *a.mean_tensor_uid(), x)
                                                 : std::nullopt,
                 a.inv_variance_tensor_uid().has_value()
                     ? check.normStatistic("inv_variance", *a.inv_variance_tensor_uid(), x)
                     : std::nullopt,
                 a.mean_tensor_uid().has_value() != a.inv_variance_tensor_uid().has_value()
                     ? std::optional<std::string>(check.fail("mean and inv_variance must be given together"))
                     : std::nullopt});
        }
        case NodeAttributes::RMSNormAttributes: {
            const auto& a = *node.attributesAs<fb::RMSNormAttributes>();
            const auto x = check.dims(a.x_tensor_uid());
            return firstOf({check.sameDims("y", a.y_tensor_uid(), "x", a.x_tensor_uid()),
                            check.scalar("epsilon", a.epsilon_tensor_uid()),
                            check.normParameter("scale", a.scale_tensor_uid(), x),
                            a.bias_tensor_uid().has_value()
                                ? check.normParameter("bias", *a.bias_tensor_uid(), x)
                                : std::nullopt,
                            a.inv_rms_tensor_uid().has_value()
                                ? check.normStatistic("inv_rms", *a.inv_rms_tensor_uid(), x)
                                : std::nullopt});
        }
        case NodeAttributes::RMSNormBackwardAttributes: {
            const auto& a = *node.attributesAs<fb::RMSNormBackwardAttributes>();
            const auto x = check.dims(a.x_tensor_uid());
            return firstOf({check.sameDims("dy", a.dy_tensor_uid(), "x", a.x_tensor_uid()),
                            check.sameDims("dx", a.dx_tensor_uid(), "x", a.x_tensor_uid()),
                            check.normParameter("scale", a.scale_tensor_uid(), x),
                            check.normStatistic("inv_rms", a.inv_rms_tensor_uid(), x),
                            check.sameDims("dscale", a.dscale_tensor_uid(), "scale", a.scale_tensor_uid()),
                            a.dbias_tensor_uid().has_value() ? check.sameDims("dbias", *a.dbias_tensor_uid(),
                                                                              "scale", a.scale_tensor_uid())
                                                             : std::nullopt});
        }
        case NodeAttributes::ResampleFwdAttributes:
            return checkResample(check, *node.attributesAs<fb::ResampleFwdAttributes>());
        default:
            return check.fail("unsupported operation");
    }
}

}  // namespace hipdnn_test_sdk::detail
