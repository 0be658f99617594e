#include "GraphTranslator.hpp"

#include <algorithm>

namespace hipdnn_cudnn_plugin {

namespace {

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& dims) {
    std::vector<int64_t> strides(dims.size(), 1);
    for (size_t i = dims.size(); i-- > 1;) {
        strides[i - 1] = strides[i] * std::max<int64_t>(dims[i], 1);
    }
    return strides;
}

std::vector<int64_t> toVector(const flatbuffers::Vector<int64_t>* values) {
    return values == nullptr ? std::vector<int64_t>{} : std::vector<int64_t>(values->begin(), values->end());
}

// Operations whose statistics run along the leading dims (N for layer and RMS norm, N and C for
// batch norm): their tensors must keep those dims in front when they grow.
bool isNormalization(fb::NodeAttributes type) {
    return type == fb::NodeAttributes::LayernormAttributes || type == fb::NodeAttributes::RMSNormAttributes ||
           type == fb::NodeAttributes::RMSNormBackwardAttributes ||
           type == fb::NodeAttributes::LayernormBackwardAttributes ||
           type == fb::NodeAttributes::BatchnormInferenceAttributes ||
           type == fb::NodeAttributes::BatchnormInferenceAttributesVarianceExt ||
           type == fb::NodeAttributes::BatchnormAttributes ||
           type == fb::NodeAttributes::BatchnormBackwardAttributes;
}

// How tensors of lower rank are brought to the rank cuDNN needs.
struct RankPolicy {
    size_t rank = 0;
    // Normalizations keep their leading dims, so they grow at the end; everything else
    // broadcasts numpy-style and grows at the front.
    bool appendTrailing = false;
};

// cuDNN computes graphs of rank-2 tensors wrong without an error (a 7x11 pointwise log writes
// only its first row), and normalizations of rank-3 tensors too: every graph is lifted to rank
// 3 (which also makes matmuls batched, (B, M, K) x (B, K, N), as cuDNN's are), normalizations
// to rank 4.
// The largest rank any tensor of the graph declares.
size_t largestRank(const hipdnn_flatbuffers_sdk::GraphWrapper& graph) {
    size_t rank = 0;
    for (const auto* tensor : *graph.graph().tensors()) {
        rank = std::max<size_t>(rank, tensor->dims()->size());
    }
    return rank;
}

RankPolicy rankPolicy(const hipdnn_flatbuffers_sdk::GraphWrapper& graph) {
    RankPolicy policy{std::max<size_t>(3, largestRank(graph)), false};
    for (size_t i = 0; i < graph.nodeCount(); ++i) {
        const fb::NodeAttributes type = graph.node(i).type();
        if (isNormalization(type)) {
            policy.appendTrailing = true;
            policy.rank = std::max<size_t>(policy.rank, 4);
        }
    }
    return policy;
}

bool isPointwiseOrReduction(fb::NodeAttributes type) {
    return type == fb::NodeAttributes::PointwiseAttributes || type == fb::NodeAttributes::ReductionAttributes;
}

// Seen with cuDNN 9.19 (and it has no engine for them lifted to rank 4): graphs of pointwise and
// reduction nodes alone, of rank 3 or less, are computed wrong from batch index 1 on when a
// tensor broadcasts, and reductions of them miss elements. They are declined.
void requireSupportedLowRank(const hipdnn_flatbuffers_sdk::GraphWrapper& graph) {
    const size_t rank = largestRank(graph);
    if (rank > 3) {
        return;
    }
    std::vector<int64_t> largest;
    for (size_t i = 0; i < graph.nodeCount(); ++i) {
        const fb::NodeAttributes type = graph.node(i).type();
        if (!isPointwiseOrReduction(type)) {
            return;
        }
        if (type == fb::NodeAttributes::ReductionAttributes) {
            throw TranslationError("node " + std::to_string(i) + " '" + std::string(graph.node(i).name()) +
                                   "': reductions of rank " + std::to_string(rank) +
                                   " tensors are computed wrong by cuDNN's pointwise and reduction engines");
        }
    }
    for (const auto* tensor : *graph.graph().tensors()) {
        if (tensor->value_type() != fb::TensorValue::NONE) {
            continue;  // a scalar passed by value
        }
        const std::vector<int64_t> dims = toVector(tensor->dims());
        if (largest.empty()) {
            largest = dims;
        }
        if (dims != largest) {
            throw TranslationError("tensor " + std::to_string(tensor->uid()) + " broadcasts in a rank-" +
                                   std::to_string(rank) +
                                   " pointwise graph: cuDNN computes such graphs wrong below rank 4");
        }
    }
}

void padToRank(std::vector<int64_t>& dims, std::vector<int64_t>& strides, const RankPolicy& policy) {
    while (dims.size() < policy.rank) {
        if (policy.appendTrailing || dims.empty()) {
            dims.push_back(1);
            strides.push_back(1);
        } else {
            // A leading dim of 1 whose stride spans the whole tensor keeps the layout packed.
            const int64_t span = dims.front() * strides.front();
            dims.insert(dims.begin(), 1);
            strides.insert(strides.begin(), std::max<int64_t>(span, 1));
        }
    }
}

TensorSpec translateTensor(const fb::TensorAttributes& tensor, const RankPolicy& policy) {
    TensorSpec spec;
    spec.uid = tensor.uid();
    spec.name = tensor.name() == nullptr ? std::string() : tensor.name()->str();
    spec.dims = toVector(tensor.dims());
    spec.strides = toVector(tensor.strides());
    spec.isVirtual = tensor.virtual_();
    const std::string label = "tensor " + std::to_string(spec.uid) + " '" + spec.name + "'";
    if (tensor.value_type() != fb::TensorValue::NONE) {
        const auto value = hipdnn_flatbuffers_sdk::passByValueNumber(tensor);
        if (!value) {
            throw TranslationError(label + ": fp8 pass-by-value scalars are not mapped to cuDNN");
        }
        spec.byValue = *value;
        // cuDNN reads by-value scalars from host memory in the compute type.
        spec.dataType = CUDNN_DATA_FLOAT;
    } else if (spec.isVirtual) {
        // Intermediates stay in the compute type inside cuDNN's fused kernels.
        spec.dataType = TranslationContext::kComputeType;
    } else {
        const std::optional<cudnnDataType_t> type = toCudnnDataType(tensor.data_type());
        if (!type) {
            throw TranslationError(label + ": data type " + fb::EnumNameDataType(tensor.data_type()) +
                                   " has no cuDNN equivalent");
        }
        spec.dataType = *type;
    }
    padToRank(spec.dims, spec.strides, policy);
    return spec;
}

}  // namespace

std::string CudnnGraphSpec::describeOperations() const {
    std::string text;
    for (const OperationSpec& operation : operations) {
        if (!text.empty()) {
            text += "; ";
        }
        text += "node " + std::to_string(operation.nodeIndex) + " '" + operation.nodeName + "' " +
                operation.label;
    }
    return text;
}

TranslationContext::TranslationContext(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                       CudnnGraphSpec& spec, TranslationTarget target)
    : _graph(graph), _spec(spec), _target(target) {
    for (const auto& [uid, tensor] : spec.tensors) {
        _nextVirtualUid = std::max(_nextVirtualUid, uid + 1);
    }
}

void TranslationContext::beginNode(int64_t index, std::string name) {
    _nodeIndex = index;
    _nodeName = std::move(name);
}

int64_t TranslationContext::tensor(int64_t uid, const char* port) const {
    if (!_spec.tensors.contains(uid)) {
        fail(std::string(port) + " names unknown tensor uid " + std::to_string(uid));
    }
    return uid;
}

const TensorSpec& TranslationContext::tensorSpec(int64_t uid) const {
    return _spec.tensors.at(uid);
}

size_t TranslationContext::declaredRank(int64_t uid) const {
    return _graph.tensor(uid).dims()->size();
}

int64_t TranslationContext::addTensorSpec(TensorSpec spec, const std::string& suffix) {
    spec.uid = _nextVirtualUid++;
    spec.name = _nodeName + "::" + suffix;
    const int64_t uid = spec.uid;
    _spec.tensors[uid] = std::move(spec);
    return uid;
}

int64_t TranslationContext::addVirtualLike(int64_t likeUid, const std::string& suffix) {
    TensorSpec spec = tensorSpec(likeUid);
    spec.isVirtual = true;
    spec.byValue.reset();
    spec.workspaceOffset.reset();
    spec.dataType = kComputeType;
    return addTensorSpec(std::move(spec), suffix);
}

int64_t TranslationContext::addVirtual(const std::vector<int64_t>& dims, cudnnDataType_t type,
                                       const std::string& suffix, std::vector<int64_t> strides) {
    TensorSpec spec;
    spec.dataType = type;
    spec.dims = dims;
    spec.strides = strides.empty() ? rowMajorStrides(dims) : std::move(strides);
    spec.isVirtual = true;
    return addTensorSpec(std::move(spec), suffix);
}

int64_t TranslationContext::addScalar(double value, cudnnDataType_t type, const std::string& suffix) {
    TensorSpec spec;
    spec.dataType = type;
    // Every tensor of the spec has the graph's rank already.
    const size_t rank = _spec.tensors.empty() ? 1 : _spec.tensors.begin()->second.dims.size();
    spec.dims.assign(rank, 1);
    spec.strides.assign(rank, 1);
    spec.byValue = value;
    return addTensorSpec(std::move(spec), suffix);
}

int64_t TranslationContext::addWorkspaceTensor(const std::vector<int64_t>& dims, cudnnDataType_t type,
                                               const std::string& suffix) {
    // Each tensor starts on a 256-byte boundary, as cudaMalloc's do.
    constexpr int64_t kAlignment = 256;
    TensorSpec spec;
    spec.dataType = type;
    spec.dims = dims;
    spec.strides = rowMajorStrides(dims);
    spec.workspaceOffset = _spec.internalWorkspaceBytes;
    int64_t elements = 1;
    for (int64_t dim : dims) {
        elements *= dim;
    }
    const int64_t bytes = static_cast<int64_t>(cudnnStorageBytes(type, static_cast<size_t>(elements)));
    _spec.internalWorkspaceBytes += (bytes + kAlignment - 1) / kAlignment * kAlignment;
    return addTensorSpec(std::move(spec), suffix);
}

bool TranslationContext::graphHas(fb::NodeAttributes type) const {
    for (size_t i = 0; i < _graph.nodeCount(); ++i) {
        if (_graph.node(i).type() == type) {
            return true;
        }
    }
    return false;
}

void TranslationContext::swapDims(int64_t uid, size_t first, size_t second) {
    TensorSpec& spec = _spec.tensors.at(uid);
    std::swap(spec.dims.at(first), spec.dims.at(second));
    std::swap(spec.strides.at(first), spec.strides.at(second));
}

void TranslationContext::zeroBeforeExecute(int64_t uid, const char* port) {
    TensorSpec& spec = _spec.tensors.at(uid);
    size_t elements = 1;
    for (const int64_t dim : spec.dims) {
        elements *= static_cast<size_t>(dim);
    }
    // The graph contract gives an output distinct elements, so it is dense when they fill its span.
    if (elements != spec.storageElements()) {
        fail(std::string(port) + " has gaps between its elements (" + std::to_string(elements) +
             " elements over " + std::to_string(spec.storageElements()) +
             "); the plugin zeroes it before cuDNN runs, which would overwrite the memory between them");
    }
    spec.zeroedBeforeExecute = true;
}

void TranslationContext::restrideUnitDims(int64_t uid, const std::vector<size_t>& innerToOuter) {
    TensorSpec& spec = _spec.tensors.at(uid);
    int64_t packed = 1;
    for (const size_t dim : innerToOuter) {
        if (spec.dims.at(dim) == 1) {
            spec.strides.at(dim) = packed;
        } else {
            packed = spec.strides.at(dim) * spec.dims.at(dim);
        }
    }
}

OperationSpec& TranslationContext::addOperation(cudnnBackendDescriptorType_t type, std::string label) {
    OperationSpec& operation = _spec.operations.emplace_back();
    operation.type = type;
    operation.nodeIndex = _nodeIndex;
    operation.nodeName = _nodeName;
    operation.label = std::move(label);
    return operation;
}

void TranslationContext::fail(const std::string& problem) const {
    throw TranslationError("node " + std::to_string(_nodeIndex) + " '" + _nodeName + "': " + problem);
}

CudnnGraphSpec translateGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                              const TranslationTarget& target) {
    CudnnGraphSpec spec;
    requireSupportedLowRank(graph);
    const RankPolicy policy = rankPolicy(graph);
    for (const auto* tensor : *graph.graph().tensors()) {
        spec.tensors[tensor->uid()] = translateTensor(*tensor, policy);
    }
    TranslationContext context(graph, spec, target);
    if (graph.nodeCount() == 0) {
        throw TranslationError("the graph has no nodes");
    }
    for (size_t i = 0; i < graph.nodeCount(); ++i) {
        const auto node = graph.node(i);
        context.beginNode(static_cast<int64_t>(i), std::string(node.name()));
        switch (node.type()) {
            case fb::NodeAttributes::ConvolutionFwdAttributes:
                translateConvolutionFwd(context, *node.attributesAs<fb::ConvolutionFwdAttributes>());
                break;
            case fb::NodeAttributes::ConvolutionBwdAttributes:
                translateConvolutionBwd(context, *node.attributesAs<fb::ConvolutionBwdAttributes>());
                break;
            case fb::NodeAttributes::ConvolutionWrwAttributes:
                translateConvolutionWrw(context, *node.attributesAs<fb::ConvolutionWrwAttributes>());
                break;
            case fb::NodeAttributes::PointwiseAttributes:
                translatePointwise(context, *node.attributesAs<fb::PointwiseAttributes>());
                break;
            case fb::NodeAttributes::MatmulAttributes:
                translateMatmul(context, *node.attributesAs<fb::MatmulAttributes>());
                break;
            case fb::NodeAttributes::ReductionAttributes:
                translateReduction(context, *node.attributesAs<fb::ReductionAttributes>());
                break;
            case fb::NodeAttributes::BatchnormInferenceAttributes:
                translateBatchnormInference(context, *node.attributesAs<fb::BatchnormInferenceAttributes>());
                break;
            case fb::NodeAttributes::BatchnormInferenceAttributesVarianceExt:
                translateBatchnormInferenceVariance(
                    context, *node.attributesAs<fb::BatchnormInferenceAttributesVarianceExt>());
                break;
            case fb::NodeAttributes::BatchnormAttributes:
                translateBatchnormTraining(context, *node.attributesAs<fb::BatchnormAttributes>());
                break;
            case fb::NodeAttributes::BatchnormBackwardAttributes:
                translateBatchnormBackward(context, *node.attributesAs<fb::BatchnormBackwardAttributes>());
                break;
            case fb::NodeAttributes::LayernormAttributes:
                translateLayernorm(context, *node.attributesAs<fb::LayernormAttributes>());
                break;
            case fb::NodeAttributes::LayernormBackwardAttributes:
                translateLayernormBackward(context, *node.attributesAs<fb::LayernormBackwardAttributes>());
                break;
            case fb::NodeAttributes::RMSNormAttributes:
                translateRmsNorm(context, *node.attributesAs<fb::RMSNormAttributes>());
                break;
            case fb::NodeAttributes::RMSNormBackwardAttributes:
                translateRmsNormBackward(context, *node.attributesAs<fb::RMSNormBackwardAttributes>());
                break;
            case fb::NodeAttributes::SdpaAttributes:
                translateSdpa(context, *node.attributesAs<fb::SdpaAttributes>());
                break;
            case fb::NodeAttributes::SdpaBackwardAttributes:
                translateSdpaBackward(context, *node.attributesAs<fb::SdpaBackwardAttributes>());
                break;
            default:
                context.fail(std::string(node.typeName()) + " is not mapped to the cuDNN graph API");
        }
    }
    return spec;
}

}  // namespace hipdnn_cudnn_plugin
