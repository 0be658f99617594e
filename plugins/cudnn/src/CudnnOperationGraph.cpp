#include "CudnnOperationGraph.hpp"

namespace hipdnn_cudnn_plugin {

namespace {

// cuDNN wants 16-byte aligned device buffers; by-value scalars live in host memory.
constexpr int64_t kByteAlignment = 16;

// `cudnnUid` is CudnnGraphSpec::cudnnUid of the tensor; messages name the graph's uid.
CudnnDescriptor makeTensor(const TensorSpec& tensor, int64_t cudnnUid) {
    std::string what = "TENSOR uid " + std::to_string(tensor.uid) + " '" + tensor.name + "'";
    if (cudnnUid != tensor.uid) {
        what += " (cuDNN uid " + std::to_string(cudnnUid) + ")";
    }
    try {
        CudnnDescriptor descriptor(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
        descriptor.setScalar(CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, tensor.dataType);
        descriptor.set(CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64,
                       static_cast<int64_t>(tensor.dims.size()), tensor.dims.data());
        descriptor.set(CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64,
                       static_cast<int64_t>(tensor.strides.size()), tensor.strides.data());
        descriptor.setScalar(CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, cudnnUid);
        descriptor.setScalar(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, kByteAlignment);
        descriptor.setScalar(CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, tensor.isVirtual);
        if (tensor.byValue) {
            descriptor.setScalar(CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, true);
        }
        descriptor.finalize(what);
        return descriptor;
    } catch (const CudnnError& error) {
        throw CudnnError(error.status(), std::string(error.what()) + " [" + what + "]");
    }
}

std::string operationLabel(const OperationSpec& operation) {
    return "node " + std::to_string(operation.nodeIndex) + " '" + operation.nodeName + "' " + operation.label;
}

}  // namespace

CudnnOperationGraph::CudnnOperationGraph(cudnnHandle_t handle, const CudnnGraphSpec& spec) {
    for (const auto& [uid, tensor] : spec.tensors) {
        _tensors.emplace(uid, makeTensor(tensor, spec.cudnnUid(uid)));
    }
    std::vector<cudnnBackendDescriptor_t> operations;
    for (const OperationSpec& operation : spec.operations) {
        const std::string label = operationLabel(operation);
        try {
            CudnnDescriptor descriptor(operation.type);
            if (operation.subDescriptor) {
                CudnnDescriptor& sub = _subDescriptors.emplace_back(operation.subDescriptor->type);
                for (const Attribute& attribute : operation.subDescriptor->attributes) {
                    sub.set(attribute);
                }
                sub.finalize("descriptor of " + label);
                descriptor.setDescriptor(operation.subDescriptorAttribute, sub);
            }
            // Ports name tensors by the graph's uid; the descriptors carry the cuDNN uid.
            for (const TensorPort& port : operation.ports) {
                std::vector<cudnnBackendDescriptor_t> tensors;
                for (int64_t uid : port.uids) {
                    tensors.push_back(_tensors.at(uid).get());
                }
                descriptor.set(port.attribute, CUDNN_TYPE_BACKEND_DESCRIPTOR,
                               static_cast<int64_t>(tensors.size()), tensors.data());
            }
            for (const Attribute& attribute : operation.attributes) {
                descriptor.set(attribute);
            }
            descriptor.finalize("OPERATION " + label);
            operations.push_back(_operations.emplace_back(std::move(descriptor)).get());
        } catch (const CudnnError& error) {
            throw CudnnError(error.status(), std::string(error.what()) + " [" + label + "]");
        }
    }
    // The handle attribute is deprecated in cuDNN 9.19 but still required by older cuDNN 9
    // releases (9.14 on the GPU machines), so it is set on purpose.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    _graph.setScalar(CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, handle);
#pragma GCC diagnostic pop
    _graph.set(CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR,
               static_cast<int64_t>(operations.size()), operations.data());
    try {
        _graph.finalize("OPERATIONGRAPH");
    } catch (const CudnnError& error) {
        throw CudnnError(error.status(), std::string(error.what()) + " [" + spec.describeOperations() + "]");
    }
}

}  // namespace hipdnn_cudnn_plugin
