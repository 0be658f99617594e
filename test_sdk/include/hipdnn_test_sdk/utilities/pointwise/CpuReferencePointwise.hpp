// Upstream hipDNN's pointwise reference on data SDK tensors, forwarding to
// hipdnn_test_sdk::references::pointwise (inputs broadcast to the output's dims).
#pragma once

#include <optional>

#include <hipdnn_data_sdk/utilities/Tensor.hpp>
#include <hipdnn_test_sdk/references/Pointwise.hpp>
#include <hipdnn_test_sdk/utilities/detail/TensorViews.hpp>

// Upstream's data SDK held the schema's generated types (hipdnn_data_sdk::data_objects::
// PointwiseMode, ...), and code written for it names them there.
namespace hipdnn_data_sdk {
namespace data_objects = hipdnn_flatbuffers_sdk::data_objects;
}  // namespace hipdnn_data_sdk

namespace hipdnn_test_sdk::utilities {

template <class T, class ComputeT = float>
class CpuReferencePointwiseImpl {
public:
    using Tensor = hipdnn_data_sdk::utilities::Tensor<T>;

    /// Unary modes; throws std::invalid_argument (from the reference) for a mode of another
    /// arity or inconsistent shapes.
    static void pointwiseCompute(references::PointwiseMode mode, Tensor& output, const Tensor& input) {
        references::pointwise<T, T, ComputeT>(params(mode), detail::viewOf(input), std::nullopt, std::nullopt,
                                              detail::mutableViewOf(output));
    }

    /// Binary modes (backward activations take dy, then x).
    static void pointwiseCompute(references::PointwiseMode mode, Tensor& output, const Tensor& input0,
                                 const Tensor& input1) {
        references::pointwise<T, T, ComputeT>(params(mode), detail::viewOf(input0), detail::viewOf(input1),
                                              std::nullopt, detail::mutableViewOf(output));
    }

private:
    static references::PointwiseParams params(references::PointwiseMode mode) {
        references::PointwiseParams result;
        result.mode = mode;
        return result;
    }
};

}  // namespace hipdnn_test_sdk::utilities
