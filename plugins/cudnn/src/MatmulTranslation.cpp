// Matmul -> CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR (tensors padded to rank 3: batch, rows,
// columns) and reductions -> CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR.
#include "GraphTranslator.hpp"

namespace hipdnn_cudnn_plugin {

void addMatmulOperation(TranslationContext& context, int64_t a, int64_t b, int64_t c,
                        const GemmOverrides& overrides) {
    OperationSpec& operation = context.addOperation(CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR, "MATMUL");
    operation.ports = {{CUDNN_ATTR_OPERATION_MATMUL_ADESC, {a}},
                       {CUDNN_ATTR_OPERATION_MATMUL_BDESC, {b}},
                       {CUDNN_ATTR_OPERATION_MATMUL_CDESC, {c}}};
    for (const auto& [attribute, uid] :
         {std::pair{CUDNN_ATTR_OPERATION_MATMUL_GEMM_M_OVERRIDE_DESC, overrides.m},
          std::pair{CUDNN_ATTR_OPERATION_MATMUL_GEMM_N_OVERRIDE_DESC, overrides.n},
          std::pair{CUDNN_ATTR_OPERATION_MATMUL_GEMM_K_OVERRIDE_DESC, overrides.k}}) {
        if (uid) {
            operation.ports.push_back({attribute, {*uid}});
        }
    }
    SubDescriptorSpec descriptor{CUDNN_BACKEND_MATMUL_DESCRIPTOR, {}};
    descriptor.attributes.push_back(Attribute::scalar(CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE,
                                                      TranslationContext::kComputeType));
    operation.subDescriptor = std::move(descriptor);
    operation.subDescriptorAttribute = CUDNN_ATTR_OPERATION_MATMUL_DESC;
}

void translateMatmul(TranslationContext& context, const fb::MatmulAttributes& attributes) {
    addMatmulOperation(context, context.tensor(attributes.a_tensor_uid(), "a"),
                       context.tensor(attributes.b_tensor_uid(), "b"),
                       context.tensor(attributes.c_tensor_uid(), "c"));
}

void addReductionOperation(TranslationContext& context, cudnnReduceTensorOp_t mode, const std::string& label,
                           int64_t x, int64_t y) {
    OperationSpec& operation =
        context.addOperation(CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR, "REDUCTION " + label);
    operation.ports = {{CUDNN_ATTR_OPERATION_REDUCTION_XDESC, {x}},
                       {CUDNN_ATTR_OPERATION_REDUCTION_YDESC, {y}}};
    SubDescriptorSpec descriptor{CUDNN_BACKEND_REDUCTION_DESCRIPTOR, {}};
    descriptor.attributes.push_back(
        Attribute::scalar(CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, mode));
    descriptor.attributes.push_back(Attribute::scalar(CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE,
                                                      TranslationContext::kComputeType));
    operation.subDescriptor = std::move(descriptor);
    operation.subDescriptorAttribute = CUDNN_ATTR_OPERATION_REDUCTION_DESC;
}

void translateReduction(TranslationContext& context, const fb::ReductionAttributes& attributes) {
    const std::optional<cudnnReduceTensorOp_t> mode = toCudnnReductionOp(attributes.mode());
    if (!mode) {
        context.fail("reduction mode is NOT_SET");
    }
    addReductionOperation(context, *mode, fb::EnumNameReductionMode(attributes.mode()),
                          context.tensor(attributes.in_tensor_uid(), "in"),
                          context.tensor(attributes.out_tensor_uid(), "out"));
}

}  // namespace hipdnn_cudnn_plugin
