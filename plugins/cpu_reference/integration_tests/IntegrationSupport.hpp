// Shared by the cpu_reference integration tests: host tensors of any element type, and a
// session that runs serialized graphs through the backend C API with only this plugin loaded.
#pragma once

#include <hipdnn_backend.h>
#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/ElementAccess.hpp>
#include <hipdnn_test_sdk/references/References.hpp>

#include <hipdnn_data_sdk/types.hpp>

#include <cstddef>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace cpu_reference_integration {

using hipdnn_flatbuffers_sdk::data_objects::DataType;
namespace ref = hipdnn_test_sdk::references;

/// Stride orders (data SDK convention, 0 = innermost) of the layouts the tests cover.
struct Layout {
    std::string name;
    std::vector<int64_t> strideOrder4d;
};

inline const Layout NCHW{"NCHW", {3, 2, 1, 0}};
inline const Layout NHWC{"NHWC", {3, 0, 2, 1}};

/// Host memory for one tensor of a run-time element type.
class HostTensor {
public:
    HostTensor() = default;
    HostTensor(DataType type, std::vector<int64_t> dims, std::vector<int64_t> strides = {})
        : _type(type),
          _dims(std::move(dims)),
          _strides(strides.empty() ? ref::packedStrides(_dims) : std::move(strides)) {
        int64_t span = 1;
        for (size_t i = 0; i < _dims.size(); ++i) {
            span += (_dims[i] - 1) * _strides[i];
        }
        _bytes.assign(static_cast<size_t>(span) * hipdnn_test_sdk::dataTypeSize(type), std::byte{0});
    }

    /// Uniform values in [low, high), rounded to the element type; deterministic for a seed.
    HostTensor& fillRandom(uint32_t seed, double low = -1.0, double high = 1.0) {
        std::mt19937 generator(seed);
        std::uniform_real_distribution<double> distribution(low, high);
        const int64_t storage = static_cast<int64_t>(_bytes.size() / hipdnn_test_sdk::dataTypeSize(_type));
        for (int64_t i = 0; i < storage; ++i) {
            hipdnn_test_sdk::writeElement(_type, _bytes.data(), i, distribution(generator));
        }
        return *this;
    }

    DataType type() const { return _type; }
    const std::vector<int64_t>& dims() const { return _dims; }
    const std::vector<int64_t>& strides() const { return _strides; }
    void* data() { return _bytes.data(); }
    const void* data() const { return _bytes.data(); }

    template <class T>
    ref::TensorView<T> view() {
        return {reinterpret_cast<T*>(_bytes.data()), _dims, _strides};
    }

    template <class T>
    ref::TensorView<const T> constView() const {
        return {reinterpret_cast<const T*>(_bytes.data()), _dims, _strides};
    }

    hipdnn_test_sdk::ErasedTensorView erased() const { return {_type, _bytes.data(), _dims, _strides}; }

private:
    DataType _type = DataType::FLOAT;
    std::vector<int64_t> _dims;
    std::vector<int64_t> _strides;
    std::vector<std::byte> _bytes;
};

/// "t<uid>". Built with += because GCC 12 raises a false -Wrestrict on "literal" + std::string.
inline std::string tensorName(int64_t uid) {
    std::string name = "t";
    name += std::to_string(uid);
    return name;
}

/// Calls fn(T{}) for FLOAT, HALF or BFLOAT16.
template <class Fn>
void withElementType(DataType type, Fn&& fn) {
    switch (type) {
        case DataType::FLOAT:
            return fn(float{});
        case DataType::HALF:
            return fn(hipdnn_data_sdk::types::half{});
        case DataType::BFLOAT16:
            return fn(hipdnn_data_sdk::types::bfloat16{});
        default:
            throw std::invalid_argument("unexpected element type " + hipdnn_test_sdk::dataTypeName(type));
    }
}

/// A CPU handle whose only plugin is the cpu_reference plugin built with these tests.
class CpuReferenceSession {
public:
    CpuReferenceSession();
    ~CpuReferenceSession();
    CpuReferenceSession(const CpuReferenceSession&) = delete;
    CpuReferenceSession& operator=(const CpuReferenceSession&) = delete;

    /// Deserializes, plans (first heuristic result) and executes the graph. Returns an empty
    /// string on success, else the failing call and the backend's last error.
    std::string run(const std::vector<uint8_t>& graph, std::map<int64_t, HostTensor>& tensors);

    /// Number of engine configurations the heuristics offer for the graph, and the declined
    /// engines' reasons ("<engine>\t<plugin>\t<reason>\n" lines).
    std::pair<int64_t, std::string> heuristics(const std::vector<uint8_t>& graph);

private:
    hipdnnHandle_t _handle = nullptr;
};

}  // namespace cpu_reference_integration
