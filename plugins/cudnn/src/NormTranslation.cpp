// Normalizations. Batch norm inference is pointwise arithmetic over per-channel tensors
// ((x - mean) * inv_variance * scale + bias), which cuDNN fuses; training, backward, layer norm
// and RMS norm map to CUDNN_BACKEND_OPERATION_NORM_FORWARD/BACKWARD_DESCRIPTOR.
#include "GraphTranslator.hpp"

namespace hipdnn_cudnn_plugin {

namespace {

void addMode(OperationSpec& operation, cudnnBackendAttributeName_t name, cudnnBackendNormMode_t mode) {
    operation.attributes.push_back(Attribute::scalar(name, CUDNN_TYPE_NORM_MODE, mode));
}

void addPhase(OperationSpec& operation, cudnnBackendNormFwdPhase_t phase) {
    operation.attributes.push_back(
        Attribute::scalar(CUDNN_ATTR_OPERATION_NORM_FWD_PHASE, CUDNN_TYPE_NORM_FWD_PHASE, phase));
}

void addPort(TranslationContext& context, OperationSpec& operation, cudnnBackendAttributeName_t attribute,
             int64_t uid, const char* port) {
    operation.ports.push_back({attribute, {context.tensor(uid, port)}});
}

// (x - mean) * invVariance * scale + bias, every step a fused pointwise operation.
void addNormalizeScaleShift(TranslationContext& context, int64_t x, int64_t mean, int64_t invVariance,
                            int64_t scale, int64_t bias, int64_t y) {
    const int64_t centered = context.addVirtualLike(x, "centered");
    addPointwiseOperation(context, CUDNN_POINTWISE_SUB, "SUB (x - mean)", x, mean, centered);
    const int64_t normalized = context.addVirtualLike(x, "normalized");
    addPointwiseOperation(context, CUDNN_POINTWISE_MUL, "MUL (* inv_variance)", centered, invVariance,
                          normalized);
    const int64_t scaled = context.addVirtualLike(x, "scaled");
    addPointwiseOperation(context, CUDNN_POINTWISE_MUL, "MUL (* scale)", normalized, scale, scaled);
    addPointwiseOperation(context, CUDNN_POINTWISE_ADD, "ADD (+ bias)", scaled, bias, y);
}

void requireNoPeerStats(TranslationContext& context, const flatbuffers::Vector<int64_t>* peerStats) {
    if (peerStats != nullptr && peerStats->size() > 0) {
        context.fail("peer statistics (multi-GPU batch norm) are not mapped to cuDNN");
    }
}

// cuDNN's layer and RMS norms take the normalized dims from the scale's shape, where hipdnn
// normalizes every dim but the first and broadcasts the scale and bias: only full parameters
// (every dim but the first equal to x's) mean the same to both.
void requireFullParameter(TranslationContext& context, int64_t x, const std::optional<int64_t>& parameter,
                          const char* port) {
    if (!parameter) {
        return;
    }
    const std::vector<int64_t>& xDims = context.tensorSpec(x).dims;
    const std::vector<int64_t>& dims = context.tensorSpec(context.tensor(*parameter, port)).dims;
    for (size_t d = 1; d < xDims.size() && d < dims.size(); ++d) {
        if (dims[d] != xDims[d]) {
            context.fail(std::string(port) + " broadcast along dim " + std::to_string(d) + " (extent " +
                         std::to_string(dims[d]) + ", x has " + std::to_string(xDims[d]) +
                         "): cuDNN would normalize over the " + port + "'s dims only");
        }
    }
}

// A norm backward from the saved mean and inv_variance (present: the callers check), batch or
// layer norm: the same ports, the mode apart.
template <class Attributes>
void addNormBackward(TranslationContext& context, const Attributes& attributes, cudnnBackendNormMode_t mode,
                     const char* label) {
    OperationSpec& operation = context.addOperation(CUDNN_BACKEND_OPERATION_NORM_BACKWARD_DESCRIPTOR, label);
    addMode(operation, CUDNN_ATTR_OPERATION_NORM_BWD_MODE, mode);
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_DYDESC, attributes.dy_tensor_uid(), "dy");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_XDESC, attributes.x_tensor_uid(), "x");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_MEAN_DESC, *attributes.mean_tensor_uid(),
            "mean");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_INV_VARIANCE_DESC,
            *attributes.inv_variance_tensor_uid(), "inv_variance");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_SCALE_DESC, attributes.scale_tensor_uid(),
            "scale");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_DXDESC, attributes.dx_tensor_uid(), "dx");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_DSCALE_DESC, attributes.dscale_tensor_uid(),
            "dscale");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_DBIAS_DESC, attributes.dbias_tensor_uid(),
            "dbias");
}

}  // namespace

void translateBatchnormInference(TranslationContext& context,
                                 const fb::BatchnormInferenceAttributes& attributes) {
    addNormalizeScaleShift(context, context.tensor(attributes.x_tensor_uid(), "x"),
                           context.tensor(attributes.mean_tensor_uid(), "mean"),
                           context.tensor(attributes.inv_variance_tensor_uid(), "inv_variance"),
                           context.tensor(attributes.scale_tensor_uid(), "scale"),
                           context.tensor(attributes.bias_tensor_uid(), "bias"),
                           context.tensor(attributes.y_tensor_uid(), "y"));
}

void translateBatchnormInferenceVariance(TranslationContext& context,
                                         const fb::BatchnormInferenceAttributesVarianceExt& attributes) {
    const int64_t variance = context.tensor(attributes.variance_tensor_uid(), "variance");
    const int64_t epsilon = context.tensor(attributes.epsilon_tensor_uid(), "epsilon");
    const int64_t shifted = context.addVirtualLike(variance, "variance_plus_epsilon");
    addPointwiseOperation(context, CUDNN_POINTWISE_ADD, "ADD (variance + epsilon)", variance, epsilon,
                          shifted);
    const int64_t invVariance = context.addVirtualLike(variance, "inv_variance");
    addPointwiseOperation(context, CUDNN_POINTWISE_RSQRT, "RSQRT", shifted, std::nullopt, invVariance);
    addNormalizeScaleShift(context, context.tensor(attributes.x_tensor_uid(), "x"),
                           context.tensor(attributes.mean_tensor_uid(), "mean"), invVariance,
                           context.tensor(attributes.scale_tensor_uid(), "scale"),
                           context.tensor(attributes.bias_tensor_uid(), "bias"),
                           context.tensor(attributes.y_tensor_uid(), "y"));
}

void translateBatchnormTraining(TranslationContext& context, const fb::BatchnormAttributes& attributes) {
    requireNoPeerStats(context, attributes.peer_stats_tensor_uid());
    if (!attributes.mean_tensor_uid() || !attributes.inv_variance_tensor_uid()) {
        context.fail("cuDNN batch norm training needs the saved mean and inv_variance outputs");
    }
    OperationSpec& operation = context.addOperation(CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR,
                                                    "NORM_FORWARD BATCH_NORM TRAINING");
    addMode(operation, CUDNN_ATTR_OPERATION_NORM_FWD_MODE, CUDNN_BATCH_NORM);
    addPhase(operation, CUDNN_NORM_FWD_TRAINING);
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_XDESC, attributes.x_tensor_uid(), "x");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_SCALE_DESC, attributes.scale_tensor_uid(),
            "scale");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_BIAS_DESC, attributes.bias_tensor_uid(),
            "bias");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_EPSILON_DESC, attributes.epsilon_tensor_uid(),
            "epsilon");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_YDESC, attributes.y_tensor_uid(), "y");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_MEAN_DESC, *attributes.mean_tensor_uid(),
            "mean");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_INV_VARIANCE_DESC,
            *attributes.inv_variance_tensor_uid(), "inv_variance");
    const bool running = attributes.prev_running_mean_tensor_uid() &&
                         attributes.prev_running_variance_tensor_uid() && attributes.momentum_tensor_uid() &&
                         attributes.next_running_mean_tensor_uid() &&
                         attributes.next_running_variance_tensor_uid();
    if (running) {
        addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_EXP_AVG_FACTOR_DESC,
                *attributes.momentum_tensor_uid(), "momentum");
        addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_INPUT_RUNNING_MEAN_DESC,
                *attributes.prev_running_mean_tensor_uid(), "prev_running_mean");
        addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_INPUT_RUNNING_VAR_DESC,
                *attributes.prev_running_variance_tensor_uid(), "prev_running_variance");
        addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_OUTPUT_RUNNING_MEAN_DESC,
                *attributes.next_running_mean_tensor_uid(), "next_running_mean");
        addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_OUTPUT_RUNNING_VAR_DESC,
                *attributes.next_running_variance_tensor_uid(), "next_running_variance");
    }
}

void translateBatchnormBackward(TranslationContext& context,
                                const fb::BatchnormBackwardAttributes& attributes) {
    requireNoPeerStats(context, attributes.peer_stats_tensor_uid());
    if (!attributes.mean_tensor_uid() || !attributes.inv_variance_tensor_uid()) {
        context.fail(
            "cuDNN batch norm backward needs the saved mean and inv_variance (recomputing them is not "
            "mapped)");
    }
    addNormBackward(context, attributes, CUDNN_BATCH_NORM, "NORM_BACKWARD BATCH_NORM");
}

void translateLayernorm(TranslationContext& context, const fb::LayernormAttributes& attributes) {
    const bool training = attributes.forward_phase() == fb::NormFwdPhase::TRAINING;
    if (training && (!attributes.mean_tensor_uid() || !attributes.inv_variance_tensor_uid())) {
        context.fail("layer norm training needs the mean and inv_variance outputs");
    }
    requireFullParameter(context, attributes.x_tensor_uid(), attributes.scale_tensor_uid(), "scale");
    requireFullParameter(context, attributes.x_tensor_uid(), attributes.bias_tensor_uid(), "bias");
    OperationSpec& operation =
        context.addOperation(CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR,
                             std::string("NORM_FORWARD LAYER_NORM ") + (training ? "TRAINING" : "INFERENCE"));
    addMode(operation, CUDNN_ATTR_OPERATION_NORM_FWD_MODE, CUDNN_LAYER_NORM);
    addPhase(operation, training ? CUDNN_NORM_FWD_TRAINING : CUDNN_NORM_FWD_INFERENCE);
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_XDESC, attributes.x_tensor_uid(), "x");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_SCALE_DESC, attributes.scale_tensor_uid(),
            "scale");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_BIAS_DESC, attributes.bias_tensor_uid(),
            "bias");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_EPSILON_DESC, attributes.epsilon_tensor_uid(),
            "epsilon");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_YDESC, attributes.y_tensor_uid(), "y");
    if (training) {
        addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_MEAN_DESC, *attributes.mean_tensor_uid(),
                "mean");
        addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_INV_VARIANCE_DESC,
                *attributes.inv_variance_tensor_uid(), "inv_variance");
    }
}

void translateLayernormBackward(TranslationContext& context,
                                const fb::LayernormBackwardAttributes& attributes) {
    requireFullParameter(context, attributes.x_tensor_uid(), attributes.scale_tensor_uid(), "scale");
    // The operation contract requires the saved statistics; epsilon only recomputes them.
    addNormBackward(context, attributes, CUDNN_LAYER_NORM, "NORM_BACKWARD LAYER_NORM");
}

void translateRmsNorm(TranslationContext& context, const fb::RMSNormAttributes& attributes) {
    const bool training = attributes.forward_phase() == fb::NormFwdPhase::TRAINING;
    if (training && !attributes.inv_rms_tensor_uid()) {
        context.fail("RMS norm training needs the inv_rms output");
    }
    requireFullParameter(context, attributes.x_tensor_uid(), attributes.scale_tensor_uid(), "scale");
    requireFullParameter(context, attributes.x_tensor_uid(), attributes.bias_tensor_uid(), "bias");
    OperationSpec& operation =
        context.addOperation(CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR,
                             std::string("NORM_FORWARD RMS_NORM ") + (training ? "TRAINING" : "INFERENCE"));
    addMode(operation, CUDNN_ATTR_OPERATION_NORM_FWD_MODE, CUDNN_RMS_NORM);
    addPhase(operation, training ? CUDNN_NORM_FWD_TRAINING : CUDNN_NORM_FWD_INFERENCE);
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_XDESC, attributes.x_tensor_uid(), "x");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_SCALE_DESC, attributes.scale_tensor_uid(),
            "scale");
    if (attributes.bias_tensor_uid()) {
        addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_BIAS_DESC, *attributes.bias_tensor_uid(),
                "bias");
    }
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_EPSILON_DESC, attributes.epsilon_tensor_uid(),
            "epsilon");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_YDESC, attributes.y_tensor_uid(), "y");
    if (training) {
        addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_FWD_INV_VARIANCE_DESC,
                *attributes.inv_rms_tensor_uid(), "inv_rms");
    }
}

void translateRmsNormBackward(TranslationContext& context, const fb::RMSNormBackwardAttributes& attributes) {
    requireFullParameter(context, attributes.x_tensor_uid(), attributes.scale_tensor_uid(), "scale");
    OperationSpec& operation =
        context.addOperation(CUDNN_BACKEND_OPERATION_NORM_BACKWARD_DESCRIPTOR, "NORM_BACKWARD RMS_NORM");
    addMode(operation, CUDNN_ATTR_OPERATION_NORM_BWD_MODE, CUDNN_RMS_NORM);
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_DYDESC, attributes.dy_tensor_uid(), "dy");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_XDESC, attributes.x_tensor_uid(), "x");
    // Present: the operation contract requires inv_rms.
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_INV_VARIANCE_DESC,
            *attributes.inv_rms_tensor_uid(), "inv_rms");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_SCALE_DESC, attributes.scale_tensor_uid(),
            "scale");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_DXDESC, attributes.dx_tensor_uid(), "dx");
    addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_DSCALE_DESC, attributes.dscale_tensor_uid(),
            "dscale");
    if (attributes.dbias_tensor_uid()) {
        addPort(context, operation, CUDNN_ATTR_OPERATION_NORM_BWD_DBIAS_DESC, *attributes.dbias_tensor_uid(),
                "dbias");
    }
}

}  // namespace hipdnn_cudnn_plugin
