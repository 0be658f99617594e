// Views of data SDK tensors for the CPU references.
#pragma once

#include <hipdnn_data_sdk/utilities/Tensor.hpp>
#include <hipdnn_test_sdk/references/TensorView.hpp>

namespace hipdnn_test_sdk::utilities::detail {

template <class T>
references::TensorView<const T> viewOf(const hipdnn_data_sdk::utilities::Tensor<T>& tensor) {
    return {tensor.data(), tensor.dims(), tensor.strides()};
}

template <class T>
references::TensorView<T> mutableViewOf(hipdnn_data_sdk::utilities::Tensor<T>& tensor) {
    return {tensor.data(), tensor.dims(), tensor.strides()};
}

}  // namespace hipdnn_test_sdk::utilities::detail
