#include <hipdnn_test_sdk/AllClose.hpp>

#include <hipdnn_test_sdk/ElementAccess.hpp>

#include "IndexIteration.hpp"

#include <cmath>
#include <limits>
#include <sstream>

namespace hipdnn_test_sdk {

namespace {

std::string formatIndex(const std::vector<int64_t>& index) {
    std::ostringstream out;
    out << '[';
    for (size_t i = 0; i < index.size(); ++i) {
        out << (i == 0 ? "" : ", ") << index[i];
    }
    out << ']';
    return out.str();
}

// A non-finite value on either side matches only the identical value on the other: the same
// infinity, or NaN for NaN where the policy allows it.
bool nonFiniteMatches(double expected, double actual, NanPolicy nanPolicy) {
    if (std::isnan(expected) || std::isnan(actual)) {
        return nanPolicy == NanPolicy::MatchExpectedNan && std::isnan(expected) && std::isnan(actual);
    }
    return expected == actual;
}

}  // namespace

std::string AllCloseReport::describe() const {
    std::ostringstream out;
    out.precision(9);
    if (!structuralError.empty()) {
        out << "tensors cannot be compared: " << structuralError;
        return out.str();
    }
    if (passed) {
        out << "all " << elementCount << " elements within absolute " << tolerance.absolute << " + relative "
            << tolerance.relative << " * |expected|";
        return out.str();
    }
    out << mismatchCount << " of " << elementCount << " elements differ beyond absolute "
        << tolerance.absolute << " + relative " << tolerance.relative << " * |expected|; worst at index "
        << formatIndex(worstIndex) << ": expected " << worstExpected << ", actual " << worstActual
        << ", absolute error " << worstAbsoluteError << ", relative error " << worstRelativeError;
    if (actualNanCount > 0) {
        out << "; the result holds " << actualNanCount << " NaN" << (actualNanCount == 1 ? "" : "s");
    }
    if (expectedNanCount > 0) {
        out << "; the reference holds " << expectedNanCount << " NaN" << (expectedNanCount == 1 ? "" : "s");
    }
    if ((actualNanCount > 0 || expectedNanCount > 0) && nanPolicy == NanPolicy::Reject) {
        out << " (NaN matches nothing unless the comparison allows expected NaNs)";
    }
    return out.str();
}

AllCloseReport allClose(const ErasedTensorView& expected, const ErasedTensorView& actual, Tolerance tolerance,
                        NanPolicy nanPolicy) {
    AllCloseReport report;
    report.tolerance = tolerance;
    report.nanPolicy = nanPolicy;
    if (expected.dims != actual.dims) {
        report.passed = false;
        report.structuralError =
            "expected dims " + formatIndex(expected.dims) + " but actual dims " + formatIndex(actual.dims);
        return report;
    }
    if (expected.strides.size() != expected.dims.size() || actual.strides.size() != actual.dims.size()) {
        report.passed = false;
        report.structuralError =
            "strides rank differs from dims rank " + std::to_string(expected.dims.size());
        return report;
    }

    double worstScore = -1.0;
    detail::forEachIndex(expected.dims, [&](const std::vector<int64_t>& index) {
        ++report.elementCount;
        const double expectedValue =
            readElement(expected.dataType, expected.data, detail::offsetOf(index, expected.strides));
        const double actualValue =
            readElement(actual.dataType, actual.data, detail::offsetOf(index, actual.strides));

        const double absoluteError = std::abs(actualValue - expectedValue);
        report.expectedNanCount += std::isnan(expectedValue) ? 1 : 0;
        report.actualNanCount += std::isnan(actualValue) ? 1 : 0;
        double score = 0.0;
        bool mismatch = false;
        if (!std::isfinite(expectedValue) || !std::isfinite(actualValue)) {
            mismatch = !nonFiniteMatches(expectedValue, actualValue, nanPolicy);
            score = mismatch ? std::numeric_limits<double>::infinity() : 0.0;
        } else {
            const double allowance = tolerance.absolute + tolerance.relative * std::abs(expectedValue);
            mismatch = absoluteError > allowance;
            score = allowance > 0.0 ? absoluteError / allowance
                                    : (absoluteError > 0.0 ? std::numeric_limits<double>::max() : 0.0);
        }
        if (mismatch) {
            ++report.mismatchCount;
        }
        // Only mismatches compete for "worst" so that a passing report carries no index.
        if (mismatch && score > worstScore) {
            worstScore = score;
            report.worstIndex = index;
            report.worstExpected = expectedValue;
            report.worstActual = actualValue;
            report.worstAbsoluteError = absoluteError;
            report.worstRelativeError = expectedValue != 0.0 ? absoluteError / std::abs(expectedValue)
                                                             : std::numeric_limits<double>::infinity();
        }
    });
    report.passed = report.mismatchCount == 0;
    return report;
}

}  // namespace hipdnn_test_sdk
