// A fluent builder of serialized Graph FlatBuffers for tests: declare tensors, add nodes in
// topological order, build() the bytes a plugin or the backend receives.
//
//   auto bytes = GraphBuilder("conv_relu")
//                    .addTensor(1, "x", DataType::FLOAT, {1, 3, 8, 8})
//                    .addTensor(2, "w", DataType::FLOAT, {4, 3, 3, 3})
//                    .addTensor(3, "conv", DataType::FLOAT, {1, 4, 6, 6}, {}, true)
//                    .addTensor(4, "y", DataType::FLOAT, {1, 4, 6, 6})
//                    .addConvFprop("conv", 1, 2, 3, {{0, 0}, {0, 0}, {1, 1}, {1, 1}})
//                    .addPointwise("relu", PointwiseMode::RELU_FWD, 3, 4)
//                    .build();
#pragma once

#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_test_sdk {

struct ConvolutionGeometry {
    std::vector<int64_t> prePadding;
    std::vector<int64_t> postPadding;
    std::vector<int64_t> stride;
    std::vector<int64_t> dilation;
    hipdnn_flatbuffers_sdk::data_objects::ConvMode mode =
        hipdnn_flatbuffers_sdk::data_objects::ConvMode::CROSS_CORRELATION;
};

struct PoolingGeometry {
    hipdnn_flatbuffers_sdk::data_objects::ResampleMode mode =
        hipdnn_flatbuffers_sdk::data_objects::ResampleMode::MAXPOOL;
    std::vector<int64_t> prePadding;
    std::vector<int64_t> postPadding;
    std::vector<int64_t> stride;
    std::vector<int64_t> window;
    hipdnn_flatbuffers_sdk::data_objects::PaddingMode paddingMode =
        hipdnn_flatbuffers_sdk::data_objects::PaddingMode::PADDING_NOT_SET;
};

/// Optional pointwise parameters; unset ones are left out of the node.
struct PointwiseOptions {
    std::optional<float> reluLowerClip;
    std::optional<float> reluUpperClip;
    std::optional<float> reluLowerClipSlope;
    std::optional<int64_t> axis;
    std::optional<float> swishBeta;
    std::optional<float> eluAlpha;
    std::optional<float> softplusBeta;
};

/// Batchnorm training ports. Running statistics need all five running uids or none.
struct BatchnormTrainingPorts {
    int64_t x = 0;
    int64_t scale = 0;
    int64_t bias = 0;
    int64_t epsilon = 0;
    int64_t y = 0;
    std::optional<int64_t> mean;
    std::optional<int64_t> invVariance;
    std::optional<int64_t> prevRunningMean;
    std::optional<int64_t> prevRunningVariance;
    std::optional<int64_t> momentum;
    std::optional<int64_t> nextRunningMean;
    std::optional<int64_t> nextRunningVariance;
    std::vector<int64_t> peerStats;  // one per GPU of a synchronized batch norm
};

/// Batchnorm backward ports: saved mean and inv_variance, or epsilon to recompute them.
struct BatchnormBackwardPorts {
    int64_t dy = 0;
    int64_t x = 0;
    int64_t scale = 0;
    int64_t dx = 0;
    int64_t dscale = 0;
    int64_t dbias = 0;
    std::optional<int64_t> mean;
    std::optional<int64_t> invVariance;
    std::optional<int64_t> epsilon;
    std::vector<int64_t> peerStats;  // one per GPU of a synchronized batch norm
};

/// Attention's optional ports and options, the same for forward and backward. Sequence lengths
/// set padding_mask; a dropout probability needs the seed and offset.
struct SdpaOptions {
    std::optional<float> scale;          // attn_scale_value; absent: 1 (no scaling)
    std::optional<int64_t> scaleTensor;  // scale_tensor_uid (instead of attn_scale_value)
    bool causal = false;
    bool causalBottomRight = false;
    std::optional<int64_t> bias;
    std::optional<int64_t> seqLenQ;
    std::optional<int64_t> seqLenKv;
    std::optional<float> dropoutProbability;
    std::optional<int64_t> seed;
    std::optional<int64_t> offset;
};

class GraphBuilder {
public:
    using DataType = hipdnn_flatbuffers_sdk::data_objects::DataType;

    explicit GraphBuilder(std::string name = "test_graph");

    /// Graph-level types (defaults FLOAT, as in the schema).
    GraphBuilder& setComputeDataType(DataType type);
    GraphBuilder& setIntermediateDataType(DataType type);
    GraphBuilder& setIoDataType(DataType type);
    GraphBuilder& setPreferredEngineId(int64_t engineId);

    /// Empty strides mean packed row-major (NCHW for 4-D).
    GraphBuilder& addTensor(int64_t uid, std::string name, DataType dataType, std::vector<int64_t> dims,
                            std::vector<int64_t> strides = {}, bool isVirtual = false);
    /// A pass-by-value scalar (dims {1} unless given, every extent 1): its value travels in the
    /// graph, not in a buffer.
    GraphBuilder& addScalar(int64_t uid, std::string name, DataType dataType, double value,
                            std::vector<int64_t> dims = {1});

    GraphBuilder& addConvFprop(std::string name, int64_t x, int64_t w, int64_t y,
                               const ConvolutionGeometry& geometry);
    GraphBuilder& addConvDgrad(std::string name, int64_t dy, int64_t w, int64_t dx,
                               const ConvolutionGeometry& geometry);
    GraphBuilder& addConvWgrad(std::string name, int64_t x, int64_t dy, int64_t dw,
                               const ConvolutionGeometry& geometry);
    GraphBuilder& addBatchnormInference(std::string name, int64_t x, int64_t mean, int64_t invVariance,
                                        int64_t scale, int64_t bias, int64_t y);
    GraphBuilder& addBatchnormInferenceVariance(std::string name, int64_t x, int64_t mean, int64_t variance,
                                                int64_t scale, int64_t bias, int64_t epsilon, int64_t y);
    GraphBuilder& addBatchnormTraining(std::string name, const BatchnormTrainingPorts& ports);
    GraphBuilder& addBatchnormBackward(std::string name, const BatchnormBackwardPorts& ports);
    GraphBuilder& addPointwise(std::string name, hipdnn_flatbuffers_sdk::data_objects::PointwiseMode mode,
                               int64_t in0, int64_t out0, std::optional<int64_t> in1 = std::nullopt,
                               std::optional<int64_t> in2 = std::nullopt,
                               const PointwiseOptions& options = {});
    GraphBuilder& addMatmul(std::string name, int64_t a, int64_t b, int64_t c);
    GraphBuilder& addReduction(std::string name, hipdnn_flatbuffers_sdk::data_objects::ReductionMode mode,
                               int64_t in, int64_t out);
    /// TRAINING phase when mean and invVariance are given, INFERENCE otherwise.
    GraphBuilder& addLayernorm(std::string name, int64_t x, int64_t scale, int64_t bias, int64_t epsilon,
                               int64_t y, std::optional<int64_t> mean = std::nullopt,
                               std::optional<int64_t> invVariance = std::nullopt);
    GraphBuilder& addLayernormBackward(std::string name, int64_t dy, int64_t x, int64_t scale, int64_t mean,
                                       int64_t invVariance, int64_t dx, int64_t dscale, int64_t dbias);
    /// TRAINING phase when invRms is given, INFERENCE otherwise.
    GraphBuilder& addRmsNorm(std::string name, int64_t x, int64_t scale, int64_t epsilon, int64_t y,
                             std::optional<int64_t> bias = std::nullopt,
                             std::optional<int64_t> invRms = std::nullopt);
    GraphBuilder& addRmsNormBackward(std::string name, int64_t dy, int64_t x, int64_t scale, int64_t invRms,
                                     int64_t dx, int64_t dscale, std::optional<int64_t> dbias = std::nullopt);
    GraphBuilder& addResample(std::string name, int64_t x, int64_t y, const PoolingGeometry& geometry,
                              std::optional<int64_t> index = std::nullopt);

    /// Statistics are written when `stats` is given (generate_stats).
    GraphBuilder& addSdpa(std::string name, int64_t q, int64_t k, int64_t v, int64_t o,
                          std::optional<int64_t> stats = std::nullopt, const SdpaOptions& options = {});
    GraphBuilder& addSdpaBackward(std::string name, int64_t q, int64_t k, int64_t v, int64_t o, int64_t dO,
                                  int64_t stats, int64_t dq, int64_t dk, int64_t dv,
                                  const SdpaOptions& options = {});

    /// Sets the compute type of the node added last (UNSET: the graph's applies).
    GraphBuilder& setNodeComputeDataType(DataType type);

    /// The serialized Graph. The builder stays usable (build() may be called again).
    std::vector<uint8_t> build() const;

private:
    using AttributesFactory = std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder&)>;

    struct TensorSpec {
        int64_t uid;
        std::string name;
        DataType dataType;
        std::vector<int64_t> dims;
        std::vector<int64_t> strides;
        bool isVirtual;
        std::optional<double> value;
    };

    struct NodeSpec {
        std::string name;
        DataType computeType;
        hipdnn_flatbuffers_sdk::data_objects::NodeAttributes type;
        AttributesFactory createAttributes;
    };

    GraphBuilder& addNode(std::string name, hipdnn_flatbuffers_sdk::data_objects::NodeAttributes type,
                          AttributesFactory createAttributes);

    std::string _name;
    DataType _computeType = DataType::FLOAT;
    DataType _intermediateType = DataType::FLOAT;
    DataType _ioType = DataType::FLOAT;
    std::optional<int64_t> _preferredEngineId;
    std::vector<TensorSpec> _tensors;
    std::vector<NodeSpec> _nodes;
};

}  // namespace hipdnn_test_sdk
