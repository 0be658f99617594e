// Runs a whole serialized graph on the CPU with the test SDK's references: the oracle that
// every engine is validated against, and the engine of the cpu_reference plugin.
//
// Nodes run in the graph's (topological) order. Virtual tensors live in host memory the
// executor allocates per execute() call; pass-by-value scalars (epsilon, momentum, pointwise
// constants) come from the tensor's `value` field, never from the caller's buffers. Each node is
// run by the implementation that a registry maps its signature (operation + element types of
// its data ports) to; each node accumulates in its compute type (the node's, else the graph's),
// FLOAT or DOUBLE.
#pragma once

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace hipdnn_test_sdk {

/// A graph the executor cannot run, or a failure while running it; the message names the node
/// (index, name, operation) and the tensor involved.
class GraphExecutionError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The registry key of a node: its operation and the element types of its signature ports, in
/// the order signaturePorts() lists them. Scalar parameters (epsilon, momentum) are not part of
/// it: they are read as doubles whatever their type.
struct NodeSignature {
    hipdnn_flatbuffers_sdk::data_objects::NodeAttributes op =
        hipdnn_flatbuffers_sdk::data_objects::NodeAttributes::NONE;
    std::vector<hipdnn_flatbuffers_sdk::data_objects::DataType> dataTypes;

    auto operator<=>(const NodeSignature&) const = default;

    /// "ConvolutionFwdAttributes(x=HALF, w=HALF, y=FLOAT)" given the port names.
    std::string describe(const std::vector<std::string>& portNames) const;
};

/// One signature port: the name shown in messages and the uids whose element type it stands
/// for. Derived from the operation catalogue's port roles: each operand present is a port of its
/// own; the parameters and statistics present (batchnorm and norm scale, bias, statistics) form
/// one port, "params", last, and must share one element type; scalars (epsilon, momentum) are
/// not part of the signature.
struct SignaturePort {
    std::string name;
    std::vector<int64_t> uids;
};

/// The signature ports of a node, in registry order (operands in schema order, then params):
///  - convolutions: x, w, y / dy, w, dx / x, dy, dw;
///  - batchnorm inference (with variance) and training: x, y, params;
///  - batchnorm backward: dy, x, dx, params; layernorm, rmsnorm: x, y, params;
///  - rmsnorm backward: dy, x, dx, params; pointwise: in_0, [in_1, [in_2,]] out_0;
///  - matmul: a, b, c; reduction: in, out; resample: x, y, [index].
std::vector<SignaturePort> signaturePorts(const hipdnn_flatbuffers_sdk::NodeWrapper& node);

/// What an implementation gets to run one node. `buffers` holds host memory for every tensor of
/// the graph the node touches (caller buffers, the executor's virtual tensors and materialized
/// pass-by-value scalars).
struct NodeRunContext {
    const hipdnn_flatbuffers_sdk::GraphWrapper& graph;
    const hipdnn_flatbuffers_sdk::NodeWrapper& node;
    /// FLOAT or DOUBLE.
    hipdnn_flatbuffers_sdk::data_objects::DataType computeType;
    const std::unordered_map<int64_t, void*>& buffers;
};

using NodeImplementation = std::function<void(const NodeRunContext&)>;

/// Maps node signatures to implementations. Adding a signature twice replaces the first.
class NodeRegistry {
public:
    void add(NodeSignature signature, NodeImplementation implementation);
    /// nullptr when nothing is registered for `signature`.
    const NodeImplementation* find(const NodeSignature& signature) const;
    /// Every signature registered for `op` (to explain a miss).
    std::vector<NodeSignature> signaturesFor(hipdnn_flatbuffers_sdk::data_objects::NodeAttributes op) const;
    size_t size() const { return _implementations.size(); }

private:
    std::map<NodeSignature, NodeImplementation> _implementations;
};

/// The built-in registry: every operation of the schema (convolution fprop/dgrad/wgrad,
/// batchnorm inference/inference-with-variance/training/backward, every pointwise mode, matmul,
/// reduction, layernorm, rmsnorm and its backward, max/avg pooling) for every combination of
/// FLOAT, HALF and BFLOAT16 on its signature ports (INT8/INT32/INT64 for pooling indices).
/// Ports of one node with different types are run through float copies, which is exact for
/// half and bfloat16 inputs.
NodeRegistry builtinNodeRegistry();

class CpuGraphExecutor {
public:
    /// Uses builtinNodeRegistry().
    CpuGraphExecutor();
    explicit CpuGraphExecutor(NodeRegistry registry);

    /// True when every node has a registered implementation, a supported compute type, supported
    /// modes and consistent shapes. Otherwise false, and `reason` names the first node that
    /// cannot run (index, name, operation) and why.
    bool canExecute(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, std::string& reason) const;

    /// Runs the graph. `buffers` maps the uid of every non-virtual tensor the graph reads or
    /// writes (pass-by-value scalars excepted) to host memory laid out by the tensor's strides.
    /// Throws GraphExecutionError when canExecute() would say no, when a buffer is missing or
    /// null, or when a reference rejects its arguments.
    void execute(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                 const std::unordered_map<int64_t, void*>& buffers) const;

    const NodeRegistry& registry() const { return _registry; }

private:
    /// The reason `node` cannot run, or nullopt.
    std::optional<std::string> whyNotExecutable(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                const hipdnn_flatbuffers_sdk::NodeWrapper& node) const;

    NodeRegistry _registry;
};

/// The compute type a node accumulates in: its own compute_data_type, else the graph's.
hipdnn_flatbuffers_sdk::data_objects::DataType effectiveComputeType(
    const hipdnn_flatbuffers_sdk::GraphWrapper& graph, const hipdnn_flatbuffers_sdk::NodeWrapper& node);

}  // namespace hipdnn_test_sdk
