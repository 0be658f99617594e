// Element-wise comparison of an engine's output with a reference, on strided tensors of any
// element type the test SDK handles. Every element is visited (no early exit) so that the
// report can say how many differ and which one differs most.
#pragma once

#include <hipdnn_test_sdk/Tolerances.hpp>

#include <hipdnn_flatbuffers_sdk/data_objects/data_types_generated.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hipdnn_test_sdk {

/// A read-only strided view (dims and strides in elements) of host memory.
struct ErasedTensorView {
    hipdnn_flatbuffers_sdk::data_objects::DataType dataType =
        hipdnn_flatbuffers_sdk::data_objects::DataType::UNSET;
    const void* data = nullptr;
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
};

/// Makes a view of any tensor-like object with dims(), strides() and data() (for example
/// hipdnn_data_sdk::utilities::Tensor<T>) whose element type is `dataType`.
template <class TensorLike>
ErasedTensorView viewOf(const TensorLike& tensor, hipdnn_flatbuffers_sdk::data_objects::DataType dataType) {
    return ErasedTensorView{dataType, static_cast<const void*>(tensor.data()),
                            std::vector<int64_t>(tensor.dims().begin(), tensor.dims().end()),
                            std::vector<int64_t>(tensor.strides().begin(), tensor.strides().end())};
}

/// Outcome of allClose(). When it fails, the worst element is the one whose error exceeds its
/// allowance (absolute + relative * |expected|) by the largest factor; a NaN/Inf that appears in
/// one tensor and not at the same place (with the same sign for Inf) in the other is worse than
/// any finite error.
struct AllCloseReport {
    bool passed = true;
    int64_t elementCount = 0;
    int64_t mismatchCount = 0;
    /// Non-empty when the tensors could not be compared at all (dims or type differ).
    std::string structuralError;
    std::vector<int64_t> worstIndex;
    double worstExpected = 0.0;
    double worstActual = 0.0;
    double worstAbsoluteError = 0.0;
    double worstRelativeError = 0.0;
    Tolerance tolerance;

    /// One paragraph naming the mismatch count, the tolerance and the worst element (multi-index,
    /// expected, actual, absolute and relative error); "all N elements within ..." when passed.
    std::string describe() const;
};

/// Compares `actual` with `expected` element by element (same dims required; strides and element
/// types may differ, values are compared as doubles). Integer tensors should use a zero
/// tolerance. NaN and Inf must appear at identical places.
AllCloseReport allClose(const ErasedTensorView& expected, const ErasedTensorView& actual,
                        Tolerance tolerance);

}  // namespace hipdnn_test_sdk
