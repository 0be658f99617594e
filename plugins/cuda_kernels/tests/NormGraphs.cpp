#include "NormGraphs.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

namespace cuda_kernels_test {

namespace {

using hipdnn_data_sdk::utilities::TensorLayout;

constexpr int64_t kY = 20;  // the norm's y
constexpr int64_t kResidual = 30;
constexpr int64_t kOut = 31;  // the epilogue's output
constexpr int64_t kSum = 32;

// y (uid kY) as the norm writes it: virtual FLOAT when an epilogue follows, else an output.
void addY(hipdnn_test_sdk::GraphBuilder& builder, fb::DataType type, const std::vector<int64_t>& dims,
          const std::vector<int64_t>& strides, Epilogue epilogue) {
    if (epilogue == Epilogue::None) {
        builder.addTensor(kY, "y", type, dims, strides);
    } else {
        builder.addTensor(kY, "y", fb::DataType::FLOAT, dims, strides, true);
    }
}

std::vector<int64_t> packedStrides(const std::vector<int64_t>& dims, bool channelsLast) {
    static const TensorLayout* const kFirst[] = {&TensorLayout::NCL, &TensorLayout::NCHW,
                                                 &TensorLayout::NCDHW};
    static const TensorLayout* const kLast[] = {&TensorLayout::NLC, &TensorLayout::NHWC,
                                                &TensorLayout::NDHWC};
    const size_t spatial = dims.size() - 3;
    return hipdnn_data_sdk::utilities::generatePackedStrides(
        dims, (channelsLast ? kLast : kFirst)[spatial]->strideOrder);
}

std::string dimsText(const std::vector<int64_t>& values) {
    std::string text;
    for (size_t i = 0; i < values.size(); ++i) {
        if (i > 0) {
            text += 'x';
        }
        text += std::to_string(values[i]);
    }
    return text;
}

void addEpilogue(hipdnn_test_sdk::GraphBuilder& builder, fb::DataType type, const std::vector<int64_t>& dims,
                 const std::vector<int64_t>& strides, Epilogue epilogue) {
    switch (epilogue) {
        case Epilogue::None:
            return;
        case Epilogue::Relu:
            builder.addTensor(kOut, "out", type, dims, strides)
                .addPointwise("relu", fb::PointwiseMode::RELU_FWD, kY, kOut);
            return;
        case Epilogue::AddRelu:
            builder.addTensor(kResidual, "residual", type, dims, strides)
                .addTensor(kSum, "sum", fb::DataType::FLOAT, dims, strides, true)
                .addTensor(kOut, "out", type, dims, strides)
                .addPointwise("add", fb::PointwiseMode::ADD, kY, kSum, kResidual)
                .addPointwise("relu", fb::PointwiseMode::RELU_FWD, kSum, kOut);
            return;
    }
}

}  // namespace

std::string epilogueName(Epilogue epilogue) {
    switch (epilogue) {
        case Epilogue::None:
            return "plain";
        case Epilogue::Relu:
            return "relu";
        case Epilogue::AddRelu:
            return "add_relu";
    }
    return "";
}

std::string batchnormModeName(BatchnormMode mode) {
    switch (mode) {
        case BatchnormMode::Inference:
            return "inference";
        case BatchnormMode::InferenceVariance:
            return "inference_variance";
        case BatchnormMode::Training:
            return "training";
        case BatchnormMode::TrainingRunningStats:
            return "training_running";
        case BatchnormMode::Backward:
            return "backward";
    }
    return "";
}

hipdnn_test_sdk::GraphBuilder rowNormGraph(bool layernorm, fb::DataType type, int64_t rows, int64_t columns,
                                           bool training, bool bias, Epilogue epilogue) {
    hipdnn_test_sdk::GraphBuilder builder(layernorm ? "layernorm" : "rmsnorm");
    const std::vector<int64_t> dims = {rows, columns};
    const std::vector<int64_t> strides = {columns, 1};
    builder.addTensor(1, "x", type, dims)
        .addTensor(2, "scale", fb::DataType::FLOAT, {1, columns})
        .addScalar(4, "epsilon", fb::DataType::FLOAT, 1e-5);
    addY(builder, type, dims, strides, epilogue);
    if (training) {
        builder.addTensor(5, layernorm ? "mean" : "inv_rms", fb::DataType::FLOAT, {rows, 1});
        if (layernorm) {
            builder.addTensor(6, "inv_variance", fb::DataType::FLOAT, {rows, 1});
        }
    }
    if (layernorm || bias) {
        builder.addTensor(3, "bias", fb::DataType::FLOAT, {1, columns});
    }
    if (layernorm) {
        builder.addLayernorm("layernorm", 1, 2, 3, 4, kY, training ? std::optional<int64_t>(5) : std::nullopt,
                             training ? std::optional<int64_t>(6) : std::nullopt);
    } else {
        builder.addRmsNorm("rmsnorm", 1, 2, 4, kY, bias ? std::optional<int64_t>(3) : std::nullopt,
                           training ? std::optional<int64_t>(5) : std::nullopt);
    }
    addEpilogue(builder, type, dims, strides, epilogue);
    return builder;
}

hipdnn_test_sdk::GraphBuilder rmsnormBackwardGraph(fb::DataType type, int64_t rows, int64_t columns,
                                                   bool dbias) {
    hipdnn_test_sdk::GraphBuilder builder("rmsnorm_backward");
    const std::vector<int64_t> dims = {rows, columns};
    builder.addTensor(1, "x", type, dims)
        .addTensor(14, "dy", type, dims)
        .addTensor(2, "scale", fb::DataType::FLOAT, {1, columns})
        .addTensor(5, "inv_rms", fb::DataType::FLOAT, {rows, 1})
        .addTensor(kY, "dx", type, dims)
        .addTensor(15, "dscale", fb::DataType::FLOAT, {1, columns});
    if (dbias) {
        builder.addTensor(16, "dbias", fb::DataType::FLOAT, {1, columns});
    }
    builder.addRmsNormBackward("rmsnorm_backward", 14, 1, 2, 5, kY, 15,
                               dbias ? std::optional<int64_t>(16) : std::nullopt);
    return builder;
}

hipdnn_test_sdk::GraphBuilder layernormBackwardGraph(fb::DataType type, const std::vector<int64_t>& dims) {
    hipdnn_test_sdk::GraphBuilder builder("layernorm_backward");
    std::vector<int64_t> rowDims = dims;
    rowDims[0] = 1;
    std::vector<int64_t> statisticDims(dims.size(), 1);
    statisticDims[0] = dims[0];
    builder.addTensor(1, "x", type, dims)
        .addTensor(14, "dy", type, dims)
        .addTensor(2, "scale", fb::DataType::FLOAT, rowDims)
        .addTensor(4, "mean", fb::DataType::FLOAT, statisticDims)
        .addTensor(5, "inv_variance", fb::DataType::FLOAT, statisticDims)
        .addTensor(kY, "dx", type, dims)
        .addTensor(15, "dscale", fb::DataType::FLOAT, rowDims)
        .addTensor(16, "dbias", fb::DataType::FLOAT, rowDims)
        .addLayernormBackward("layernorm_backward", 14, 1, 2, 4, 5, kY, 15, 16);
    return builder;
}

hipdnn_test_sdk::GraphBuilder batchnormGraph(BatchnormMode mode, fb::DataType type,
                                             const std::vector<int64_t>& dims, bool channelsLast,
                                             Epilogue epilogue, int64_t peers) {
    hipdnn_test_sdk::GraphBuilder builder("batchnorm_" + batchnormModeName(mode));
    const std::vector<int64_t> strides = hipdnn_data_sdk::utilities::generatePackedStrides(
        dims, channelsLast ? TensorLayout::NHWC.strideOrder : TensorLayout::NCHW.strideOrder);
    std::vector<int64_t> channelDims(dims.size(), 1);
    channelDims[1] = dims[1];
    const auto channel = [&](int64_t uid, const char* name) {
        builder.addTensor(uid, name, fb::DataType::FLOAT, channelDims);
    };
    builder.addTensor(1, "x", type, dims, strides);
    channel(2, "scale");
    std::vector<int64_t> peerStats;
    for (int64_t peer = 0; peer < peers; ++peer) {
        peerStats.push_back(kFirstPeerStats + peer);
        builder.addTensor(peerStats.back(), "peer_stats_" + std::to_string(peer), fb::DataType::FLOAT,
                          {2, 4 * dims[1], 1, 1});
    }
    if (mode == BatchnormMode::Backward) {
        builder.addTensor(14, "dy", type, dims, strides).addTensor(kY, "dx", type, dims, strides);
        channel(4, "mean");
        channel(5, "inv_variance");
        channel(15, "dscale");
        channel(16, "dbias");
        hipdnn_test_sdk::BatchnormBackwardPorts ports;
        ports.dy = 14;
        ports.x = 1;
        ports.scale = 2;
        ports.dx = kY;
        ports.dscale = 15;
        ports.dbias = 16;
        ports.mean = 4;
        ports.invVariance = 5;
        ports.peerStats = peerStats;
        builder.addBatchnormBackward("bn_backward", ports);
        return builder;
    }
    channel(3, "bias");
    addY(builder, type, dims, strides, epilogue);
    switch (mode) {
        case BatchnormMode::Inference:
            channel(4, "mean");
            channel(5, "inv_variance");
            builder.addBatchnormInference("bn", 1, 4, 5, 2, 3, kY);
            break;
        case BatchnormMode::InferenceVariance:
            channel(4, "mean");
            channel(5, "variance");
            builder.addScalar(6, "epsilon", fb::DataType::FLOAT, 1e-5);
            builder.addBatchnormInferenceVariance("bn", 1, 4, 5, 2, 3, 6, kY);
            break;
        case BatchnormMode::Training:
        case BatchnormMode::TrainingRunningStats: {
            hipdnn_test_sdk::BatchnormTrainingPorts ports;
            ports.x = 1;
            ports.scale = 2;
            ports.bias = 3;
            ports.epsilon = 6;
            ports.y = kY;
            ports.mean = 7;
            ports.invVariance = 8;
            ports.peerStats = peerStats;
            builder.addScalar(6, "epsilon", fb::DataType::FLOAT, 1e-5);
            channel(7, "mean");
            channel(8, "inv_variance");
            if (mode == BatchnormMode::TrainingRunningStats) {
                channel(9, "prev_running_mean");
                channel(10, "prev_running_variance");
                builder.addScalar(11, "momentum", fb::DataType::FLOAT, 0.1);
                channel(12, "next_running_mean");
                channel(13, "next_running_variance");
                ports.prevRunningMean = 9;
                ports.prevRunningVariance = 10;
                ports.momentum = 11;
                ports.nextRunningMean = 12;
                ports.nextRunningVariance = 13;
            }
            builder.addBatchnormTraining("bn", ports);
            break;
        }
        case BatchnormMode::Backward:
            break;
    }
    addEpilogue(builder, type, dims, strides, epilogue);
    return builder;
}

std::vector<int64_t> PoolingShape::yDims() const {
    std::vector<int64_t> dims = {xDims[0], xDims[1]};
    for (size_t d = 0; d + 2 < xDims.size(); ++d) {
        dims.push_back(hipdnn_data_sdk::utilities::SlidingWindow{xDims[d + 2], window[d], prePadding[d],
                                                                 postPadding[d], stride[d]}
                           .outputLength()
                           .value_or(0));
    }
    return dims;
}

std::string PoolingShape::name() const {
    return std::string(fb::EnumNameResampleMode(mode)) + "_" + dimsText(xDims) + "_w" + dimsText(window) +
           "_s" + dimsText(stride) + "_p" + dimsText(prePadding) + "_" + dimsText(postPadding) +
           (channelsLast ? "_nhwc" : "_nchw");
}

hipdnn_test_sdk::GraphBuilder poolingGraph(fb::DataType type, const PoolingShape& shape, Epilogue epilogue) {
    hipdnn_test_sdk::GraphBuilder builder("pooling");
    const std::vector<int64_t> yDims = shape.yDims();
    const std::vector<int64_t> yStrides = packedStrides(yDims, shape.channelsLast);
    builder.addTensor(1, "x", type, shape.xDims, packedStrides(shape.xDims, shape.channelsLast));
    addY(builder, type, yDims, yStrides, epilogue);
    hipdnn_test_sdk::PoolingGeometry geometry;
    geometry.mode = shape.mode;
    geometry.paddingMode = shape.padding;
    geometry.window = shape.window;
    geometry.stride = shape.stride;
    geometry.prePadding = shape.prePadding;
    geometry.postPadding = shape.postPadding;
    builder.addResample("pool", 1, kY, geometry);
    addEpilogue(builder, type, yDims, yStrides, epilogue);
    return builder;
}

}  // namespace cuda_kernels_test
