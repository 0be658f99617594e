#include "GraphProgram.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace hipdnn_cuda_kernels {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

MemoryVirtuals GraphProgram::memoryVirtuals() const {
    MemoryVirtuals virtuals;
    for (const WorkspaceTensor& tensor : workspaceTensors) {
        virtuals.emplace(tensor.uid, tensor.type);
    }
    return virtuals;
}

namespace {

using hipdnn_flatbuffers_sdk::NodeWrapper;

AnchorKind anchorKindOf(fb::NodeAttributes type) {
    switch (type) {
        case fb::NodeAttributes::MatmulAttributes:
            return AnchorKind::Matmul;
        case fb::NodeAttributes::ConvolutionFwdAttributes:
        case fb::NodeAttributes::ConvolutionBwdAttributes:
        case fb::NodeAttributes::ConvolutionWrwAttributes:
            return AnchorKind::Convolution;
        default:
            return AnchorKind::None;
    }
}

std::vector<int64_t> outputDimsOf(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                  const NodeWrapper& node) {
    const auto& tensor = graph.tensor(node.outputUids().front());
    return {tensor.dims()->begin(), tensor.dims()->end()};
}

class GraphAnalysis {
public:
    GraphAnalysis(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, const MemoryVirtuals& storageOverrides,
                  std::string& reason)
        : _graph(graph), _storageOverrides(storageOverrides), _reason(reason) {}

    std::optional<GraphProgram> run() {
        if (!segment() || !placeVirtuals() || !analyzeSegments()) {
            return std::nullopt;
        }
        return std::move(_program);
    }

private:
    bool decline(std::string why) {
        _reason = std::move(why);
        return false;
    }

    // Each anchor opens a segment; pointwise nodes join the segment before them while their
    // outputs have the dims of its first pointwise node (one fused kernel, one iteration space).
    bool segment() {
        if (_graph.nodeCount() == 0) {
            return decline("the graph has no nodes");
        }
        std::vector<GraphSegment>& segments = _program.segments;
        for (size_t i = 0; i < _graph.nodeCount(); ++i) {
            const NodeWrapper node = _graph.node(i);
            const AnchorKind kind = anchorKindOf(node.type());
            if (kind != AnchorKind::None) {
                GraphSegment& opened = segments.emplace_back();
                opened.anchorKind = kind;
                opened.anchor = i;
                continue;
            }
            if (node.type() != fb::NodeAttributes::PointwiseAttributes) {
                return decline(node.describe() +
                               " is not run node by node: CUDA_GRAPH_ENGINE runs convolutions (fprop, dgrad, "
                               "wgrad) through cuDNN, matmuls through cuBLASLt and pointwise nodes");
            }
            const bool joins =
                !segments.empty() && (segments.back().pointwise.empty() ||
                                      outputDimsOf(_graph, _graph.node(segments.back().pointwise.front())) ==
                                          outputDimsOf(_graph, node));
            if (!joins) {
                segments.emplace_back();
            }
            segments.back().pointwise.push_back(i);
        }
        return true;
    }

    // Virtual tensors written by an anchor or read by a segment other than the one producing them
    // live in the workspace.
    bool placeVirtuals() {
        std::map<int64_t, size_t> producer;
        std::set<int64_t> inMemory;
        for (size_t s = 0; s < _program.segments.size(); ++s) {
            const GraphSegment& segment = _program.segments[s];
            std::vector<size_t> nodes = segment.pointwise;
            if (segment.anchorKind != AnchorKind::None) {
                nodes.insert(nodes.begin(), segment.anchor);
            }
            for (const size_t index : nodes) {
                const NodeWrapper node = _graph.node(index);
                for (const int64_t uid : node.inputUids()) {
                    const auto& tensor = _graph.tensor(uid);
                    if (!tensor.virtual_()) {
                        continue;
                    }
                    const auto found = producer.find(uid);
                    if (found == producer.end()) {
                        return decline(node.describe() + " reads virtual " + describeTensor(tensor) +
                                       ", which no earlier node writes");
                    }
                    const bool readByAnchor =
                        segment.anchorKind != AnchorKind::None && index == segment.anchor;
                    if (found->second != s || readByAnchor) {
                        inMemory.insert(uid);
                    }
                }
                for (const int64_t uid : node.outputUids()) {
                    producer[uid] = s;
                    if (segment.anchorKind != AnchorKind::None && index == segment.anchor &&
                        _graph.tensor(uid).virtual_()) {
                        inMemory.insert(uid);
                    }
                }
            }
        }
        for (const int64_t uid : inMemory) {
            if (!addWorkspaceTensor(uid)) {
                return false;
            }
        }
        return true;
    }

    bool addWorkspaceTensor(int64_t uid) {
        const auto& tensor = _graph.tensor(uid);
        const fb::DataType declared = effectiveType(_graph, tensor);
        const auto overridden = _storageOverrides.find(uid);
        const auto type = overridden != _storageOverrides.end() ? std::optional(overridden->second)
                                                                : elementTypeOf(declared);
        if (!type) {
            return decline(describeTensor(tensor) + " has data type " + fb::EnumNameDataType(declared) +
                           "; a virtual tensor kept in the workspace must be FLOAT, HALF or BFLOAT16");
        }
        if (tensor.strides()->size() != tensor.dims()->size()) {
            return decline(describeTensor(tensor) + " has " + std::to_string(tensor.strides()->size()) +
                           " strides for " + std::to_string(tensor.dims()->size()) + " dims");
        }
        int64_t span = 1;
        for (flatbuffers::uoffset_t d = 0; d < tensor.dims()->size(); ++d) {
            const int64_t extent = tensor.dims()->Get(d);
            const int64_t stride = tensor.strides()->Get(d);
            if (extent < 1 || stride < 0) {
                return decline(describeTensor(tensor) + " has dim " + std::to_string(d) + " = " +
                               std::to_string(extent) + " with stride " + std::to_string(stride) +
                               "; a workspace tensor needs extents >= 1 and strides >= 0");
            }
            span += (extent - 1) * stride;
        }
        _program.workspaceTensors.push_back({uid, *type, span});
        return true;
    }

    bool analyzeSegments() {
        const MemoryVirtuals virtuals = _program.memoryVirtuals();
        for (GraphSegment& segment : _program.segments) {
            if (segment.anchorKind == AnchorKind::Matmul) {
                segment.matmul = analyzeMatmulNode(_graph, segment.anchor, _reason);
                if (!segment.matmul) {
                    return false;
                }
            } else if (segment.anchorKind == AnchorKind::Convolution) {
                segment.convolution = analyzeConvolutionNode(_graph, segment.anchor, virtuals, _reason);
                if (!segment.convolution) {
                    return false;
                }
            }
            if (!segment.pointwise.empty()) {
                segment.kernel =
                    analyzePointwiseNodes(_graph, segment.pointwise, std::nullopt, virtuals, _reason);
                if (!segment.kernel) {
                    return false;
                }
            }
        }
        return true;
    }

    const hipdnn_flatbuffers_sdk::GraphWrapper& _graph;
    const MemoryVirtuals& _storageOverrides;
    std::string& _reason;
    GraphProgram _program;
};

}  // namespace

std::optional<GraphProgram> analyzeGraphProgram(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                const MemoryVirtuals& storageOverrides, std::string& reason) {
    return GraphAnalysis(graph, storageOverrides, reason).run();
}

}  // namespace hipdnn_cuda_kernels
