#include "PointwiseProgram.hpp"

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_flatbuffers_sdk/PassByValue.hpp>
#include <hipdnn_flatbuffers_sdk/operations/Pointwise.hpp>

#include <algorithm>
#include <limits>
#include <map>

namespace hipdnn_cuda_kernels {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

size_t elementSize(ElementType type) {
    return type == ElementType::Float ? 4 : 2;
}

int64_t PointwiseProgram::elementCount() const {
    int64_t count = 1;
    for (const int64_t dim : dims) {
        count *= dim;
    }
    return count;
}

using Tensor = fb::TensorAttributes;

fb::DataType effectiveType(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, const Tensor& tensor) {
    if (tensor.data_type() != fb::DataType::UNSET) {
        return tensor.data_type();
    }
    return tensor.virtual_() ? graph.graph().intermediate_data_type() : graph.graph().io_data_type();
}

std::optional<ElementType> elementTypeOf(fb::DataType type) {
    switch (type) {
        case fb::DataType::FLOAT:
            return ElementType::Float;
        case fb::DataType::HALF:
            return ElementType::Half;
        case fb::DataType::BFLOAT16:
            return ElementType::BFloat16;
        default:
            return std::nullopt;
    }
}

std::string describeTensor(const Tensor& tensor) {
    return "tensor uid " + std::to_string(tensor.uid()) + " '" +
           (tensor.name() != nullptr ? tensor.name()->str() : std::string()) + "'";
}

bool isDenseLayout(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides) {
    std::vector<std::pair<int64_t, int64_t>> byStride;
    for (size_t d = 0; d < dims.size(); ++d) {
        if (dims[d] > 1) {
            byStride.emplace_back(strides[d], dims[d]);
        }
    }
    std::sort(byStride.begin(), byStride.end());
    int64_t expected = 1;
    for (const auto& [stride, dim] : byStride) {
        if (stride != expected) {
            return false;
        }
        expected *= dim;
    }
    return true;
}

namespace {

std::vector<int64_t> dimsOf(const Tensor& tensor) {
    return {tensor.dims()->begin(), tensor.dims()->end()};
}

// The tensor's strides over `dims` (right-aligned); 0 where it broadcasts. nullopt when its dims do
// not broadcast to `dims`.
std::optional<std::vector<int64_t>> alignedStrides(const Tensor& tensor, const std::vector<int64_t>& dims) {
    const size_t rank = tensor.dims()->size();
    if (rank > dims.size()) {
        return std::nullopt;
    }
    const size_t lead = dims.size() - rank;
    std::vector<int64_t> strides(dims.size(), 0);
    for (size_t d = 0; d < rank; ++d) {
        const int64_t dim = tensor.dims()->Get(static_cast<flatbuffers::uoffset_t>(d));
        if (dim != dims[d + lead] && dim != 1) {
            return std::nullopt;
        }
        // Dims of extent 1 never move: a zero stride there makes equal layouts compare equal.
        strides[d + lead] = dim == 1 ? 0 : tensor.strides()->Get(static_cast<flatbuffers::uoffset_t>(d));
    }
    return strides;
}

double roundToType(double value, fb::DataType type) {
    switch (type) {
        case fb::DataType::FLOAT:
            return static_cast<float>(value);
        case fb::DataType::HALF:
            return static_cast<double>(hipdnn_data_sdk::types::half(value));
        case fb::DataType::BFLOAT16:
            return static_cast<double>(hipdnn_data_sdk::types::bfloat16(value));
        default:
            return value;
    }
}

class Analysis {
public:
    // The whole graph.
    Analysis(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, std::string& reason)
        : _graph(graph), _reason(reason), _inputUids(graph.inputUids()), _outputUids(graph.outputUids()) {
        for (size_t i = 0; i < graph.nodeCount(); ++i) {
            _nodes.push_back(i);
        }
    }

    // Some nodes of the graph; their boundary tensors are the program's operands.
    Analysis(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, std::vector<size_t> nodes,
             std::optional<int64_t> registerInput, MemoryVirtuals memoryVirtuals, std::string& reason)
        : _graph(graph),
          _reason(reason),
          _nodes(std::move(nodes)),
          _registerInput(registerInput),
          _memoryVirtuals(std::move(memoryVirtuals)) {
        std::vector<int64_t> produced;
        for (const size_t index : _nodes) {
            for (const int64_t uid : graph.node(index).outputUids()) {
                produced.push_back(uid);
                if (inMemory(graph.tensor(uid))) {
                    _outputUids.push_back(uid);
                }
            }
        }
        for (const size_t index : _nodes) {
            for (const int64_t uid : graph.node(index).inputUids()) {
                if (std::find(produced.begin(), produced.end(), uid) == produced.end() &&
                    std::find(_inputUids.begin(), _inputUids.end(), uid) == _inputUids.end()) {
                    _inputUids.push_back(uid);
                }
            }
        }
    }

    std::optional<PointwiseProgram> run() {
        if (!checkNodesArePointwise() || !findIterationSpace() || !addOperands()) {
            return std::nullopt;
        }
        for (const size_t index : _nodes) {
            if (!addStep(_graph.node(index))) {
                return std::nullopt;
            }
        }
        _program.contiguous = isContiguous();
        return std::move(_program);
    }

private:
    bool decline(std::string why) {
        _reason = std::move(why);
        return false;
    }

    bool inMemory(const Tensor& tensor) const {
        return !tensor.virtual_() || _memoryVirtuals.count(tensor.uid()) > 0;
    }

    bool checkNodesArePointwise() {
        for (const size_t index : _nodes) {
            const auto node = _graph.node(index);
            if (node.type() != fb::NodeAttributes::PointwiseAttributes) {
                return decline(node.describe() + " is not a pointwise operation");
            }
        }
        return true;
    }

    bool findIterationSpace() {
        for (const int64_t uid : _outputUids) {
            const Tensor& tensor = _graph.tensor(uid);
            if (_program.dims.empty()) {
                _program.dims = dimsOf(tensor);
            } else if (dimsOf(tensor) != _program.dims) {
                return decline("outputs have different dims (" + describeTensor(tensor) +
                               "); one fused kernel writes outputs of one shape");
            }
        }
        return !_program.dims.empty() || decline("the graph has no output");
    }

    bool addOperand(int64_t uid, bool isOutput) {
        const Tensor& tensor = _graph.tensor(uid);
        const fb::DataType type = effectiveType(_graph, tensor);
        const auto stored = _memoryVirtuals.find(uid);
        const auto element =
            stored != _memoryVirtuals.end() ? std::optional(stored->second) : elementTypeOf(type);
        if (!element) {
            return decline(describeTensor(tensor) + " has data type " + fb::EnumNameDataType(type) +
                           "; supported: FLOAT, HALF, BFLOAT16");
        }
        auto strides = alignedStrides(tensor, _program.dims);
        if (!strides) {
            return decline(describeTensor(tensor) + " does not broadcast to the output dims");
        }
        MemoryOperand operand;
        operand.uid = uid;
        operand.type = *element;
        operand.strides = std::move(*strides);
        operand.isOutput = isOutput;
        operand.inRegister = uid == _registerInput;
        operand.isSingleElement =
            !isOutput && !operand.inRegister &&
            std::all_of(tensor.dims()->begin(), tensor.dims()->end(), [](int64_t dim) { return dim == 1; });
        _operandOf[uid] = _program.operands.size();
        _program.operands.push_back(std::move(operand));
        return true;
    }

    bool addOperands() {
        for (const int64_t uid : _inputUids) {
            const Tensor& tensor = _graph.tensor(uid);
            if (tensor.value_type() == fb::TensorValue::NONE) {
                if (!addOperand(uid, false)) {
                    return false;
                }
                continue;
            }
            const auto value = hipdnn_flatbuffers_sdk::passByValueNumber(tensor);
            if (!value) {
                return decline(describeTensor(tensor) + " is a pass-by-value " +
                               fb::EnumNameTensorValue(tensor.value_type()) + ", which is not supported");
            }
            _constantOf[uid] = roundToType(*value, effectiveType(_graph, tensor));
        }
        for (const int64_t uid : _outputUids) {
            if (!addOperand(uid, true)) {
                return false;
            }
        }
        return true;
    }

    bool addStep(const hipdnn_flatbuffers_sdk::NodeWrapper& node) {
        const auto& a = *node.attributesAs<fb::PointwiseAttributes>();
        PointwiseStep step;
        step.mode = a.operation();
        const int inputCount = hipdnn_flatbuffers_sdk::pointwiseInputCount(step.mode);
        if (inputCount == 0) {
            return decline(node.describe() + " has pointwise mode " + fb::EnumNamePointwiseMode(step.mode) +
                           ", which the engine does not implement");
        }
        fb::DataType compute = node.node().compute_data_type();
        if (compute == fb::DataType::UNSET) {
            compute = _graph.graph().compute_data_type();
        }
        if (compute != fb::DataType::FLOAT && compute != fb::DataType::DOUBLE) {
            return decline(node.describe() + " has compute data type " + fb::EnumNameDataType(compute) +
                           "; supported: FLOAT, DOUBLE");
        }
        step.compute = compute == fb::DataType::FLOAT ? ComputeType::Float : ComputeType::Double;
        const std::optional<int64_t> uids[] = {a.in_0_tensor_uid(), a.in_1_tensor_uid(), a.in_2_tensor_uid()};
        for (int i = 0; i < inputCount; ++i) {
            step.inputs.push_back(inputOf(*uids[i]));
        }
        step.reluLowerClip = a.relu_lower_clip().value_or(0.0F);
        step.reluUpperClip = a.relu_upper_clip() ? static_cast<double>(*a.relu_upper_clip())
                                                 : std::numeric_limits<double>::infinity();
        step.reluLowerClipSlope = a.relu_lower_clip_slope().value_or(0.0F);
        step.swishBeta = a.swish_beta().value_or(1.0F);
        step.eluAlpha = a.elu_alpha().value_or(1.0F);
        step.softplusBeta = a.softplus_beta().value_or(1.0F);

        const Tensor& out = _graph.tensor(a.out_0_tensor_uid());
        if (!alignedStrides(out, _program.dims)) {
            return decline(describeTensor(out) + " does not broadcast to the output dims");
        }
        if (step.mode == fb::PointwiseMode::GEN_INDEX) {
            // The graph contract guarantees 0 <= axis < rank of out.
            const auto axis = static_cast<size_t>(*a.axis_tensor_uid());
            if (out.dims()->Get(static_cast<flatbuffers::uoffset_t>(axis)) > 1) {
                step.indexDim = axis + (_program.dims.size() - out.dims()->size());
            }
        }
        if (!inMemory(out)) {
            const fb::DataType type = effectiveType(_graph, out);
            const auto element = elementTypeOf(type);
            if (!element && type != fb::DataType::DOUBLE) {
                return decline(describeTensor(out) + " has data type " + fb::EnumNameDataType(type) +
                               "; supported: FLOAT, HALF, BFLOAT16, DOUBLE");
            }
            // A float intermediate only needs rounding when the step computes in double.
            if (element && (*element != ElementType::Float || step.compute == ComputeType::Double)) {
                step.roundTo = element;
            }
        } else {
            step.storeOperand = _operandOf.at(out.uid());
        }
        _stepOf[out.uid()] = _program.steps.size();
        _program.steps.push_back(std::move(step));
        return true;
    }

    StepInput inputOf(int64_t uid) const {
        if (const auto step = _stepOf.find(uid); step != _stepOf.end()) {
            return {StepInput::Kind::Step, step->second, 0};
        }
        if (const auto constant = _constantOf.find(uid); constant != _constantOf.end()) {
            return {StepInput::Kind::Constant, 0, constant->second};
        }
        return {StepInput::Kind::Memory, _operandOf.at(uid), 0};
    }

    bool isContiguous() const {
        const bool indexes = std::any_of(_program.steps.begin(), _program.steps.end(),
                                         [](const PointwiseStep& step) { return step.indexDim.has_value(); });
        if (indexes) {
            return false;  // GEN_INDEX needs coordinates
        }
        const std::vector<int64_t>* layout = nullptr;
        for (const MemoryOperand& operand : _program.operands) {
            if (operand.isSingleElement) {
                continue;
            }
            for (size_t d = 0; d < _program.dims.size(); ++d) {
                if (_program.dims[d] > 1 && operand.strides[d] == 0) {
                    return false;  // broadcasts along d
                }
            }
            if (layout == nullptr) {
                if (!isDenseLayout(_program.dims, operand.strides)) {
                    return false;
                }
                layout = &operand.strides;
            } else if (*layout != operand.strides) {
                return false;
            }
        }
        return true;
    }

    const hipdnn_flatbuffers_sdk::GraphWrapper& _graph;
    std::string& _reason;
    std::vector<size_t> _nodes;
    std::optional<int64_t> _registerInput;
    MemoryVirtuals _memoryVirtuals;
    std::vector<int64_t> _inputUids;
    std::vector<int64_t> _outputUids;
    PointwiseProgram _program;
    std::map<int64_t, size_t> _operandOf;
    std::map<int64_t, size_t> _stepOf;
    std::map<int64_t, double> _constantOf;
};

}  // namespace

std::optional<PointwiseProgram> analyzePointwiseGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                      std::string& reason) {
    return Analysis(graph, reason).run();
}

std::optional<PointwiseProgram> analyzePointwiseNodes(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                      const std::vector<size_t>& nodes,
                                                      std::optional<int64_t> registerInput,
                                                      const MemoryVirtuals& memoryVirtuals,
                                                      std::string& reason) {
    return Analysis(graph, nodes, registerInput, memoryVirtuals, reason).run();
}

}  // namespace hipdnn_cuda_kernels
