// A problem ready to run: its serialized graph, a label for tables and the driver words that
// rebuild it (the reproducer). Every problem kind is built through the frontend.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_frontend.hpp>

#include "ProblemSpecs.hpp"

namespace hipdnn_driver {

struct Problem {
    std::string label;                               // "conv fprop fp32 NCHW n4 c64 56x56 k64 3x3 p1x1 ..."
    std::vector<std::string> commandWords;           // {"conv", "-n", "4", ...}: rebuilds this problem
    std::vector<uint8_t> graph;                      // the serialized Graph FlatBuffer
    std::optional<std::filesystem::path> inputsDir;  // golden-data inputs (graph --inputs)
};

// A problem that cannot be built (bad shape, unreadable graph file); the message says why.
class ProblemError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Builds the problem; throws ProblemError.
Problem makeProblem(const ProblemSpec& spec);

// The spec's driver words ({"conv", "-n", "4", ...}) without building it, from its subcommand's
// flag table; flags equal to their defaults are left out.
std::vector<std::string> commandWordsFor(const ProblemSpec& spec);

// Reads a graph file (JSON or binary) and verifies it; throws ProblemError naming the file and
// the problem (the JSON parser gives line and column).
std::vector<uint8_t> readGraphFile(const std::filesystem::path& file);
// The graph of a file's contents (JSON when it starts with '{', else a binary Graph), verified;
// throws ProblemError starting with `source`.
std::vector<uint8_t> parseGraphText(const std::string& text, const std::string& source);

// Serializes a frontend graph; throws ProblemError with the frontend's message.
std::vector<uint8_t> serializeGraph(hipdnn_frontend::graph::Graph& graph);

// Helpers the <problem>/*Problem.cpp files share.
namespace detail {
using TensorPtr = hipdnn_frontend::graph::TensorPtr;

// Packed strides of `dims` in the layout (channels first or last; ranks other than 3 to 5 are
// row-major).
std::vector<int64_t> stridesFor(const std::vector<int64_t>& dims, Layout layout);
TensorPtr makeTensor(hipdnn_frontend::graph::Graph& graph, const std::string& name, std::vector<int64_t> dims,
                     Layout layout, DataType dataType = DataType::NOT_SET);
TensorPtr makeScalar(hipdnn_frontend::graph::Graph& graph, const std::string& name, float value);
std::string layoutName(Layout layout, size_t rank);
// The output length of a convolution / pooling window along one dim; throws ProblemError when
// the window does not fit in the padded input.
int64_t checkedOutputLength(const hipdnn_data_sdk::utilities::SlidingWindow& window);
std::string joinDims(const std::vector<int64_t>& dims, char separator);
}  // namespace detail

// The per-kind builders, in their folders (conv/ConvProblem.cpp, ...).
Problem makeConvProblem(const ConvSpec& spec);
Problem makeBnProblem(const BnSpec& spec);
Problem makePointwiseProblem(const PointwiseSpec& spec);
Problem makeMatmulProblem(const MatmulSpec& spec);
Problem makeNormProblem(const NormSpec& spec);
Problem makePoolProblem(const PoolSpec& spec);
Problem makeSdpaProblem(const SdpaSpec& spec);
Problem makeGraphProblem(const GraphSpec& spec);
Problem makeDemoCaseProblem(const DemoCaseSpec& spec);

}  // namespace hipdnn_driver
