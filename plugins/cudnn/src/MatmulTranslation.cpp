// Matmul -> CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR (tensors padded to rank 3: batch, rows,
// columns) and reductions -> CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR.
#include "GraphTranslator.hpp"

namespace hipdnn_cudnn_plugin {

void translateMatmul(TranslationContext& context, const fb::MatmulAttributes& attributes) {
    const int64_t a = context.tensor(attributes.a_tensor_uid(), "a");
    const int64_t b = context.tensor(attributes.b_tensor_uid(), "b");
    const int64_t c = context.tensor(attributes.c_tensor_uid(), "c");
    OperationSpec& operation = context.addOperation(CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR, "MATMUL");
    operation.ports = {{CUDNN_ATTR_OPERATION_MATMUL_ADESC, {a}},
                       {CUDNN_ATTR_OPERATION_MATMUL_BDESC, {b}},
                       {CUDNN_ATTR_OPERATION_MATMUL_CDESC, {c}}};
    SubDescriptorSpec descriptor{CUDNN_BACKEND_MATMUL_DESCRIPTOR, {}};
    descriptor.attributes.push_back(Attribute::scalar(CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE,
                                                      TranslationContext::kComputeType));
    operation.subDescriptor = std::move(descriptor);
    operation.subDescriptorAttribute = CUDNN_ATTR_OPERATION_MATMUL_DESC;
}

void translateReduction(TranslationContext& context, const fb::ReductionAttributes& attributes) {
    const std::optional<cudnnReduceTensorOp_t> mode = toCudnnReductionOp(attributes.mode());
    if (!mode) {
        context.fail("reduction mode is NOT_SET");
    }
    const int64_t in = context.tensor(attributes.in_tensor_uid(), "in");
    const int64_t out = context.tensor(attributes.out_tensor_uid(), "out");
    OperationSpec& operation =
        context.addOperation(CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR,
                             std::string("REDUCTION ") + fb::EnumNameReductionMode(attributes.mode()));
    operation.ports = {{CUDNN_ATTR_OPERATION_REDUCTION_XDESC, {in}},
                       {CUDNN_ATTR_OPERATION_REDUCTION_YDESC, {out}}};
    SubDescriptorSpec descriptor{CUDNN_BACKEND_REDUCTION_DESCRIPTOR, {}};
    descriptor.attributes.push_back(
        Attribute::scalar(CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, *mode));
    descriptor.attributes.push_back(Attribute::scalar(CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE,
                                                      TranslationContext::kComputeType));
    operation.subDescriptor = std::move(descriptor);
    operation.subDescriptorAttribute = CUDNN_ATTR_OPERATION_REDUCTION_DESC;
}

}  // namespace hipdnn_cudnn_plugin
