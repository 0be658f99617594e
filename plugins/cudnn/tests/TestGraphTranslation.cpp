// The hipdnn graph -> cuDNN graph translation, checked on the plain-data spec (no cuDNN calls).
#include "GraphTranslator.hpp"
#include "VariantPack.hpp"

#include <hipdnn_plugin_sdk/DeviceBuffers.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace hipdnn_cudnn_plugin {
namespace {

using hipdnn_test_sdk::GraphBuilder;
using DataType = fb::DataType;

CudnnGraphSpec translate(const GraphBuilder& builder) {
    const std::vector<uint8_t> bytes = builder.build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    return translateGraph(graph);
}

const SubDescriptorSpec& sub(const OperationSpec& operation) {
    EXPECT_TRUE(operation.subDescriptor.has_value());
    return *operation.subDescriptor;
}

const Attribute* findAttribute(const std::vector<Attribute>& attributes, cudnnBackendAttributeName_t name) {
    for (const Attribute& attribute : attributes) {
        if (attribute.name == name) {
            return &attribute;
        }
    }
    return nullptr;
}

// Channels-last (NHWC) strides of a (N, C, H, W) tensor.
std::vector<int64_t> channelsLast(const std::vector<int64_t>& dims) {
    return {dims[1] * dims[2] * dims[3], 1, dims[3] * dims[1], dims[1]};
}

GraphBuilder convBiasRelu(DataType type, bool nhwc) {
    const auto strides = [&](std::vector<int64_t> dims) {
        return nhwc ? channelsLast(dims) : std::vector<int64_t>{};
    };
    GraphBuilder builder("conv_bias_relu");
    builder.addTensor(1, "x", type, {2, 8, 6, 6}, strides({2, 8, 6, 6}))
        .addTensor(2, "w", type, {4, 8, 3, 3}, strides({4, 8, 3, 3}))
        .addTensor(3, "conv", DataType::FLOAT, {2, 4, 6, 6}, strides({2, 4, 6, 6}), true)
        .addTensor(4, "bias", type, {1, 4, 1, 1})
        .addTensor(5, "biased", DataType::FLOAT, {2, 4, 6, 6}, strides({2, 4, 6, 6}), true)
        .addTensor(6, "y", type, {2, 4, 6, 6}, strides({2, 4, 6, 6}))
        .addConvFprop("conv", 1, 2, 3, {{1, 1}, {1, 1}, {1, 1}, {1, 1}})
        .addPointwise("bias", fb::PointwiseMode::ADD, 3, 5, 4)
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 5, 6);
    return builder;
}

// The translation error's text, or "" when the graph translates.
std::string declineOf(const GraphBuilder& builder) {
    try {
        translate(builder);
    } catch (const TranslationError& error) {
        return error.what();
    }
    return "";
}

TEST(CudnnGraphTranslation, ConvBiasReluBecomesThreeFusedOperations) {
    const std::vector<int64_t> nhwc = {288, 1, 48, 8};
    const CudnnGraphSpec spec = translate(convBiasRelu(DataType::BFLOAT16, true));
    ASSERT_EQ(spec.operations.size(), 3U);
    EXPECT_EQ(spec.operations[0].type, CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
    EXPECT_EQ(spec.operations[1].type, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
    EXPECT_EQ(spec.operations[2].label, "POINTWISE RELU_FWD");

    // Tensors translate 1:1: strides carry the layout, virtual intermediates use float.
    EXPECT_EQ(spec.tensors.at(1).strides, nhwc);
    EXPECT_EQ(spec.tensors.at(1).dataType, CUDNN_DATA_BFLOAT16);
    EXPECT_TRUE(spec.tensors.at(3).isVirtual);
    EXPECT_EQ(spec.tensors.at(3).dataType, CUDNN_DATA_FLOAT);

    const SubDescriptorSpec& conv = sub(spec.operations[0]);
    const Attribute* mode = findAttribute(conv.attributes, CUDNN_ATTR_CONVOLUTION_CONV_MODE);
    ASSERT_NE(mode, nullptr);
    EXPECT_EQ(mode->first<cudnnConvolutionMode_t>(), CUDNN_CROSS_CORRELATION);
    const Attribute* spatial = findAttribute(conv.attributes, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS);
    ASSERT_NE(spatial, nullptr);
    EXPECT_EQ(spatial->first<int64_t>(), 2);

    const TensorPort* bias = spec.operations[1].port(CUDNN_ATTR_OPERATION_POINTWISE_BDESC);
    ASSERT_NE(bias, nullptr);
    EXPECT_EQ(bias->uids, std::vector<int64_t>{4});
    EXPECT_NE(spec.describeOperations().find("node 2 'relu' POINTWISE RELU_FWD"), std::string::npos);
}

TEST(CudnnGraphTranslation, DgradAndWgradUseTheirPorts) {
    GraphBuilder builder("grads");
    builder.addTensor(1, "dy", DataType::HALF, {2, 4, 6, 6})
        .addTensor(2, "w", DataType::HALF, {4, 8, 3, 3})
        .addTensor(3, "dx", DataType::HALF, {2, 8, 6, 6})
        .addTensor(4, "x", DataType::HALF, {2, 8, 6, 6})
        .addTensor(5, "dw", DataType::HALF, {4, 8, 3, 3})
        .addConvDgrad("dgrad", 1, 2, 3, {{1, 1}, {1, 1}, {1, 1}, {1, 1}, fb::ConvMode::CONVOLUTION})
        .addConvWgrad("wgrad", 4, 1, 5, {{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    const CudnnGraphSpec spec = translate(builder);
    ASSERT_EQ(spec.operations.size(), 2U);
    EXPECT_EQ(spec.operations[0].port(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX)->uids,
              std::vector<int64_t>{3});
    EXPECT_EQ(findAttribute(sub(spec.operations[0]).attributes, CUDNN_ATTR_CONVOLUTION_CONV_MODE)
                  ->first<cudnnConvolutionMode_t>(),
              CUDNN_CONVOLUTION);
    EXPECT_EQ(spec.operations[1].port(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW)->uids,
              std::vector<int64_t>{5});
}

TEST(CudnnGraphTranslation, ScalarsArePaddedAndPassedByValue) {
    GraphBuilder builder("scale");
    builder.addTensor(1, "x", DataType::FLOAT, {2, 3, 4, 5})
        .addScalar(2, "alpha", DataType::FLOAT, 0.5)
        .addTensor(3, "y", DataType::FLOAT, {2, 3, 4, 5})
        .addPointwise("scale", fb::PointwiseMode::MUL, 1, 3, 2);
    const CudnnGraphSpec spec = translate(builder);
    const TensorSpec& alpha = spec.tensors.at(2);
    ASSERT_TRUE(alpha.byValue.has_value());
    EXPECT_FLOAT_EQ(*alpha.byValue, 0.5F);
    EXPECT_EQ(alpha.dims, (std::vector<int64_t>{1, 1, 1, 1}));
}

TEST(CudnnGraphTranslation, MatmulTensorsGainABatchDimension) {
    GraphBuilder builder("matmul");
    builder.addTensor(1, "a", DataType::HALF, {16, 32})
        .addTensor(2, "b", DataType::HALF, {32, 8})
        .addTensor(3, "c", DataType::HALF, {16, 8})
        .addMatmul("mm", 1, 2, 3);
    const CudnnGraphSpec spec = translate(builder);
    EXPECT_EQ(spec.tensors.at(1).dims, (std::vector<int64_t>{1, 16, 32}));
    EXPECT_EQ(spec.tensors.at(1).strides, (std::vector<int64_t>{512, 32, 1}));
    ASSERT_EQ(spec.operations.size(), 1U);
    EXPECT_EQ(spec.operations[0].type, CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR);
}

TEST(CudnnGraphTranslation, BatchnormInferenceDecomposesIntoPointwiseArithmetic) {
    GraphBuilder builder("bn");
    builder.addTensor(1, "x", DataType::FLOAT, {2, 4, 3, 3});
    for (int64_t uid = 2; uid <= 5; ++uid) {
        builder.addTensor(uid, "channel" + std::to_string(uid), DataType::FLOAT, {1, 4, 1, 1});
    }
    builder.addTensor(6, "y", DataType::FLOAT, {2, 4, 3, 3}).addBatchnormInference("bn", 1, 2, 3, 4, 5, 6);
    const CudnnGraphSpec spec = translate(builder);
    ASSERT_EQ(spec.operations.size(), 4U);
    for (const OperationSpec& operation : spec.operations) {
        EXPECT_EQ(operation.type, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
        EXPECT_EQ(operation.nodeName, "bn");
    }
    // Three new virtual intermediates with fresh uids.
    EXPECT_EQ(spec.tensors.size(), 9U);
    EXPECT_EQ(spec.operations.back().port(CUDNN_ATTR_OPERATION_POINTWISE_YDESC)->uids,
              std::vector<int64_t>{6});
}

TEST(CudnnGraphTranslation, BatchnormTrainingMapsToNormForward) {
    GraphBuilder builder("bn_train");
    builder.addTensor(1, "x", DataType::FLOAT, {2, 4, 3, 3});
    for (int64_t uid = 2; uid <= 3; ++uid) {
        builder.addTensor(uid, "param" + std::to_string(uid), DataType::FLOAT, {1, 4, 1, 1});
    }
    builder.addScalar(4, "epsilon", DataType::FLOAT, 1e-5)
        .addTensor(5, "y", DataType::FLOAT, {2, 4, 3, 3})
        .addTensor(6, "mean", DataType::FLOAT, {1, 4, 1, 1})
        .addTensor(7, "inv_variance", DataType::FLOAT, {1, 4, 1, 1});
    hipdnn_test_sdk::BatchnormTrainingPorts ports;
    ports.x = 1;
    ports.scale = 2;
    ports.bias = 3;
    ports.epsilon = 4;
    ports.y = 5;
    ports.mean = 6;
    ports.invVariance = 7;
    builder.addBatchnormTraining("bn", ports);
    const CudnnGraphSpec spec = translate(builder);
    ASSERT_EQ(spec.operations.size(), 1U);
    const OperationSpec& norm = spec.operations[0];
    EXPECT_EQ(norm.type, CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR);
    EXPECT_EQ(
        findAttribute(norm.attributes, CUDNN_ATTR_OPERATION_NORM_FWD_MODE)->first<cudnnBackendNormMode_t>(),
        CUDNN_BATCH_NORM);
    EXPECT_EQ(norm.port(CUDNN_ATTR_OPERATION_NORM_FWD_MEAN_DESC)->uids, std::vector<int64_t>{6});
    EXPECT_EQ(norm.port(CUDNN_ATTR_OPERATION_NORM_FWD_INPUT_RUNNING_MEAN_DESC), nullptr);
}

TEST(CudnnGraphTranslation, LayernormPadsAtTheEnd) {
    GraphBuilder builder("ln");
    builder.addTensor(1, "x", DataType::FLOAT, {8, 64})
        .addTensor(2, "scale", DataType::FLOAT, {1, 64})
        .addTensor(3, "bias", DataType::FLOAT, {1, 64})
        .addScalar(4, "epsilon", DataType::FLOAT, 1e-5)
        .addTensor(5, "y", DataType::FLOAT, {8, 64})
        .addLayernorm("ln", 1, 2, 3, 4, 5);
    const CudnnGraphSpec spec = translate(builder);
    EXPECT_EQ(spec.tensors.at(1).dims, (std::vector<int64_t>{8, 64, 1, 1}));
    EXPECT_EQ(spec.operations.at(0).label, "NORM_FORWARD LAYER_NORM INFERENCE");
}

TEST(CudnnGraphTranslation, LayernormBackwardMapsToNormBackward) {
    GraphBuilder builder("ln_bwd");
    builder.addTensor(1, "dy", DataType::HALF, {8, 4, 16})
        .addTensor(2, "x", DataType::HALF, {8, 4, 16})
        .addTensor(3, "scale", DataType::FLOAT, {1, 4, 16})
        .addTensor(4, "mean", DataType::FLOAT, {8, 1, 1})
        .addTensor(5, "inv_variance", DataType::FLOAT, {8, 1, 1})
        .addTensor(6, "dx", DataType::HALF, {8, 4, 16})
        .addTensor(7, "dscale", DataType::FLOAT, {1, 4, 16})
        .addTensor(8, "dbias", DataType::FLOAT, {1, 4, 16})
        .addLayernormBackward("ln_bwd", 1, 2, 3, 4, 5, 6, 7, 8);
    const CudnnGraphSpec spec = translate(builder);
    ASSERT_EQ(spec.operations.size(), 1U);
    const OperationSpec& norm = spec.operations[0];
    EXPECT_EQ(norm.type, CUDNN_BACKEND_OPERATION_NORM_BACKWARD_DESCRIPTOR);
    EXPECT_EQ(norm.label, "NORM_BACKWARD LAYER_NORM");
    EXPECT_EQ(
        findAttribute(norm.attributes, CUDNN_ATTR_OPERATION_NORM_BWD_MODE)->first<cudnnBackendNormMode_t>(),
        CUDNN_LAYER_NORM);
    EXPECT_EQ(norm.port(CUDNN_ATTR_OPERATION_NORM_BWD_MEAN_DESC)->uids, std::vector<int64_t>{4});
    EXPECT_EQ(norm.port(CUDNN_ATTR_OPERATION_NORM_BWD_INV_VARIANCE_DESC)->uids, std::vector<int64_t>{5});
    EXPECT_EQ(norm.port(CUDNN_ATTR_OPERATION_NORM_BWD_DBIAS_DESC)->uids, std::vector<int64_t>{8});
    // Statistics keep N in front and grow at the end, as the forward norm's.
    EXPECT_EQ(spec.tensors.at(4).dims, (std::vector<int64_t>{8, 1, 1, 1}));

    GraphBuilder broadcast("ln_bwd_broadcast");
    broadcast.addTensor(1, "dy", DataType::FLOAT, {8, 4, 16})
        .addTensor(2, "x", DataType::FLOAT, {8, 4, 16})
        .addTensor(3, "scale", DataType::FLOAT, {1, 4, 1})
        .addTensor(4, "mean", DataType::FLOAT, {8, 1, 1})
        .addTensor(5, "inv_variance", DataType::FLOAT, {8, 1, 1})
        .addTensor(6, "dx", DataType::FLOAT, {8, 4, 16})
        .addTensor(7, "dscale", DataType::FLOAT, {1, 4, 1})
        .addTensor(8, "dbias", DataType::FLOAT, {1, 4, 1})
        .addLayernormBackward("ln_bwd", 1, 2, 3, 4, 5, 6, 7, 8);
    EXPECT_EQ(declineOf(broadcast),
              "node 0 'ln_bwd': scale broadcast along dim 2 (extent 1, x has 16): cuDNN would normalize "
              "over the scale's dims only");
}

// Every tensor of the spec gets a distinct, nonzero cuDNN uid; only uid 0 is renumbered.
void expectDistinctNonzeroCudnnUids(const CudnnGraphSpec& spec) {
    std::set<int64_t> cudnnUids;
    for (const auto& [uid, tensor] : spec.tensors) {
        const int64_t cudnnUid = spec.cudnnUid(uid);
        EXPECT_NE(cudnnUid, 0) << "uid " << uid;
        EXPECT_TRUE(cudnnUids.insert(cudnnUid).second) << "uid " << uid << " shares cuDNN uid " << cudnnUid;
        if (uid != 0) {
            EXPECT_EQ(cudnnUid, uid);
        }
    }
}

// The frontend numbers tensors from 0; cuDNN's norm backward engines reject an operand of uid 0.
TEST(CudnnGraphTranslation, UidZeroGetsAnUnusedCudnnUid) {
    GraphBuilder builder("rms_bwd");
    builder.addTensor(0, "dy", DataType::BFLOAT16, {64, 4096})
        .addTensor(1, "x", DataType::BFLOAT16, {64, 4096})
        .addTensor(2, "scale", DataType::FLOAT, {1, 4096})
        .addTensor(3, "inv_rms", DataType::FLOAT, {64, 1})
        .addTensor(4, "dx", DataType::BFLOAT16, {64, 4096})
        .addTensor(5, "dscale", DataType::FLOAT, {1, 4096})
        .addRmsNormBackward("rms_bwd", 0, 1, 2, 3, 4, 5);
    const CudnnGraphSpec spec = translate(builder);
    // The spec keeps the graph's uids; only what reaches cuDNN is renumbered.
    ASSERT_EQ(spec.operations.size(), 1U);
    EXPECT_EQ(spec.operations[0].port(CUDNN_ATTR_OPERATION_NORM_BWD_DYDESC)->uids, std::vector<int64_t>{0});
    EXPECT_EQ(spec.tensors.at(0).name, "dy");
    const int64_t dy = spec.cudnnUid(0);
    EXPECT_EQ(dy, 6);
    expectDistinctNonzeroCudnnUids(spec);

    // Execute looks the buffers up by the graph's uids and hands cuDNN dy's buffer under dy's
    // cuDNN uid.
    const PlanBindings bindings = PlanBindings::fromSpec(spec);
    ASSERT_EQ(bindings.deviceTensors.size(), 6U);
    std::vector<hipdnnPluginDeviceBuffer_t> raw;
    std::vector<float> storage(6);
    for (int64_t uid = 0; uid < 6; ++uid) {
        raw.push_back({uid, &storage[static_cast<size_t>(uid)]});
    }
    const hipdnn_plugin_sdk::DeviceBuffers buffers(raw.data(), static_cast<uint32_t>(raw.size()));
    VariantPackArrays arrays(bindings);
    for (size_t i = 0; i < bindings.deviceTensors.size(); ++i) {
        EXPECT_EQ(bindings.deviceTensors[i].cudnnUid, spec.cudnnUid(bindings.deviceTensors[i].uid));
        arrays.setDevice(i, buffers.pointer(bindings.deviceTensors[i].uid));
    }
    const std::vector<int64_t>& uids = arrays.uids();
    EXPECT_EQ(std::count(uids.begin(), uids.end(), 0), 0);
    const auto position = std::find(uids.begin(), uids.end(), dy);
    ASSERT_NE(position, uids.end());
    EXPECT_EQ(arrays.pointers().at(static_cast<size_t>(position - uids.begin())), &storage[0]);
}

// A by-value scalar of uid 0 in a graph the plugin adds virtual tensors to: the cuDNN uid of 0
// lies past those too.
TEST(CudnnGraphTranslation, UidZeroScalarGetsAnUnusedCudnnUid) {
    GraphBuilder builder("bn_inference_variance");
    builder.addScalar(0, "epsilon", DataType::FLOAT, 1e-5)
        .addTensor(1, "x", DataType::FLOAT, {4, 16, 6, 6})
        .addTensor(2, "mean", DataType::FLOAT, {1, 16, 1, 1})
        .addTensor(3, "variance", DataType::FLOAT, {1, 16, 1, 1})
        .addTensor(4, "scale", DataType::FLOAT, {1, 16, 1, 1})
        .addTensor(5, "bias", DataType::FLOAT, {1, 16, 1, 1})
        .addTensor(6, "y", DataType::FLOAT, {4, 16, 6, 6})
        .addBatchnormInferenceVariance("bn", 1, 2, 3, 4, 5, 0, 6);
    const CudnnGraphSpec spec = translate(builder);
    ASSERT_GT(spec.tensors.rbegin()->first, 6) << "the decomposition adds virtual tensors";
    expectDistinctNonzeroCudnnUids(spec);
    const PlanBindings bindings = PlanBindings::fromSpec(spec);
    ASSERT_EQ(bindings.scalars.size(), 1U);
    EXPECT_EQ(bindings.scalars[0].cudnnUid, spec.cudnnUid(0));
    EXPECT_NEAR(bindings.scalars[0].value, 1e-5, 1e-9);
    const VariantPackArrays arrays(bindings);
    EXPECT_EQ(std::count(arrays.uids().begin(), arrays.uids().end(), 0), 0);
}

TEST(CudnnGraphTranslation, UnmappedNodesAreDeclinedByName) {
    GraphBuilder builder("pool");
    builder.addTensor(1, "x", DataType::FLOAT, {1, 2, 4, 4})
        .addTensor(2, "y", DataType::FLOAT, {1, 2, 2, 2})
        .addResample("maxpool", 1, 2, {fb::ResampleMode::MAXPOOL, {0, 0}, {0, 0}, {2, 2}, {2, 2}});
    try {
        translate(builder);
        FAIL() << "resample translated";
    } catch (const TranslationError& error) {
        EXPECT_STREQ(error.what(),
                     "node 0 'maxpool': ResampleFwdAttributes is not mapped to the cuDNN graph API");
    }
}

TEST(CudnnGraphTranslation, RecomputedBatchnormBackwardStatisticsAreDeclined) {
    GraphBuilder builder("bn_bwd");
    builder.addTensor(1, "dy", DataType::FLOAT, {2, 4, 3, 3})
        .addTensor(2, "x", DataType::FLOAT, {2, 4, 3, 3})
        .addTensor(3, "scale", DataType::FLOAT, {1, 4, 1, 1})
        .addScalar(4, "epsilon", DataType::FLOAT, 1e-5)
        .addTensor(5, "dx", DataType::FLOAT, {2, 4, 3, 3})
        .addTensor(6, "dscale", DataType::FLOAT, {1, 4, 1, 1})
        .addTensor(7, "dbias", DataType::FLOAT, {1, 4, 1, 1});
    hipdnn_test_sdk::BatchnormBackwardPorts ports;
    ports.dy = 1;
    ports.x = 2;
    ports.scale = 3;
    ports.epsilon = 4;
    ports.dx = 5;
    ports.dscale = 6;
    ports.dbias = 7;
    builder.addBatchnormBackward("bn_bwd", ports);
    EXPECT_THROW(translate(builder), TranslationError);
}

// Regressions of graphs cuDNN 9.19 computed wrong without an error (found by the differential
// fuzzer on an H200): each is now declined, or translated to a form it computes right.

TEST(CudnnGraphTranslation, ConvolutionsWithMixedChannelOrdersAreDeclined) {
    // NHWC data with a KCRS filter (--first 514 of seed 1 mixed KRSC filters with NCHW data).
    GraphBuilder builder("mixed");
    builder.addTensor(1, "x", DataType::HALF, {2, 8, 6, 6}, channelsLast({2, 8, 6, 6}))
        .addTensor(2, "w", DataType::HALF, {4, 8, 3, 3})
        .addTensor(3, "y", DataType::HALF, {2, 4, 6, 6}, channelsLast({2, 4, 6, 6}))
        .addConvFprop("conv", 1, 2, 3, {{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    EXPECT_EQ(declineOf(builder),
              "node 0 'conv': x is channels-last but w is channels-first: cuDNN "
              "convolutions need one channel order for all their tensors");
    EXPECT_EQ(declineOf(convBiasRelu(DataType::HALF, false)), "");
    EXPECT_EQ(declineOf(convBiasRelu(DataType::HALF, true)), "");
}

TEST(CudnnGraphTranslation, OneByOneFiltersTakeTheDataChannelOrder) {
    // A 1x1 filter is stored alike in both orders: described with the strides of the data's
    // order, as PyTorch describes the 1x1 filters of channels-first networks.
    for (const bool filterChannelsLast : {false, true}) {
        for (const bool dataChannelsLast : {false, true}) {
            GraphBuilder builder("one_by_one_filter");
            const std::vector<int64_t> xDims{2, 8, 5, 5};
            const std::vector<int64_t> wDims{4, 8, 1, 1};
            const std::vector<int64_t> yDims{2, 4, 5, 5};
            builder
                .addTensor(1, "x", DataType::HALF, xDims,
                           dataChannelsLast ? channelsLast(xDims) : std::vector<int64_t>{})
                .addTensor(2, "w", DataType::HALF, wDims,
                           filterChannelsLast ? channelsLast(wDims) : std::vector<int64_t>{})
                .addTensor(3, "y", DataType::HALF, yDims,
                           dataChannelsLast ? channelsLast(yDims) : std::vector<int64_t>{})
                .addConvFprop("conv", 1, 2, 3, {{0, 0}, {0, 0}, {1, 1}, {1, 1}});
            const CudnnGraphSpec spec = translate(builder);
            EXPECT_EQ(spec.tensors.at(2).strides, (dataChannelsLast ? std::vector<int64_t>{8, 1, 8, 8}
                                                                    : std::vector<int64_t>{8, 1, 1, 1}))
                << "filter channels-last " << filterChannelsLast << ", data channels-last "
                << dataChannelsLast;
        }
    }
}

TEST(CudnnGraphTranslation, OneChannelOutputsTakeTheDataChannelOrder) {
    // y of one channel (D = 1) stored with C innermost: described to cuDNN channels-first, as x
    // and w are.
    GraphBuilder builder("one_channel");
    builder.addTensor(1, "x", DataType::BFLOAT16, {1, 3, 1, 5, 5})
        .addTensor(2, "w", DataType::BFLOAT16, {1, 3, 1, 2, 3})
        .addTensor(3, "y", DataType::BFLOAT16, {1, 1, 1, 4, 4}, {16, 1, 16, 4, 1})
        .addConvFprop("conv", 1, 2, 3, {{0, 0, 3}, {0, 0, 3}, {2, 1, 2}, {2, 1, 2}});
    EXPECT_EQ(translate(builder).tensors.at(3).strides, (std::vector<int64_t>{16, 16, 16, 4, 1}));
}

TEST(CudnnGraphTranslation, OneChannelEpilogueTensorsTakeTheConvolutionsChannelOrder) {
    // --first 25719 of seed 1: the one-channel y of a channels-first convolution's max epilogue,
    // stored with C innermost, gave 6 of 16 wrong values; its extent-1 dims (and the virtual
    // convolution output's) get channels-first strides.
    GraphBuilder builder("one_channel_epilogue");
    builder.addTensor(1, "x", DataType::BFLOAT16, {1, 3, 1, 5, 5})
        .addTensor(2, "w", DataType::BFLOAT16, {1, 3, 1, 2, 3})
        .addTensor(3, "conv_out", DataType::FLOAT, {1, 1, 1, 4, 4}, {16, 1, 16, 4, 1}, true)
        .addTensor(4, "floor", DataType::FLOAT, {1, 1, 1, 4, 4})
        .addTensor(5, "y", DataType::BFLOAT16, {1, 1, 1, 4, 4}, {16, 1, 16, 4, 1})
        .addConvFprop("conv", 1, 2, 3, {{0, 0, 3}, {0, 0, 3}, {2, 1, 2}, {2, 1, 2}})
        .addPointwise("max", fb::PointwiseMode::MAX_OP, 3, 4, 5);
    const auto spec = translate(builder);
    for (const int64_t uid : {3, 4, 5}) {
        EXPECT_EQ(spec.tensors.at(uid).strides, (std::vector<int64_t>{16, 16, 16, 4, 1})) << "uid " << uid;
    }
}

TEST(CudnnGraphTranslation, FusedConvolutionsOfOneChannelThroughoutAreDeclined) {
    // --first 34039 of seed 1: every C and K 1, a residual add after the convolution: an illegal
    // address in cuDNN however the tensors were described; the convolution alone runs.
    GraphBuilder builder("one_channel_throughout");
    builder.addTensor(1, "w", DataType::FLOAT, {1, 1, 2}, {2, 2, 1})
        .addTensor(2, "x", DataType::FLOAT, {2, 1, 3}, {3, 1, 1})
        .addTensor(3, "conv_out", DataType::FLOAT, {2, 1, 2}, {2, 1, 1}, true)
        .addTensor(4, "residual", DataType::FLOAT, {2, 1, 2}, {2, 1, 1})
        .addTensor(5, "y", DataType::FLOAT, {2, 1, 2}, {2, 1, 1})
        .addConvFprop("conv", 2, 1, 3, {{1}, {1}, {2}, {1}})
        .addPointwise("add", fb::PointwiseMode::ADD, 3, 4, 5);
    EXPECT_EQ(declineOf(builder),
              "node 0 'conv': every tensor of the convolution has one channel, which cuDNN's fused "
              "convolutions run into an illegal address");

    GraphBuilder alone("one_channel_alone");
    alone.addTensor(1, "w", DataType::FLOAT, {1, 1, 2}, {2, 2, 1})
        .addTensor(2, "x", DataType::FLOAT, {2, 1, 3}, {3, 1, 1})
        .addTensor(3, "y", DataType::FLOAT, {2, 1, 2}, {2, 1, 1})
        .addConvFprop("conv", 2, 1, 3, {{1}, {1}, {2}, {1}});
    EXPECT_EQ(translate(alone).tensors.at(2).strides, (std::vector<int64_t>{3, 1, 1}));
}

TEST(CudnnGraphTranslation, EpilogueTensorsOfAnotherChannelOrderAreDeclined) {
    // --first 31135 of seed 1: a channels-last convolution + bias + max with a channels-first
    // residual, 107 of 192 values wrong.
    const std::vector<int64_t> dims{3, 8, 2, 8};
    GraphBuilder builder("residual");
    builder.addTensor(1, "x", DataType::FLOAT, dims, channelsLast(dims))
        .addTensor(2, "w", DataType::FLOAT, {8, 8, 1, 1}, channelsLast({8, 8, 1, 1}))
        .addTensor(3, "conv_out", DataType::FLOAT, dims, channelsLast(dims), true)
        .addTensor(4, "residual", DataType::FLOAT, dims)
        .addTensor(5, "y", DataType::FLOAT, dims, channelsLast(dims))
        .addConvFprop("conv", 1, 2, 3, {{0, 0}, {0, 0}, {1, 1}, {1, 1}})
        .addPointwise("max", fb::PointwiseMode::MAX_OP, 3, 4, 5);
    EXPECT_EQ(
        declineOf(builder),
        "node 0 'conv': tensor 'residual' (uid 4) is channels-first but the convolution's y is "
        "channels-last: cuDNN's fused convolutions need one channel order for the tensors of their shape");
}

TEST(CudnnGraphTranslation, AsymmetricPaddingIsDeclined) {
    // --first 10496 of seed 1: a wgrad padded [2, 1] before and [1, 2] after, 107 of 108 wrong.
    GraphBuilder builder("wgrad");
    builder.addTensor(1, "x", DataType::FLOAT, {1, 4, 8, 2})
        .addTensor(2, "dy", DataType::FLOAT, {1, 3, 5, 2})
        .addTensor(3, "dw", DataType::FLOAT, {3, 4, 3, 3})
        .addConvWgrad("wgrad", 1, 2, 3, {{2, 1}, {1, 2}, {2, 2}, {1, 1}});
    EXPECT_EQ(declineOf(builder),
              "node 0 'wgrad': asymmetric padding (pre [2, 1], post [1, 2]) is computed "
              "wrong by cuDNN's convolution engines");
}

TEST(CudnnGraphTranslation, ChannelsFirstConvolutionsWithAOneByOneOutputAreDeclined) {
    // y (2, 3, 1, 1) has C innermost whatever its strides (--first 2415: NaN outputs).
    GraphBuilder builder("one_by_one");
    builder.addTensor(1, "x", DataType::BFLOAT16, {2, 4, 3, 2})
        .addTensor(2, "w", DataType::BFLOAT16, {3, 4, 3, 2})
        .addTensor(3, "y", DataType::BFLOAT16, {2, 3, 1, 1})
        .addConvFprop("conv", 1, 2, 3, {{0, 0}, {0, 0}, {1, 1}, {1, 1}});
    EXPECT_NE(declineOf(builder).find("w is channels-first but y is channels-last"), std::string::npos)
        << declineOf(builder);
}

TEST(CudnnGraphTranslation, NormsWithBroadcastScaleAreDeclined) {
    // hipdnn normalizes (16, 11) per row; cuDNN would normalize over the scale's 11 alone.
    GraphBuilder builder("rms");
    builder.addTensor(1, "x", DataType::FLOAT, {16, 16, 11})
        .addTensor(2, "scale", DataType::FLOAT, {1, 1, 11})
        .addScalar(3, "epsilon", DataType::FLOAT, 1e-5)
        .addTensor(4, "y", DataType::FLOAT, {16, 16, 11})
        .addRmsNorm("rms", 1, 2, 3, 4);
    EXPECT_EQ(declineOf(builder),
              "node 0 'rms': scale broadcast along dim 1 (extent 1, x has 16): cuDNN "
              "would normalize over the scale's dims only");
    GraphBuilder full("rms_full");
    full.addTensor(1, "x", DataType::FLOAT, {16, 16, 11})
        .addTensor(2, "scale", DataType::FLOAT, {1, 16, 11})
        .addScalar(3, "epsilon", DataType::FLOAT, 1e-5)
        .addTensor(4, "y", DataType::FLOAT, {16, 16, 11})
        .addRmsNorm("rms", 1, 2, 3, 4);
    EXPECT_EQ(declineOf(full), "");
}

TEST(CudnnGraphTranslation, LowRankBroadcastingPointwiseGraphsAndReductionsAreDeclined) {
    // --first 1611 of seed 1: from batch index 1 on, y was wrong.
    GraphBuilder builder("add");
    builder.addTensor(1, "x", DataType::FLOAT, {2, 11, 5})
        .addTensor(2, "b", DataType::FLOAT, {1, 11, 1})
        .addTensor(3, "y", DataType::FLOAT, {2, 11, 5})
        .addPointwise("add", fb::PointwiseMode::ADD, 1, 3, 2);
    EXPECT_EQ(
        declineOf(builder),
        "tensor 2 broadcasts in a rank-3 pointwise graph: cuDNN computes such graphs wrong below rank 4");

    GraphBuilder same("tanh");
    same.addTensor(1, "x", DataType::FLOAT, {7, 11})
        .addScalar(2, "alpha", DataType::FLOAT, 0.5)
        .addTensor(3, "y", DataType::FLOAT, {7, 11})
        .addPointwise("scale", fb::PointwiseMode::MUL, 1, 3, 2);
    EXPECT_EQ(declineOf(same), "");

    GraphBuilder deep("add4");
    deep.addTensor(1, "x", DataType::FLOAT, {2, 11, 5, 3})
        .addTensor(2, "b", DataType::FLOAT, {1, 11, 1, 1})
        .addTensor(3, "y", DataType::FLOAT, {2, 11, 5, 3})
        .addPointwise("add", fb::PointwiseMode::ADD, 1, 3, 2);
    EXPECT_EQ(declineOf(deep), "");

    GraphBuilder reduction("sum");
    reduction.addTensor(1, "x", DataType::FLOAT, {3, 12, 7}, {84, 1, 12})
        .addTensor(2, "y", DataType::FLOAT, {1, 1, 1})
        .addReduction("sum", fb::ReductionMode::ADD, 1, 2);
    EXPECT_EQ(declineOf(reduction),
              "node 0 'sum': reductions of rank 3 tensors are computed wrong by cuDNN's "
              "pointwise and reduction engines");
}

TEST(CudnnGraphTranslation, MatmulWithReluParametersIsDeclined) {
    hipdnn_test_sdk::PointwiseOptions leaky;
    leaky.reluLowerClipSlope = 0.25F;
    GraphBuilder builder("matmul_leaky");
    builder.addTensor(1, "a", DataType::HALF, {1, 12, 13})
        .addTensor(2, "b", DataType::HALF, {1, 13, 5})
        .addTensor(3, "c", DataType::FLOAT, {1, 12, 5}, {}, true)
        .addTensor(4, "y", DataType::HALF, {1, 12, 5})
        .addMatmul("mm", 1, 2, 3)
        .addPointwise("leaky_relu", fb::PointwiseMode::RELU_FWD, 3, 4, std::nullopt, std::nullopt, leaky);
    EXPECT_EQ(declineOf(builder),
              "node 1 'leaky_relu': RELU_FWD with a clip or a lower clip slope after a "
              "matmul: cuDNN's matmul fusion computes it as a plain relu");
}

}  // namespace
}  // namespace hipdnn_cudnn_plugin
