#include "Validation.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/ElementAccess.hpp>

#include "GraphMetrics.hpp"

namespace hipdnn_driver {

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

namespace {

hipdnn_test_sdk::ErasedTensorView viewOf(const HostTensor& tensor) {
    return {tensor.dataType, tensor.bytes.data(), tensor.dims, tensor.strides};
}

double maxAbsDifference(const HostTensor& expected, const HostTensor& actual) {
    double worst = 0.0;
    hipdnn_data_sdk::utilities::forEachIndex(expected.dims, [&](const std::vector<int64_t>& index) {
        const double want =
            hipdnn_test_sdk::readElement(expected.dataType, expected.bytes.data(),
                                         hipdnn_data_sdk::utilities::offsetOf(index, expected.strides));
        const double got =
            hipdnn_test_sdk::readElement(actual.dataType, actual.bytes.data(),
                                         hipdnn_data_sdk::utilities::offsetOf(index, actual.strides));
        // NaN on either side is no agreement (see NanPolicy): it counts as an infinite error.
        const double difference = want == got ? 0.0 : std::fabs(want - got);
        worst =
            std::max(worst, std::isnan(difference) ? std::numeric_limits<double>::infinity() : difference);
    });
    return worst;
}

}  // namespace

ValidationResult validateOutputs(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                 const std::vector<HostTensor>& expected,
                                 const std::vector<HostTensor>& actual) {
    const GraphTolerance graphTolerance = hipdnn_driver::graphTolerance(graph);
    ValidationResult result;
    for (size_t i = 0; i < expected.size() && i < actual.size(); ++i) {
        const HostTensor& want = expected[i];
        const fbs::DataType computeType = graph.graph().compute_data_type() == fbs::DataType::UNSET
                                              ? fbs::DataType::FLOAT
                                              : graph.graph().compute_data_type();
        const hipdnn_test_sdk::Tolerance tolerance =
            graphTolerance.attentionOperandType &&
                    (graphTolerance.op == hipdnn_test_sdk::ToleranceOp::Sdpa ||
                     graphTolerance.op == hipdnn_test_sdk::ToleranceOp::SdpaBackward)
                ? hipdnn_test_sdk::attentionTolerance(graphTolerance.op, *graphTolerance.attentionOperandType,
                                                      graphTolerance.reductionLength)
                : hipdnn_test_sdk::reductionTolerance(graphTolerance.op, want.dataType, computeType,
                                                      graphTolerance.reductionLength, 1.0);
        std::ostringstream description;
        description << hipdnn_test_sdk::toleranceOpName(graphTolerance.op) << " tolerance abs "
                    << tolerance.absolute << " rel " << tolerance.relative << " ("
                    << hipdnn_test_sdk::dataTypeName(want.dataType) << ")";
        result.toleranceDescription = description.str();
        const auto report = hipdnn_test_sdk::allClose(viewOf(want), viewOf(actual[i]), tolerance);
        result.maxAbsError = std::max(result.maxAbsError, maxAbsDifference(want, actual[i]));
        if (!report.passed) {
            result.passed = false;
            result.failure += "output '" + want.name + "' (uid " + std::to_string(want.uid) +
                              "): " + report.describe() + "\n";
        }
    }
    return result;
}

}  // namespace hipdnn_driver
