// hipdnn.Graph and hipdnn.Tensor over hipdnn_frontend::graph::Graph, with cudnn-frontend's Python
// names and keywords.
#include <array>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unordered_map.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <hipdnn_frontend/Graph.hpp>

#include "Binding.hpp"

namespace hipdnn_python {

namespace {

namespace fe = hipdnn_frontend;
namespace feg = hipdnn_frontend::graph;
using feg::TensorAttributes;
using feg::TensorPtr;
using Dims = std::optional<std::vector<int64_t>>;
using Engine = std::variant<int64_t, std::string>;

std::vector<int64_t> packedStrides(const std::vector<int64_t>& dims) {
    std::vector<int64_t> strides(dims.size(), 1);
    for (size_t axis = dims.size(); axis > 1; --axis) {
        strides[axis - 2] = strides[axis - 1] * dims[axis - 1];
    }
    return strides;
}

float number(nb::handle value, const char* what) {
    float result = 0.0F;
    if (!nb::try_cast(value, result)) {
        throwInvalidValue(std::string(what) + " must be a number or a Tensor, not " +
                          nb::cast<std::string>(nb::repr(value)));
    }
    return result;
}

// A Python float/int or a Tensor, as a graph tensor (a pass-by-value scalar for numbers).
TensorPtr scalarTensor(nb::handle value, const char* what) {
    if (nb::isinstance<TensorAttributes>(value)) {
        return nb::cast<TensorPtr>(value);
    }
    return std::make_shared<TensorAttributes>(number(value, what));
}

class PyGraph {
public:
    PyGraph(nb::handle ioType, nb::handle intermediateType, nb::handle computeType, const std::string& name,
            nb::handle handle) {
        graph_.set_name(name);
        if (!ioType.is_none()) {
            graph_.set_io_data_type(toDataType(ioType));
        }
        if (!intermediateType.is_none()) {
            graph_.set_intermediate_data_type(toDataType(intermediateType));
        }
        if (!computeType.is_none()) {
            graph_.set_compute_data_type(toDataType(computeType));
        }
        if (!handle.is_none()) {
            handle_ = nb::borrow(handle);
        }
    }

    feg::Graph& graph() { return graph_; }

    // The handle passed now (remembered for later calls), else the one remembered.
    Handle& handle(nb::handle given) {
        if (!given.is_none()) {
            handle_ = nb::borrow(given);
        }
        if (!handle_.is_valid()) {
            throw BackendError(
                fe::to_string(fe::ErrorCode::INVALID_STATE),
                "graph '" + graph_.get_name() + "' needs a handle: pass handle= here or to Graph()");
        }
        return nb::cast<Handle&>(handle_);
    }

    TensorPtr track(TensorPtr tensor) {
        if (tensor) {
            tensors_.push_back(tensor);
        }
        return tensor;
    }
    // A graph input made here: execute only reads it, so read-only arrays may back it.
    TensorPtr trackInput(TensorPtr tensor) {
        readOnlyAllowed_.insert(tensor.get());
        return track(std::move(tensor));
    }
    [[nodiscard]] bool isInput(const TensorPtr& tensor) const {
        return readOnlyAllowed_.count(tensor.get()) != 0;
    }
    template <size_t N>
    nb::tuple track(const std::array<TensorPtr, N>& outputs) {
        nb::list result;
        for (const auto& tensor : outputs) {
            result.append(nb::cast(track(tensor)));
        }
        return nb::tuple(result);
    }

    TensorPtr tensorWithUid(int64_t uid) const {
        for (const auto& tensor : tensors_) {
            if (tensor->has_uid() && tensor->get_uid() == uid) {
                return tensor;
            }
        }
        throwInvalidValue("graph '" + graph_.get_name() + "' has no tensor with uid " + std::to_string(uid));
    }

    void forgetTensors() {
        tensors_.clear();
        readOnlyAllowed_.clear();
    }

private:
    feg::Graph graph_;
    nb::object handle_;
    // Every tensor made through this graph or returned by it, for uid lookups in execute.
    std::vector<TensorPtr> tensors_;
    std::unordered_set<const TensorAttributes*> readOnlyAllowed_;
};

template <typename Attributes>
Attributes common(nb::handle computeType, const std::string& name) {
    Attributes attributes;
    attributes.set_name(name);
    if (!computeType.is_none()) {
        attributes.set_compute_data_type(toDataType(computeType));
    }
    return attributes;
}

template <typename Attributes>
Attributes convolution(const Dims& padding, const Dims& prePadding, const Dims& postPadding,
                       const Dims& stride, const Dims& dilation, std::optional<fe::ConvolutionMode> mode,
                       nb::handle computeType, const std::string& name) {
    auto attributes = common<Attributes>(computeType, name);
    if (padding) {
        attributes.set_padding(*padding);
    }
    if (prePadding) {
        attributes.set_pre_padding(*prePadding);
    }
    if (postPadding) {
        attributes.set_post_padding(*postPadding);
    }
    if (stride) {
        attributes.set_stride(*stride);
    }
    if (dilation) {
        attributes.set_dilation(*dilation);
    }
    if (mode) {
        attributes.set_convolution_mode(*mode);
    }
    return attributes;
}

#define HIPDNN_CONV_ARGS                                                                                    \
    nb::arg("padding") = nb::none(), nb::arg("pre_padding") = nb::none(),                                   \
    nb::arg("post_padding") = nb::none(), nb::arg("stride") = nb::none(), nb::arg("dilation") = nb::none(), \
    nb::arg("convolution_mode") = nb::none(), nb::arg("compute_data_type") = nb::none(),                    \
    nb::arg("name") = ""

template <typename Attributes>
void applySdpaOptions(Attributes& attributes, nb::handle attnScale, bool causal, bool causalBottomRight,
                      std::optional<fe::DiagonalAlignment> alignment, const TensorPtr& bias, bool paddingMask,
                      const TensorPtr& seqLenQ, const TensorPtr& seqLenKv, nb::handle dropout) {
    if (!attnScale.is_none()) {
        if (nb::isinstance<TensorAttributes>(attnScale)) {
            attributes.set_attn_scale(nb::cast<TensorPtr>(attnScale));
        } else {
            attributes.set_attn_scale(number(attnScale, "attn_scale"));
        }
    }
    attributes.set_causal_mask(causal).set_causal_mask_bottom_right(causalBottomRight);
    if (alignment) {
        attributes.set_diagonal_alignment(*alignment);
    }
    if (bias) {
        attributes.set_bias(bias);
    }
    attributes.set_padding_mask(paddingMask);
    if (seqLenQ) {
        attributes.set_seq_len_q(seqLenQ);
    }
    if (seqLenKv) {
        attributes.set_seq_len_kv(seqLenKv);
    }
    if (!dropout.is_none()) {
        std::tuple<float, TensorPtr, TensorPtr> settings;
        if (!nb::try_cast(dropout, settings)) {
            throwInvalidValue("dropout must be (probability, seed Tensor, offset Tensor)");
        }
        attributes.set_dropout(std::get<0>(settings), std::get<1>(settings), std::get<2>(settings));
    }
}

#define HIPDNN_SDPA_ARGS                                                                                  \
    nb::arg("attn_scale") = nb::none(), nb::arg("use_causal_mask") = false,                               \
    nb::arg("use_causal_mask_bottom_right") = false, nb::arg("diagonal_alignment") = nb::none(),          \
    nb::arg("bias") = nb::none(), nb::arg("use_padding_mask") = false, nb::arg("seq_len_q") = nb::none(), \
    nb::arg("seq_len_kv") = nb::none(), nb::arg("dropout") = nb::none(),                                  \
    nb::arg("compute_data_type") = nb::none(), nb::arg("name") = ""

struct PointwiseOp {
    const char* name;
    fe::PointwiseMode mode;
};

constexpr PointwiseOp kUnaryOps[] = {
    {"abs", fe::PointwiseMode::ABS},
    {"ceil", fe::PointwiseMode::CEIL},
    {"floor", fe::PointwiseMode::FLOOR},
    {"erf", fe::PointwiseMode::ERF},
    {"exp", fe::PointwiseMode::EXP},
    {"log", fe::PointwiseMode::LOG},
    {"neg", fe::PointwiseMode::NEG},
    {"reciprocal", fe::PointwiseMode::RECIPROCAL},
    {"rsqrt", fe::PointwiseMode::RSQRT},
    {"sqrt", fe::PointwiseMode::SQRT},
    {"sin", fe::PointwiseMode::SIN},
    {"cos", fe::PointwiseMode::COS},
    {"tan", fe::PointwiseMode::TAN},
    {"sigmoid", fe::PointwiseMode::SIGMOID_FWD},
    {"tanh", fe::PointwiseMode::TANH_FWD},
    {"gelu", fe::PointwiseMode::GELU_FWD},
    {"gelu_approx_tanh", fe::PointwiseMode::GELU_APPROX_TANH_FWD},
    {"identity", fe::PointwiseMode::IDENTITY},
    {"logical_not", fe::PointwiseMode::LOGICAL_NOT},
};

constexpr PointwiseOp kBinaryOps[] = {
    {"add", fe::PointwiseMode::ADD},
    {"sub", fe::PointwiseMode::SUB},
    {"mul", fe::PointwiseMode::MUL},
    {"div", fe::PointwiseMode::DIV},
    {"max", fe::PointwiseMode::MAX},
    {"min", fe::PointwiseMode::MIN},
    {"pow", fe::PointwiseMode::POW},
    {"mod", fe::PointwiseMode::MOD},
    {"add_square", fe::PointwiseMode::ADD_SQUARE},
    {"cmp_eq", fe::PointwiseMode::CMP_EQ},
    {"cmp_neq", fe::PointwiseMode::CMP_NEQ},
    {"cmp_gt", fe::PointwiseMode::CMP_GT},
    {"cmp_ge", fe::PointwiseMode::CMP_GE},
    {"cmp_lt", fe::PointwiseMode::CMP_LT},
    {"cmp_le", fe::PointwiseMode::CMP_LE},
    {"logical_and", fe::PointwiseMode::LOGICAL_AND},
    {"logical_or", fe::PointwiseMode::LOGICAL_OR},
};

// Gradients of activations: (loss, input) as cudnn-frontend orders them.
constexpr PointwiseOp kBackwardOps[] = {
    {"relu_backward", fe::PointwiseMode::RELU_BWD},
    {"sigmoid_backward", fe::PointwiseMode::SIGMOID_BWD},
    {"tanh_backward", fe::PointwiseMode::TANH_BWD},
    {"gelu_backward", fe::PointwiseMode::GELU_BWD},
    {"gelu_approx_tanh_backward", fe::PointwiseMode::GELU_APPROX_TANH_BWD},
    {"elu_backward", fe::PointwiseMode::ELU_BWD},
    {"softplus_backward", fe::PointwiseMode::SOFTPLUS_BWD},
    {"swish_backward", fe::PointwiseMode::SWISH_BWD},
};

feg::PointwiseAttributes pointwiseAttributes(fe::PointwiseMode mode, nb::handle computeType,
                                             const std::string& name) {
    auto attributes = common<feg::PointwiseAttributes>(computeType, name);
    attributes.set_mode(mode);
    return attributes;
}

void bindPointwise(nb::class_<PyGraph>& graph) {
    for (const auto& op : kUnaryOps) {
        const fe::PointwiseMode mode = op.mode;
        graph.def(
            op.name,
            [mode](PyGraph& self, const TensorPtr& input, nb::handle computeType, const std::string& name) {
                return self.track(
                    self.graph().pointwise(input, pointwiseAttributes(mode, computeType, name)));
            },
            nb::arg("input"), nb::arg("compute_data_type") = nb::none(), nb::arg("name") = "");
    }
    for (const auto& op : kBinaryOps) {
        const fe::PointwiseMode mode = op.mode;
        graph.def(
            op.name,
            [mode](PyGraph& self, const TensorPtr& a, const TensorPtr& b, nb::handle computeType,
                   const std::string& name) {
                return self.track(self.graph().pointwise(a, b, pointwiseAttributes(mode, computeType, name)));
            },
            nb::arg("a"), nb::arg("b"), nb::arg("compute_data_type") = nb::none(), nb::arg("name") = "");
    }
    for (const auto& op : kBackwardOps) {
        const fe::PointwiseMode mode = op.mode;
        graph.def(
            op.name,
            [mode](PyGraph& self, const TensorPtr& loss, const TensorPtr& input, nb::handle computeType,
                   const std::string& name) {
                return self.track(
                    self.graph().pointwise(loss, input, pointwiseAttributes(mode, computeType, name)));
            },
            nb::arg("loss"), nb::arg("input"), nb::arg("compute_data_type") = nb::none(),
            nb::arg("name") = "");
    }
    graph.def(
        "relu",
        [](PyGraph& self, const TensorPtr& input, std::optional<float> negativeSlope,
           std::optional<float> lowerClip, std::optional<float> upperClip, nb::handle computeType,
           const std::string& name) {
            auto attributes = pointwiseAttributes(fe::PointwiseMode::RELU_FWD, computeType, name);
            if (negativeSlope) {
                attributes.set_relu_lower_clip_slope(*negativeSlope);
            }
            if (lowerClip) {
                attributes.set_relu_lower_clip(*lowerClip);
            }
            if (upperClip) {
                attributes.set_relu_upper_clip(*upperClip);
            }
            return self.track(self.graph().pointwise(input, attributes));
        },
        nb::arg("input"), nb::arg("negative_slope") = nb::none(), nb::arg("lower_clip") = nb::none(),
        nb::arg("upper_clip") = nb::none(), nb::arg("compute_data_type") = nb::none(), nb::arg("name") = "");
    graph.def(
        "elu",
        [](PyGraph& self, const TensorPtr& input, float alpha, nb::handle computeType,
           const std::string& name) {
            auto attributes = pointwiseAttributes(fe::PointwiseMode::ELU_FWD, computeType, name);
            attributes.set_elu_alpha(alpha);
            return self.track(self.graph().pointwise(input, attributes));
        },
        nb::arg("input"), nb::arg("alpha") = 1.0F, nb::arg("compute_data_type") = nb::none(),
        nb::arg("name") = "");
    graph.def(
        "softplus",
        [](PyGraph& self, const TensorPtr& input, float beta, nb::handle computeType,
           const std::string& name) {
            auto attributes = pointwiseAttributes(fe::PointwiseMode::SOFTPLUS_FWD, computeType, name);
            attributes.set_softplus_beta(beta);
            return self.track(self.graph().pointwise(input, attributes));
        },
        nb::arg("input"), nb::arg("beta") = 1.0F, nb::arg("compute_data_type") = nb::none(),
        nb::arg("name") = "");
    graph.def(
        "swish",
        [](PyGraph& self, const TensorPtr& input, float beta, nb::handle computeType,
           const std::string& name) {
            auto attributes = pointwiseAttributes(fe::PointwiseMode::SWISH_FWD, computeType, name);
            attributes.set_swish_beta(beta);
            return self.track(self.graph().pointwise(input, attributes));
        },
        nb::arg("input"), nb::arg("swish_beta") = 1.0F, nb::arg("compute_data_type") = nb::none(),
        nb::arg("name") = "");
    graph.def(
        "binary_select",
        [](PyGraph& self, const TensorPtr& input0, const TensorPtr& input1, const TensorPtr& mask,
           nb::handle computeType, const std::string& name) {
            return self.track(self.graph().pointwise(
                input0, input1, mask,
                pointwiseAttributes(fe::PointwiseMode::BINARY_SELECT, computeType, name)));
        },
        nb::arg("input0"), nb::arg("input1"), nb::arg("mask"), nb::arg("compute_data_type") = nb::none(),
        nb::arg("name") = "");
    graph.def(
        "pointwise",
        [](PyGraph& self, fe::PointwiseMode mode, const TensorPtr& input0, const TensorPtr& input1,
           const TensorPtr& input2, std::optional<int64_t> axis, nb::handle computeType,
           const std::string& name) {
            auto attributes = pointwiseAttributes(mode, computeType, name);
            if (axis) {
                attributes.set_axis(*axis);
            }
            if (input2) {
                return self.track(self.graph().pointwise(input0, input1, input2, attributes));
            }
            if (input1) {
                return self.track(self.graph().pointwise(input0, input1, attributes));
            }
            return self.track(self.graph().pointwise(input0, attributes));
        },
        nb::arg("mode"), nb::arg("input0"), nb::arg("input1").none() = nb::none(),
        nb::arg("input2").none() = nb::none(), nb::arg("axis") = nb::none(),
        nb::arg("compute_data_type") = nb::none(), nb::arg("name") = "",
        "Any pointwise mode with one to three inputs.");
}

void bindOperations(nb::class_<PyGraph>& graph) {
    graph.def(
        "conv_fprop",
        [](PyGraph& self, const TensorPtr& image, const TensorPtr& weight, const Dims& padding,
           const Dims& pre, const Dims& post, const Dims& stride, const Dims& dilation,
           std::optional<fe::ConvolutionMode> mode, nb::handle computeType, const std::string& name) {
            return self.track(
                self.graph().conv_fprop(image, weight,
                                        convolution<feg::ConvFpropAttributes>(
                                            padding, pre, post, stride, dilation, mode, computeType, name)));
        },
        nb::arg("image"), nb::arg("weight"), HIPDNN_CONV_ARGS);
    graph.def(
        "conv_dgrad",
        [](PyGraph& self, const TensorPtr& loss, const TensorPtr& filter, const Dims& padding,
           const Dims& pre, const Dims& post, const Dims& stride, const Dims& dilation,
           std::optional<fe::ConvolutionMode> mode, nb::handle computeType, const std::string& name) {
            return self.track(
                self.graph().conv_dgrad(loss, filter,
                                        convolution<feg::ConvDgradAttributes>(
                                            padding, pre, post, stride, dilation, mode, computeType, name)));
        },
        nb::arg("loss"), nb::arg("filter"), HIPDNN_CONV_ARGS);
    graph.def(
        "conv_wgrad",
        [](PyGraph& self, const TensorPtr& image, const TensorPtr& loss, const Dims& padding, const Dims& pre,
           const Dims& post, const Dims& stride, const Dims& dilation,
           std::optional<fe::ConvolutionMode> mode, nb::handle computeType, const std::string& name) {
            return self.track(
                self.graph().conv_wgrad(loss, image,
                                        convolution<feg::ConvWgradAttributes>(
                                            padding, pre, post, stride, dilation, mode, computeType, name)));
        },
        nb::arg("image"), nb::arg("loss"), HIPDNN_CONV_ARGS);
    graph.def(
        "matmul",
        [](PyGraph& self, const TensorPtr& a, const TensorPtr& b, nb::handle computeType,
           const std::string& name) {
            return self.track(self.graph().matmul(a, b, common<feg::MatmulAttributes>(computeType, name)));
        },
        nb::arg("A"), nb::arg("B"), nb::arg("compute_data_type") = nb::none(), nb::arg("name") = "");
    graph.def(
        "batchnorm",
        [](PyGraph& self, const TensorPtr& input, const TensorPtr& scale, const TensorPtr& bias,
           nb::handle epsilon, const TensorPtr& runningMean, const TensorPtr& runningVar, nb::handle momentum,
           const std::vector<TensorPtr>& peerStats, nb::handle computeType, const std::string& name) {
            auto attributes = common<feg::BatchnormAttributes>(computeType, name);
            attributes.set_epsilon(scalarTensor(epsilon, "epsilon"));
            if (runningMean || runningVar) {
                attributes.set_previous_running_stats(runningMean, runningVar,
                                                      scalarTensor(momentum, "momentum"));
            }
            if (!peerStats.empty()) {
                attributes.set_peer_stats(peerStats);
            }
            return self.track(self.graph().batchnorm(input, scale, bias, attributes));
        },
        nb::arg("input"), nb::arg("scale"), nb::arg("bias"), nb::arg("epsilon"),
        nb::arg("in_running_mean").none() = nb::none(), nb::arg("in_running_var").none() = nb::none(),
        nb::arg("momentum") = 0.1F, nb::arg("peer_stats") = std::vector<TensorPtr>{},
        nb::arg("compute_data_type") = nb::none(), nb::arg("name") = "",
        "Training batch norm: (Y, mean, inv_variance, next_running_mean, next_running_var).");
    graph.def(
        "batchnorm_inference",
        [](PyGraph& self, const TensorPtr& input, const TensorPtr& mean, const TensorPtr& invVariance,
           const TensorPtr& scale, const TensorPtr& bias, nb::handle computeType, const std::string& name) {
            return self.track(self.graph().batchnorm_inference(
                input, mean, invVariance, scale, bias,
                common<feg::BatchnormInferenceAttributes>(computeType, name)));
        },
        nb::arg("input"), nb::arg("mean"), nb::arg("inv_variance"), nb::arg("scale"), nb::arg("bias"),
        nb::arg("compute_data_type") = nb::none(), nb::arg("name") = "");
    graph.def(
        "batchnorm_backward",
        [](PyGraph& self, const TensorPtr& grad, const TensorPtr& input, const TensorPtr& scale,
           const TensorPtr& mean, const TensorPtr& invVariance, nb::handle epsilon,
           const std::vector<TensorPtr>& peerStats, nb::handle computeType, const std::string& name) {
            auto attributes = common<feg::BatchnormBackwardAttributes>(computeType, name);
            if (mean || invVariance) {
                attributes.set_saved_mean_and_inv_variance(mean, invVariance);
            }
            if (!epsilon.is_none()) {
                attributes.set_epsilon(scalarTensor(epsilon, "epsilon"));
            }
            if (!peerStats.empty()) {
                attributes.set_peer_stats(peerStats);
            }
            return self.track(self.graph().batchnorm_backward(grad, input, scale, attributes));
        },
        nb::arg("grad"), nb::arg("input"), nb::arg("scale"), nb::arg("mean").none() = nb::none(),
        nb::arg("inv_variance").none() = nb::none(), nb::arg("epsilon") = nb::none(),
        nb::arg("peer_stats") = std::vector<TensorPtr>{}, nb::arg("compute_data_type") = nb::none(),
        nb::arg("name") = "", "(DX, DSCALE, DBIAS).");
    graph.def(
        "layernorm",
        [](PyGraph& self, const TensorPtr& input, const TensorPtr& scale, const TensorPtr& bias,
           nb::handle epsilon, fe::NormFwdPhase phase, std::optional<int64_t> normalizedDims,
           nb::handle computeType, const std::string& name) {
            auto attributes = common<feg::LayernormAttributes>(computeType, name);
            attributes.set_forward_phase(phase).set_epsilon(scalarTensor(epsilon, "epsilon"));
            if (normalizedDims) {
                attributes.set_normalized_dim_count(*normalizedDims);
            }
            return self.track(self.graph().layernorm(input, scale, bias, attributes));
        },
        nb::arg("input"), nb::arg("scale"), nb::arg("bias"), nb::arg("epsilon"),
        nb::arg("norm_forward_phase") = fe::NormFwdPhase::INFERENCE,
        nb::arg("normalized_dim_count") = nb::none(), nb::arg("compute_data_type") = nb::none(),
        nb::arg("name") = "", "(Y, mean, inv_variance); the statistics are None in the INFERENCE phase.");
    graph.def(
        "layernorm_backward",
        [](PyGraph& self, const TensorPtr& grad, const TensorPtr& input, const TensorPtr& scale,
           const TensorPtr& mean, const TensorPtr& invVariance, std::optional<int64_t> normalizedDims,
           nb::handle computeType, const std::string& name) {
            auto attributes = common<feg::LayernormBackwardAttributes>(computeType, name);
            attributes.set_saved_mean_and_inv_variance(mean, invVariance);
            if (normalizedDims) {
                attributes.set_normalized_dim_count(*normalizedDims);
            }
            return self.track(self.graph().layernorm_backward(grad, input, scale, attributes));
        },
        nb::arg("grad"), nb::arg("input"), nb::arg("scale"), nb::arg("mean"), nb::arg("inv_variance"),
        nb::arg("normalized_dim_count") = nb::none(), nb::arg("compute_data_type") = nb::none(),
        nb::arg("name") = "", "(DX, DSCALE, DBIAS).");
    graph.def(
        "rmsnorm",
        [](PyGraph& self, const TensorPtr& input, const TensorPtr& scale, const TensorPtr& bias,
           nb::handle epsilon, fe::NormFwdPhase phase, nb::handle computeType, const std::string& name) {
            auto attributes = common<feg::RmsnormAttributes>(computeType, name);
            attributes.set_forward_phase(phase).set_epsilon(scalarTensor(epsilon, "epsilon"));
            if (bias) {
                attributes.set_bias(bias);
            }
            return self.track(self.graph().rmsnorm(input, scale, attributes));
        },
        nb::arg("input"), nb::arg("scale"), nb::arg("bias").none() = nb::none(), nb::arg("epsilon") = 1e-5F,
        nb::arg("norm_forward_phase") = fe::NormFwdPhase::INFERENCE,
        nb::arg("compute_data_type") = nb::none(), nb::arg("name") = "",
        "(Y, inv_rms); inv_rms is None in the INFERENCE phase.");
    graph.def(
        "rmsnorm_backward",
        [](PyGraph& self, const TensorPtr& grad, const TensorPtr& input, const TensorPtr& scale,
           const TensorPtr& invRms, bool hasDbias, nb::handle computeType, const std::string& name) {
            auto attributes = common<feg::RmsnormBackwardAttributes>(computeType, name);
            attributes.has_dbias(hasDbias);
            return self.track(self.graph().rmsnorm_backward(grad, input, scale, invRms, attributes));
        },
        nb::arg("grad"), nb::arg("input"), nb::arg("scale"), nb::arg("inv_rms"), nb::arg("has_dbias") = false,
        nb::arg("compute_data_type") = nb::none(), nb::arg("name") = "", "(DX, DSCALE, DBIAS).");
    graph.def(
        "reduction",
        [](PyGraph& self, const TensorPtr& input, fe::ReductionMode mode, nb::handle computeType,
           const std::string& name) {
            auto attributes = common<feg::ReductionAttributes>(computeType, name);
            attributes.set_mode(mode);
            return self.track(self.graph().reduction(input, attributes));
        },
        nb::arg("input"), nb::arg("mode"), nb::arg("compute_data_type") = nb::none(), nb::arg("name") = "",
        "Set the output's dims (set_dim): the dims of extent 1 are the reduced ones.");
    graph.def(
        "resample",
        [](PyGraph& self, const TensorPtr& input, fe::ResampleMode mode, fe::PaddingMode paddingMode,
           const std::vector<int64_t>& window, const Dims& stride, const Dims& prePadding,
           const Dims& postPadding, bool generateIndex, nb::handle computeType, const std::string& name) {
            auto attributes = common<feg::ResampleAttributes>(computeType, name);
            attributes.set_resampling_mode(mode).set_padding_mode(paddingMode).set_window(window);
            if (stride) {
                attributes.set_stride(*stride);
            }
            if (prePadding) {
                attributes.set_pre_padding(*prePadding);
            }
            if (postPadding) {
                attributes.set_post_padding(*postPadding);
            }
            attributes.set_generate_index(generateIndex);
            return self.track(self.graph().resample(input, attributes));
        },
        nb::arg("input"), nb::arg("mode"), nb::arg("padding_mode") = fe::PaddingMode::ZERO_PAD,
        nb::arg("window"), nb::arg("stride") = nb::none(), nb::arg("pre_padding") = nb::none(),
        nb::arg("post_padding") = nb::none(), nb::arg("generate_index") = false,
        nb::arg("compute_data_type") = nb::none(), nb::arg("name") = "",
        "Pooling: (Y, index); index is None unless generate_index.");
    graph.def(
        "sdpa",
        [](PyGraph& self, const TensorPtr& q, const TensorPtr& k, const TensorPtr& v, nb::handle attnScale,
           bool causal, bool causalBottomRight, std::optional<fe::DiagonalAlignment> alignment,
           const TensorPtr& bias, bool paddingMask, const TensorPtr& seqLenQ, const TensorPtr& seqLenKv,
           nb::handle dropout, nb::handle computeType, const std::string& name,
           std::optional<bool> isInference, std::optional<bool> generateStats) {
            auto attributes = common<feg::SdpaAttributes>(computeType, name);
            applySdpaOptions(attributes, attnScale, causal, causalBottomRight, alignment, bias, paddingMask,
                             seqLenQ, seqLenKv, dropout);
            if (isInference && generateStats && *isInference == *generateStats) {
                throwInvalidValue("sdpa: is_inference and generate_stats contradict each other");
            }
            attributes.set_generate_stats(generateStats.value_or(!isInference.value_or(true)));
            return self.track(self.graph().sdpa(q, k, v, attributes));
        },
        nb::arg("q"), nb::arg("k"), nb::arg("v"), HIPDNN_SDPA_ARGS, nb::arg("is_inference") = nb::none(),
        nb::arg("generate_stats") = nb::none(),
        "Attention: (O, stats); stats (B, H, Sq, 1, FLOAT) is None unless generate_stats.");
    graph.def(
        "sdpa_backward",
        [](PyGraph& self, const TensorPtr& q, const TensorPtr& k, const TensorPtr& v, const TensorPtr& o,
           const TensorPtr& dO, const TensorPtr& stats, nb::handle attnScale, bool causal,
           bool causalBottomRight, std::optional<fe::DiagonalAlignment> alignment, const TensorPtr& bias,
           bool paddingMask, const TensorPtr& seqLenQ, const TensorPtr& seqLenKv, nb::handle dropout,
           nb::handle computeType, const std::string& name) {
            auto attributes = common<feg::SdpaBackwardAttributes>(computeType, name);
            applySdpaOptions(attributes, attnScale, causal, causalBottomRight, alignment, bias, paddingMask,
                             seqLenQ, seqLenKv, dropout);
            return self.track(self.graph().sdpa_backward(q, k, v, o, dO, stats, attributes));
        },
        nb::arg("q"), nb::arg("k"), nb::arg("v"), nb::arg("o"), nb::arg("dO"), nb::arg("stats"),
        HIPDNN_SDPA_ARGS, "(dQ, dK, dV).");
}

// The variant pack's arrays as the frontend takes them, each checked against its tensor and the
// handle's device.
std::unordered_map<int64_t, void*> variantPointers(PyGraph& self, const nb::dict& variantPack,
                                                   const Handle& handle) {
    std::unordered_map<int64_t, void*> pointers;
    for (auto [key, value] : variantPack) {
        const TensorPtr tensor = nb::isinstance<TensorAttributes>(key)
                                     ? nb::cast<TensorPtr>(key)
                                     : self.tensorWithUid(nb::cast<int64_t>(key));
        if (!tensor->has_uid()) {
            throw BackendError(
                fe::to_string(fe::ErrorCode::INVALID_STATE),
                "tensor '" + tensor->get_name() + "' has no uid: build the graph before execute");
        }
        // One DLPack import per array (each costs a call into the array's library): writable first,
        // read-only only where that is the reason it failed.
        nb::ndarray<> array;
        if (!importArray(value, array)) {
            nb::ndarray<nb::ro> readable;
            if (!nb::try_cast(value, readable)) {
                throwInvalidValue("the value for tensor '" + tensor->get_name() +
                                  "' is no DLPack array (NumPy, torch, CuPy, ...)");
            }
            if (!self.isInput(tensor)) {
                throwInvalidValue("tensor '" + tensor->get_name() +
                                  "' may be written, but its array is read-only");
            }
            array = nb::ndarray<>(readable);
        }
        pointers[tensor->get_uid()] = checkedData(*tensor, array, handle.device());
    }
    return pointers;
}

// The workspace array's data, or null; it must hold `bytes`.
void* workspaceData(nb::handle workspace, int64_t bytes) {
    if (workspace.is_none()) {
        return nullptr;
    }
    nb::ndarray<> array;
    if (!importArray(workspace, array)) {
        throwInvalidValue("the workspace is no DLPack array");
    }
    if (static_cast<int64_t>(array.nbytes()) < bytes) {
        throwInvalidValue("the plan needs " + std::to_string(bytes) + " bytes of workspace, the array has " +
                          std::to_string(array.nbytes()));
    }
    return array.data();
}

void execute(PyGraph& self, const nb::dict& variantPack, nb::handle workspace, nb::handle handleArg) {
    Handle& handle = self.handle(handleArg);
    std::unordered_map<int64_t, void*> pointers = variantPointers(self, variantPack, handle);
    const int64_t workspaceSize = self.graph().get_workspace_size();
    void* workspacePointer = workspaceData(workspace, workspaceSize);
    nb::object lentWorkspace;
    const bool onGpu = handle.device().type == HIPDNN_DEVICE_TYPE_GPU_EXT;
    if (workspace.is_none() && onGpu && workspaceSize > 0) {
        // CPU plans borrow host memory themselves; device memory comes from torch's allocator.
        nb::object torch = nb::module_::import_("torch");
        lentWorkspace =
            torch.attr("empty")(workspaceSize, nb::arg("dtype") = torch.attr("uint8"),
                                nb::arg("device") = "cuda:" + std::to_string(handle.device().ordinal));
        workspacePointer = reinterpret_cast<void*>(nb::cast<uintptr_t>(lentWorkspace.attr("data_ptr")()));
    }
    if (onGpu) {
        handle.followTorchStream();
    }
    const hipdnnHandle_t raw = handle.get();
    fe::Error error;
    {
        nb::gil_scoped_release released;
        error = self.graph().execute(raw, pointers, workspacePointer);
    }
    throwIfBad(error);
}

// Graph::autotune: the workspace, when given, must hold the largest candidate's (without one, on
// the CPU, each plan borrows its own).
void autotune(PyGraph& self, const nb::dict& variantPack, nb::handle workspace, nb::handle handleArg) {
    Handle& handle = self.handle(handleArg);
    std::unordered_map<int64_t, void*> pointers = variantPointers(self, variantPack, handle);
    void* workspacePointer = workspaceData(workspace, 0);
    const hipdnnHandle_t raw = handle.get();
    fe::Error error;
    {
        nb::gil_scoped_release released;
        error = self.graph().autotune(raw, pointers, workspacePointer);
    }
    throwIfBad(error);
}

std::vector<fe::KnobSetting> knobSettings(const std::unordered_map<std::string, fe::KnobValue>& knobs) {
    std::vector<fe::KnobSetting> settings;
    for (const auto& [id, value] : knobs) {
        settings.push_back({id, value});
    }
    return settings;
}

nb::dict knobAsDict(const fe::Knob& knob) {
    nb::dict result;
    result["id"] = knob.id;
    result["description"] = knob.description;
    result["default"] = knob.defaultValue;
    result["deprecated"] = knob.deprecated;
    return result;
}

void bindTensor(nb::module_& module) {
    nb::class_<TensorAttributes>(module, "Tensor")
        .def_prop_ro("name", &TensorAttributes::get_name)
        .def_prop_ro("uid",
                     [](const TensorAttributes& t) -> std::optional<int64_t> {
                         return t.has_uid() ? std::optional<int64_t>(t.get_uid()) : std::nullopt;
                     })
        .def_prop_ro("dim", &TensorAttributes::get_dim)
        .def_prop_ro("stride", &TensorAttributes::get_stride)
        .def_prop_ro("data_type", &TensorAttributes::get_data_type)
        .def_prop_ro("is_virtual", &TensorAttributes::get_is_virtual)
        .def("get_name", &TensorAttributes::get_name)
        .def("get_uid", &TensorAttributes::get_uid)
        .def("get_dim", &TensorAttributes::get_dim)
        .def("get_stride", &TensorAttributes::get_stride)
        .def("get_data_type", &TensorAttributes::get_data_type)
        .def("get_is_virtual", &TensorAttributes::get_is_virtual)
        .def(
            "set_output",
            [](TensorAttributes& t, bool isOutput) -> TensorAttributes& { return t.set_output(isOutput); },
            nb::arg("is_output") = true, nb::rv_policy::reference,
            "Makes a node output a graph output that execute writes into a caller's array.")
        .def(
            "set_name",
            [](TensorAttributes& t, std::string name) -> TensorAttributes& { return t.set_name(name); },
            nb::rv_policy::reference)
        .def(
            "set_uid", [](TensorAttributes& t, int64_t uid) -> TensorAttributes& { return t.set_uid(uid); },
            nb::rv_policy::reference)
        .def(
            "set_dim",
            [](TensorAttributes& t, std::vector<int64_t> dims) -> TensorAttributes& {
                return t.set_dim(dims);
            },
            nb::rv_policy::reference)
        .def(
            "set_stride",
            [](TensorAttributes& t, std::vector<int64_t> strides) -> TensorAttributes& {
                return t.set_stride(strides);
            },
            nb::rv_policy::reference)
        .def(
            "set_data_type",
            [](TensorAttributes& t, nb::handle type) -> TensorAttributes& {
                return t.set_data_type(toDataType(type));
            },
            nb::rv_policy::reference)
        .def("__repr__", [](const TensorAttributes& t) {
            std::string text = "hipdnn.Tensor(name='" + t.get_name() + "', dim=[";
            for (size_t axis = 0; axis < t.get_dim().size(); ++axis) {
                text += (axis == 0 ? "" : ", ") + std::to_string(t.get_dim()[axis]);
            }
            return text + "], data_type=" + fe::to_string(t.get_data_type()) + ")";
        });

    nb::class_<fe::DeclinedEngine>(module, "DeclinedEngine")
        .def_ro("engine_name", &fe::DeclinedEngine::engine_name)
        .def_ro("plugin_name", &fe::DeclinedEngine::plugin_name)
        .def_ro("reason", &fe::DeclinedEngine::reason)
        .def("__repr__", [](const fe::DeclinedEngine& engine) {
            return "DeclinedEngine('" + engine.engine_name + "', '" + engine.plugin_name +
                   "': " + engine.reason + ")";
        });
}

}  // namespace

void bindGraph(nb::module_& module) {
    bindTensor(module);
    auto graph = nb::class_<PyGraph>(module, "Graph");
    graph.def(nb::init<nb::handle, nb::handle, nb::handle, const std::string&, nb::handle>(),
              nb::arg("io_data_type") = nb::none(), nb::arg("intermediate_data_type") = nb::none(),
              nb::arg("compute_data_type") = nb::none(), nb::arg("name") = "",
              nb::arg("handle") = nb::none());
    graph.def_prop_ro("name", [](PyGraph& self) { return self.graph().get_name(); });
    graph.def(
        "tensor",
        [](PyGraph& self, const std::string& name, const std::vector<int64_t>& dim, const Dims& stride,
           nb::handle dataType, std::optional<int64_t> uid, bool isVirtual) {
            TensorAttributes attributes;
            attributes.set_name(name).set_dim(dim).set_stride(stride.value_or(packedStrides(dim)));
            attributes.set_is_virtual(isVirtual);
            if (!dataType.is_none()) {
                attributes.set_data_type(toDataType(dataType));
            }
            if (uid) {
                attributes.set_uid(*uid);
            }
            return self.trackInput(self.graph().tensor(attributes));
        },
        nb::arg("name") = "", nb::arg("dim"), nb::arg("stride") = nb::none(),
        nb::arg("data_type") = nb::none(), nb::arg("uid") = nb::none(), nb::arg("is_virtual") = false,
        "A graph input (strides default to packed row-major).");
    graph.def(
        "tensor_like",
        [](PyGraph& self, nb::handle like, const std::string& name) {
            if (nb::isinstance<TensorAttributes>(like)) {
                return self.trackInput(self.graph().tensor_like(nb::cast<TensorPtr>(like), name));
            }
            nb::ndarray<> array;
            if (!nb::try_cast(like, array)) {
                throwInvalidValue("tensor_like takes a Tensor or a DLPack array (NumPy, torch, CuPy, ...)");
            }
            const fe::DataType type = dataTypeOf(array.dtype());
            if (type == fe::DataType::NOT_SET) {
                throwInvalidValue("tensor_like: the array's element type has no hipdnn data type");
            }
            std::vector<int64_t> dims;
            std::vector<int64_t> strides;
            for (size_t axis = 0; axis < array.ndim(); ++axis) {
                dims.push_back(static_cast<int64_t>(array.shape(axis)));
                strides.push_back(array.stride(axis));
            }
            TensorAttributes attributes;
            attributes.set_name(name).set_dim(dims).set_stride(strides).set_data_type(type);
            return self.trackInput(self.graph().tensor(attributes));
        },
        nb::arg("like"), nb::arg("name") = "", "A graph input with the dims, strides and type of an array.");
    bindOperations(graph);
    bindPointwise(graph);

    graph.def("validate", [](PyGraph& self) { throwIfBad(self.graph().validate()); });
    graph.def(
        "build_operation_graph",
        [](PyGraph& self, nb::handle handle) {
            throwIfBad(self.graph().build_operation_graph(self.handle(handle).get()));
        },
        nb::arg("handle") = nb::none());
    graph.def(
        "create_execution_plans",
        [](PyGraph& self, const std::vector<fe::HeuristicMode>& modes) {
            throwIfBad(self.graph().create_execution_plans(modes));
        },
        nb::arg("heur_modes") = std::vector<fe::HeuristicMode>{fe::HeuristicMode::FALLBACK});
    graph.def(
        "create_execution_plan",
        [](PyGraph& self, const Engine& engine, const std::unordered_map<std::string, fe::KnobValue>& knobs) {
            const auto settings = knobSettings(knobs);
            throwIfBad(std::visit(
                [&](const auto& id) { return self.graph().create_execution_plan_ext(id, settings); },
                engine));
        },
        nb::arg("engine"), nb::arg("knobs") = std::unordered_map<std::string, fe::KnobValue>{},
        "One plan on one engine (id or name) with knob settings {knob_id: value}.");
    // cudnn-frontend passes the handle again to these two; the graph keeps build_operation_graph's.
    graph.def(
        "check_support", [](PyGraph& self, nb::handle) { throwIfBad(self.graph().check_support()); },
        nb::arg("handle") = nb::none());
    graph.def(
        "build_plans",
        [](PyGraph& self, fe::BuildPlanPolicy policy, nb::handle) {
            throwIfBad(self.graph().build_plans(policy));
        },
        nb::arg("policy") = fe::BuildPlanPolicy::HEURISTICS_CHOICE, nb::arg("handle") = nb::none());
    graph.def(
        "build",
        [](PyGraph& self, nb::handle handle, const std::vector<fe::HeuristicMode>& modes,
           fe::BuildPlanPolicy policy) {
            throwIfBad(self.graph().build(self.handle(handle).get(), modes, policy));
        },
        nb::arg("handle") = nb::none(),
        nb::arg("heur_modes") = std::vector<fe::HeuristicMode>{fe::HeuristicMode::FALLBACK},
        nb::arg("policy") = fe::BuildPlanPolicy::HEURISTICS_CHOICE,
        "validate, build_operation_graph, create_execution_plans, check_support and build_plans.");
    graph.def("get_workspace_size", [](PyGraph& self) {
        int64_t size = 0;
        throwIfBad(self.graph().get_workspace_size(size));
        return size;
    });
    graph.def("execute", &execute, nb::arg("variant_pack"), nb::arg("workspace") = nb::none(),
              nb::arg("handle") = nb::none(),
              "Runs the built plan on {Tensor or uid: array}; arrays are used in place (DLPack).");
    graph.def(
        "autotune", &autotune, nb::arg("variant_pack"), nb::arg("workspace") = nb::none(),
        nb::arg("handle") = nb::none(),
        "Times every candidate plan on {Tensor or uid: array} (CPU handles), keeps the fastest as the "
        "graph's plan and records it in the tuning database (HIPDNN_CACHE_DIR); outputs are overwritten.");
    graph.def("get_execution_plan_count",
              [](PyGraph& self) { return self.graph().get_execution_plan_count(); });
    graph.def(
        "build_plan_at_index",
        [](PyGraph& self, int64_t index) { throwIfBad(self.graph().build_plan_at_index(index)); },
        nb::arg("index"));
    graph.def("get_plan_name", [](PyGraph& self) {
        std::string name;
        throwIfBad(self.graph().get_plan_name(name));
        return name;
    });
    graph.def(
        "get_plan_name_at_index",
        [](PyGraph& self, int64_t index) {
            std::string name;
            throwIfBad(self.graph().get_plan_name_at_index(index, name));
            return name;
        },
        nb::arg("index"));
    graph.def(
        "deselect_engines",
        [](PyGraph& self, const std::vector<std::string>& names) {
            throwIfBad(self.graph().deselect_engines(names));
        },
        nb::arg("engine_names"));
    graph.def(
        "deselect_workspace_greater_than",
        [](PyGraph& self, int64_t bytes) { throwIfBad(self.graph().deselect_workspace_greater_than(bytes)); },
        nb::arg("bytes"));
    graph.def(
        "get_knobs_for_engine",
        [](PyGraph& self, const Engine& engine) {
            std::vector<fe::Knob> knobs;
            throwIfBad(std::visit(
                [&](const auto& id) { return self.graph().get_knobs_for_engine(id, knobs); }, engine));
            nb::list result;
            for (const auto& knob : knobs) {
                result.append(knobAsDict(knob));
            }
            return result;
        },
        nb::arg("engine"),
        "The knobs an engine (id or name) publishes: [{id, description, default, deprecated}].");
    graph.def(
        "get_declined_engines", [](PyGraph& self) { return self.graph().get_declined_engines(); },
        "Engines that declined the graph in the last create_execution_plans, with their reasons.");
    graph.def(
        "set_preferred_engine",
        [](PyGraph& self, const Engine& engine) {
            std::visit([&](const auto& id) { self.graph().set_preferred_engine_id_ext(id); }, engine);
        },
        nb::arg("engine"));
    graph.def(
        "serialize",
        [](PyGraph& self, bool json) -> nb::object {
            if (json) {
                std::string text;
                throwIfBad(self.graph().serialize(text));
                return nb::str(text.c_str(), text.size());
            }
            std::vector<uint8_t> bytes;
            throwIfBad(self.graph().serialize(bytes));
            return nb::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        },
        nb::arg("json") = false, "The graph as FlatBuffers bytes, or as JSON text with json=True.");
    graph.def(
        "deserialize",
        [](PyGraph& self, nb::handle data, nb::handle handle) {
            const hipdnnHandle_t raw = self.handle(handle).get();
            if (nb::isinstance<nb::str>(data)) {
                throwIfBad(self.graph().deserialize(raw, nb::cast<std::string>(data)));
            } else {
                const auto bytes = nb::cast<nb::bytes>(data);
                const auto* begin = static_cast<const uint8_t*>(bytes.data());
                throwIfBad(self.graph().deserialize(raw, std::vector<uint8_t>(begin, begin + bytes.size())));
            }
            self.forgetTensors();
            for (const auto& [name, tensor] : self.graph().getTensorsByName()) {
                self.track(tensor);
            }
        },
        nb::arg("data"), nb::arg("handle") = nb::none(),
        "Rebuilds the graph from serialize()'s bytes or JSON and builds its operation graph.");
    graph.def(
        "tensors", [](PyGraph& self) { return self.graph().getTensorsByName(); },
        "The graph's named tensors by name (deserialized graphs keep their names).");
    graph.def(
        "key", [](PyGraph& self) { return self.graph().key(); },
        "A stable hash of the graph's structure, shapes and types, for plan caches.");
}

}  // namespace hipdnn_python
