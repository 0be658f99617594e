#include "Problem.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

namespace hipdnn_differential {

using hipdnn_data_sdk::utilities::generatePackedStrides;
using hipdnn_data_sdk::utilities::packedStrides;

int64_t ProblemBuilder::tensor(const std::string& name, DataType type, const Dims& dims, const Dims& strides,
                               ValueRange range) {
    const int64_t uid = _nextUid++;
    _problem.graph.addTensor(uid, name, type, dims, strides.empty() ? packedStrides(dims) : strides);
    _problem.ranges[uid] = range;
    return uid;
}

int64_t ProblemBuilder::intermediate(const std::string& name, const Dims& dims, const Dims& strides) {
    const int64_t uid = _nextUid++;
    _problem.graph.addTensor(uid, name, DataType::FLOAT, dims, strides, true);
    return uid;
}

int64_t ProblemBuilder::scalar(const std::string& name, double value) {
    const int64_t uid = _nextUid++;
    _problem.graph.addScalar(uid, name, DataType::FLOAT, value);
    return uid;
}

Dims activationStrides(const Dims& dims, bool channelsLast) {
    if (!channelsLast || dims.size() < 3) {
        return packedStrides(dims);
    }
    // Stride order per dim, 0 = fastest: C fastest, then the spatial dims right to left, N last.
    const auto rank = static_cast<int64_t>(dims.size());
    Dims order(dims.size());
    order[0] = rank - 1;
    order[1] = 0;
    for (int64_t dim = 2; dim < rank; ++dim) {
        order[static_cast<size_t>(dim)] = rank - dim;
    }
    return generatePackedStrides(dims, order);
}

Dims channelDims(int64_t channels, size_t rank) {
    Dims dims(rank, 1);
    dims[1] = channels;
    return dims;
}

DataType pickIoType(Random& random) {
    const double draw = random.real(0.0, 1.0);
    if (draw < 0.7) {
        return DataType::FLOAT;
    }
    return draw < 0.85 ? DataType::HALF : DataType::BFLOAT16;
}

Problem generateProblem(Random& random) {
    // Weights: the fused families (convolution, matmul, pointwise) get the most graphs.
    const int64_t draw = random.between(0, 99);
    if (draw < 25) {
        return generateConvolution(random);
    }
    if (draw < 40) {
        return generateMatmul(random);
    }
    if (draw < 55) {
        return generatePointwise(random);
    }
    if (draw < 70) {
        return generateBatchnorm(random);
    }
    if (draw < 80) {
        return generateLayerRmsNorm(random);
    }
    if (draw < 90) {
        return generateReduction(random);
    }
    return generatePooling(random);
}

}  // namespace hipdnn_differential
