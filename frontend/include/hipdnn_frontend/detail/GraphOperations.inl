// Graph operation methods: each names its node, wires its ports and creates virtual outputs
// named "<node>::<PORT>". Included by Graph.hpp.
#pragma once

namespace hipdnn_frontend::graph {

template <typename Attributes>
void Graph::nameNode(Attributes& attributes, std::string_view defaultPrefix) const {
    if (attributes.get_name().empty()) {
        attributes.set_name(std::string(defaultPrefix) + "_" + std::to_string(nodes_.size()));
    }
}

template <typename NodeT, typename Attributes>
void Graph::addNode(Attributes attributes, std::string_view defaultPrefix) {
    nameNode(attributes, defaultPrefix);
    nodes_.push_back(std::make_shared<NodeT>(std::move(attributes)));
    resetPlans();
}

inline TensorPtr Graph::makeOutput(const std::string& nodeName, std::string_view port) {
    auto tensor = std::make_shared<TensorAttributes>();
    tensor->set_name(nodeName + "::" + std::string(port)).set_is_virtual(true);
    return tensor;
}

inline TensorPtr Graph::conv_fprop(const TensorPtr& x, const TensorPtr& w, ConvFpropAttributes attributes) {
    using Names = ConvFpropAttributes;
    nameNode(attributes, "conv_fprop");
    attributes.inputs[Names::InputNames::X] = x;
    attributes.inputs[Names::InputNames::W] = w;
    auto y = attributes.outputs[Names::OutputNames::Y] = makeOutput(attributes.get_name(), "Y");
    addNode<ConvFpropNode>(std::move(attributes), "conv_fprop");
    return y;
}

inline TensorPtr Graph::conv_dgrad(const TensorPtr& dy, const TensorPtr& w, ConvDgradAttributes attributes) {
    using Names = ConvDgradAttributes;
    nameNode(attributes, "conv_dgrad");
    attributes.inputs[Names::InputNames::DY] = dy;
    attributes.inputs[Names::InputNames::W] = w;
    auto dx = attributes.outputs[Names::OutputNames::DX] = makeOutput(attributes.get_name(), "DX");
    addNode<ConvDgradNode>(std::move(attributes), "conv_dgrad");
    return dx;
}

inline TensorPtr Graph::conv_wgrad(const TensorPtr& dy, const TensorPtr& x, ConvWgradAttributes attributes) {
    using Names = ConvWgradAttributes;
    nameNode(attributes, "conv_wgrad");
    attributes.inputs[Names::InputNames::DY] = dy;
    attributes.inputs[Names::InputNames::X] = x;
    auto dw = attributes.outputs[Names::OutputNames::DW] = makeOutput(attributes.get_name(), "DW");
    addNode<ConvWgradNode>(std::move(attributes), "conv_wgrad");
    return dw;
}

inline std::array<TensorPtr, 5> Graph::batchnorm(const TensorPtr& x, const TensorPtr& scale,
                                                 const TensorPtr& bias, BatchnormAttributes attributes) {
    using In = BatchnormAttributes::InputNames;
    using Out = BatchnormAttributes::OutputNames;
    nameNode(attributes, "batchnorm");
    const std::string& node = attributes.get_name();
    attributes.inputs[In::X] = x;
    attributes.inputs[In::SCALE] = scale;
    attributes.inputs[In::BIAS] = bias;
    std::array<TensorPtr, 5> result{makeOutput(node, "Y"), makeOutput(node, "MEAN"),
                                    makeOutput(node, "INV_VARIANCE"), nullptr, nullptr};
    if (attributes.input(In::PREV_RUNNING_MEAN) || attributes.input(In::PREV_RUNNING_VARIANCE) ||
        attributes.input(In::MOMENTUM)) {
        result[3] = makeOutput(node, "NEXT_RUNNING_MEAN");
        result[4] = makeOutput(node, "NEXT_RUNNING_VARIANCE");
    }
    attributes.outputs[Out::Y] = result[0];
    attributes.outputs[Out::MEAN] = result[1];
    attributes.outputs[Out::INV_VARIANCE] = result[2];
    attributes.outputs[Out::NEXT_RUNNING_MEAN] = result[3];
    attributes.outputs[Out::NEXT_RUNNING_VARIANCE] = result[4];
    addNode<BatchnormNode>(std::move(attributes), "batchnorm");
    return result;
}

inline TensorPtr Graph::batchnorm_inference(const TensorPtr& x, const TensorPtr& mean,
                                            const TensorPtr& invVariance, const TensorPtr& scale,
                                            const TensorPtr& bias, BatchnormInferenceAttributes attributes) {
    using In = BatchnormInferenceAttributes::InputNames;
    nameNode(attributes, "batchnorm_inference");
    attributes.inputs[In::X] = x;
    attributes.inputs[In::MEAN] = mean;
    attributes.inputs[In::INV_VARIANCE] = invVariance;
    attributes.inputs[In::SCALE] = scale;
    attributes.inputs[In::BIAS] = bias;
    auto y = attributes.outputs[BatchnormInferenceAttributes::OutputNames::Y] =
        makeOutput(attributes.get_name(), "Y");
    addNode<BatchnormInferenceNode>(std::move(attributes), "batchnorm_inference");
    return y;
}

inline TensorPtr Graph::batchnorm_inference_variance_ext(const TensorPtr& x, const TensorPtr& mean,
                                                         const TensorPtr& variance, const TensorPtr& scale,
                                                         const TensorPtr& bias,
                                                         BatchnormInferenceVarianceAttributes attributes) {
    using In = BatchnormInferenceVarianceAttributes::InputNames;
    nameNode(attributes, "batchnorm_inference_variance");
    attributes.inputs[In::X] = x;
    attributes.inputs[In::MEAN] = mean;
    attributes.inputs[In::VARIANCE] = variance;
    attributes.inputs[In::SCALE] = scale;
    attributes.inputs[In::BIAS] = bias;
    auto y = attributes.outputs[BatchnormInferenceVarianceAttributes::OutputNames::Y] =
        makeOutput(attributes.get_name(), "Y");
    addNode<BatchnormInferenceVarianceNode>(std::move(attributes), "batchnorm_inference_variance");
    return y;
}

inline std::array<TensorPtr, 3> Graph::batchnorm_backward(const TensorPtr& dy, const TensorPtr& x,
                                                          const TensorPtr& scale,
                                                          BatchnormBackwardAttributes attributes) {
    using In = BatchnormBackwardAttributes::InputNames;
    using Out = BatchnormBackwardAttributes::OutputNames;
    nameNode(attributes, "batchnorm_backward");
    const std::string& node = attributes.get_name();
    attributes.inputs[In::DY] = dy;
    attributes.inputs[In::X] = x;
    attributes.inputs[In::SCALE] = scale;
    std::array<TensorPtr, 3> result{makeOutput(node, "DX"), makeOutput(node, "DSCALE"),
                                    makeOutput(node, "DBIAS")};
    attributes.outputs[Out::DX] = result[0];
    attributes.outputs[Out::DSCALE] = result[1];
    attributes.outputs[Out::DBIAS] = result[2];
    addNode<BatchnormBackwardNode>(std::move(attributes), "batchnorm_backward");
    return result;
}

inline TensorPtr Graph::pointwise(const TensorPtr& a, PointwiseAttributes attributes) {
    return pointwise(a, nullptr, nullptr, std::move(attributes));
}

inline TensorPtr Graph::pointwise(const TensorPtr& a, const TensorPtr& b, PointwiseAttributes attributes) {
    return pointwise(a, b, nullptr, std::move(attributes));
}

inline TensorPtr Graph::pointwise(const TensorPtr& a, const TensorPtr& b, const TensorPtr& c,
                                  PointwiseAttributes attributes) {
    using In = PointwiseAttributes::InputNames;
    nameNode(attributes, "pointwise");
    attributes.inputs[In::IN_0] = a;
    if (b) {
        attributes.inputs[In::IN_1] = b;
    }
    if (c) {
        attributes.inputs[In::IN_2] = c;
    }
    auto out = attributes.outputs[PointwiseAttributes::OutputNames::OUT_0] =
        makeOutput(attributes.get_name(), "OUT_0");
    addNode<PointwiseNode>(std::move(attributes), "pointwise");
    return out;
}

inline TensorPtr Graph::matmul(const TensorPtr& a, const TensorPtr& b, MatmulAttributes attributes) {
    nameNode(attributes, "matmul");
    attributes.inputs[MatmulAttributes::InputNames::A] = a;
    attributes.inputs[MatmulAttributes::InputNames::B] = b;
    auto c = attributes.outputs[MatmulAttributes::OutputNames::C] = makeOutput(attributes.get_name(), "C");
    addNode<MatmulNode>(std::move(attributes), "matmul");
    return c;
}

inline TensorPtr Graph::reduction(const TensorPtr& x, ReductionAttributes attributes) {
    nameNode(attributes, "reduction");
    attributes.inputs[ReductionAttributes::InputNames::X] = x;
    auto y = attributes.outputs[ReductionAttributes::OutputNames::Y] = makeOutput(attributes.get_name(), "Y");
    addNode<ReductionNode>(std::move(attributes), "reduction");
    return y;
}

inline std::array<TensorPtr, 3> Graph::layernorm(const TensorPtr& x, const TensorPtr& scale,
                                                 const TensorPtr& bias, LayernormAttributes attributes) {
    using In = LayernormAttributes::InputNames;
    using Out = LayernormAttributes::OutputNames;
    nameNode(attributes, "layernorm");
    const std::string& node = attributes.get_name();
    attributes.inputs[In::X] = x;
    attributes.inputs[In::SCALE] = scale;
    attributes.inputs[In::BIAS] = bias;
    std::array<TensorPtr, 3> result{makeOutput(node, "Y"), nullptr, nullptr};
    if (attributes.get_forward_phase() == NormFwdPhase::TRAINING) {
        result[1] = makeOutput(node, "MEAN");
        result[2] = makeOutput(node, "INV_VARIANCE");
    }
    attributes.outputs[Out::Y] = result[0];
    attributes.outputs[Out::MEAN] = result[1];
    attributes.outputs[Out::INV_VARIANCE] = result[2];
    addNode<LayernormNode>(std::move(attributes), "layernorm");
    return result;
}

inline std::array<TensorPtr, 3> Graph::layernorm_backward(const TensorPtr& dy, const TensorPtr& x,
                                                          const TensorPtr& scale,
                                                          LayernormBackwardAttributes attributes) {
    using In = LayernormBackwardAttributes::InputNames;
    using Out = LayernormBackwardAttributes::OutputNames;
    nameNode(attributes, "layernorm_backward");
    const std::string& node = attributes.get_name();
    attributes.inputs[In::DY] = dy;
    attributes.inputs[In::X] = x;
    attributes.inputs[In::SCALE] = scale;
    std::array<TensorPtr, 3> result{makeOutput(node, "DX"), makeOutput(node, "DSCALE"),
                                    makeOutput(node, "DBIAS")};
    attributes.outputs[Out::DX] = result[0];
    attributes.outputs[Out::DSCALE] = result[1];
    attributes.outputs[Out::DBIAS] = result[2];
    addNode<LayernormBackwardNode>(std::move(attributes), "layernorm_backward");
    return result;
}

inline std::array<TensorPtr, 2> Graph::rmsnorm(const TensorPtr& x, const TensorPtr& scale,
                                               RmsnormAttributes attributes) {
    using In = RmsnormAttributes::InputNames;
    using Out = RmsnormAttributes::OutputNames;
    nameNode(attributes, "rmsnorm");
    const std::string& node = attributes.get_name();
    attributes.inputs[In::X] = x;
    attributes.inputs[In::SCALE] = scale;
    std::array<TensorPtr, 2> result{makeOutput(node, "Y"), nullptr};
    if (attributes.get_forward_phase() == NormFwdPhase::TRAINING) {
        result[1] = makeOutput(node, "INV_RMS");
    }
    attributes.outputs[Out::Y] = result[0];
    attributes.outputs[Out::INV_RMS] = result[1];
    addNode<RmsnormNode>(std::move(attributes), "rmsnorm");
    return result;
}

inline std::array<TensorPtr, 3> Graph::rmsnorm_backward(const TensorPtr& dy, const TensorPtr& x,
                                                        const TensorPtr& scale, const TensorPtr& invRms,
                                                        RmsnormBackwardAttributes attributes) {
    using In = RmsnormBackwardAttributes::InputNames;
    using Out = RmsnormBackwardAttributes::OutputNames;
    nameNode(attributes, "rmsnorm_backward");
    const std::string& node = attributes.get_name();
    attributes.inputs[In::DY] = dy;
    attributes.inputs[In::X] = x;
    attributes.inputs[In::SCALE] = scale;
    attributes.inputs[In::INV_RMS] = invRms;
    std::array<TensorPtr, 3> result{makeOutput(node, "DX"), makeOutput(node, "DSCALE"),
                                    attributes.get_has_dbias() ? makeOutput(node, "DBIAS") : nullptr};
    attributes.outputs[Out::DX] = result[0];
    attributes.outputs[Out::DSCALE] = result[1];
    attributes.outputs[Out::DBIAS] = result[2];
    addNode<RmsnormBackwardNode>(std::move(attributes), "rmsnorm_backward");
    return result;
}

inline std::array<TensorPtr, 2> Graph::resample(const TensorPtr& x, ResampleAttributes attributes) {
    nameNode(attributes, "resample");
    const std::string& node = attributes.get_name();
    attributes.inputs[ResampleAttributes::InputNames::X] = x;
    std::array<TensorPtr, 2> result{makeOutput(node, "Y"), nullptr};
    if (attributes.get_generate_index()) {
        result[1] = makeOutput(node, "INDEX");
        result[1]->set_data_type(DataType::INT32);
    }
    attributes.outputs[ResampleAttributes::OutputNames::Y] = result[0];
    attributes.outputs[ResampleAttributes::OutputNames::INDEX] = result[1];
    addNode<ResampleNode>(std::move(attributes), "resample");
    return result;
}

inline std::array<TensorPtr, 2> Graph::sdpa(const TensorPtr& q, const TensorPtr& k, const TensorPtr& v,
                                            SdpaAttributes attributes) {
    using In = SdpaAttributes::InputNames;
    using Out = SdpaAttributes::OutputNames;
    nameNode(attributes, "sdpa");
    const std::string& node = attributes.get_name();
    attributes.inputs[In::Q] = q;
    attributes.inputs[In::K] = k;
    attributes.inputs[In::V] = v;
    std::array<TensorPtr, 2> result{makeOutput(node, "O"),
                                    attributes.get_generate_stats() ? makeOutput(node, "STATS") : nullptr};
    attributes.outputs[Out::O] = result[0];
    attributes.outputs[Out::STATS] = result[1];
    addNode<SdpaNode>(std::move(attributes), "sdpa");
    return result;
}

inline std::array<TensorPtr, 3> Graph::sdpa_backward(const TensorPtr& q, const TensorPtr& k,
                                                     const TensorPtr& v, const TensorPtr& o,
                                                     const TensorPtr& dO, const TensorPtr& stats,
                                                     SdpaBackwardAttributes attributes) {
    using In = SdpaBackwardAttributes::InputNames;
    using Out = SdpaBackwardAttributes::OutputNames;
    nameNode(attributes, "sdpa_backward");
    const std::string& node = attributes.get_name();
    attributes.inputs[In::Q] = q;
    attributes.inputs[In::K] = k;
    attributes.inputs[In::V] = v;
    attributes.inputs[In::O] = o;
    attributes.inputs[In::DO] = dO;
    attributes.inputs[In::STATS] = stats;
    std::array<TensorPtr, 3> result{makeOutput(node, "DQ"), makeOutput(node, "DK"), makeOutput(node, "DV")};
    attributes.outputs[Out::DQ] = result[0];
    attributes.outputs[Out::DK] = result[1];
    attributes.outputs[Out::DV] = result[2];
    addNode<SdpaBackwardNode>(std::move(attributes), "sdpa_backward");
    return result;
}

}  // namespace hipdnn_frontend::graph
