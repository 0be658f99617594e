// A graph of pointwise nodes as the fused kernel sees it: the iteration space (the outputs' dims),
// the tensors in memory with their strides aligned to it, and one step per node in topological
// order whose inputs are memory tensors, earlier steps (virtual intermediates, kept in registers)
// or pass-by-value constants.
#pragma once

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

/// Element types of tensors in memory.
enum class ElementType { Float, Half, BFloat16 };

/// Types a step computes in (the node's compute data type).
enum class ComputeType { Float, Double };

size_t elementSize(ElementType type);

/// A tensor read from or written to memory: one kernel parameter.
struct MemoryOperand {
    int64_t uid = 0;
    ElementType type = ElementType::Float;
    std::vector<int64_t> strides;  // one per iteration dim; 0 where the tensor broadcasts
    bool isOutput = false;
    bool isSingleElement = false;  // an input of one element, read at offset 0 for every index
};

/// Where a step input comes from.
struct StepInput {
    enum class Kind { Memory, Step, Constant };
    Kind kind = Kind::Memory;
    size_t index = 0;     // operand index (Memory) or step index (Step)
    double constant = 0;  // Constant: the pass-by-value value, rounded to its data type
};

/// One pointwise node. Mode parameters carry the CPU reference's defaults where the node leaves
/// them unset.
struct PointwiseStep {
    hipdnn_flatbuffers_sdk::data_objects::PointwiseMode mode{};
    ComputeType compute = ComputeType::Float;
    std::vector<StepInput> inputs;  // in_0, in_1, in_2 as the mode reads them
    double reluLowerClip = 0;
    double reluUpperClip = 0;  // +inf by default
    double reluLowerClipSlope = 0;
    double swishBeta = 1;
    double eluAlpha = 1;
    double softplusBeta = 1;
    /// GEN_INDEX: the iteration dim whose coordinate the step yields; nullopt where the node's
    /// output has extent 1 along its axis (the coordinate is always 0).
    std::optional<size_t> indexDim;
    /// A virtual output is rounded to its declared type where that is narrower than the compute
    /// type, as the graph says (and as the CPU reference stores it).
    std::optional<ElementType> roundTo;
    /// Output operands this step's value is written to (a non-virtual output).
    std::optional<size_t> storeOperand;
};

struct PointwiseProgram {
    std::vector<int64_t> dims;            // the iteration space: every output's dims
    std::vector<MemoryOperand> operands;  // inputs, then outputs: the kernel parameters in order
    std::vector<PointwiseStep> steps;
    /// Every operand that is not a single element has the iteration dims and one dense layout
    /// shared by all, so one linear offset addresses them all (vectorizable).
    bool contiguous = false;

    int64_t elementCount() const;
};

/// The program of `graph`, or nullopt with `reason` naming what the engine does not run (a node
/// that is not pointwise, a data or compute type, a mode, outputs of different shapes).
std::optional<PointwiseProgram> analyzePointwiseGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                      std::string& reason);

}  // namespace hipdnn_cuda_kernels
