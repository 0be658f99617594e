// The checks an operation's traits block states its contract with: each throws GraphError with a
// message that starts with the node's description and names the port, the tensor and the values.
#pragma once

#include "hipdnn_flatbuffers_sdk/FlatbufferError.hpp"
#include "hipdnn_flatbuffers_sdk/PassByValue.hpp"
#include "hipdnn_flatbuffers_sdk/data_objects/graph_generated.h"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hipdnn_flatbuffers_sdk::operations {

// The tensors of a verified graph by uid: every uid a node's ports name is in it.
using TensorTable = std::unordered_map<int64_t, const data_objects::TensorAttributes*>;

// A port's uid where the port may be absent: a required port's uid converts to it, an absent
// optional port's checks do nothing.
using OptionalUid = flatbuffers::Optional<int64_t>;

// One node under check: its attributes, its tensors and how messages name it.
template <class Attributes>
class Contract {
public:
    Contract(const Attributes& attributes, const TensorTable& tensors, std::string node)
        : attributes(attributes), _tensors(tensors), _node(std::move(node)) {}

    const Attributes& attributes;

    const data_objects::TensorAttributes& tensor(int64_t uid) const { return *_tensors.at(uid); }

    std::vector<int64_t> dims(int64_t uid) const {
        const auto* dims = tensor(uid).dims();
        return {dims->begin(), dims->end()};
    }

    size_t rank(int64_t uid) const { return tensor(uid).dims()->size(); }

    static std::string label(const data_objects::TensorAttributes& tensor) {
        return "tensor uid " + std::to_string(tensor.uid()) + " '" +
               (tensor.name() != nullptr ? tensor.name()->str() : std::string()) + "'";
    }

    [[noreturn]] void fail(const std::string& problem) const { throw GraphError(_node + ": " + problem); }

    [[noreturn]] void fail(std::string_view port, int64_t uid, const std::string& problem) const {
        throw GraphError(_node + ": port " + std::string(port) + " (" + label(tensor(uid)) + ") " + problem);
    }

    // The form for problems of one tensor as a whole: "<node> port <port>: <tensor> <problem>".
    [[noreturn]] void failTensor(std::string_view port, int64_t uid, const std::string& problem) const {
        throw GraphError(_node + " port " + std::string(port) + ": " + label(tensor(uid)) + " " + problem);
    }

    void require(bool condition, const std::string& problem) const {
        if (!condition) {
            fail(problem);
        }
    }

    // A mode enum that must be a known value other than its UNSET / NOT_SET.
    template <class Mode>
    void mode(std::string_view field, Mode value, Mode unset, const char* (*nameOf)(Mode)) const {
        if (!isKnownEnumValue(value) || value == unset) {
            throw GraphError(_node + " has " + std::string(field) + " " +
                             (isKnownEnumValue(value) ? std::string(nameOf(value))
                                                      : std::to_string(static_cast<int>(value))) +
                             "; a valid value is required");
        }
    }

    template <class Enum>
    void knownValue(std::string_view field, Enum value) const {
        if (!isKnownEnumValue(value)) {
            throw GraphError(_node + " has unknown " + std::string(field) + " " +
                             std::to_string(static_cast<int>(value)));
        }
    }

    // An optional float attribute: `finite` ones must be finite, the others (clip bounds, where an
    // infinite bound means no bound) must at least be numbers.
    void number(std::string_view field, flatbuffers::Optional<float> value, bool finite) const {
        if (value.has_value() && (std::isnan(*value) || (finite && std::isinf(*value)))) {
            throw GraphError(_node + " has " + std::string(field) + " " + formatNumber(*value) +
                             "; it must be " + (finite ? "finite" : "a number"));
        }
    }

    // Epsilon and momentum scale statistics: NaN or Inf would turn every output into NaN (or a
    // constant) that no comparison should accept. A value passed in the graph must be finite and
    // the tensor a single element; the values of a buffer are the caller's.
    void scalar(std::string_view port, OptionalUid present) const {
        if (!present.has_value()) {
            return;
        }
        const int64_t uid = *present;
        if (dims(uid) != std::vector<int64_t>(rank(uid), 1)) {
            fail(port, uid, "has dims " + formatDims(dims(uid)) + "; a scalar needs exactly one element");
        }
        const auto value = passByValueNumber(tensor(uid));
        if (value && !std::isfinite(*value)) {
            failTensor(port, uid, "has value " + formatNumber(*value) + "; it must be finite");
        }
    }

    void sameDims(std::string_view port, OptionalUid present, std::string_view referencePort,
                  int64_t referenceUid) const {
        if (!present.has_value()) {
            return;
        }
        const int64_t uid = *present;
        if (dims(uid) != dims(referenceUid)) {
            fail(port, uid,
                 "has dims " + formatDims(dims(uid)) + " but port " + std::string(referencePort) + " has " +
                     formatDims(dims(referenceUid)) + "; they must be equal");
        }
    }

    // Every dim of the port, aligned from the right, equals the target's or is 1.
    void broadcastsTo(std::string_view port, OptionalUid present, const std::vector<int64_t>& target) const {
        if (!present.has_value()) {
            return;
        }
        const int64_t uid = *present;
        if (!hipdnn_data_sdk::utilities::broadcastsTo(dims(uid), target)) {
            fail(port, uid,
                 "has dims " + formatDims(dims(uid)) + ", which do not broadcast to " + formatDims(target));
        }
    }

    // Dims (1, C, 1, ...): the layout of batch norm's per-channel tensors.
    void perChannel(std::string_view port, OptionalUid present, int64_t channels) const {
        if (!present.has_value()) {
            return;
        }
        const int64_t uid = *present;
        const auto d = dims(uid);
        bool ok = d.size() >= 2 && d[1] == channels;
        for (size_t i = 0; ok && i < d.size(); ++i) {
            ok = i == 1 || d[i] == 1;
        }
        if (!ok) {
            fail(port, uid,
                 "has dims " + formatDims(d) + "; a per-channel tensor needs (1, " +
                     std::to_string(channels) + ", 1, ...)");
        }
    }

    // The channel count of batch norm's x, (N, C, ...).
    int64_t channelsOf(int64_t x) const {
        const auto d = dims(x);
        if (d.size() < 2) {
            fail("x", x, "has rank " + std::to_string(d.size()) + "; batchnorm needs (N, C, ...)");
        }
        return d[1];
    }

    // Dims of layer and RMS norm scale and bias: x's rank, dims[0] == 1, the others x's or 1.
    void normParameter(std::string_view port, OptionalUid present, const std::vector<int64_t>& x) const {
        if (!present.has_value()) {
            return;
        }
        const int64_t uid = *present;
        const auto d = dims(uid);
        bool ok = d.size() == x.size() && d[0] == 1;
        for (size_t i = 1; ok && i < d.size(); ++i) {
            ok = d[i] == 1 || d[i] == x[i];
        }
        if (!ok) {
            fail(port, uid,
                 "has dims " + formatDims(d) + "; expected (1, ...) matching x " + formatDims(x) +
                     " or 1 in each dim");
        }
    }

    // Dims (N, 1, ..., 1): the per-row statistics of layer and RMS norm.
    void normStatistic(std::string_view port, OptionalUid present, const std::vector<int64_t>& x) const {
        if (!present.has_value()) {
            return;
        }
        const int64_t uid = *present;
        std::vector<int64_t> expected(x.size(), 1);
        expected[0] = x[0];
        if (dims(uid) != expected) {
            fail(port, uid, "has dims " + formatDims(dims(uid)) + "; expected " + formatDims(expected));
        }
    }

    // The number of spatial dims of (N, C, spatial...) tensors that must all have one rank >= 3.
    size_t spatialRank(std::initializer_list<std::pair<const char*, int64_t>> ports) const {
        const size_t expected = rank(ports.begin()->second);
        for (const auto& [port, uid] : ports) {
            if (rank(uid) != expected || expected < 3) {
                failTensor(port, uid,
                           "has rank " + std::to_string(rank(uid)) + "; tensors need one rank >= 3 (" +
                               std::to_string(expected) + " for port " + ports.begin()->first + ")");
            }
        }
        return expected - 2;
    }

    // One value per spatial dim, each at least `minimum`.
    std::vector<int64_t> spatialVector(std::string_view field, const flatbuffers::Vector<int64_t>* values,
                                       size_t spatialDims, int64_t minimum) const {
        if (!hasAlignedElements(values)) {
            throw GraphError(_node + " has a misaligned " + std::string(field) +
                             " vector (corrupted buffer)");
        }
        const size_t count = values != nullptr ? values->size() : 0;
        if (count != spatialDims) {
            throw GraphError(_node + " has " + std::to_string(count) + " " + std::string(field) +
                             " values for " + std::to_string(spatialDims) + " spatial dims");
        }
        for (flatbuffers::uoffset_t i = 0; i < count; ++i) {
            if (values->Get(i) < minimum) {
                throw GraphError(_node + " has " + std::string(field) + "[" + std::to_string(i) +
                                 "] = " + std::to_string(values->Get(i)) +
                                 "; it must be >= " + std::to_string(minimum));
            }
        }
        return count == 0 ? std::vector<int64_t>{} : std::vector<int64_t>(values->begin(), values->end());
    }

    static std::string formatDims(const std::vector<int64_t>& dims) {
        return hipdnn_data_sdk::utilities::formatDims(dims);
    }

    static std::string formatNumber(double value) {
        if (std::isnan(value)) {
            return "nan";
        }
        if (std::isinf(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        return std::to_string(value);
    }

private:
    const TensorTable& _tensors;
    std::string _node;
};

}  // namespace hipdnn_flatbuffers_sdk::operations
