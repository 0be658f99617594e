// Graph::validate: whole-graph checks (uids, writers, cycles, connectivity, graph inputs), then
// each node's checks and inference in topological order. Included by Graph.hpp.
#pragma once

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <unordered_set>

namespace hipdnn_frontend::graph {

inline std::vector<TensorPtr> Graph::collectTensors() const {
    std::vector<TensorPtr> tensors;
    std::unordered_set<const TensorAttributes*> seen;
    for (const auto& node : nodes_) {
        for (const auto& ports : {node->inputs(), node->outputs()}) {
            for (const auto& port : ports) {
                if (seen.insert(port.tensor.get()).second) {
                    tensors.push_back(port.tensor);
                }
            }
        }
    }
    return tensors;
}

inline std::unordered_map<std::string, TensorPtr> Graph::getTensorsByName() const {
    std::unordered_map<std::string, TensorPtr> byName;
    for (const auto& tensor : collectTensors()) {
        if (tensor->get_name().empty()) {
            continue;
        }
        if (!byName.emplace(tensor->get_name(), tensor).second) {
            throw std::invalid_argument("getTensorsByName: graph '" + name_ + "' has two tensors named '" +
                                        tensor->get_name() + "'");
        }
    }
    return byName;
}

}  // namespace hipdnn_frontend::graph

namespace hipdnn_frontend::detail {

using graph::TensorAttributes;

// Union-find over node indices.
inline size_t findRoot(std::vector<size_t>& parents, size_t node) {
    while (parents[node] != node) {
        parents[node] = parents[parents[node]];
        node = parents[node];
    }
    return node;
}

inline std::string tensorLabel(const TensorAttributes& tensor) {
    std::string text = "'" + tensor.get_name() + "'";
    if (tensor.has_uid()) {
        text += " (uid " + std::to_string(tensor.get_uid()) + ")";
    }
    return text;
}

// Dims positive; strides, when given, one per dim and not negative.
inline Error checkTensorShape(const TensorAttributes& tensor) {
    const auto& dims = tensor.get_dim();
    const auto& strides = tensor.get_stride();
    for (int64_t dim : dims) {
        HIPDNN_RETURN_FRONTEND_ERROR_IF(dim <= 0, ErrorCode::INVALID_VALUE,
                                        "tensor " + tensorLabel(tensor) + " has dims " + formatDims(dims) +
                                            "; every dim must be positive");
    }
    HIPDNN_RETURN_FRONTEND_ERROR_IF(!strides.empty() && strides.size() != dims.size(),
                                    ErrorCode::INVALID_VALUE,
                                    "tensor " + tensorLabel(tensor) + " has dims " + formatDims(dims) +
                                        " but strides " + formatDims(strides) + " of another rank");
    for (int64_t stride : strides) {
        HIPDNN_RETURN_FRONTEND_ERROR_IF(stride < 0, ErrorCode::INVALID_VALUE,
                                        "tensor " + tensorLabel(tensor) + " has strides " +
                                            formatDims(strides) + "; strides must not be negative");
    }
    return {};
}

}  // namespace hipdnn_frontend::detail

namespace hipdnn_frontend::graph {

inline Error Graph::validate() {
    HIPDNN_RETURN_FRONTEND_ERROR_IF(nodes_.empty(), ErrorCode::INVALID_VALUE,
                                    "graph '" + name_ + "' has no operations");
    const auto tensors = collectTensors();

    // One writer per tensor.
    std::unordered_map<const TensorAttributes*, size_t> writer;
    for (size_t index = 0; index < nodes_.size(); ++index) {
        for (const auto& port : nodes_[index]->outputs()) {
            auto [it, inserted] = writer.emplace(port.tensor.get(), index);
            HIPDNN_RETURN_FRONTEND_ERROR_IF(!inserted, ErrorCode::INVALID_VALUE,
                                            "tensor " + detail::tensorLabel(*port.tensor) +
                                                " is written by node '" + nodes_[it->second]->name() +
                                                "' and by node '" + nodes_[index]->name() + "'");
        }
    }

    // Unique user-given uids (uids the graph assigned in an earlier build are assigned afresh).
    std::unordered_map<int64_t, const TensorAttributes*> byUid;
    for (const auto& tensor : tensors) {
        if (!tensor->has_uid() || tensor->uid_assigned_by_graph()) {
            continue;
        }
        auto [it, inserted] = byUid.emplace(tensor->get_uid(), tensor.get());
        HIPDNN_RETURN_FRONTEND_ERROR_IF(!inserted, ErrorCode::INVALID_VALUE,
                                        "uid " + std::to_string(tensor->get_uid()) + " is used by tensor '" +
                                            it->second->get_name() + "' and by tensor '" +
                                            tensor->get_name() + "'");
    }

    // Topological order (Kahn); nodes left over sit on a cycle.
    std::vector<std::vector<size_t>> consumers(nodes_.size());
    std::vector<size_t> pending(nodes_.size(), 0);
    for (size_t index = 0; index < nodes_.size(); ++index) {
        for (const auto& port : nodes_[index]->inputs()) {
            auto it = writer.find(port.tensor.get());
            if (it != writer.end()) {
                consumers[it->second].push_back(index);
                ++pending[index];
            }
        }
    }
    std::vector<size_t> order;
    for (size_t index = 0; index < nodes_.size(); ++index) {
        if (pending[index] == 0) {
            order.push_back(index);
        }
    }
    for (size_t next = 0; next < order.size(); ++next) {
        for (size_t consumer : consumers[order[next]]) {
            if (--pending[consumer] == 0) {
                order.push_back(consumer);
            }
        }
    }
    if (order.size() != nodes_.size()) {
        std::string cycle;
        for (size_t index = 0; index < nodes_.size(); ++index) {
            if (pending[index] != 0) {
                cycle += (cycle.empty() ? "'" : ", '") + nodes_[index]->name() + "'";
            }
        }
        return {ErrorCode::INVALID_VALUE, "graph '" + name_ + "' has a cycle through nodes " + cycle};
    }

    // One connected component: nodes sharing a tensor are joined.
    std::vector<size_t> parents(nodes_.size());
    std::iota(parents.begin(), parents.end(), size_t{0});
    std::unordered_map<const TensorAttributes*, size_t> firstUser;
    for (size_t index = 0; index < nodes_.size(); ++index) {
        for (const auto& ports : {nodes_[index]->inputs(), nodes_[index]->outputs()}) {
            for (const auto& port : ports) {
                auto [it, inserted] = firstUser.emplace(port.tensor.get(), index);
                if (!inserted) {
                    parents[detail::findRoot(parents, index)] = detail::findRoot(parents, it->second);
                }
            }
        }
    }
    for (size_t index = 1; index < nodes_.size(); ++index) {
        HIPDNN_RETURN_FRONTEND_ERROR_IF(detail::findRoot(parents, index) != detail::findRoot(parents, 0),
                                        ErrorCode::INVALID_VALUE,
                                        "graph '" + name_ + "' is not connected: no tensor links node '" +
                                            nodes_[index]->name() + "' to node '" + nodes_[0]->name() + "'");
    }

    std::vector<std::shared_ptr<INode>> sorted;
    sorted.reserve(nodes_.size());
    for (size_t index : order) {
        sorted.push_back(nodes_[index]);
    }
    nodes_ = std::move(sorted);

    // Graph inputs: written by no node, so the caller must describe them fully.
    for (const auto& tensor : tensors) {
        if (writer.count(tensor.get()) != 0) {
            continue;
        }
        HIPDNN_RETURN_FRONTEND_ERROR_IF(
            tensor->get_is_virtual(), ErrorCode::INVALID_VALUE,
            "tensor " + detail::tensorLabel(*tensor) + " is virtual but no node writes it");
        if (tensor->get_data_type() == DataType::NOT_SET) {
            tensor->set_data_type(context_.ioDataType);
        }
        HIPDNN_RETURN_FRONTEND_ERROR_IF(tensor->get_data_type() == DataType::NOT_SET,
                                        ErrorCode::ATTRIBUTE_NOT_SET,
                                        "tensor " + detail::tensorLabel(*tensor) +
                                            " has no data type and the graph's io data type is not set");
        HIPDNN_RETURN_FRONTEND_ERROR_IF(!tensor->get_dim().empty() && tensor->get_stride().empty(),
                                        ErrorCode::ATTRIBUTE_NOT_SET,
                                        "strides of tensor " + detail::tensorLabel(*tensor) + " with dims " +
                                            detail::formatDims(tensor->get_dim()) + " are not set");
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkTensorShape(*tensor));
    }

    for (const auto& node : nodes_) {
        HIPDNN_CHECK_FRONTEND_ERROR(node->inferAndValidate(context_));
    }

    for (const auto& tensor : tensors) {
        HIPDNN_CHECK_FRONTEND_ERROR(detail::checkTensorShape(*tensor));
        HIPDNN_RETURN_FRONTEND_ERROR_IF(
            tensor->get_data_type() == DataType::NOT_SET, ErrorCode::ATTRIBUTE_NOT_SET,
            "tensor " + detail::tensorLabel(*tensor) +
                " has no data type: set it or the graph's io / intermediate type");
    }
    return {};
}

}  // namespace hipdnn_frontend::graph
