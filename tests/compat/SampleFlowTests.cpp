// Upstream hipDNN's sample flows (convolution, fused convolution + bias + ReLU, batch norm
// inference, serialization round trip) written with upstream's names and run on the CPU
// engines, each result checked against the test SDK's CPU references.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>
#include <hipdnn_data_sdk/utilities/Constants.hpp>
#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_data_sdk/utilities/Tensor.hpp>
#include <hipdnn_data_sdk/utilities/Workspace.hpp>
#include <hipdnn_frontend.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceBatchnorm.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceConvolution.hpp>
#include <hipdnn_test_sdk/utilities/CpuFpReferenceValidation.hpp>
#include <hipdnn_test_sdk/utilities/TestTolerances.hpp>
#include <hipdnn_test_sdk/utilities/pointwise/CpuReferencePointwise.hpp>

namespace {

namespace fe = hipdnn_frontend;
namespace du = hipdnn_data_sdk::utilities;
namespace tu = hipdnn_test_sdk::utilities;
using du::TensorLayout;
using TensorPtr = std::shared_ptr<fe::graph::Tensor_attributes>;

constexpr unsigned int fillSeed = 1234;

TensorPtr createTensor(const std::vector<int64_t>& dims, fe::DataType type, const TensorLayout& layout) {
    auto tensor = std::make_shared<fe::graph::Tensor_attributes>();
    tensor->set_dim(dims).set_data_type(type).set_stride(du::generateStrides(dims, layout.strideOrder));
    return tensor;
}

void expectGood(const fe::Error& error) {
    ASSERT_TRUE(error.is_good()) << error.get_message();
}

// The explicit lifecycle upstream's samples spell out step by step.
void buildStepByStep(fe::graph::Graph& graph, hipdnnHandle_t handle) {
    expectGood(graph.validate());
    expectGood(graph.build_operation_graph(handle));
    expectGood(graph.create_execution_plans());
    expectGood(graph.check_support());
    expectGood(graph.build_plans());
}

template <class T>
void expectClose(const du::Tensor<T>& reference, const du::Tensor<T>& result, float tolerance) {
    const auto validator = tu::CpuFpReferenceValidation<T>(tolerance, tolerance);
    EXPECT_TRUE(validator.allClose(reference, result)) << validator.lastReport().describe();
}

class BackendHandle {
public:
    BackendHandle() { status_ = fe::hipdnnBackend()->create(&handle_); }
    ~BackendHandle() {
        if (handle_ != nullptr) {
            EXPECT_EQ(fe::hipdnnBackend()->destroy(handle_), HIPDNN_STATUS_SUCCESS);
        }
    }
    BackendHandle(const BackendHandle&) = delete;
    BackendHandle& operator=(const BackendHandle&) = delete;
    hipdnnStatus_t status() const { return status_; }
    operator hipdnnHandle_t() const { return handle_; }

private:
    hipdnnHandle_t handle_ = nullptr;
    hipdnnStatus_t status_ = HIPDNN_STATUS_SUCCESS;
};

template <class T>
void convFprop(const TensorLayout& layout) {
    BackendHandle handle;
    ASSERT_EQ(handle.status(), HIPDNN_STATUS_SUCCESS);
    const auto type = fe::getDataTypeEnumFromType<T>();
    auto graph = std::make_shared<fe::graph::Graph>();
    graph->set_io_data_type(type).set_compute_data_type(fe::DataType::FLOAT);
    auto x = createTensor({2, 4, 6, 6}, type, layout);
    auto w = createTensor({5, 4, 3, 3}, type, layout);
    fe::graph::ConvFpropAttributes attributes;
    attributes.set_name("conv_fprop_node").set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1});
    auto y = graph->conv_fprop(x, w, attributes);
    y->set_output(true);
    buildStepByStep(*graph, handle);

    du::Tensor<T> xTensor(x->get_dim(), layout);
    du::Tensor<T> wTensor(w->get_dim(), layout);
    du::Tensor<T> yTensor(y->get_dim(), layout);
    xTensor.fillWithRandomValues(static_cast<T>(0.0f), static_cast<T>(1.0f), fillSeed);
    wTensor.fillWithRandomValues(static_cast<T>(0.0f), static_cast<T>(1.0f), fillSeed + 1);
    yTensor.fillWithValue(static_cast<T>(0.0f));
    std::unordered_map<int64_t, void*> variantPack{{x->get_uid(), xTensor.memory().deviceData()},
                                                   {w->get_uid(), wTensor.memory().deviceData()},
                                                   {y->get_uid(), yTensor.memory().deviceData()}};
    int64_t workspaceSize = 0;
    expectGood(graph->get_workspace_size(workspaceSize));
    const du::Workspace workspace(static_cast<size_t>(workspaceSize));
    expectGood(graph->execute(handle, variantPack, workspace.get()));
    yTensor.memory().markDeviceModified();

    du::Tensor<T> yReference(y->get_dim(), layout);
    tu::CpuFpReferenceConvolution::fprop(xTensor, wTensor, yReference, {1, 1}, {1, 1}, {1, 1});
    expectClose(yReference, yTensor, tu::conv::getToleranceFwd<T>());
}

TEST(SampleFlowCompat, ConvFpropFloatNchw) {
    convFprop<float>(TensorLayout::NCHW);
}
TEST(SampleFlowCompat, ConvFpropHalfNhwc) {
    convFprop<half>(TensorLayout::NHWC);
}
TEST(SampleFlowCompat, ConvFpropBfloat16Nchw) {
    convFprop<hip_bfloat16>(TensorLayout::NCHW);
}

template <class T>
void fusedConvBiasRelu(const TensorLayout& layout) {
    BackendHandle handle;
    ASSERT_EQ(handle.status(), HIPDNN_STATUS_SUCCESS);
    const auto type = fe::getDataTypeEnumFromType<T>();
    auto graph = std::make_shared<fe::graph::Graph>();
    graph->set_io_data_type(type)
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    const std::vector<int64_t> outDims{2, 3, 5, 5};
    auto x = createTensor({2, 4, 5, 5}, type, layout);
    auto w = createTensor({3, 4, 3, 3}, type, layout);
    fe::graph::ConvFpropAttributes convAttributes;
    convAttributes.set_name("conv_fprop_node").set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1});
    auto convOut = graph->conv_fprop(x, w, convAttributes);
    convOut->set_dim(outDims).set_stride(du::generateStrides(outDims, layout.strideOrder));
    const auto biasDims = du::getDerivedShape(convOut->get_dim());
    auto bias = createTensor(biasDims, type, layout);
    fe::graph::PointwiseAttributes add;
    add.set_name("bias_add_node").set_mode(fe::PointwiseMode::ADD).set_compute_data_type(type);
    auto biased = graph->pointwise(convOut, bias, add);
    fe::graph::PointwiseAttributes relu;
    relu.set_name("activation_node").set_mode(fe::PointwiseMode::RELU_FWD);
    auto y = graph->pointwise(biased, relu);
    y->set_output(true);
    buildStepByStep(*graph, handle);

    du::Tensor<T> xTensor(x->get_dim(), layout);
    du::Tensor<T> wTensor(w->get_dim(), layout);
    du::Tensor<T> biasTensor(biasDims, layout);
    du::Tensor<T> yTensor(y->get_dim(), layout);
    // Weights straddle zero so that ReLU clips some outputs.
    xTensor.fillWithRandomValues(static_cast<T>(0.0f), static_cast<T>(1.0f), fillSeed);
    wTensor.fillWithRandomValues(static_cast<T>(-0.5f), static_cast<T>(0.5f), fillSeed + 1);
    biasTensor.fillWithRandomValues(static_cast<T>(-0.5f), static_cast<T>(0.5f), fillSeed + 2);
    yTensor.fillWithValue(static_cast<T>(0.0f));
    std::unordered_map<int64_t, void*> variantPack{{x->get_uid(), xTensor.memory().deviceData()},
                                                   {w->get_uid(), wTensor.memory().deviceData()},
                                                   {bias->get_uid(), biasTensor.memory().deviceData()},
                                                   {y->get_uid(), yTensor.memory().deviceData()}};
    const du::Workspace workspace(static_cast<size_t>(graph->get_workspace_size()));
    expectGood(graph->execute(handle, variantPack, workspace.get()));

    du::Tensor<T> convReference(outDims, layout);
    tu::CpuFpReferenceConvolution::fprop(xTensor, wTensor, convReference, {1, 1}, {1, 1}, {1, 1});
    du::Tensor<T> biasReference(outDims, layout);
    tu::CpuReferencePointwiseImpl<T>::pointwiseCompute(hipdnn_data_sdk::data_objects::PointwiseMode::ADD,
                                                       biasReference, convReference, biasTensor);
    du::Tensor<T> yReference(outDims, layout);
    tu::CpuReferencePointwiseImpl<T>::pointwiseCompute(hipdnn_data_sdk::data_objects::PointwiseMode::RELU_FWD,
                                                       yReference, biasReference);
    expectClose(yReference, yTensor, tu::conv::getToleranceFwd<T>());
}

TEST(SampleFlowCompat, FusedConvBiasReluFloatNhwc) {
    fusedConvBiasRelu<float>(TensorLayout::NHWC);
}
TEST(SampleFlowCompat, FusedConvBiasReluHalfNchw) {
    fusedConvBiasRelu<half>(TensorLayout::NCHW);
}

template <class T>
void batchnormInference(const TensorLayout& layout) {
    BackendHandle handle;
    ASSERT_EQ(handle.status(), HIPDNN_STATUS_SUCCESS);
    const auto type = fe::getDataTypeEnumFromType<T>();
    const auto statsType = fe::getDataTypeEnumFromType<float>();
    auto graph = std::make_shared<fe::graph::Graph>();
    graph->set_io_data_type(type).set_intermediate_data_type(statsType).set_compute_data_type(
        fe::DataType::FLOAT);
    const std::vector<int64_t> dims{2, 3, 4, 4};
    const auto statsDims = du::getDerivedShape(dims);
    auto x = createTensor(dims, type, layout);
    auto scale = createTensor(statsDims, statsType, TensorLayout::NCHW);
    auto bias = createTensor(statsDims, statsType, TensorLayout::NCHW);
    auto mean = createTensor(statsDims, statsType, TensorLayout::NCHW);
    auto invVariance = createTensor(statsDims, statsType, TensorLayout::NCHW);
    auto attributes = fe::graph::BatchnormInferenceAttributes();
    attributes.set_name("bn_inference_node");
    auto y = graph->batchnorm_inference(x, mean, invVariance, scale, bias, attributes);
    y->set_output(true);
    buildStepByStep(*graph, handle);

    du::Tensor<T> xTensor(dims, layout);
    du::Tensor<float> scaleTensor(statsDims);
    du::Tensor<float> biasTensor(statsDims);
    du::Tensor<float> meanTensor(statsDims);
    du::Tensor<float> invVarianceTensor(statsDims);
    du::Tensor<T> yTensor(y->get_dim(), layout);
    xTensor.fillWithRandomValues(static_cast<T>(0.0f), static_cast<T>(1.0f), fillSeed);
    scaleTensor.fillWithRandomValues(0.0f, 1.0f, fillSeed + 1);
    biasTensor.fillWithRandomValues(0.0f, 1.0f, fillSeed + 2);
    meanTensor.fillWithRandomValues(0.0f, 1.0f, fillSeed + 3);
    invVarianceTensor.fillWithRandomValues(0.1f, 1.0f, fillSeed + 4);
    std::unordered_map<int64_t, void*> variantPack{
        {x->get_uid(), xTensor.memory().deviceData()},
        {scale->get_uid(), scaleTensor.memory().deviceData()},
        {bias->get_uid(), biasTensor.memory().deviceData()},
        {mean->get_uid(), meanTensor.memory().deviceData()},
        {invVariance->get_uid(), invVarianceTensor.memory().deviceData()},
        {y->get_uid(), yTensor.memory().deviceData()}};
    expectGood(graph->execute(handle, variantPack, nullptr));

    du::Tensor<T> yReference(y->get_dim(), layout);
    tu::CpuFpReferenceBatchnorm::fwdInference(xTensor, scaleTensor, biasTensor, meanTensor, invVarianceTensor,
                                              yReference);
    expectClose(yReference, yTensor, tu::batchnorm::getToleranceInference<T>());
}

TEST(SampleFlowCompat, BatchnormInferenceFloatNchw) {
    batchnormInference<float>(TensorLayout::NCHW);
}
TEST(SampleFlowCompat, BatchnormInferenceBfloat16Nhwc) {
    batchnormInference<hip_bfloat16>(TensorLayout::NHWC);
}

template <class T>
void executeConv(const fe::graph::Graph& graph, hipdnnHandle_t handle, const TensorPtr& x, const TensorPtr& w,
                 const TensorPtr& y, du::Tensor<T>& xTensor, du::Tensor<T>& wTensor, du::Tensor<T>& yTensor) {
    std::unordered_map<int64_t, void*> variantPack{{x->get_uid(), xTensor.memory().deviceData()},
                                                   {w->get_uid(), wTensor.memory().deviceData()},
                                                   {y->get_uid(), yTensor.memory().deviceData()}};
    int64_t workspaceSize = 0;
    expectGood(graph.get_workspace_size(workspaceSize));
    const du::Workspace workspace(static_cast<size_t>(workspaceSize));
    expectGood(graph.execute(handle, variantPack, workspace.get()));
}

// Serializes a const graph, rebuilds it from the bytes or the JSON and runs the copy.
template <class T, class Serialized>
void roundTrip(const fe::graph::Graph& original, hipdnnHandle_t handle, du::Tensor<T>& xTensor,
               du::Tensor<T>& wTensor, const du::Tensor<T>& yOriginal, const TensorLayout& layout) {
    Serialized serialized;
    expectGood(original.serialize(serialized));
    ASSERT_FALSE(serialized.empty());
    fe::graph::Graph copy;
    expectGood(copy.deserialize(handle, serialized));
    expectGood(copy.create_execution_plans());
    expectGood(copy.check_support());
    expectGood(copy.build_plans());
    const auto tensors = copy.getTensorsByName();
    const auto& y = tensors.at("y");
    du::Tensor<T> yCopy(y->get_dim(), layout);
    yCopy.fillWithValue(static_cast<T>(0.0f));
    executeConv(copy, handle, tensors.at("x"), tensors.at("w"), y, xTensor, wTensor, yCopy);
    const auto validator = tu::createAllCloseValidator<T>();
    EXPECT_TRUE(validator->allClose(yOriginal, yCopy)) << validator->lastReport().describe();
}

template <class T>
void serializationRoundTrip(const TensorLayout& layout) {
    auto [handle, handleError] = fe::createHipdnnHandle();
    expectGood(handleError);
    ASSERT_NE(handle, nullptr);
    const auto type = fe::getDataTypeEnumFromType<T>();
    auto x = createTensor({2, 4, 5, 5}, type, layout);
    auto w = createTensor({3, 4, 3, 3}, type, layout);
    x->set_name("x");
    w->set_name("w");
    du::Tensor<T> xTensor(x->get_dim(), layout);
    du::Tensor<T> wTensor(w->get_dim(), layout);
    xTensor.fillWithRandomValues(static_cast<T>(0.0f), static_cast<T>(1.0f), fillSeed);
    wTensor.fillWithRandomValues(static_cast<T>(0.0f), static_cast<T>(1.0f), fillSeed + 1);

    fe::graph::Graph original;
    original.set_name("original_conv_graph");
    original.set_io_data_type(type)
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    fe::graph::ConvFpropAttributes attributes;
    attributes.set_name("conv_fprop").set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1});
    auto y = original.conv_fprop(x, w, attributes);
    y->set_name("y").set_output(true);
    expectGood(original.build(*handle));
    du::Tensor<T> yOriginal(y->get_dim(), layout);
    yOriginal.fillWithValue(static_cast<T>(0.0f));
    executeConv(original, *handle, x, w, y, xTensor, wTensor, yOriginal);

    roundTrip<T, std::vector<uint8_t>>(original, *handle, xTensor, wTensor, yOriginal, layout);
    roundTrip<T, std::string>(original, *handle, xTensor, wTensor, yOriginal, layout);
}

TEST(SampleFlowCompat, SerializationRoundTripFloatNchw) {
    serializationRoundTrip<float>(TensorLayout::NCHW);
}
TEST(SampleFlowCompat, SerializationRoundTripHalfNhwc) {
    serializationRoundTrip<half>(TensorLayout::NHWC);
}

}  // namespace
