// Reductions over any subset of dims, and max / average pooling (2-D and 3-D) with shapes from
// SlidingWindow.
#include "Problem.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

namespace hipdnn_differential {

using hipdnn_test_sdk::ToleranceOp;

Problem generateReduction(Random& random) {
    using Mode = fb::ReductionMode;
    static const std::vector<std::pair<Mode, const char*>> modes{
        {Mode::ADD, "add"}, {Mode::MUL, "mul"},     {Mode::MIN_OP, "min"},  {Mode::MAX_OP, "max"},
        {Mode::AVG, "avg"}, {Mode::NORM1, "norm1"}, {Mode::NORM2, "norm2"}, {Mode::AMAX, "amax"}};
    const auto& [mode, name] = random.pick(modes);
    ProblemBuilder builder(random, std::string("reduction_") + name, ToleranceOp::Reduction);
    const size_t rank = static_cast<size_t>(random.between(2, 4));
    Dims dims;
    for (size_t dim = 0; dim < rank; ++dim) {
        dims.push_back(random.between(1, rank == 4 ? 6 : 12));
    }
    Dims outputDims = dims;
    outputDims[static_cast<size_t>(random.between(0, static_cast<int64_t>(rank) - 1))] = 1;
    for (int64_t& dim : outputDims) {
        if (random.chance(0.3)) {
            dim = 1;
        }
    }
    const auto terms = [&] {
        return hipdnn_data_sdk::utilities::elementCount(dims) /
               hipdnn_data_sdk::utilities::elementCount(outputDims);
    };
    // A product's relative error grows with its length: keep products short and near 1.
    const ValueRange range = mode == Mode::MUL ? ValueRange{0.5, 1.5} : ValueRange{};
    if (mode == Mode::MUL && terms() > 24) {
        outputDims = dims;
        outputDims.back() = 1;
    }
    const bool channelsLast = random.chance(0.5);
    const DataType type = pickIoType(random);
    const int64_t x = builder.tensor("x", type, dims, activationStrides(dims, channelsLast), range);
    const DataType outputType = random.chance(0.5) ? DataType::FLOAT : type;
    const int64_t y =
        builder.tensor("y", outputType, outputDims, activationStrides(outputDims, channelsLast));
    builder.problem().graph.addReduction(std::string("reduce_") + name, mode, x, y);
    builder.problem().reductionTerms = terms();
    return std::move(builder.problem());
}

Problem generatePooling(Random& random) {
    using Mode = fb::ResampleMode;
    static const std::vector<std::pair<Mode, const char*>> modes{
        {Mode::MAXPOOL, "maxpool"},
        {Mode::AVGPOOL_EXCLUDE_PADDING, "avgpool_exclude"},
        {Mode::AVGPOOL_INCLUDE_PADDING, "avgpool_include"}};
    const auto& [mode, name] = random.pick(modes);
    ProblemBuilder builder(random, name, ToleranceOp::Resample);
    const int64_t spatialRank = random.between(2, 3);
    Dims xDims{random.between(1, 3), random.between(1, 6)};
    Dims yDims = xDims;
    hipdnn_test_sdk::PoolingGeometry geometry;
    geometry.mode = mode;
    for (int64_t dim = 0; dim < spatialRank; ++dim) {
        hipdnn_data_sdk::utilities::SlidingWindow window;
        window.window = random.between(1, 3);
        window.stride = random.between(1, 3);
        // Padding below the window keeps every window on at least one real element.
        window.prePadding = random.between(0, window.window - 1);
        window.postPadding = random.between(0, window.window - 1);
        window.input =
            random.between(std::max<int64_t>(1, window.window - window.prePadding - window.postPadding),
                           spatialRank == 3 ? 6 : 10);
        xDims.push_back(window.input);
        yDims.push_back(window.outputLength().value());
        geometry.window.push_back(window.window);
        geometry.stride.push_back(window.stride);
        geometry.prePadding.push_back(window.prePadding);
        geometry.postPadding.push_back(window.postPadding);
    }
    const bool channelsLast = random.chance(0.5);
    const DataType type = pickIoType(random);
    const int64_t x = builder.tensor("x", type, xDims, activationStrides(xDims, channelsLast));
    const int64_t y = builder.tensor("y", type, yDims, activationStrides(yDims, channelsLast));
    builder.problem().graph.addResample(name, x, y, geometry);
    return std::move(builder.problem());
}

}  // namespace hipdnn_differential
