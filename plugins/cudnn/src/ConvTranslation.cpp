// Convolution fprop / dgrad / wgrad -> CUDNN_BACKEND_OPERATION_CONVOLUTION_*_DESCRIPTOR with a
// CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR (groups follow from x.C / w.C, as in cuDNN).
#include "GraphTranslator.hpp"

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

namespace hipdnn_cudnn_plugin {

namespace {

std::vector<int64_t> toVector(const flatbuffers::Vector<int64_t>* values) {
    return values == nullptr ? std::vector<int64_t>{} : std::vector<int64_t>(values->begin(), values->end());
}

std::string joined(const std::vector<int64_t>& values) {
    std::string text = "[";
    for (size_t i = 0; i < values.size(); ++i) {
        text += (i == 0 ? "" : ", ") + std::to_string(values[i]);
    }
    return text + "]";
}

template <class Attributes>
SubDescriptorSpec convolutionDescriptor(TranslationContext& context, const Attributes& attributes,
                                        size_t spatialDims) {
    const std::optional<cudnnConvolutionMode_t> mode = toCudnnConvMode(attributes.conv_mode());
    if (!mode) {
        context.fail("convolution mode is UNSET");
    }
    const std::vector<int64_t> prePadding = toVector(attributes.pre_padding());
    const std::vector<int64_t> postPadding = toVector(attributes.post_padding());
    const std::vector<int64_t> stride = toVector(attributes.stride());
    const std::vector<int64_t> dilation = toVector(attributes.dilation());
    for (const auto* geometry : {&prePadding, &postPadding, &stride, &dilation}) {
        if (geometry->size() != spatialDims) {
            context.fail("convolution geometry has " + std::to_string(geometry->size()) + " entries for " +
                         std::to_string(spatialDims) + " spatial dims");
        }
    }
    if (prePadding != postPadding) {
        // Seen with cuDNN 9.19: fprop, dgrad and wgrad with fused or no epilogues return wrong
        // values, NaN or an illegal address when the two sides are padded differently.
        context.fail("asymmetric padding (pre " + joined(prePadding) + ", post " + joined(postPadding) +
                     ") is computed wrong by cuDNN's convolution engines");
    }
    SubDescriptorSpec descriptor{CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR, {}};
    auto& a = descriptor.attributes;
    a.push_back(Attribute::scalar(CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE,
                                  TranslationContext::kComputeType));
    a.push_back(Attribute::scalar(CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, *mode));
    a.push_back(Attribute::scalar(CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64,
                                  static_cast<int64_t>(spatialDims)));
    a.push_back(Attribute::of(CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, dilation));
    a.push_back(Attribute::of(CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, stride));
    a.push_back(Attribute::of(CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, prePadding));
    a.push_back(Attribute::of(CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, postPadding));
    return descriptor;
}

size_t spatialDimsOf(TranslationContext& context, int64_t uid) {
    const size_t rank = context.declaredRank(uid);
    if (rank < 3) {
        context.fail("convolution tensors need rank >= 3, got " + std::to_string(rank));
    }
    return rank - 2;
}

enum class ChannelOrder { First, Last };

// Whether C is the innermost dim of a convolution tensor (dims N, C, spatial...); nullopt when
// C has extent 1, which both orders store alike. A tensor whose spatial dims are all 1 has C
// innermost (stride 1): cuDNN reads it as channels-last.
std::optional<ChannelOrder> channelOrder(const TensorSpec& tensor) {
    if (tensor.dims.size() < 3 || tensor.dims[1] == 1) {
        return std::nullopt;
    }
    for (size_t d = 2; d < tensor.dims.size(); ++d) {
        if (tensor.dims[d] > 1 && tensor.strides[d] < tensor.strides[1]) {
            return ChannelOrder::First;
        }
    }
    return ChannelOrder::Last;
}

// Seen with cuDNN 9.19: convolutions whose x, w and y are not all channels-first or all
// channels-last (NCHW data with KRSC filters, NHWC output of NCHW input, ...) return wrong
// values or leave outputs unwritten, with or without a fused epilogue.
void requireOneChannelOrder(TranslationContext& context,
                            std::initializer_list<std::pair<int64_t, const char*>> tensors) {
    std::optional<std::pair<ChannelOrder, const char*>> seen;
    for (const auto& [uid, port] : tensors) {
        const auto order = channelOrder(context.tensorSpec(uid));
        if (!order) {
            continue;
        }
        if (seen && seen->first != *order) {
            const auto name = [](ChannelOrder o) {
                return o == ChannelOrder::Last ? "channels-last" : "channels-first";
            };
            context.fail(std::string(seen->second) + " is " + name(seen->first) + " but " + port + " is " +
                         name(*order) + ": cuDNN convolutions need one channel order for all their tensors");
        }
        seen = std::pair{*order, port};
    }
}

// alpha = 1, beta = 0: the output is overwritten (blending is expressed with pointwise nodes).
void addScaling(OperationSpec& operation, cudnnBackendAttributeName_t alpha,
                cudnnBackendAttributeName_t beta) {
    operation.attributes.push_back(Attribute::scalar(alpha, CUDNN_TYPE_FLOAT, 1.0F));
    operation.attributes.push_back(Attribute::scalar(beta, CUDNN_TYPE_FLOAT, 0.0F));
}

}  // namespace

void translateConvolutionFwd(TranslationContext& context, const fb::ConvolutionFwdAttributes& attributes) {
    const int64_t x = context.tensor(attributes.x_tensor_uid(), "x");
    const int64_t w = context.tensor(attributes.w_tensor_uid(), "w");
    const int64_t y = context.tensor(attributes.y_tensor_uid(), "y");
    requireOneChannelOrder(context, {{x, "x"}, {w, "w"}, {y, "y"}});
    SubDescriptorSpec descriptor = convolutionDescriptor(context, attributes, spatialDimsOf(context, x));
    OperationSpec& operation =
        context.addOperation(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, "CONVOLUTION_FORWARD");
    operation.ports = {{CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, {x}},
                       {CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, {w}},
                       {CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, {y}}};
    addScaling(operation, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA,
               CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA);
    operation.subDescriptor = std::move(descriptor);
    operation.subDescriptorAttribute = CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC;
}

void translateConvolutionBwd(TranslationContext& context, const fb::ConvolutionBwdAttributes& attributes) {
    const int64_t dy = context.tensor(attributes.dy_tensor_uid(), "dy");
    const int64_t w = context.tensor(attributes.w_tensor_uid(), "w");
    const int64_t dx = context.tensor(attributes.dx_tensor_uid(), "dx");
    requireOneChannelOrder(context, {{dy, "dy"}, {w, "w"}, {dx, "dx"}});
    SubDescriptorSpec descriptor = convolutionDescriptor(context, attributes, spatialDimsOf(context, dx));
    OperationSpec& operation = context.addOperation(
        CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR, "CONVOLUTION_BACKWARD_DATA");
    operation.ports = {{CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, {dy}},
                       {CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, {w}},
                       {CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, {dx}}};
    addScaling(operation, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA,
               CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA);
    operation.subDescriptor = std::move(descriptor);
    operation.subDescriptorAttribute = CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC;
}

void translateConvolutionWrw(TranslationContext& context, const fb::ConvolutionWrwAttributes& attributes) {
    const int64_t x = context.tensor(attributes.x_tensor_uid(), "x");
    const int64_t dy = context.tensor(attributes.dy_tensor_uid(), "dy");
    const int64_t dw = context.tensor(attributes.dw_tensor_uid(), "dw");
    requireOneChannelOrder(context, {{x, "x"}, {dy, "dy"}, {dw, "dw"}});
    SubDescriptorSpec descriptor = convolutionDescriptor(context, attributes, spatialDimsOf(context, x));
    OperationSpec& operation = context.addOperation(
        CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR, "CONVOLUTION_BACKWARD_FILTER");
    operation.ports = {{CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X, {x}},
                       {CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY, {dy}},
                       {CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW, {dw}}};
    addScaling(operation, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA,
               CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA);
    operation.subDescriptor = std::move(descriptor);
    operation.subDescriptorAttribute = CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC;
}

}  // namespace hipdnn_cudnn_plugin
