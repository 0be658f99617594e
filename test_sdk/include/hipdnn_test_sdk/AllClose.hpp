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

/// How allClose() treats NaN.
enum class NanPolicy {
    /// Every NaN, in the result or in the reference, is a mismatch. NaN == NaN is no evidence that
    /// an engine is right: a NaN parameter (epsilon = NaN) or an unwritten output (the NaN sentinel)
    /// would make the reference and the result agree on garbage.
    Reject,
    /// A NaN in the result matches a NaN at the same place in the reference, for comparisons that
    /// expect NaN where the operation defines it (log of a negative number, 0 / 0, NaN inputs).
    /// Every other NaN still is a mismatch.
    MatchExpectedNan,
};

/// Outcome of allClose(). When it fails, the worst element is the one whose error exceeds its
/// allowance (absolute + relative * |expected|) by the largest factor; a NaN that does not match
/// (see NanPolicy) or an Inf that appears in one tensor and not at the same place (with the same
/// sign) in the other is worse than any finite error.
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
    /// NaN elements in the compared result and in the reference.
    int64_t actualNanCount = 0;
    int64_t expectedNanCount = 0;
    Tolerance tolerance;
    NanPolicy nanPolicy = NanPolicy::Reject;

    /// One paragraph naming the mismatch count, the tolerance, the worst element (multi-index,
    /// expected, actual, absolute and relative error) and how many NaNs each side holds; "all N
    /// elements within ..." when passed.
    std::string describe() const;
};

/// Compares `actual` with `expected` element by element (same dims required; strides and element
/// types may differ, values are compared as doubles). Integer tensors should use a zero
/// tolerance. Inf must appear at identical places with the same sign; NaN never matches unless
/// `nanPolicy` is MatchExpectedNan, and then only a NaN of the reference.
AllCloseReport allClose(const ErasedTensorView& expected, const ErasedTensorView& actual, Tolerance tolerance,
                        NanPolicy nanPolicy = NanPolicy::Reject);

}  // namespace hipdnn_test_sdk
