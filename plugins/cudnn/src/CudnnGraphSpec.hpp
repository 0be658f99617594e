// The cuDNN graph a hipdnn graph translates to, described as plain data: tensors and operations
// with their cuDNN attributes. Translation (GraphTranslator) produces it without calling cuDNN,
// so it is unit-testable on machines without a GPU; CudnnOperationGraph turns it into backend
// descriptors.
#pragma once

#include <cudnn_graph.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnn_cudnn_plugin {

/// A graph (or one node of it) that the cuDNN mapping cannot express; the message is the decline
/// reason reported to the backend.
class TranslationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// One cuDNN backend attribute value, stored as the raw element array cudnnBackendSetAttribute
/// takes.
struct Attribute {
    cudnnBackendAttributeName_t name{};
    cudnnBackendAttributeType_t type{};
    int64_t count = 0;
    std::vector<uint8_t> bytes;

    template <class T>
    static Attribute of(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type,
                        const std::vector<T>& values) {
        Attribute attribute{name, type, static_cast<int64_t>(values.size()), {}};
        attribute.bytes.resize(values.size() * sizeof(T));
        if (!values.empty()) {
            std::memcpy(attribute.bytes.data(), values.data(), attribute.bytes.size());
        }
        return attribute;
    }
    template <class T>
    static Attribute scalar(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, T value) {
        return of(name, type, std::vector<T>{value});
    }

    /// The first element reinterpreted as T (for tests and diagnostics).
    template <class T>
    T first() const {
        T value{};
        std::memcpy(&value, bytes.data(), sizeof(T));
        return value;
    }
};

/// A cuDNN tensor: dims and strides already brought to the rank cuDNN needs.
struct TensorSpec {
    int64_t uid = 0;
    std::string name;
    cudnnDataType_t dataType = CUDNN_DATA_FLOAT;
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
    bool isVirtual = false;
    /// Pass-by-value scalar: the value travels in host memory through the variant pack, as a
    /// FLOAT or an INT32 (`dataType`).
    std::optional<double> byValue;
    /// A real tensor the graph itself needs (not a user buffer): it lives in the workspace at this
    /// byte offset (cuDNN's fused attention backward reads and writes such intermediates).
    std::optional<int64_t> workspaceOffset;
    /// An output cuDNN leaves partly unwritten (attention's rows past seq_len_q): execute sets it
    /// to zero on the stream before cuDNN runs. Only dense tensors are marked (no gaps to clobber).
    bool zeroedBeforeExecute = false;
    /// What global.benchmarking's scratch copy of this INT32 tensor holds instead of its byte
    /// pattern: sequence lengths bound the matmuls they override, so they must not exceed the dims.
    std::optional<int32_t> timingValue;

    /// Elements from the first to the last one the tensor addresses (0 for an empty tensor).
    size_t storageElements() const {
        size_t last = 0;
        for (size_t i = 0; i < dims.size(); ++i) {
            if (dims[i] == 0) {
                return 0;
            }
            last += static_cast<size_t>((dims[i] - 1) * strides[i]);
        }
        return last + 1;
    }
};

/// A descriptor an operation refers to (convolution, pointwise, matmul, reduction descriptor).
struct SubDescriptorSpec {
    cudnnBackendDescriptorType_t type{};
    std::vector<Attribute> attributes;
};

/// A tensor port of an operation: the attribute and the uid(s) of the tensor(s) it names.
struct TensorPort {
    cudnnBackendAttributeName_t attribute{};
    std::vector<int64_t> uids;
};

struct OperationSpec {
    cudnnBackendDescriptorType_t type{};
    /// Index and name of the hipdnn node it came from, and a short label such as
    /// "POINTWISE RELU_FWD", for error messages.
    int64_t nodeIndex = 0;
    std::string nodeName;
    std::string label;
    std::vector<TensorPort> ports;
    std::vector<Attribute> attributes;
    /// The sub-descriptor and the attribute that names it, when the operation has one.
    std::optional<SubDescriptorSpec> subDescriptor;
    cudnnBackendAttributeName_t subDescriptorAttribute{};

    const TensorPort* port(cudnnBackendAttributeName_t attribute) const {
        for (const TensorPort& candidate : ports) {
            if (candidate.attribute == attribute) {
                return &candidate;
            }
        }
        return nullptr;
    }
};

struct CudnnGraphSpec {
    /// Keyed by the hipdnn graph's uids (TensorSpec::uid, TensorPort::uids); cudnnUid() gives the
    /// uid cuDNN knows each tensor by.
    std::map<int64_t, TensorSpec> tensors;
    std::vector<OperationSpec> operations;
    /// Bytes at the start of the workspace that hold the workspace-resident tensors; cuDNN's
    /// plan workspace follows them.
    int64_t internalWorkspaceBytes = 0;
    /// Why every plan of this graph can give results that vary from run to run ("" when none):
    /// structural nondeterminism that cuDNN's numerical notes do not report.
    std::string nondeterminism;

    /// "node 2 'relu' POINTWISE RELU_FWD; node 3 ..." for decline reasons.
    std::string describeOperations() const;

    /// The uid cuDNN knows tensor `uid` by, in tensor descriptors and the variant pack alike:
    /// `uid` itself, except that uid 0 becomes one past the largest uid of the spec. The frontend
    /// numbers tensors from 0, and cuDNN's norm backward engines reject an operand whose uid is 0
    /// at execute ("norm_op_Ids ... == 0", BAD_PARAM_NULL_POINTER).
    int64_t cudnnUid(int64_t uid) const {
        if (uid != 0 || tensors.empty()) {
            return uid;
        }
        return std::max<int64_t>(tensors.rbegin()->first, 0) + 1;
    }
};

}  // namespace hipdnn_cudnn_plugin
