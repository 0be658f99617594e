// Pointwise nodes -> CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR. Forward and binary modes use
// x (in_0), b (in_1), t (in_2: the BINARY_SELECT mask) and y; the *_BWD activation modes use
// dy (in_0), x (in_1) and dx, as cuDNN defines them.
#include "GraphTranslator.hpp"

namespace hipdnn_cudnn_plugin {

namespace {

SubDescriptorSpec pointwiseDescriptor(cudnnPointwiseMode_t mode,
                                      cudnnDataType_t mathPrecision = TranslationContext::kComputeType) {
    SubDescriptorSpec descriptor{CUDNN_BACKEND_POINTWISE_DESCRIPTOR, {}};
    descriptor.attributes.push_back(
        Attribute::scalar(CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, mode));
    descriptor.attributes.push_back(
        Attribute::scalar(CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, mathPrecision));
    return descriptor;
}

void addFloatParameter(SubDescriptorSpec& descriptor, cudnnBackendAttributeName_t name,
                       std::optional<float> value) {
    if (value) {
        descriptor.attributes.push_back(Attribute::scalar(name, CUDNN_TYPE_FLOAT, *value));
    }
}

}  // namespace

void addPointwiseOperation(TranslationContext& context, cudnnPointwiseMode_t mode, const std::string& label,
                           int64_t x, std::optional<int64_t> b, int64_t y, const PointwiseOptions& options) {
    OperationSpec& operation =
        context.addOperation(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, "POINTWISE " + label);
    operation.ports.push_back({CUDNN_ATTR_OPERATION_POINTWISE_XDESC, {x}});
    if (b) {
        operation.ports.push_back({CUDNN_ATTR_OPERATION_POINTWISE_BDESC, {*b}});
    }
    if (options.t) {
        operation.ports.push_back({CUDNN_ATTR_OPERATION_POINTWISE_TDESC, {*options.t}});
    }
    operation.ports.push_back({CUDNN_ATTR_OPERATION_POINTWISE_YDESC, {y}});
    operation.subDescriptor = pointwiseDescriptor(mode, options.mathPrecision);
    if (options.axis) {
        operation.subDescriptor->attributes.push_back(
            Attribute::scalar(CUDNN_ATTR_POINTWISE_AXIS, CUDNN_TYPE_INT64, *options.axis));
    }
    operation.subDescriptorAttribute = CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR;
}

void translatePointwise(TranslationContext& context, const fb::PointwiseAttributes& attributes) {
    const std::optional<cudnnPointwiseMode_t> mode = toCudnnPointwiseMode(attributes.operation());
    if (!mode) {
        context.fail("pointwise mode is UNSET");
    }
    const std::string label = fb::EnumNamePointwiseMode(attributes.operation());
    const int64_t in0 = context.tensor(attributes.in_0_tensor_uid(), "in_0");
    const int64_t out = context.tensor(attributes.out_0_tensor_uid(), "out_0");
    const auto in1 = attributes.in_1_tensor_uid();
    const auto in2 = attributes.in_2_tensor_uid();

    OperationSpec& operation =
        context.addOperation(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, "POINTWISE " + label);
    if (isActivationBackward(attributes.operation())) {
        if (!in1) {
            context.fail(label + " needs in_1 (x)");
        }
        operation.ports = {{CUDNN_ATTR_OPERATION_POINTWISE_DYDESC, {in0}},
                           {CUDNN_ATTR_OPERATION_POINTWISE_XDESC, {context.tensor(*in1, "in_1")}},
                           {CUDNN_ATTR_OPERATION_POINTWISE_DXDESC, {out}}};
    } else {
        operation.ports.push_back({CUDNN_ATTR_OPERATION_POINTWISE_XDESC, {in0}});
        if (in1) {
            operation.ports.push_back({CUDNN_ATTR_OPERATION_POINTWISE_BDESC, {context.tensor(*in1, "in_1")}});
        }
        if (in2) {
            operation.ports.push_back({CUDNN_ATTR_OPERATION_POINTWISE_TDESC, {context.tensor(*in2, "in_2")}});
        }
        operation.ports.push_back({CUDNN_ATTR_OPERATION_POINTWISE_YDESC, {out}});
    }
    const bool reluParameters =
        attributes.relu_lower_clip() || attributes.relu_upper_clip() || attributes.relu_lower_clip_slope();
    if (*mode == CUDNN_POINTWISE_RELU_FWD && reluParameters &&
        context.graphHas(fb::NodeAttributes::MatmulAttributes)) {
        // Seen with cuDNN 9.19: matmul fusions return plain relu (clips and slope ignored).
        context.fail(
            "RELU_FWD with a clip or a lower clip slope after a matmul: cuDNN's matmul fusion "
            "computes it as a plain relu");
    }
    SubDescriptorSpec descriptor = pointwiseDescriptor(*mode);
    addFloatParameter(descriptor, CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP, attributes.relu_lower_clip());
    addFloatParameter(descriptor, CUDNN_ATTR_POINTWISE_RELU_UPPER_CLIP, attributes.relu_upper_clip());
    addFloatParameter(descriptor, CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP_SLOPE,
                      attributes.relu_lower_clip_slope());
    addFloatParameter(descriptor, CUDNN_ATTR_POINTWISE_SWISH_BETA, attributes.swish_beta());
    addFloatParameter(descriptor, CUDNN_ATTR_POINTWISE_ELU_ALPHA, attributes.elu_alpha());
    addFloatParameter(descriptor, CUDNN_ATTR_POINTWISE_SOFTPLUS_BETA, attributes.softplus_beta());
    if (attributes.axis_tensor_uid()) {
        descriptor.attributes.push_back(
            Attribute::scalar(CUDNN_ATTR_POINTWISE_AXIS, CUDNN_TYPE_INT64, *attributes.axis_tensor_uid()));
    }
    operation.subDescriptor = std::move(descriptor);
    operation.subDescriptorAttribute = CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR;
}

}  // namespace hipdnn_cudnn_plugin
