// Convolution fprop, dgrad and wgrad: 1-D to 3-D, groups (depthwise included), stride, dilation,
// asymmetric padding, per-tensor layouts, and an epilogue after fprop and dgrad.
#include "Epilogue.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

namespace hipdnn_differential {

using hipdnn_data_sdk::utilities::SlidingWindow;
using hipdnn_test_sdk::ConvolutionGeometry;
using hipdnn_test_sdk::ToleranceOp;

Problem generateConvolution(Random& random) {
    const int64_t kind = random.between(0, 9);  // 0-5 fprop, 6-7 dgrad, 8-9 wgrad
    const bool fprop = kind <= 5;
    const bool dgrad = kind == 6 || kind == 7;
    const char* name = fprop ? "conv_fprop" : (dgrad ? "conv_dgrad" : "conv_wgrad");
    const ToleranceOp op = fprop ? ToleranceOp::ConvolutionFwd
                                 : (dgrad ? ToleranceOp::ConvolutionBwd : ToleranceOp::ConvolutionWrw);
    ProblemBuilder builder(random, name, op);

    const int64_t spatialRank = random.pick(std::vector<int64_t>{1, 2, 2, 2, 3});
    const int64_t maxInput = spatialRank == 3 ? 5 : 10;
    const bool depthwise = random.chance(0.15);
    const int64_t groups =
        depthwise ? random.between(2, 6) : random.pick(std::vector<int64_t>{1, 1, 1, 2, 3});
    const int64_t channelsPerGroup = depthwise ? 1 : random.between(1, 4);
    const int64_t filtersPerGroup = random.between(1, depthwise ? 2 : 4);
    const int64_t batch = random.between(1, 3);
    const int64_t c = groups * channelsPerGroup;
    const int64_t k = groups * filtersPerGroup;

    ConvolutionGeometry geometry;
    Dims xDims{batch, c};
    Dims yDims{batch, k};
    Dims wDims{k, channelsPerGroup};
    int64_t windowVolume = 1;
    int64_t outputVolume = 1;
    for (int64_t dim = 0; dim < spatialRank; ++dim) {
        SlidingWindow window;
        window.window = random.between(1, 3);
        window.dilation = random.between(1, 2);
        window.stride = random.between(1, 2);
        window.prePadding = random.between(0, window.extent() - 1);
        window.postPadding = random.between(0, window.extent() - 1);
        window.input = random.between(
            std::max<int64_t>(1, window.extent() - window.prePadding - window.postPadding), maxInput);
        const int64_t output = window.outputLength().value();
        xDims.push_back(window.input);
        yDims.push_back(output);
        wDims.push_back(window.window);
        geometry.prePadding.push_back(window.prePadding);
        geometry.postPadding.push_back(window.postPadding);
        geometry.stride.push_back(window.stride);
        geometry.dilation.push_back(window.dilation);
        windowVolume *= window.window;
        outputVolume *= output;
    }

    const DataType type = pickIoType(random);
    const bool channelsLast = random.chance(0.5);
    // Mostly one layout for the whole graph; sometimes each tensor its own.
    const auto layoutOf = [&](const Dims& dims) {
        return activationStrides(dims, random.chance(0.8) ? channelsLast : !channelsLast);
    };
    auto& graph = builder.problem().graph;
    if (fprop) {
        const int64_t w = builder.tensor("w", type, wDims, layoutOf(wDims));
        const int64_t x = builder.tensor("x", type, xDims, layoutOf(xDims));
        const Dims yStrides = layoutOf(yDims);
        const Epilogue epilogue(builder, yDims, yStrides, channelDims(k, yDims.size()), type);
        graph.addConvFprop(name, x, w, epilogue.primaryOutput(), geometry);
        epilogue.addNodes(graph);
        builder.problem().reductionTerms = channelsPerGroup * windowVolume;
    } else if (dgrad) {
        const int64_t w = builder.tensor("w", type, wDims, layoutOf(wDims));
        const int64_t dy = builder.tensor("dy", type, yDims, layoutOf(yDims));
        const Dims dxStrides = layoutOf(xDims);
        const Epilogue epilogue(builder, xDims, dxStrides, channelDims(c, xDims.size()), type);
        graph.addConvDgrad(name, dy, w, epilogue.primaryOutput(), geometry);
        epilogue.addNodes(graph);
        builder.problem().reductionTerms = filtersPerGroup * windowVolume;
    } else {
        const int64_t x = builder.tensor("x", type, xDims, layoutOf(xDims));
        const int64_t dy = builder.tensor("dy", type, yDims, layoutOf(yDims));
        const int64_t dw = builder.tensor("dw", type, wDims, layoutOf(wDims));
        graph.addConvWgrad(name, x, dy, dw, geometry);
        builder.problem().reductionTerms = batch * outputVolume;
    }
    return std::move(builder.problem());
}

}  // namespace hipdnn_differential
