#include "NormProgram.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
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
using hipdnn_data_sdk::utilities::formatDims;
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

std::vector<int64_t> listOf(const flatbuffers::Vector<int64_t>* values) {
    return values != nullptr ? std::vector<int64_t>(values->begin(), values->end()) : std::vector<int64_t>{};
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

    static bool isNormOrPooling(fb::NodeAttributes type) {
        switch (type) {
            case fb::NodeAttributes::ResampleFwdAttributes:
            case fb::NodeAttributes::LayernormAttributes:
            case fb::NodeAttributes::RMSNormAttributes:
            case fb::NodeAttributes::RMSNormBackwardAttributes:
            case fb::NodeAttributes::LayernormBackwardAttributes:
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
            if (!isNormOrPooling(node.type())) {
                return decline(node.describe() +
                               " is not a layer norm, RMS norm (forward or backward), batch norm (inference, "
                               "training or backward) or pooling forward");
            }
            if (_normIndex) {
                return decline(
                    "the graph has two norm or pooling nodes; the engine fuses one with pointwise nodes "
                    "after it");
            }
            _normIndex = i;
        }
        if (!_normIndex) {
            return decline("the graph has no norm or pooling node");
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
        if (!yTensor.virtual_() && movingStrides(yTensor) != _xStrides) {
            return decline(describeTensor(yTensor) + " has a layout other than x's");
        }
        _yDims = _xDims;
        _yStrides = _xStrides;
        return addY(y);
    }

    // The activation the node writes: a pointer parameter unless it is virtual.
    bool addY(int64_t y) {
        const Tensor& yTensor = _graph.tensor(y);
        const auto yType = typeOf(yTensor);
        if (!yType) {
            return false;
        }
        _program.yType = *yType;
        _yUid = y;
        _program.storesY = !yTensor.virtual_();
        if (_program.storesY) {
            _program.operands.push_back({"y", y, *yType, true, 0});
        }
        return true;
    }

    bool poolingModes(const NodeWrapper& node, const fb::ResampleFwdAttributes& a, PoolingWindow& window) {
        switch (a.resample_mode()) {
            case fb::ResampleMode::MAXPOOL:
                window.mode = PoolingMode::Max;
                break;
            case fb::ResampleMode::AVGPOOL_EXCLUDE_PADDING:
                window.mode = PoolingMode::AverageExcludePadding;
                break;
            case fb::ResampleMode::AVGPOOL_INCLUDE_PADDING:
                window.mode = PoolingMode::AverageIncludePadding;
                break;
            default:
                return decline(node.describe() + " has resample mode " +
                               fb::EnumNameResampleMode(a.resample_mode()) +
                               "; supported: MAXPOOL, AVGPOOL_EXCLUDE_PADDING, AVGPOOL_INCLUDE_PADDING");
        }
        switch (a.padding_mode()) {
            // Unset is the schema's default: padding never wins a max.
            case fb::PaddingMode::PADDING_NOT_SET:
            case fb::PaddingMode::NEG_INF_PAD:
                window.padding = PoolingPadding::None;
                break;
            case fb::PaddingMode::ZERO_PAD:
                window.padding = PoolingPadding::Zero;
                break;
            case fb::PaddingMode::EDGE_VAL_PAD:
                window.padding = PoolingPadding::Edge;
                break;
        }
        return true;
    }

    // The graph's validation guarantees the ranks (3 to 5), one window, stride and padding entry
    // per spatial dim at their minimums, y's extents and strides >= 0; the CPU reference also
    // keeps the padding narrower than the window, so that every window overlaps x.
    bool poolingGeometry(const NodeWrapper& node, const fb::ResampleFwdAttributes& a, PoolingWindow& window) {
        window.window = listOf(a.window());
        window.stride = listOf(a.stride());
        window.prePadding = listOf(a.pre_padding());
        window.postPadding = listOf(a.post_padding());
        for (size_t d = 0; d < window.window.size(); ++d) {
            const int64_t size = window.window[d];
            if (window.prePadding[d] >= size || window.postPadding[d] >= size) {
                return decline(node.describe() + " spatial dim " + std::to_string(d) + " has window " +
                               std::to_string(size) + " and padding " + std::to_string(window.prePadding[d]) +
                               " / " + std::to_string(window.postPadding[d]) +
                               "; supported: padding narrower than the window");
            }
        }
        return true;
    }

    bool analyzePooling(const NodeWrapper& node) {
        const auto& a = *node.attributesAs<fb::ResampleFwdAttributes>();
        _program.kind = NormKind::Pooling;
        if (const std::optional<int64_t> index = a.index_tensor_uid()) {
            return decline(node.describe() + " writes the max pooling index (" +
                           describeTensor(_graph.tensor(*index)) + "), which the engine does not");
        }
        PoolingWindow window;
        if (!poolingModes(node, a, window) || !poolingGeometry(node, a, window)) {
            return false;
        }
        const Tensor& x = _graph.tensor(a.x_tensor_uid());
        const Tensor& y = _graph.tensor(a.y_tensor_uid());
        window.xDims = dimsOf(x);
        window.xStrides = {x.strides()->begin(), x.strides()->end()};
        window.yDims = dimsOf(y);
        window.yStrides = {y.strides()->begin(), y.strides()->end()};
        if (!isDenseLayout(window.yDims, window.yStrides)) {
            return decline(describeTensor(y) + " is not dense (its strides " + formatDims(window.yStrides) +
                           " leave gaps or overlap)");
        }
        if (!addOperand("x", a.x_tensor_uid(), false) || !addY(a.y_tensor_uid())) {
            return false;
        }
        _program.elementCount = 1;
        for (const int64_t dim : window.yDims) {
            _program.elementCount *= dim;
        }
        _yDims = window.yDims;
        _yStrides = movingStrides(y);
        _program.pooling = std::move(window);
        return true;
    }

    // Row norms normalize every dim but the first: rows must be outermost and the per-column
    // tensors (scale, bias, their gradients) have the dims and layout of one row.
    bool checkRows(std::initializer_list<std::optional<int64_t>> rowParameters) {
        _program.rows = _xDims[0];
        _program.columns = _program.elementCount / std::max<int64_t>(1, _program.rows);
        if (_program.rows > 1 && _xStrides[0] != _program.columns) {
            return decline("x's rows (dim 0) are not its outermost dim: stride " +
                           std::to_string(_xStrides[0]) + ", expected " + std::to_string(_program.columns));
        }
        const std::vector<int64_t> rowLayout(_xStrides.begin() + 1, _xStrides.end());
        std::vector<int64_t> rowDims = _xDims;
        rowDims[0] = 1;
        for (const auto& uid : rowParameters) {
            if (!uid) {
                continue;
            }
            const Tensor& tensor = _graph.tensor(*uid);
            const auto strides = movingStrides(tensor);
            if (dimsOf(tensor) != rowDims) {
                return decline(describeTensor(tensor) + " has dims " + formatDims(dimsOf(tensor)) +
                               "; the engine needs one row of x: " + formatDims(rowDims));
            }
            if (std::vector<int64_t>(strides.begin() + 1, strides.end()) != rowLayout) {
                return decline(describeTensor(tensor) + " does not have the layout of one row of x");
            }
        }
        return true;
    }

    // A backward norm writes dx to memory from dy in x's layout, with nothing fused after it.
    bool checkGradients(const char* norm, int64_t dx, int64_t dy, int64_t x) {
        if (!_epilogueNodes.empty()) {
            return decline(std::string("pointwise nodes after ") + norm + " are not fused");
        }
        if (_graph.tensor(dx).virtual_()) {
            return decline(describeTensor(_graph.tensor(dx)) + " (dx) is virtual");
        }
        if (movingStrides(_graph.tensor(dy)) != movingStrides(_graph.tensor(x))) {
            return decline(describeTensor(_graph.tensor(dy)) + " (dy) has a layout other than x's");
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
            case fb::NodeAttributes::RMSNormBackwardAttributes: {
                const auto& a = *node.attributesAs<fb::RMSNormBackwardAttributes>();
                _program.kind = NormKind::RmsNormBackward;
                // The graph's contract requires inv_rms (the schema has no epsilon to recompute it).
                return checkGradients("RMS norm backward", a.dx_tensor_uid(), a.dy_tensor_uid(),
                                      a.x_tensor_uid()) &&
                       addActivations(a.x_tensor_uid(), a.dx_tensor_uid()) &&
                       checkRows({a.scale_tensor_uid(), a.dscale_tensor_uid(), a.dbias_tensor_uid()}) &&
                       addOperand("dy", a.dy_tensor_uid(), false) &&
                       addOperand("scale", a.scale_tensor_uid(), false) &&
                       addOptional("inv_rms", a.inv_rms_tensor_uid(), false, 0) &&
                       addOperand("dscale", a.dscale_tensor_uid(), true) &&
                       addOptional("dbias", a.dbias_tensor_uid(), true, 0);
            }
            case fb::NodeAttributes::LayernormBackwardAttributes: {
                const auto& a = *node.attributesAs<fb::LayernormBackwardAttributes>();
                _program.kind = NormKind::LayernormBackward;
                // The graph's contract requires the saved mean and inv_variance and normalizes
                // every dim but the first; epsilon is not needed without recomputing them.
                return checkGradients("layer norm backward", a.dx_tensor_uid(), a.dy_tensor_uid(),
                                      a.x_tensor_uid()) &&
                       addActivations(a.x_tensor_uid(), a.dx_tensor_uid()) &&
                       checkRows({a.scale_tensor_uid(), a.dscale_tensor_uid(), a.dbias_tensor_uid()}) &&
                       addOperand("dy", a.dy_tensor_uid(), false) &&
                       addOperand("scale", a.scale_tensor_uid(), false) &&
                       addOptional("mean", a.mean_tensor_uid(), false, 0) &&
                       addOptional("inv_variance", a.inv_variance_tensor_uid(), false, 0) &&
                       addOperand("dscale", a.dscale_tensor_uid(), true) &&
                       addOperand("dbias", a.dbias_tensor_uid(), true);
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
                _program.peerCount = static_cast<int64_t>(listOf(a.peer_stats_tensor_uid()).size());
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
                _program.peerCount = static_cast<int64_t>(listOf(a.peer_stats_tensor_uid()).size());
                if (!a.mean_tensor_uid() || !a.inv_variance_tensor_uid()) {
                    return decline(node.describe() +
                                   " has no saved mean and inv_variance; recomputing them is not supported");
                }
                return checkGradients("batch norm backward", a.dx_tensor_uid(), a.dy_tensor_uid(),
                                      a.x_tensor_uid()) &&
                       addActivations(a.x_tensor_uid(), a.dx_tensor_uid()) && addChannels() &&
                       addOperand("dy", a.dy_tensor_uid(), false) &&
                       addOptional("mean", a.mean_tensor_uid(), false, 1) &&
                       addOptional("inv_variance", a.inv_variance_tensor_uid(), false, 1) &&
                       addOptional("scale", a.scale_tensor_uid(), false, 1) &&
                       addOptional("dscale", a.dscale_tensor_uid(), true, 1) &&
                       addOptional("dbias", a.dbias_tensor_uid(), true, 1);
            }
            case fb::NodeAttributes::ResampleFwdAttributes:
                return analyzePooling(node);
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
        auto epilogue = analyzePointwiseNodes(_graph, _epilogueNodes, _yUid, {}, _reason);
        if (!epilogue) {
            return false;
        }
        if (epilogue->dims != _yDims) {
            return decline("the pointwise nodes after the norm write tensors of other dims than y's");
        }
        for (const MemoryOperand& operand : epilogue->operands) {
            if (operand.inRegister) {
                continue;
            }
            if (!operand.isSingleElement && operand.strides != _yStrides) {
                return decline(describeTensor(_graph.tensor(operand.uid)) +
                               ", read or written after the norm, does not have y's layout");
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
    // y's dims and layout, which the epilogue's tensors share (x's for a norm).
    std::vector<int64_t> _yDims;
    std::vector<int64_t> _yStrides;
    int64_t _yUid = 0;
};

}  // namespace

std::optional<NormProgram> analyzeNormGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                            std::string& reason) {
    return NormAnalysis(graph, reason).run();
}

}  // namespace hipdnn_cuda_kernels
