// Convolution fprop / dgrad / wgrad -> CUDNN_BACKEND_OPERATION_CONVOLUTION_*_DESCRIPTOR with a
// CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR (groups follow from x.C / w.C, as in cuDNN).
#include "GraphTranslator.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

struct ConvTensor {
    int64_t uid;
    const char* port;
    bool filter;
};

bool spatialAllOne(const TensorSpec& tensor) {
    return std::all_of(tensor.dims.begin() + 2, tensor.dims.end(),
                       [](int64_t extent) { return extent == 1; });
}

// Whether C is the innermost dim of a convolution tensor (dims N, C, spatial...); nullopt when
// the tensor is stored alike in both orders and cuDNN reads it either way: C of extent 1, or a
// filter whose spatial dims are all 1 (the 1x1 filters of channels-first networks, described as
// PyTorch describes them). A data tensor whose spatial dims are all 1 has C innermost: cuDNN
// reads it as channels-last (NaN outputs seen for channels-first convolutions with a 1x1 y).
std::optional<ChannelOrder> channelOrder(const TensorSpec& tensor, bool filter) {
    if (tensor.dims.size() < 3 || tensor.dims[1] == 1 || (filter && spatialAllOne(tensor))) {
        return std::nullopt;
    }
    for (size_t d = 2; d < tensor.dims.size(); ++d) {
        if (tensor.dims[d] > 1 && tensor.strides[d] < tensor.strides[1]) {
            return ChannelOrder::First;
        }
    }
    return ChannelOrder::Last;
}

std::string orderName(ChannelOrder order) {
    return order == ChannelOrder::Last ? "channels-last" : "channels-first";
}

// Dims of a convolution tensor of `rank` from the innermost out, in `order`.
std::vector<size_t> innerToOuter(ChannelOrder order, size_t rank) {
    std::vector<size_t> dims;
    if (order == ChannelOrder::Last) {
        dims.push_back(1);
    }
    for (size_t d = rank - 1; d >= 2; --d) {
        dims.push_back(d);
    }
    if (order == ChannelOrder::First) {
        dims.push_back(1);
    }
    dims.push_back(0);
    return dims;
}

// The convolution's channel order and the port that settled it; nullopt when every tensor reads
// alike in both orders. Seen with cuDNN 9.19: convolutions whose x, w and y are not all
// channels-first or all channels-last (NCHW data with KRSC filters, NHWC output of NCHW input, ...)
// return wrong values or leave outputs unwritten, with or without a fused epilogue.
std::optional<std::pair<ChannelOrder, const char*>> settleChannelOrder(
    TranslationContext& context, std::initializer_list<ConvTensor> tensors) {
    std::optional<std::pair<ChannelOrder, const char*>> seen;
    for (const ConvTensor& tensor : tensors) {
        const auto order = channelOrder(context.tensorSpec(tensor.uid), tensor.filter);
        if (!order) {
            continue;
        }
        if (seen && seen->first != *order) {
            context.fail(std::string(seen->second) + " is " + orderName(seen->first) + " but " + tensor.port +
                         " is " + orderName(*order) +
                         ": cuDNN convolutions need one channel order for all their tensors");
        }
        seen = std::pair{*order, tensor.port};
    }
    return seen;
}

// The graph's tensors of a convolution tensor's dims (the fused epilogue's operands and outputs),
// the convolution's own tensors included.
std::vector<int64_t> convolutionShapedTensors(TranslationContext& context,
                                              std::initializer_list<ConvTensor> tensors) {
    std::vector<int64_t> uids;
    for (const auto& [uid, spec] : context.tensorSpecs()) {
        const bool convolutionShaped =
            std::any_of(tensors.begin(), tensors.end(), [&](const ConvTensor& tensor) {
                return tensor.uid == uid || context.tensorSpec(tensor.uid).dims == spec.dims;
            });
        if (convolutionShaped && !spec.byValue) {
            uids.push_back(uid);
        }
    }
    return uids;
}

// One channel order for the convolution and every tensor of its shape. Seen with cuDNN 9.19:
// - --first 31135 of seed 1: a channels-last convolution whose fused epilogue read a
//   channels-first residual of y's shape returned wrong values (declined);
// - --first 25719: a channels-first convolution of one output channel whose max epilogue wrote a
//   y with C innermost returned wrong values: cuDNN infers each tensor's layout from the order of
//   its strides, and a size-1 dim's stride is otherwise arbitrary, so the extent-1 dims of every
//   such tensor get the strides of the settled order, as PyTorch describes them;
// - --first 34039: a 1-D convolution whose tensors all have one channel (so none settles an
//   order), followed by a residual add, hit an illegal address whether its tensors were described
//   channels-first, channels-last or mixed; the convolution alone runs. Such fused graphs are
//   declined.
void requireOneChannelOrder(TranslationContext& context, std::initializer_list<ConvTensor> tensors) {
    const auto settled = settleChannelOrder(context, tensors);
    if (!settled) {
        if (context.nodeCount() > 1) {
            context.fail(
                "every tensor of the convolution has one channel, which cuDNN's fused convolutions "
                "run into an illegal address");
        }
        return;
    }
    const auto& seen = *settled;
    const std::vector<int64_t> shaped = convolutionShapedTensors(context, tensors);
    for (const int64_t uid : shaped) {
        const TensorSpec& spec = context.tensorSpec(uid);
        const auto order = channelOrder(spec, false);
        const bool convolutionTensor = std::any_of(
            tensors.begin(), tensors.end(), [uid](const ConvTensor& tensor) { return tensor.uid == uid; });
        if (!convolutionTensor && !spec.isVirtual && order && *order != seen.first) {
            context.fail(
                "tensor '" + spec.name + "' (uid " + std::to_string(uid) + ") is " + orderName(*order) +
                " but the convolution's " + seen.second + " is " + orderName(seen.first) +
                ": cuDNN's fused convolutions need one channel order for the tensors of their shape");
        }
    }
    for (const int64_t uid : shaped) {
        context.restrideUnitDims(uid, innerToOuter(seen.first, context.tensorSpec(uid).dims.size()));
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
    requireOneChannelOrder(context, {{x, "x", false}, {w, "w", true}, {y, "y", false}});
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
    requireOneChannelOrder(context, {{dy, "dy", false}, {w, "w", true}, {dx, "dx", false}});
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
    requireOneChannelOrder(context, {{x, "x", false}, {dy, "dy", false}, {dw, "dw", true}});
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
