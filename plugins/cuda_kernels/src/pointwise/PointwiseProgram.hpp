// A graph of pointwise nodes as the fused kernel sees it: the iteration space (the outputs' dims),
// the tensors in memory with their strides aligned to it, and one step per node in topological
// order whose inputs are memory tensors, earlier steps (virtual intermediates, kept in registers)
// or pass-by-value constants.
#pragma once

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

/// Element types of tensors in memory.
enum class ElementType { Float, Half, BFloat16 };

/// Types a step computes in (the node's compute data type).
enum class ComputeType { Float, Double };

size_t elementSize(ElementType type);

/// The type `tensor` holds: its own, else the graph's intermediate (virtual) or I/O type.
hipdnn_flatbuffers_sdk::data_objects::DataType effectiveType(
    const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
    const hipdnn_flatbuffers_sdk::data_objects::TensorAttributes& tensor);

/// The element type of a schema data type the kernels load and store; nullopt for others.
std::optional<ElementType> elementTypeOf(hipdnn_flatbuffers_sdk::data_objects::DataType type);

/// Whether the offsets of `dims` under `strides` fill [0, element count) exactly once.
bool isDenseLayout(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides);

/// "tensor uid 3 'x'", for messages.
std::string describeTensor(const hipdnn_flatbuffers_sdk::data_objects::TensorAttributes& tensor);

/// A tensor read from or written to memory: one kernel parameter.
struct MemoryOperand {
    int64_t uid = 0;
    ElementType type = ElementType::Float;
    std::vector<int64_t> strides;  // one per iteration dim; 0 where the tensor broadcasts
    bool isOutput = false;
    bool isSingleElement = false;  // an input of one element, read at offset 0 for every index
    /// The value comes from (input) or goes to (output) the caller's registers, not memory: the
    /// tensor another kernel computes before or consumes after this program (a fused norm's y).
    bool inRegister = false;
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

/// Virtual tensors of a larger plan that live in memory (its workspace), by uid, with the element
/// type they are stored in: another kernel of the plan writes or reads them.
using MemoryVirtuals = std::map<int64_t, ElementType>;

/// The program of the pointwise nodes `nodes` (indices in topological order) of a larger graph: its
/// inputs are the tensors those nodes read and do not produce, its outputs the non-virtual tensors
/// they produce and those of `memoryVirtuals`. `registerInput` is the one input the caller holds in
/// registers (inRegister), if any.
std::optional<PointwiseProgram> analyzePointwiseNodes(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                      const std::vector<size_t>& nodes,
                                                      std::optional<int64_t> registerInput,
                                                      const MemoryVirtuals& memoryVirtuals,
                                                      std::string& reason);

}  // namespace hipdnn_cuda_kernels
