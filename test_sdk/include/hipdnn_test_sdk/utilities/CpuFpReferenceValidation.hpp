// Upstream hipDNN's all-close validators on data SDK tensors, forwarding to
// hipdnn_test_sdk::allClose: |actual - reference| <= absolute + relative * |reference| for every
// element, NaN matching nothing and Inf only an Inf of the same sign at the same place.
#pragma once

#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include <hipdnn_data_sdk/utilities/Tensor.hpp>
#include <hipdnn_flatbuffers_sdk/ElementDataType.hpp>
#include <hipdnn_test_sdk/AllClose.hpp>

namespace hipdnn_test_sdk::utilities {

template <class T>
class CpuFpReferenceValidation {
public:
    /// Throws std::invalid_argument naming a negative or NaN tolerance.
    explicit CpuFpReferenceValidation(float absoluteTolerance = defaultTolerance(),
                                      float relativeTolerance = defaultTolerance())
        : tolerance_{absoluteTolerance, relativeTolerance} {
        if (!(absoluteTolerance >= 0.0f) || !(relativeTolerance >= 0.0f)) {
            throw std::invalid_argument(
                "CpuFpReferenceValidation: tolerances must be non-negative, got absolute " +
                std::to_string(absoluteTolerance) + " and relative " + std::to_string(relativeTolerance));
        }
    }

    /// True when `implementation` has the dims of `reference` and every element is close.
    /// lastReport() says which element differs most and by how much.
    bool allClose(const hipdnn_data_sdk::utilities::Tensor<T>& reference,
                  const hipdnn_data_sdk::utilities::Tensor<T>& implementation) const {
        constexpr auto dataType = hipdnn_flatbuffers_sdk::dataTypeOf<T>();
        lastReport_ = hipdnn_test_sdk::allClose(viewOf(reference, dataType), viewOf(implementation, dataType),
                                                tolerance_);
        return lastReport_.passed;
    }

    const AllCloseReport& lastReport() const { return lastReport_; }

private:
    static float defaultTolerance() { return static_cast<float>(std::numeric_limits<T>::epsilon()); }

    Tolerance tolerance_;
    mutable AllCloseReport lastReport_;
};

/// A validator with the element type's epsilon as default tolerances.
template <class T>
std::unique_ptr<CpuFpReferenceValidation<T>> createAllCloseValidator(
    float absoluteTolerance = static_cast<float>(std::numeric_limits<T>::epsilon()),
    float relativeTolerance = static_cast<float>(std::numeric_limits<T>::epsilon())) {
    return std::make_unique<CpuFpReferenceValidation<T>>(absoluteTolerance, relativeTolerance);
}

}  // namespace hipdnn_test_sdk::utilities
