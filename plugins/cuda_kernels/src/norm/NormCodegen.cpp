// generateNormSource, and what the generator of every kernel family uses: operands, vector
// width, the epilogue and the stores.
#include "NormGenerator.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hipdnn_cuda_kernels::detail {

namespace {

constexpr const char* kEpilogueFunction = "hdnn_epilogue";

}  // namespace

std::string floatLiteral(double value) {
    char text[32];
    std::snprintf(text, sizeof(text), "__int_as_float(0x%08x)",
                  std::bit_cast<uint32_t>(static_cast<float>(value)));
    return text;
}

std::string storage(ElementType type) {
    return type == ElementType::Float ? "float" : "unsigned short";
}

std::string kind(ElementType type) {
    return std::to_string(elementKind(type));
}

std::optional<NormSource> NormGenerator::run(std::string& reason) {
    const bool pooling = _program.kind == NormKind::Pooling;
    _out << "// hipDNN "
         << (pooling                                        ? "pooling"
             : _program.kind == NormKind::RmsNormBackward   ? "RMS norm backward"
             : _program.kind == NormKind::LayernormBackward ? "layer norm backward"
             : _program.isRowNorm()                         ? "row norm"
                                                            : "batch norm")
         << " kernels, " << _program.elementCount << " elements\n"
         << kernelPrelude(_device.computeCapability) << "typedef "
         << (indexLimit() < (int64_t{1} << 31) ? "unsigned int" : "unsigned long long") << " hdnn_index;\n";
    const bool generated = pooling                        ? poolingForward(reason)
                           : _program.isRowNormBackward() ? rowNormBackward(reason)
                           : _program.isRowNorm()         ? rowNorm(reason)
                                                          : batchnorm(reason);
    if (!generated) {
        return std::nullopt;
    }
    _result.source = _out.str();
    _result.vectorOperands = vectorOperands();
    return std::move(_result);
}

// One past the largest element offset or index the kernels compute.
int64_t NormGenerator::indexLimit() const {
    if (_program.isRowNormBackward()) {
        // The workspace's partial rows: at most one of dscale and one of dbias per row of x.
        return 2 * _program.elementCount;
    }
    if (!_program.pooling) {
        return _program.elementCount;
    }
    int64_t xLimit = 1;
    for (size_t d = 0; d < _program.pooling->xDims.size(); ++d) {
        xLimit += (_program.pooling->xDims[d] - 1) * _program.pooling->xStrides[d];
    }
    return std::max(_program.elementCount, xLimit);
}

size_t NormGenerator::widestElement() const {
    size_t widest = elementSize(_program.operand("x")->type);
    if (_program.storesY) {
        widest = std::max(widest, elementSize(_program.yType));
    }
    if (const NormOperand* dy = _program.operand("dy")) {
        widest = std::max(widest, elementSize(dy->type));
    }
    if (_program.epilogue) {
        for (const MemoryOperand& operand : _program.epilogue->operands) {
            if (!operand.isSingleElement && !operand.inRegister) {
                widest = std::max(widest, elementSize(operand.type));
            }
        }
    }
    return widest;
}

std::string NormGenerator::parameters() const {
    std::string text;
    for (const NormOperand& operand : _program.operands) {
        text += std::string(operand.isOutput ? "" : "const ") + storage(operand.type) + "* __restrict__ " +
                operand.name + ", ";
    }
    return text + "float* __restrict__ hdnn_ws, unsigned hdnn_parts";
}

std::string NormGenerator::header(const char* name, unsigned blockSize) const {
    return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(blockSize) + ") " + name + "(" +
           parameters() + ") {\n";
}

// The float value of one-element operand `name`'s element `index`.
std::string NormGenerator::read(const char* name, const std::string& index) const {
    const NormOperand* operand = _program.operand(name);
    return "hdnn_to_float<" + kind(operand->type) + ">(" + name + "[" + index + "])";
}

std::string NormGenerator::scalar(const NormScalar& value) const {
    if (value.constant) {
        return floatLiteral(*value.constant);
    }
    return read(value.operand->c_str(), "0");
}

// Emits the epilogue fragment (when there is one) and returns the statements that deliver
// `out[kW]` at element offset `e`: y's store, then the epilogue on y's value; every store
// with `storeHint`.
std::string NormGenerator::emitDelivery(int width, std::string& reason, bool& ok, AccessHint storeHint) {
    std::string delivery;
    if (_program.storesY) {
        delivery += "hdnn_store<" + kind(_program.yType) + ", kW, " +
                    std::to_string(static_cast<int>(storeHint)) + ">(y, e, out); ";
    }
    if (!_program.epilogue) {
        return delivery;
    }
    const auto fragment =
        generatePointwiseFragment(*_program.epilogue, kEpilogueFunction, width, reason, storeHint);
    if (!fragment) {
        ok = false;
        return {};
    }
    _out << *fragment;
    if (_program.yType != ElementType::Float) {
        // y as the graph declares it: the epilogue reads the rounded value.
        delivery += "for (int l = 0; l < kW; ++l) { out[l] = hdnn_to_float<" + kind(_program.yType) +
                    ">(hdnn_from_float<" + kind(_program.yType) + ">(out[l])); } ";
    }
    delivery += std::string(kEpilogueFunction) + "(e, out";
    for (const std::string& argument : _program.epilogueArguments) {
        delivery += ", " + argument;
    }
    return delivery + ");";
}

// x, y and the epilogue's tensors move a vector at a time, and a row norm's scale and bias;
// pooling moves single elements.
std::vector<std::string> NormGenerator::vectorOperands() const {
    if (_program.kind == NormKind::Pooling) {
        return {};
    }
    std::vector<std::string> names = {"x"};
    if (has("dy")) {
        names.emplace_back("dy");
    }
    if (_program.storesY) {
        names.emplace_back("y");
    }
    if (_program.isRowNorm()) {
        names.emplace_back("scale");
        if (has("bias")) {
            names.emplace_back("bias");
        }
    }
    if (_program.epilogue) {
        for (const MemoryOperand& operand : _program.epilogue->operands) {
            if (!operand.inRegister && !operand.isSingleElement) {
                const auto found = std::find_if(_program.operands.begin(), _program.operands.end(),
                                                [&](const NormOperand& o) { return o.uid == operand.uid; });
                names.push_back(found->name);
            }
        }
    }
    return names;
}

}  // namespace hipdnn_cuda_kernels::detail

namespace hipdnn_cuda_kernels {

std::optional<NormSource> generateNormSource(const NormProgram& program, const DeviceInfo& device,
                                             bool scalar, std::string& reason, const NormOptions& options) {
    return detail::NormGenerator(program, device, scalar, options).run(reason);
}

}  // namespace hipdnn_cuda_kernels
