#include "Inputs.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <stdexcept>

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_test_sdk/ElementAccess.hpp>
#include <hipdnn_test_sdk/GoldenData.hpp>

namespace hipdnn_driver {

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_flatbuffers_sdk::GraphWrapper;

namespace {

struct Range {
    double low = -1.0;
    double high = 1.0;
};

constexpr Range kPositive{0.5, 2.0};

bool isPositivePort(const std::string& port) {
    return port == "inv_variance" || port == "variance" || port == "prev_running_variance" ||
           port == "inv_rms";
}

// Ports whose tensor must be positive, found from the nodes that read them.
std::map<int64_t, Range> rangesOf(const GraphWrapper& graph) {
    std::map<int64_t, Range> ranges;
    for (size_t index = 0; index < graph.nodeCount(); ++index) {
        const auto node = graph.node(index);
        std::string positiveOperand;
        if (const auto* pointwise = node.attributesAs<fbs::PointwiseAttributes>()) {
            switch (pointwise->operation()) {
                case fbs::PointwiseMode::LOG:
                case fbs::PointwiseMode::SQRT:
                case fbs::PointwiseMode::RSQRT:
                case fbs::PointwiseMode::RECIPROCAL:
                case fbs::PointwiseMode::POW:
                    positiveOperand = "in_0";
                    break;
                case fbs::PointwiseMode::DIV:
                case fbs::PointwiseMode::MOD:
                    positiveOperand = "in_1";
                    break;
                default:
                    break;
            }
        }
        for (const auto& port : node.ports()) {
            if (!port.isOutput && (isPositivePort(port.name) || port.name == positiveOperand)) {
                ranges[port.uid] = kPositive;
            }
        }
    }
    return ranges;
}

HostTensor hostTensorFor(const fbs::TensorAttributes& tensor) {
    HostTensor host;
    host.uid = tensor.uid();
    host.name = tensor.name() != nullptr ? tensor.name()->str() : std::string();
    host.dataType = tensor.data_type();
    host.dims.assign(tensor.dims()->begin(), tensor.dims()->end());
    host.strides.assign(tensor.strides()->begin(), tensor.strides()->end());
    const int64_t elements = hipdnn_data_sdk::utilities::storageElementCount(host.dims, host.strides);
    host.bytes.resize(static_cast<size_t>(elements) * hipdnn_test_sdk::dataTypeSize(host.dataType));
    return host;
}

bool isBufferInput(const GraphWrapper& graph, int64_t uid) {
    return graph.tensor(uid).value() == nullptr;
}

}  // namespace

std::vector<HostTensor> makeRandomInputs(const GraphWrapper& graph, uint32_t seed) {
    const auto ranges = rangesOf(graph);
    std::vector<HostTensor> inputs;
    for (int64_t uid : graph.inputUids()) {
        if (!isBufferInput(graph, uid)) {
            continue;
        }
        HostTensor host = hostTensorFor(graph.tensor(uid));
        const auto found = ranges.find(uid);
        const Range range = found != ranges.end() ? found->second : Range{};
        // One generator per tensor, so a tensor's values do not depend on the others.
        std::mt19937_64 generator((static_cast<uint64_t>(seed) << 32) ^
                                  static_cast<uint64_t>(uid) * 0x9E3779B97F4A7C15ULL);
        std::uniform_real_distribution<double> distribution(range.low, range.high);
        const auto elements =
            static_cast<int64_t>(host.bytes.size() / hipdnn_test_sdk::dataTypeSize(host.dataType));
        for (int64_t offset = 0; offset < elements; ++offset) {
            hipdnn_test_sdk::writeElement(host.dataType, host.bytes.data(), offset, distribution(generator));
        }
        inputs.push_back(std::move(host));
    }
    return inputs;
}

std::vector<HostTensor> readInputs(const GraphWrapper& graph, const std::filesystem::path& directory) {
    const hipdnn_test_sdk::GoldenCase golden = hipdnn_test_sdk::loadGoldenCase(directory);
    std::vector<HostTensor> inputs;
    for (int64_t uid : graph.inputUids()) {
        if (!isBufferInput(graph, uid)) {
            continue;
        }
        HostTensor host = hostTensorFor(graph.tensor(uid));
        const hipdnn_test_sdk::GoldenTensor* stored = nullptr;
        for (const auto& tensor : golden.tensors) {
            if (tensor.uid == uid) {
                stored = &tensor;
            }
        }
        if (stored == nullptr) {
            throw std::runtime_error(directory.string() + ": no tensor with uid " + std::to_string(uid) +
                                     " ('" + host.name + "'), an input of the graph");
        }
        if (stored->dims != host.dims || stored->strides != host.strides ||
            stored->dataType != host.dataType) {
            throw std::runtime_error(directory.string() + ": tensor uid " + std::to_string(uid) +
                                     " has other dims, strides or data type than the graph's");
        }
        host.bytes = stored->bytes;
        inputs.push_back(std::move(host));
    }
    return inputs;
}

std::vector<HostTensor> makeOutputs(const GraphWrapper& graph) {
    std::vector<HostTensor> outputs;
    for (int64_t uid : graph.outputUids()) {
        HostTensor host = hostTensorFor(graph.tensor(uid));
        std::fill(host.bytes.begin(), host.bytes.end(), uint8_t{0xFF});
        outputs.push_back(std::move(host));
    }
    return outputs;
}

}  // namespace hipdnn_driver
