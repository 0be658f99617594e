#include "Runner.hpp"
#include "FaultReport.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_flatbuffers_sdk/GraphJson.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/ElementAccess.hpp>

#include <iostream>
#include <sstream>
#include <vector>

namespace hipdnn_differential {

namespace {

using hipdnn_data_sdk::utilities::CPU_REFERENCE_ENGINE_ID;
using hipdnn_test_sdk::BackendGraph;
using hipdnn_test_sdk::BackendHeuristics;
using hipdnn_test_sdk::BackendPlan;
using hipdnn_test_sdk::checkBackend;

std::string engineName(int64_t id) {
    return hipdnn_data_sdk::utilities::tryGetEngineNameFromId(id).value_or(
        hipdnn_data_sdk::utilities::formatEngineIdHex(id));
}

/// Counts the engines of "<engine>\t<plugin>\t<reason>\n" lines.
void countDeclines(const std::string& declined, Statistics& statistics) {
    std::istringstream lines(declined);
    std::string line;
    while (std::getline(lines, line)) {
        if (!line.empty()) {
            ++statistics.declines[line.substr(0, line.find('\t'))];
        }
    }
}

std::vector<int64_t> dimsOf(const flatbuffers::Vector<int64_t>* values) {
    return {values->begin(), values->end()};
}

struct GraphTensors {
    std::vector<TensorSpec> inputs;
    std::vector<TensorSpec> outputs;
};

// The tensors a variant pack binds: inputs and outputs that are neither virtual nor pass-by-value.
GraphTensors bindableTensors(const hipdnn_flatbuffers_sdk::GraphWrapper& graph) {
    const auto specs = [&](const std::vector<int64_t>& uids) {
        std::vector<TensorSpec> result;
        for (int64_t uid : uids) {
            const auto& tensor = graph.tensor(uid);
            if (tensor.virtual_() || tensor.value_type() != fb::TensorValue::NONE) {
                continue;
            }
            TensorSpec spec{uid,
                            tensor.name()->str(),
                            tensor.data_type(),
                            dimsOf(tensor.dims()),
                            dimsOf(tensor.strides()),
                            0};
            spec.bytes = static_cast<size_t>(
                             hipdnn_data_sdk::utilities::storageElementCount(spec.dims, spec.strides)) *
                         hipdnn_test_sdk::dataTypeSize(spec.dataType);
            result.push_back(std::move(spec));
        }
        return result;
    };
    return {specs(graph.inputUids()), specs(graph.outputUids())};
}

HostTensors randomInputs(const Problem& problem, const std::vector<TensorSpec>& inputs, Random& random) {
    HostTensors values;
    for (const TensorSpec& tensor : inputs) {
        const ValueRange range = problem.ranges.at(tensor.uid);
        std::vector<std::byte>& bytes = values[tensor.uid];
        bytes.resize(tensor.bytes);
        const auto count =
            static_cast<int64_t>(tensor.bytes / hipdnn_test_sdk::dataTypeSize(tensor.dataType));
        for (int64_t offset = 0; offset < count; ++offset) {
            hipdnn_test_sdk::writeElement(tensor.dataType, bytes.data(), offset,
                                          random.real(range.low, range.high));
        }
    }
    return values;
}

std::string graphJson(const std::vector<uint8_t>& bytes) {
    try {
        return hipdnn_flatbuffers_sdk::graphToJson(bytes.data(), bytes.size());
    } catch (const std::exception& error) {
        return std::string("(no JSON: ") + error.what() + ")";
    }
}

/// `kind`: REFUSED (an invalid graph), FAILURE (an engine error) or DISAGREEMENT.
void printReproducer(const char* kind, const std::string& what, const Problem& problem,
                     const std::vector<uint8_t>& bytes, const std::string& reproduce) {
    std::cout << kind << " " << problem.family << ": " << what << "\n  reproduce: " << reproduce
              << "\n  graph: " << graphJson(bytes) << std::endl;
}

}  // namespace

Runner::Runner(Device device, bool printGraphs)
    : _cpu(HIPDNN_DEVICE_TYPE_CPU_EXT), _execute(executeOnHost), _printGraphs(printGraphs) {
    if (device == Device::Gpu) {
        _gpu.emplace(HIPDNN_DEVICE_TYPE_GPU_EXT);
        _execute = executeOnGpu;
    }
}

void Runner::run(const Problem& problem, Random& random, const std::string& reproduce,
                 Statistics& statistics) {
    ++statistics.generated;
    const std::vector<uint8_t> bytes = problem.graph.build();
    if (_printGraphs) {
        std::cout << "GRAPH " << problem.family << ": " << reproduce << "\n  graph: " << graphJson(bytes)
                  << std::endl;
    }
    std::optional<BackendGraph> referenceGraph;
    std::optional<BackendPlan> referencePlan;
    try {
        referenceGraph.emplace(_cpu.get(), bytes);
        referencePlan.emplace(*referenceGraph, CPU_REFERENCE_ENGINE_ID);
    } catch (const hipdnn_test_sdk::BackendError& error) {
        ++statistics.refused;
        printReproducer("REFUSED", std::string("a generator bug: ") + error.what(), problem, bytes,
                        reproduce);
        return;
    }
    const hipdnn_flatbuffers_sdk::GraphWrapper wrapper(bytes.data(), bytes.size());
    const GraphTensors tensors = bindableTensors(wrapper);
    const HostTensors inputs = randomInputs(problem, tensors.inputs, random);
    // Ready before any engine runs: a fault can only print what exists already.
    const std::string json = graphJson(bytes);

    const std::string referenceName = engineName(CPU_REFERENCE_ENGINE_ID);
    HostTensors expected;
    try {
        const FaultContext context(referenceName, reproduce, json);
        expected = executeOnHost(*referencePlan, tensors.inputs, tensors.outputs, inputs);
        ++statistics.runs[referenceName];
    } catch (const std::exception& error) {
        ++statistics.failures;
        printReproducer("FAILURE", referenceName + " failed: " + error.what(), problem, bytes, reproduce);
        return;
    }

    std::optional<BackendGraph> deviceGraph;
    if (_gpu) {
        deviceGraph.emplace(_gpu->get(), bytes);
    }
    const BackendGraph& graph = _gpu ? *deviceGraph : *referenceGraph;
    const BackendHeuristics heuristics(graph);
    countDeclines(heuristics.declined(), statistics);
    for (const int64_t id : heuristics.engineIds()) {
        if (id == CPU_REFERENCE_ENGINE_ID) {
            continue;  // the oracle itself
        }
        const std::string name = engineName(id);
        HostTensors actual;
        try {
            const FaultContext context(name, reproduce, json);
            actual = _execute(BackendPlan(graph, id), tensors.inputs, tensors.outputs, inputs);
            ++statistics.runs[name];
        } catch (const std::exception& error) {
            ++statistics.failures;
            printReproducer("FAILURE", name + " accepted the graph and then failed: " + error.what(), problem,
                            bytes, reproduce);
            if (const auto sticky = _gpu ? stickyGpuError() : std::nullopt) {
                throw GpuContextLost(name + " left the CUDA context unusable (" + *sticky +
                                     "); no later graph of this process can run: " + reproduce +
                                     " replays it, --first with the next index goes on");
            }
            continue;
        }
        for (const TensorSpec& tensor : tensors.outputs) {
            const auto tolerance =
                problem.reductionTerms > 0
                    ? hipdnn_test_sdk::reductionTolerance(problem.toleranceOp, tensor.dataType,
                                                          DataType::FLOAT, problem.reductionTerms,
                                                          problem.maxAbsTerm)
                    : hipdnn_test_sdk::fixedTolerance(problem.toleranceOp, tensor.dataType);
            const hipdnn_test_sdk::ErasedTensorView reference{tensor.dataType, expected.at(tensor.uid).data(),
                                                              tensor.dims, tensor.strides};
            const hipdnn_test_sdk::ErasedTensorView result{tensor.dataType, actual.at(tensor.uid).data(),
                                                           tensor.dims, tensor.strides};
            const auto report = hipdnn_test_sdk::allClose(reference, result, tolerance);
            ++statistics.comparisons;
            if (!report.passed) {
                ++statistics.disagreements;
                printReproducer("DISAGREEMENT",
                                name + " vs " + referenceName + ", output uid " + std::to_string(tensor.uid) +
                                    " '" + tensor.name + "': " + report.describe(),
                                problem, bytes, reproduce);
            }
        }
    }
}

}  // namespace hipdnn_differential
