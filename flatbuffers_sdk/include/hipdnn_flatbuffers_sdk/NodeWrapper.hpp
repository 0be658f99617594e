#pragma once

#include "hipdnn_flatbuffers_sdk/FlatbufferError.hpp"
#include "hipdnn_flatbuffers_sdk/data_objects/graph_generated.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hipdnn_flatbuffers_sdk {

// One tensor connection of a node: the schema field it comes from without the
// "_tensor_uid" suffix ("x", "in_1", "peer_stats[2]"), the tensor uid, and its direction.
struct NodePort {
    std::string name;
    int64_t uid = 0;
    bool isOutput = false;

    bool operator==(const NodePort&) const = default;
};

// Number of tensor inputs a pointwise mode reads (1, 2 or 3); 0 for UNSET or unknown modes.
inline int pointwiseInputCount(data_objects::PointwiseMode mode) {
    using Mode = data_objects::PointwiseMode;
    switch (mode) {
        case Mode::ABS:
        case Mode::CEIL:
        case Mode::COS:
        case Mode::ELU_FWD:
        case Mode::ERF:
        case Mode::EXP:
        case Mode::FLOOR:
        case Mode::GELU_APPROX_TANH_FWD:
        case Mode::GELU_FWD:
        case Mode::GEN_INDEX:
        case Mode::IDENTITY:
        case Mode::LOG:
        case Mode::LOGICAL_NOT:
        case Mode::NEG:
        case Mode::RECIPROCAL:
        case Mode::RELU_FWD:
        case Mode::RSQRT:
        case Mode::SIGMOID_FWD:
        case Mode::SIN:
        case Mode::SOFTPLUS_FWD:
        case Mode::SQRT:
        case Mode::SWISH_FWD:
        case Mode::TAN:
        case Mode::TANH_FWD:
            return 1;
        case Mode::ADD:
        case Mode::ADD_SQUARE:
        case Mode::CMP_EQ:
        case Mode::CMP_GE:
        case Mode::CMP_GT:
        case Mode::CMP_LE:
        case Mode::CMP_LT:
        case Mode::CMP_NEQ:
        case Mode::DIV:
        case Mode::LOGICAL_AND:
        case Mode::LOGICAL_OR:
        case Mode::MAX_OP:
        case Mode::MIN_OP:
        case Mode::MOD:
        case Mode::MUL:
        case Mode::POW:
        case Mode::SUB:
        // Backward modes read (dy, x).
        case Mode::ELU_BWD:
        case Mode::GELU_APPROX_TANH_BWD:
        case Mode::GELU_BWD:
        case Mode::RELU_BWD:
        case Mode::SIGMOID_BWD:
        case Mode::SOFTPLUS_BWD:
        case Mode::SWISH_BWD:
        case Mode::TANH_BWD:
            return 2;
        case Mode::BINARY_SELECT:
            return 3;
        case Mode::UNSET:
            return 0;
    }
    return 0;
}

// A read-only view of one node of a verified graph. It does not own the buffer: it is valid
// as long as the GraphWrapper (or buffer) it came from.
class NodeWrapper {
public:
    NodeWrapper(const data_objects::Node& node, size_t index) : _node(&node), _index(index) {}

    const data_objects::Node& node() const { return *_node; }
    size_t index() const { return _index; }
    data_objects::NodeAttributes type() const { return _node->attributes_type(); }

    // The union member name, e.g. "ConvolutionFwdAttributes"; empty for an unknown type.
    std::string_view typeName() const { return data_objects::EnumNameNodeAttributes(type()); }

    std::string_view name() const {
        return _node->name() != nullptr ? _node->name()->string_view() : std::string_view();
    }

    // The attributes table when the node is of type T, else nullptr.
    template <class T>
    const T* attributesAs() const {
        return _node->attributes_as<T>();
    }

    // "node 2 'relu' (PointwiseAttributes)": how error messages name a node.
    std::string describe() const {
        return "node " + std::to_string(_index) + " '" + std::string(name()) + "' (" +
               (typeName().empty() ? "type " + std::to_string(static_cast<int>(type()))
                                   : std::string(typeName())) +
               ")";
    }

    // Every tensor the node reads or writes, in schema field order. Optional ports appear only
    // when set; vector ports (peer_stats) appear once per element. Throws GraphError when the
    // node has no attributes or an unknown attributes type.
    std::vector<NodePort> ports() const {
        namespace fb = data_objects;
        PortCollector collect{*this, {}};
        if (_node->attributes() == nullptr || type() == fb::NodeAttributes::NONE) {
            throw GraphError(describe() + " has no attributes (NONE)");
        }
        switch (type()) {
            case fb::NodeAttributes::BatchnormInferenceAttributes: {
                const auto* a = _node->attributes_as_BatchnormInferenceAttributes();
                collect.input("x", a->x_tensor_uid());
                collect.input("mean", a->mean_tensor_uid());
                collect.input("inv_variance", a->inv_variance_tensor_uid());
                collect.input("scale", a->scale_tensor_uid());
                collect.input("bias", a->bias_tensor_uid());
                collect.output("y", a->y_tensor_uid());
                break;
            }
            case fb::NodeAttributes::BatchnormInferenceVarianceExtAttributes: {
                const auto* a = _node->attributes_as_BatchnormInferenceVarianceExtAttributes();
                collect.input("x", a->x_tensor_uid());
                collect.input("mean", a->mean_tensor_uid());
                collect.input("variance", a->variance_tensor_uid());
                collect.input("scale", a->scale_tensor_uid());
                collect.input("bias", a->bias_tensor_uid());
                collect.input("epsilon", a->epsilon_tensor_uid());
                collect.output("y", a->y_tensor_uid());
                break;
            }
            case fb::NodeAttributes::BatchnormAttributes: {
                const auto* a = _node->attributes_as_BatchnormAttributes();
                collect.input("x", a->x_tensor_uid());
                collect.input("scale", a->scale_tensor_uid());
                collect.input("bias", a->bias_tensor_uid());
                collect.input("epsilon", a->epsilon_tensor_uid());
                collect.inputs("peer_stats", a->peer_stats_tensor_uid());
                collect.input("prev_running_mean", a->prev_running_mean_tensor_uid());
                collect.input("prev_running_variance", a->prev_running_variance_tensor_uid());
                collect.input("momentum", a->momentum_tensor_uid());
                collect.output("y", a->y_tensor_uid());
                collect.output("mean", a->mean_tensor_uid());
                collect.output("inv_variance", a->inv_variance_tensor_uid());
                collect.output("next_running_mean", a->next_running_mean_tensor_uid());
                collect.output("next_running_variance", a->next_running_variance_tensor_uid());
                break;
            }
            case fb::NodeAttributes::BatchnormBackwardAttributes: {
                const auto* a = _node->attributes_as_BatchnormBackwardAttributes();
                collect.input("dy", a->dy_tensor_uid());
                collect.input("x", a->x_tensor_uid());
                collect.input("mean", a->mean_tensor_uid());
                collect.input("inv_variance", a->inv_variance_tensor_uid());
                collect.input("scale", a->scale_tensor_uid());
                collect.inputs("peer_stats", a->peer_stats_tensor_uid());
                collect.input("epsilon", a->epsilon_tensor_uid());
                collect.output("dx", a->dx_tensor_uid());
                collect.output("dscale", a->dscale_tensor_uid());
                collect.output("dbias", a->dbias_tensor_uid());
                break;
            }
            case fb::NodeAttributes::PointwiseAttributes: {
                const auto* a = _node->attributes_as_PointwiseAttributes();
                collect.input("in_0", a->in_0_tensor_uid());
                collect.input("in_1", a->in_1_tensor_uid());
                collect.input("in_2", a->in_2_tensor_uid());
                collect.output("out_0", a->out_0_tensor_uid());
                break;
            }
            case fb::NodeAttributes::ConvolutionFwdAttributes: {
                const auto* a = _node->attributes_as_ConvolutionFwdAttributes();
                collect.input("x", a->x_tensor_uid());
                collect.input("w", a->w_tensor_uid());
                collect.output("y", a->y_tensor_uid());
                break;
            }
            case fb::NodeAttributes::ConvolutionBwdAttributes: {
                const auto* a = _node->attributes_as_ConvolutionBwdAttributes();
                collect.input("dy", a->dy_tensor_uid());
                collect.input("w", a->w_tensor_uid());
                collect.output("dx", a->dx_tensor_uid());
                break;
            }
            case fb::NodeAttributes::ConvolutionWrwAttributes: {
                const auto* a = _node->attributes_as_ConvolutionWrwAttributes();
                collect.input("x", a->x_tensor_uid());
                collect.input("dy", a->dy_tensor_uid());
                collect.output("dw", a->dw_tensor_uid());
                break;
            }
            case fb::NodeAttributes::MatmulAttributes: {
                const auto* a = _node->attributes_as_MatmulAttributes();
                collect.input("a", a->a_tensor_uid());
                collect.input("b", a->b_tensor_uid());
                collect.output("c", a->c_tensor_uid());
                break;
            }
            case fb::NodeAttributes::RMSNormAttributes: {
                const auto* a = _node->attributes_as_RMSNormAttributes();
                collect.input("x", a->x_tensor_uid());
                collect.input("scale", a->scale_tensor_uid());
                collect.input("epsilon", a->epsilon_tensor_uid());
                collect.input("bias", a->bias_tensor_uid());
                collect.output("y", a->y_tensor_uid());
                collect.output("inv_rms", a->inv_rms_tensor_uid());
                break;
            }
            case fb::NodeAttributes::LayernormAttributes: {
                const auto* a = _node->attributes_as_LayernormAttributes();
                collect.input("x", a->x_tensor_uid());
                collect.input("scale", a->scale_tensor_uid());
                collect.input("bias", a->bias_tensor_uid());
                collect.input("epsilon", a->epsilon_tensor_uid());
                collect.output("y", a->y_tensor_uid());
                collect.output("mean", a->mean_tensor_uid());
                collect.output("inv_variance", a->inv_variance_tensor_uid());
                break;
            }
            case fb::NodeAttributes::RMSNormBackwardAttributes: {
                const auto* a = _node->attributes_as_RMSNormBackwardAttributes();
                collect.input("dy", a->dy_tensor_uid());
                collect.input("x", a->x_tensor_uid());
                collect.input("scale", a->scale_tensor_uid());
                collect.input("inv_rms", a->inv_rms_tensor_uid());
                collect.output("dx", a->dx_tensor_uid());
                collect.output("dscale", a->dscale_tensor_uid());
                collect.output("dbias", a->dbias_tensor_uid());
                break;
            }
            case fb::NodeAttributes::ReductionAttributes: {
                const auto* a = _node->attributes_as_ReductionAttributes();
                collect.input("in", a->in_tensor_uid());
                collect.output("out", a->out_tensor_uid());
                break;
            }
            case fb::NodeAttributes::ResampleFwdAttributes: {
                const auto* a = _node->attributes_as_ResampleFwdAttributes();
                collect.input("x", a->x_tensor_uid());
                collect.output("y", a->y_tensor_uid());
                collect.output("index", a->index_tensor_uid());
                break;
            }
            default:
                throw GraphError(describe() + " has an unknown attributes type " +
                                 std::to_string(static_cast<int>(type())));
        }
        return std::move(collect.ports);
    }

    std::vector<int64_t> inputUids() const { return uidsOf(false); }
    std::vector<int64_t> outputUids() const { return uidsOf(true); }

private:
    struct PortCollector {
        const NodeWrapper& owner;
        std::vector<NodePort> ports;

        void input(const char* name, int64_t uid) { ports.push_back({name, uid, false}); }
        void input(const char* name, flatbuffers::Optional<int64_t> uid) {
            if (uid.has_value()) {
                input(name, *uid);
            }
        }
        void inputs(const char* name, const flatbuffers::Vector<int64_t>* uids) {
            if (uids == nullptr) {
                return;
            }
            if (!hasAlignedElements(uids)) {
                throw GraphError(owner.describe() + " has a misaligned " + name +
                                 " vector (corrupted buffer)");
            }
            for (flatbuffers::uoffset_t i = 0; i < uids->size(); ++i) {
                ports.push_back({std::string(name) + "[" + std::to_string(i) + "]", uids->Get(i), false});
            }
        }
        void output(const char* name, int64_t uid) { ports.push_back({name, uid, true}); }
        void output(const char* name, flatbuffers::Optional<int64_t> uid) {
            if (uid.has_value()) {
                output(name, *uid);
            }
        }
    };

    std::vector<int64_t> uidsOf(bool outputs) const {
        std::vector<int64_t> uids;
        for (const auto& port : ports()) {
            if (port.isOutput == outputs) {
                uids.push_back(port.uid);
            }
        }
        return uids;
    }

    const data_objects::Node* _node;
    size_t _index;
};

}  // namespace hipdnn_flatbuffers_sdk
