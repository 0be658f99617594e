#include "NormProgram.hpp"

#include <hipdnn_flatbuffers_sdk/PassByValue.hpp>

#include <algorithm>

namespace hipdnn_cuda_kernels {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

const NormOperand* NormProgram::operand(const std::string& name) const {
    const auto found =
        std::find_if(operands.begin(), operands.end(), [&](const NormOperand& o) { return o.name == name; });
    return found != operands.end() ? &*found : nullptr;
}

namespace {

using Tensor = fb::TensorAttributes;
using hipdnn_flatbuffers_sdk::NodeWrapper;

std::vector<int64_t> dimsOf(const Tensor& tensor) {
    return {tensor.dims()->begin(), tensor.dims()->end()};
}

// Strides with 0 where the dim has extent 1 (such a dim never moves), so equal layouts compare equal.
std::vector<int64_t> movingStrides(const Tensor& tensor) {
    std::vector<int64_t> strides(tensor.strides()->begin(), tensor.strides()->end());
    for (size_t d = 0; d < strides.size(); ++d) {
        if (tensor.dims()->Get(static_cast<flatbuffers::uoffset_t>(d)) == 1) {
            strides[d] = 0;
        }
    }
    return strides;
}

class NormAnalysis {
public:
    NormAnalysis(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, std::string& reason)
        : _graph(graph), _reason(reason) {}

    std::optional<NormProgram> run() {
        if (!findNormNode() || !analyzeNorm() || !analyzeEpilogue()) {
            return std::nullopt;
        }
        return std::move(_program);
    }

private:
    bool decline(std::string why) {
        _reason = std::move(why);
        return false;
    }

    static bool isNorm(fb::NodeAttributes type) {
        switch (type) {
            case fb::NodeAttributes::LayernormAttributes:
            case fb::NodeAttributes::RMSNormAttributes:
            case fb::NodeAttributes::BatchnormInferenceAttributes:
            case fb::NodeAttributes::BatchnormInferenceAttributesVarianceExt:
            case fb::NodeAttributes::BatchnormAttributes:
            case fb::NodeAttributes::BatchnormBackwardAttributes:
                return true;
            default:
                return false;
        }
    }

    bool findNormNode() {
        for (size_t i = 0; i < _graph.nodeCount(); ++i) {
            const NodeWrapper node = _graph.node(i);
            if (node.type() == fb::NodeAttributes::PointwiseAttributes) {
                continue;
            }
            if (!isNorm(node.type())) {
                return decline(
                    node.describe() +
                    " is not a layer norm, RMS norm or batch norm (inference, training or backward)");
            }
            if (_normIndex) {
                return decline(
                    "the graph has two norm nodes; the engine fuses one norm with pointwise nodes after it");
            }
            _normIndex = i;
        }
        if (!_normIndex) {
            return decline("the graph has no norm node");
        }
        for (size_t i = 0; i < _graph.nodeCount(); ++i) {
            if (i == *_normIndex) {
                continue;
            }
            if (i < *_normIndex) {
                return decline(_graph.node(i).describe() +
                               " comes before the norm; only pointwise nodes after it are fused");
            }
            _epilogueNodes.push_back(i);
        }
        const NodeWrapper norm = _graph.node(*_normIndex);
        fb::DataType compute = norm.node().compute_data_type();
        if (compute == fb::DataType::UNSET) {
            compute = _graph.graph().compute_data_type();
        }
        if (compute != fb::DataType::FLOAT && compute != fb::DataType::UNSET) {
            return decline(norm.describe() + " has compute data type " + fb::EnumNameDataType(compute) +
                           "; supported: FLOAT");
        }
        return true;
    }

    std::optional<ElementType> typeOf(const Tensor& tensor) {
        const fb::DataType type = effectiveType(_graph, tensor);
        const auto element = elementTypeOf(type);
        if (!element) {
            decline(describeTensor(tensor) + " has data type " + fb::EnumNameDataType(type) +
                    "; supported: FLOAT, HALF, BFLOAT16");
        }
        return element;
    }

    bool addOperand(const std::string& name, int64_t uid, bool isOutput, int64_t stride = 0) {
        const Tensor& tensor = _graph.tensor(uid);
        const auto type = typeOf(tensor);
        if (!type) {
            return false;
        }
        _program.operands.push_back({name, uid, *type, isOutput, stride});
        return true;
    }

    bool addOptional(const std::string& name, std::optional<int64_t> uid, bool isOutput, size_t strideDim) {
        if (!uid) {
            return true;
        }
        const Tensor& tensor = _graph.tensor(*uid);
        const int64_t stride = tensor.strides()->size() > strideDim
                                   ? tensor.strides()->Get(static_cast<flatbuffers::uoffset_t>(strideDim))
                                   : 0;
        return addOperand(name, *uid, isOutput, stride);
    }

    bool addScalar(const std::string& name, std::optional<int64_t> uid, NormScalar& scalar) {
        if (!uid) {
            return true;
        }
        const Tensor& tensor = _graph.tensor(*uid);
        if (tensor.value_type() != fb::TensorValue::NONE) {
            scalar.constant = hipdnn_flatbuffers_sdk::passByValueNumber(tensor);
            return scalar.constant.has_value() ||
                   decline(describeTensor(tensor) + " is a pass-by-value " +
                           fb::EnumNameTensorValue(tensor.value_type()) + ", which is not supported");
        }
        scalar.operand = name;
        return addOperand(name, *uid, false);
    }

    // x and y: element types, dims and the layout facts the kernels index by.
    bool addActivations(int64_t x, int64_t y) {
        const Tensor& xTensor = _graph.tensor(x);
        const Tensor& yTensor = _graph.tensor(y);
        _xDims = dimsOf(xTensor);
        _xStrides = movingStrides(xTensor);
        if (!isDenseLayout(_xDims, {xTensor.strides()->begin(), xTensor.strides()->end()})) {
            return decline(describeTensor(xTensor) + " is not dense (its strides leave gaps or overlap)");
        }
        _program.elementCount = 1;
        for (const int64_t dim : _xDims) {
            _program.elementCount *= dim;
        }
        if (!addOperand("x", x, false)) {
            return false;
        }
        const auto yType = typeOf(yTensor);
        if (!yType) {
            return false;
        }
        _program.yType = *yType;
        _yUid = y;
        _program.storesY = !yTensor.virtual_();
        if (_program.storesY) {
            if (movingStrides(yTensor) != _xStrides) {
                return decline(describeTensor(yTensor) + " has a layout other than x's");
            }
            _program.operands.push_back({"y", y, *yType, true, 0});
        }
        return true;
    }

    // Row norms normalize every dim but the first: rows must be outermost and scale/bias share
    // the row's layout.
    bool checkRows(std::initializer_list<std::optional<int64_t>> rowParameters) {
        _program.rows = _xDims[0];
        _program.columns = _program.elementCount / std::max<int64_t>(1, _program.rows);
        if (_program.rows > 1 && _xStrides[0] != _program.columns) {
            return decline("x's rows (dim 0) are not its outermost dim: stride " +
                           std::to_string(_xStrides[0]) + ", expected " + std::to_string(_program.columns));
        }
        const std::vector<int64_t> rowLayout(_xStrides.begin() + 1, _xStrides.end());
        for (const auto& uid : rowParameters) {
            if (!uid) {
                continue;
            }
            const Tensor& tensor = _graph.tensor(*uid);
            const auto strides = movingStrides(tensor);
            if (std::vector<int64_t>(strides.begin() + 1, strides.end()) != rowLayout) {
                return decline(describeTensor(tensor) + " does not have the layout of one row of x");
            }
        }
        return true;
    }

    bool analyzeNorm() {
        const NodeWrapper node = _graph.node(*_normIndex);
        switch (node.type()) {
            case fb::NodeAttributes::LayernormAttributes: {
                const auto& a = *node.attributesAs<fb::LayernormAttributes>();
                _program.kind = NormKind::Layernorm;
                return addActivations(a.x_tensor_uid(), a.y_tensor_uid()) &&
                       checkRows({a.scale_tensor_uid(), a.bias_tensor_uid()}) &&
                       addOperand("scale", a.scale_tensor_uid(), false) &&
                       addOperand("bias", a.bias_tensor_uid(), false) &&
                       addOptional("mean", a.mean_tensor_uid(), true, 0) &&
                       addOptional("inv_variance", a.inv_variance_tensor_uid(), true, 0) &&
                       addScalar("epsilon", a.epsilon_tensor_uid(), _program.epsilon);
            }
            case fb::NodeAttributes::RMSNormAttributes: {
                const auto& a = *node.attributesAs<fb::RMSNormAttributes>();
                _program.kind = NormKind::RmsNorm;
                return addActivations(a.x_tensor_uid(), a.y_tensor_uid()) &&
                       checkRows({a.scale_tensor_uid(), a.bias_tensor_uid()}) &&
                       addOperand("scale", a.scale_tensor_uid(), false) &&
                       addOptional("bias", a.bias_tensor_uid(), false, 0) &&
                       addOptional("inv_rms", a.inv_rms_tensor_uid(), true, 0) &&
                       addScalar("epsilon", a.epsilon_tensor_uid(), _program.epsilon);
            }
            case fb::NodeAttributes::BatchnormInferenceAttributes: {
                const auto& a = *node.attributesAs<fb::BatchnormInferenceAttributes>();
                _program.kind = NormKind::BatchnormInference;
                return addActivations(a.x_tensor_uid(), a.y_tensor_uid()) && addChannels() &&
                       addOptional("mean", a.mean_tensor_uid(), false, 1) &&
                       addOptional("inv_variance", a.inv_variance_tensor_uid(), false, 1) &&
                       addOptional("scale", a.scale_tensor_uid(), false, 1) &&
                       addOptional("bias", a.bias_tensor_uid(), false, 1);
            }
            case fb::NodeAttributes::BatchnormInferenceAttributesVarianceExt: {
                const auto& a = *node.attributesAs<fb::BatchnormInferenceAttributesVarianceExt>();
                _program.kind = NormKind::BatchnormInferenceVariance;
                return addActivations(a.x_tensor_uid(), a.y_tensor_uid()) && addChannels() &&
                       addOptional("mean", a.mean_tensor_uid(), false, 1) &&
                       addOptional("variance", a.variance_tensor_uid(), false, 1) &&
                       addOptional("scale", a.scale_tensor_uid(), false, 1) &&
                       addOptional("bias", a.bias_tensor_uid(), false, 1) &&
                       addScalar("epsilon", a.epsilon_tensor_uid(), _program.epsilon);
            }
            case fb::NodeAttributes::BatchnormAttributes: {
                const auto& a = *node.attributesAs<fb::BatchnormAttributes>();
                _program.kind = NormKind::BatchnormTraining;
                if (a.peer_stats_tensor_uid() != nullptr && a.peer_stats_tensor_uid()->size() > 0) {
                    return decline(node.describe() +
                                   " has peer statistics, which the engine does not combine");
                }
                return addActivations(a.x_tensor_uid(), a.y_tensor_uid()) && addChannels() &&
                       addOptional("scale", a.scale_tensor_uid(), false, 1) &&
                       addOptional("bias", a.bias_tensor_uid(), false, 1) &&
                       addOptional("mean", a.mean_tensor_uid(), true, 1) &&
                       addOptional("inv_variance", a.inv_variance_tensor_uid(), true, 1) &&
                       addOptional("prev_running_mean", a.prev_running_mean_tensor_uid(), false, 1) &&
                       addOptional("prev_running_variance", a.prev_running_variance_tensor_uid(), false, 1) &&
                       addOptional("next_running_mean", a.next_running_mean_tensor_uid(), true, 1) &&
                       addOptional("next_running_variance", a.next_running_variance_tensor_uid(), true, 1) &&
                       addScalar("epsilon", a.epsilon_tensor_uid(), _program.epsilon) &&
                       addScalar("momentum", a.momentum_tensor_uid(), _program.momentum);
            }
            case fb::NodeAttributes::BatchnormBackwardAttributes: {
                const auto& a = *node.attributesAs<fb::BatchnormBackwardAttributes>();
                _program.kind = NormKind::BatchnormBackward;
                if (a.peer_stats_tensor_uid() != nullptr && a.peer_stats_tensor_uid()->size() > 0) {
                    return decline(node.describe() +
                                   " has peer statistics, which the engine does not combine");
                }
                if (!a.mean_tensor_uid() || !a.inv_variance_tensor_uid()) {
                    return decline(node.describe() +
                                   " has no saved mean and inv_variance; recomputing them is not supported");
                }
                if (!_epilogueNodes.empty()) {
                    return decline("pointwise nodes after batch norm backward are not fused");
                }
                if (_graph.tensor(a.dx_tensor_uid()).virtual_()) {
                    return decline(describeTensor(_graph.tensor(a.dx_tensor_uid())) + " (dx) is virtual");
                }
                if (movingStrides(_graph.tensor(a.dy_tensor_uid())) !=
                    movingStrides(_graph.tensor(a.x_tensor_uid()))) {
                    return decline(describeTensor(_graph.tensor(a.dy_tensor_uid())) +
                                   " (dy) has a layout other than x's");
                }
                return addActivations(a.x_tensor_uid(), a.dx_tensor_uid()) && addChannels() &&
                       addOperand("dy", a.dy_tensor_uid(), false) &&
                       addOptional("mean", a.mean_tensor_uid(), false, 1) &&
                       addOptional("inv_variance", a.inv_variance_tensor_uid(), false, 1) &&
                       addOptional("scale", a.scale_tensor_uid(), false, 1) &&
                       addOptional("dscale", a.dscale_tensor_uid(), true, 1) &&
                       addOptional("dbias", a.dbias_tensor_uid(), true, 1);
            }
            default:
                return decline(node.describe() + " is not a norm");
        }
    }

    bool addChannels() {
        _program.channels = _xDims[1];
        _program.channelStride = _program.channels > 1 ? _xStrides[1] : 1;
        return true;
    }

    bool analyzeEpilogue() {
        if (_epilogueNodes.empty()) {
            return true;
        }
        auto epilogue = analyzePointwiseNodes(_graph, _epilogueNodes, _yUid, _reason);
        if (!epilogue) {
            return false;
        }
        if (epilogue->dims != _xDims) {
            return decline("the pointwise nodes after the norm write tensors of other dims than x's");
        }
        for (const MemoryOperand& operand : epilogue->operands) {
            if (operand.inRegister) {
                continue;
            }
            if (!operand.isSingleElement && operand.strides != _xStrides) {
                return decline(describeTensor(_graph.tensor(operand.uid)) +
                               ", read or written after the norm, does not have x's layout");
            }
            const auto existing =
                std::find_if(_program.operands.begin(), _program.operands.end(),
                             [&](const NormOperand& o) { return o.uid == operand.uid && !o.isOutput; });
            if (existing != _program.operands.end() && !operand.isOutput) {
                _program.epilogueArguments.push_back(existing->name);
                continue;
            }
            std::string name = "q";
            name += std::to_string(_program.operands.size());
            _program.operands.push_back({name, operand.uid, operand.type, operand.isOutput, 0});
            _program.epilogueArguments.push_back(std::move(name));
        }
        _program.epilogue = std::move(*epilogue);
        return true;
    }

    const hipdnn_flatbuffers_sdk::GraphWrapper& _graph;
    std::string& _reason;
    NormProgram _program;
    std::optional<size_t> _normIndex;
    std::vector<size_t> _epilogueNodes;
    std::vector<int64_t> _xDims;
    std::vector<int64_t> _xStrides;
    int64_t _yUid = 0;
};

}  // namespace

std::optional<NormProgram> analyzeNormGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                            std::string& reason) {
    return NormAnalysis(graph, reason).run();
}

}  // namespace hipdnn_cuda_kernels
