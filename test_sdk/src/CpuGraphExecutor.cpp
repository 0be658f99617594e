#include <hipdnn_test_sdk/CpuGraphExecutor.hpp>

#include <hipdnn_test_sdk/ElementAccess.hpp>

#include "ExecutorSupport.hpp"
#include "IndexIteration.hpp"

#include <hipdnn_flatbuffers_sdk/PassByValue.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <sstream>
#include <type_traits>
#include <unordered_map>

namespace hipdnn_test_sdk {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using fb::DataType;
using fb::NodeAttributes;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::NodeWrapper;

namespace detail {

std::vector<int64_t> dimsOf(const fb::TensorAttributes& tensor) {
    return std::vector<int64_t>(tensor.dims()->begin(), tensor.dims()->end());
}

std::vector<int64_t> stridesOf(const fb::TensorAttributes& tensor) {
    return std::vector<int64_t>(tensor.strides()->begin(), tensor.strides()->end());
}

std::string tensorLabel(const fb::TensorAttributes& tensor) {
    return "tensor uid " + std::to_string(tensor.uid()) + " '" +
           (tensor.name() != nullptr ? tensor.name()->str() : std::string()) + "'";
}

std::string formatDims(const std::vector<int64_t>& dims) {
    std::string text = "[";
    for (size_t i = 0; i < dims.size(); ++i) {
        text += (i == 0 ? "" : ", ") + std::to_string(dims[i]);
    }
    return text + "]";
}

DataType effectiveDataType(const GraphWrapper& graph, const fb::TensorAttributes& tensor) {
    if (tensor.data_type() != DataType::UNSET) {
        return tensor.data_type();
    }
    return tensor.virtual_() ? graph.graph().intermediate_data_type() : graph.graph().io_data_type();
}

double scalarValue(const GraphWrapper& graph, int64_t uid,
                   const std::unordered_map<int64_t, void*>& buffers) {
    const auto& tensor = graph.tensor(uid);
    if (const auto value = hipdnn_flatbuffers_sdk::passByValueNumber(tensor)) {
        return *value;
    }
    if (tensor.value_type() == fb::TensorValue::Float8Value) {
        throw GraphExecutionError(tensorLabel(tensor) +
                                  " holds an fp8 pass-by-value scalar, which is not supported");
    }
    const auto found = buffers.find(uid);
    if (found == buffers.end() || found->second == nullptr) {
        throw GraphExecutionError("scalar " + tensorLabel(tensor) +
                                  " has no pass-by-value value and no buffer");
    }
    return readElement(effectiveDataType(graph, tensor), found->second, 0);
}

}  // namespace detail

using detail::dimsOf;
using detail::formatDims;
using detail::tensorLabel;

std::string NodeSignature::describe(const std::vector<std::string>& portNames) const {
    std::string text = std::string(fb::EnumNameNodeAttributes(op)) + "(";
    for (size_t i = 0; i < dataTypes.size(); ++i) {
        text += (i == 0 ? "" : ", ") + (i < portNames.size() ? portNames[i] + "=" : std::string()) +
                dataTypeName(dataTypes[i]);
    }
    return text + ")";
}

std::vector<SignaturePort> signaturePorts(const NodeWrapper& node) {
    namespace ops = hipdnn_flatbuffers_sdk::operations;
    std::vector<SignaturePort> ports;
    SignaturePort params{"params", {}};
    const bool known =
        ops::visitOperation(node.type(), [&]<class Attributes>(std::type_identity<Attributes>) {
            const auto& attributes = *node.attributesAs<Attributes>();
            ops::forEachPort(ops::OperationTraits<Attributes>::ports, [&](const auto& port) {
                ops::forEachUid(port, attributes, [&](const auto&, int64_t uid, int) {
                    switch (port.role) {
                        case ops::PortRole::Operand:
                            ports.push_back({std::string(port.name), {uid}});
                            break;
                        case ops::PortRole::Parameter:
                        case ops::PortRole::Statistic:
                            params.uids.push_back(uid);
                            break;
                        case ops::PortRole::Scalar:
                        case ops::PortRole::Metadata:
                            break;
                    }
                });
            });
        });
    if (!known) {
        throw GraphExecutionError(node.describe() + " has an operation the executor does not know");
    }
    if (!params.uids.empty()) {
        ports.push_back(std::move(params));
    }
    return ports;
}

void NodeRegistry::add(NodeSignature signature, NodeImplementation implementation) {
    _implementations[std::move(signature)] = std::move(implementation);
}

const NodeImplementation* NodeRegistry::find(const NodeSignature& signature) const {
    const auto found = _implementations.find(signature);
    return found != _implementations.end() ? &found->second : nullptr;
}

std::vector<NodeSignature> NodeRegistry::signaturesFor(NodeAttributes op) const {
    std::vector<NodeSignature> signatures;
    for (const auto& [signature, implementation] : _implementations) {
        if (signature.op == op) {
            signatures.push_back(signature);
        }
    }
    return signatures;
}

NodeRegistry builtinNodeRegistry() {
    NodeRegistry registry;
    detail::registerBuiltinImplementations(registry);
    return registry;
}

DataType effectiveComputeType(const GraphWrapper& graph, const NodeWrapper& node) {
    // Neither the node nor the graph naming one means float, as for cuDNN.
    const DataType own = node.node().compute_data_type();
    const DataType graphs = graph.graph().compute_data_type();
    const DataType asked = own != DataType::UNSET      ? own
                           : graphs != DataType::UNSET ? graphs
                                                       : DataType::FLOAT;
    // The references accumulate in FLOAT or DOUBLE; a narrower request (HALF, BFLOAT16, as
    // upstream's samples make for 16-bit graphs) gets FLOAT, at least the precision asked for.
    return asked == DataType::HALF || asked == DataType::BFLOAT16 ? DataType::FLOAT : asked;
}

namespace {

struct ResolvedSignature {
    NodeSignature signature;
    std::vector<std::string> portNames;
};

// The node's signature, or the reason it has none (a multi-tensor port with mixed types).
std::optional<ResolvedSignature> resolveSignature(const GraphWrapper& graph, const NodeWrapper& node,
                                                  std::string& reason) {
    ResolvedSignature resolved{{node.type(), {}}, {}};
    for (const auto& port : signaturePorts(node)) {
        const DataType first = detail::effectiveDataType(graph, graph.tensor(port.uids.front()));
        for (const int64_t uid : port.uids) {
            const DataType type = detail::effectiveDataType(graph, graph.tensor(uid));
            if (type != first) {
                reason = node.describe() + ": the " + port.name + " tensors must share one data type, but " +
                         tensorLabel(graph.tensor(port.uids.front())) + " is " + dataTypeName(first) +
                         " and " + tensorLabel(graph.tensor(uid)) + " is " + dataTypeName(type);
                return std::nullopt;
            }
        }
        resolved.signature.dataTypes.push_back(first);
        resolved.portNames.push_back(port.name);
    }
    return resolved;
}

// Sorted, de-duplicated element types registered for each port position of `op` with the
// same port count: what the message for an unsupported combination lists.
std::string supportedTypesText(const NodeRegistry& registry, NodeAttributes op, size_t portCount) {
    std::vector<DataType> types;
    for (const auto& signature : registry.signaturesFor(op)) {
        if (signature.dataTypes.size() == portCount) {
            types.insert(types.end(), signature.dataTypes.begin(), signature.dataTypes.end());
        }
    }
    std::sort(types.begin(), types.end());
    types.erase(std::unique(types.begin(), types.end()), types.end());
    if (types.empty()) {
        return "none registered for this operation with " + std::to_string(portCount) + " ports";
    }
    std::string text;
    for (const DataType type : types) {
        text += (text.empty() ? "" : ", ") + dataTypeName(type);
    }
    return text;
}

}  // namespace

CpuGraphExecutor::CpuGraphExecutor() : _registry(builtinNodeRegistry()) {}

CpuGraphExecutor::CpuGraphExecutor(NodeRegistry registry) : _registry(std::move(registry)) {}

std::optional<std::string> CpuGraphExecutor::whyNotExecutable(const GraphWrapper& graph,
                                                              const NodeWrapper& node) const {
    const DataType computeType = effectiveComputeType(graph, node);
    if (computeType != DataType::FLOAT && computeType != DataType::DOUBLE) {
        return node.describe() + ": unsupported compute data type " + dataTypeName(computeType) +
               " (the CPU references accumulate in FLOAT or DOUBLE)";
    }
    std::string reason;
    const auto resolved = resolveSignature(graph, node, reason);
    if (!resolved) {
        return reason;
    }
    if (_registry.find(resolved->signature) == nullptr) {
        return node.describe() + ": unsupported data type combination " +
               resolved->signature.describe(resolved->portNames) + "; supported element types per port: " +
               supportedTypesText(_registry, node.type(), resolved->signature.dataTypes.size());
    }
    return detail::referenceLimit(node);
}

namespace {

// The index of the last node reading each tensor: a virtual tensor is released after it.
std::unordered_map<int64_t, size_t> lastUses(const GraphWrapper& graph) {
    std::unordered_map<int64_t, size_t> lastUse;
    for (size_t i = 0; i < graph.nodeCount(); ++i) {
        for (const int64_t uid : graph.node(i).inputUids()) {
            lastUse[uid] = i;
        }
    }
    return lastUse;
}

// Bytes the executor allocates for a virtual tensor (saturating: dims the graph allows can
// still describe more bytes than 64 bits count).
uint64_t ownedBytes(const GraphWrapper& graph, const fb::TensorAttributes& tensor) {
    const auto dims = dimsOf(tensor);
    const auto strides = detail::stridesOf(tensor);
    long double span = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
        span += static_cast<long double>(dims[i] - 1) * static_cast<long double>(strides[i]);
    }
    span *= static_cast<long double>(dataTypeSize(detail::effectiveDataType(graph, tensor)));
    constexpr auto kMax = std::numeric_limits<uint64_t>::max();
    return span >= static_cast<long double>(kMax) ? kMax : static_cast<uint64_t>(span);
}

uint64_t physicalMemoryBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize)
                                     : std::numeric_limits<uint64_t>::max();
}

// The reason a graph's virtual tensors would not fit in this machine's memory at the peak of
// execute()'s schedule (each allocated before the node writing it, released after its last
// reader), or nullopt. Zero-filling more than that would only end in the kernel's OOM killer.
std::optional<std::string> whyIntermediatesDoNotFit(const GraphWrapper& graph) {
    const auto lastUse = lastUses(graph);
    const uint64_t memory = physicalMemoryBytes();
    std::unordered_map<int64_t, uint64_t> live;
    uint64_t total = 0;
    for (size_t i = 0; i < graph.nodeCount(); ++i) {
        const NodeWrapper node = graph.node(i);
        for (const int64_t uid : node.outputUids()) {
            if (graph.tensor(uid).virtual_()) {
                const uint64_t bytes = ownedBytes(graph, graph.tensor(uid));
                total = bytes > std::numeric_limits<uint64_t>::max() - total
                            ? std::numeric_limits<uint64_t>::max()
                            : total + bytes;
                live[uid] = bytes;
            }
        }
        if (total > memory) {
            return node.describe() + ": the virtual tensors live while it runs need " +
                   std::to_string(total) + " bytes, more than this machine's " + std::to_string(memory) +
                   " bytes of memory";
        }
        for (const int64_t uid : node.inputUids()) {
            const auto found = live.find(uid);
            if (found != live.end() && lastUse.at(uid) == i) {
                total -= found->second;
                live.erase(found);
            }
        }
    }
    return std::nullopt;
}

}  // namespace

bool CpuGraphExecutor::canExecute(const GraphWrapper& graph, std::string& reason) const {
    if (graph.nodeCount() == 0) {
        reason = "the graph has no nodes";
        return false;
    }
    for (size_t i = 0; i < graph.nodeCount(); ++i) {
        if (auto why = whyNotExecutable(graph, graph.node(i))) {
            reason = std::move(*why);
            return false;
        }
    }
    if (auto why = whyIntermediatesDoNotFit(graph)) {
        reason = std::move(*why);
        return false;
    }
    return true;
}

void CpuGraphExecutor::execute(const GraphWrapper& graph,
                               const std::unordered_map<int64_t, void*>& buffers) const {
    std::string reason;
    if (!canExecute(graph, reason)) {
        throw GraphExecutionError(reason);
    }

    std::unordered_map<int64_t, void*> tensors;
    // Executor-owned memory: materialized pass-by-value scalars and virtual tensors.
    std::unordered_map<int64_t, std::unique_ptr<std::byte[]>> owned;
    auto allocate = [&](const fb::TensorAttributes& tensor) {
        const auto dims = dimsOf(tensor);
        const auto strides = detail::stridesOf(tensor);
        const int64_t storageElements = detail::storageElementCountOf(dims, strides);
        const size_t bytes =
            static_cast<size_t>(storageElements) * dataTypeSize(detail::effectiveDataType(graph, tensor));
        auto memory = std::make_unique<std::byte[]>(bytes);
        std::fill_n(memory.get(), bytes, std::byte{0});
        void* data = memory.get();
        owned[tensor.uid()] = std::move(memory);
        tensors[tensor.uid()] = data;
        return std::pair{data, storageElements};
    };

    // Pass-by-value scalars come from the graph, whatever the caller passes for them.
    for (const auto* tensor : *graph.graph().tensors()) {
        if (tensor->value_type() == fb::TensorValue::NONE) {
            continue;
        }
        const double value = detail::scalarValue(graph, tensor->uid(), buffers);
        const auto [data, storageElements] = allocate(*tensor);
        for (int64_t i = 0; i < storageElements; ++i) {
            writeElement(detail::effectiveDataType(graph, *tensor), data, i, value);
        }
    }
    const std::pair<const std::vector<int64_t>*, const char*> callerTensors[] = {
        {&graph.inputUids(), "input"}, {&graph.outputUids(), "output"}};
    for (const auto& [uids, role] : callerTensors) {
        for (const int64_t uid : *uids) {
            if (tensors.contains(uid)) {
                continue;
            }
            const auto found = buffers.find(uid);
            if (found == buffers.end() || found->second == nullptr) {
                throw GraphExecutionError("no buffer for " + tensorLabel(graph.tensor(uid)) + " (a graph " +
                                          role + "); every non-virtual tensor needs one");
            }
            tensors[uid] = found->second;
        }
    }

    // Virtual tensors are allocated right before the node that writes them and released after
    // their last reader, so a long graph holds only the intermediates still needed.
    const auto lastUse = lastUses(graph);
    for (size_t i = 0; i < graph.nodeCount(); ++i) {
        const NodeWrapper node = graph.node(i);
        for (const int64_t uid : node.outputUids()) {
            if (graph.tensor(uid).virtual_()) {
                allocate(graph.tensor(uid));
            }
        }
        std::string unused;
        const auto resolved = resolveSignature(graph, node, unused);
        const NodeRunContext context{graph, node, effectiveComputeType(graph, node), tensors};
        try {
            (*_registry.find(resolved->signature))(context);
        } catch (const GraphExecutionError& error) {
            throw GraphExecutionError(node.describe() + ": " + error.what());
        } catch (const std::exception& error) {
            throw GraphExecutionError(node.describe() + " failed in the reference: " + error.what());
        }
        for (const int64_t uid : node.inputUids()) {
            if (graph.tensor(uid).virtual_() && lastUse.at(uid) == i) {
                owned.erase(uid);
                tensors.erase(uid);
            }
        }
    }
}

}  // namespace hipdnn_test_sdk
