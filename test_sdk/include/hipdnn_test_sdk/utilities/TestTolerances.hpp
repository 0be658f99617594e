// Upstream hipDNN's per-operation tolerances by element type, read from the test SDK's table
// (hipdnn_test_sdk::fixedTolerance), which holds upstream's numbers. Each returns the absolute
// part; conv::getRelativeToleranceFwd the relative one where upstream gives it separately.
#pragma once

#include <hipdnn_flatbuffers_sdk/ElementDataType.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

namespace hipdnn_test_sdk::utilities {

namespace detail {

template <class T>
float absoluteToleranceOf(ToleranceOp op) {
    return static_cast<float>(fixedTolerance(op, hipdnn_flatbuffers_sdk::dataTypeOf<T>()).absolute);
}

template <class T>
float relativeToleranceOf(ToleranceOp op) {
    return static_cast<float>(fixedTolerance(op, hipdnn_flatbuffers_sdk::dataTypeOf<T>()).relative);
}

}  // namespace detail

namespace batchnorm {
template <class T>
float getToleranceInference() {
    return detail::absoluteToleranceOf<T>(ToleranceOp::BatchnormInference);
}
template <class T>
float getToleranceInferenceWithVariance() {
    return detail::absoluteToleranceOf<T>(ToleranceOp::BatchnormInferenceVariance);
}
template <class T>
float getToleranceTraining() {
    return detail::absoluteToleranceOf<T>(ToleranceOp::BatchnormTraining);
}
template <class T>
float getToleranceBackward() {
    return detail::absoluteToleranceOf<T>(ToleranceOp::BatchnormBackward);
}
}  // namespace batchnorm

namespace conv {
template <class T>
float getToleranceFwd() {
    return detail::absoluteToleranceOf<T>(ToleranceOp::ConvolutionFwd);
}
template <class T>
float getRelativeToleranceFwd() {
    return detail::relativeToleranceOf<T>(ToleranceOp::ConvolutionFwd);
}
template <class T>
float getToleranceBwd() {
    return detail::absoluteToleranceOf<T>(ToleranceOp::ConvolutionBwd);
}
template <class T>
float getToleranceWrw() {
    return detail::absoluteToleranceOf<T>(ToleranceOp::ConvolutionWrw);
}
}  // namespace conv

namespace matmul {
template <class T>
float getTolerance() {
    return detail::absoluteToleranceOf<T>(ToleranceOp::Matmul);
}
}  // namespace matmul

namespace reduction {
template <class T>
float getTolerance() {
    return detail::absoluteToleranceOf<T>(ToleranceOp::Reduction);
}
}  // namespace reduction

namespace pointwise {
template <class T>
float getTolerance() {
    return detail::absoluteToleranceOf<T>(ToleranceOp::Pointwise);
}
}  // namespace pointwise

namespace layernorm {
template <class T>
float getTolerance() {
    return detail::absoluteToleranceOf<T>(ToleranceOp::Layernorm);
}
}  // namespace layernorm

namespace rmsnorm {
template <class T>
float getTolerance() {
    return detail::absoluteToleranceOf<T>(ToleranceOp::RmsNorm);
}
}  // namespace rmsnorm

}  // namespace hipdnn_test_sdk::utilities
