// The data SDK, test SDK and frontend names upstream's samples use, without an engine.
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
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
using hipdnn_data_sdk::types::bfloat16;
using hipdnn_data_sdk::types::half;

// ---- Data SDK ----

TEST(DataSdkCompat, HipTypeNamesAreTheDataSdkTypes) {
    static_assert(std::is_same_v<::half, half>);
    static_assert(std::is_same_v<::hip_bfloat16, bfloat16>);
    SUCCEED();
}

TEST(DataSdkCompat, TensorFromDimsIsPackedRowMajor) {
    du::Tensor<float> tensor({2, 3, 4, 5});
    EXPECT_EQ(tensor.strides(), (std::vector<int64_t>{60, 20, 5, 1}));
    EXPECT_EQ(tensor.storageElementCount(), 120);
}

TEST(DataSdkCompat, TensorFromDimsRejectsNonPositiveDims) {
    try {
        du::Tensor<float> tensor({2, 0, 3});
        FAIL() << "a zero dim was accepted";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("[2, 0, 3]"), std::string::npos) << error.what();
    }
}

TEST(DataSdkCompat, MemoryHostAndDeviceDataAreTheTensorStorage) {
    du::Tensor<half> tensor({1, 4, 2, 2}, du::TensorLayout::NHWC);
    auto& memory = tensor.memory();
    EXPECT_EQ(memory.hostData(), tensor.data());
    EXPECT_EQ(memory.deviceData(), tensor.data());
    EXPECT_EQ(memory.count(), 16U);
    tensor.fillWithValue(static_cast<half>(1.5f));
    memory.markHostModified();
    memory.markDeviceModified();
    for (size_t i = 0; i < memory.count(); ++i) {
        EXPECT_EQ(static_cast<float>(memory.hostData()[i]), 1.5f);
    }
}

TEST(DataSdkCompat, FillWithRandomValuesStaysInBoundsAndFollowsTheSeed) {
    du::Tensor<bfloat16> first({3, 5, 7});
    du::Tensor<bfloat16> second({3, 5, 7});
    first.fillWithRandomValues(static_cast<bfloat16>(0.25f), static_cast<bfloat16>(0.75f), 7);
    second.fillWithRandomValues(static_cast<bfloat16>(0.25f), static_cast<bfloat16>(0.75f), 7);
    for (int64_t i = 0; i < first.storageElementCount(); ++i) {
        const float value = static_cast<float>(first.data()[i]);
        EXPECT_GE(value, 0.25f);
        EXPECT_LE(value, 0.75f);
        EXPECT_EQ(value, static_cast<float>(second.data()[i]));
    }
}

TEST(DataSdkCompat, FillWithRandomValuesRejectsReversedBounds) {
    du::Tensor<float> tensor({4});
    try {
        tensor.fillWithRandomValues(2.0f, 1.0f);
        FAIL() << "min > max was accepted";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("2.0"), std::string::npos) << error.what();
    }
}

TEST(DataSdkCompat, WorkspaceOwnsAlignedZeroedMemory) {
    const du::Workspace empty(0);
    EXPECT_EQ(empty.get(), nullptr);
    const du::Workspace workspace(100);
    ASSERT_NE(workspace.get(), nullptr);
    EXPECT_EQ(workspace.size(), 100U);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(workspace.get()) % 64, 0U);
    const auto* bytes = static_cast<const unsigned char*>(workspace.get());
    for (size_t i = 0; i < workspace.size(); ++i) {
        EXPECT_EQ(bytes[i], 0);
    }
}

TEST(DataSdkCompat, ShapeHelpersUnderUpstreamNames) {
    EXPECT_EQ(du::generateStrides({2, 3, 4, 5}, du::TensorLayout::NHWC.strideOrder),
              (std::vector<int64_t>{60, 1, 15, 3}));
    EXPECT_EQ(du::generateStrides({2, 3}), (std::vector<int64_t>{3, 1}));
    EXPECT_EQ(du::getDerivedShape({16, 8, 5, 5}), (std::vector<int64_t>{1, 8, 1, 1}));
    EXPECT_EQ(du::getDerivedShape({2, 3, 4, 5, 6}), (std::vector<int64_t>{1, 3, 1, 1, 1}));
    try {
        (void)du::getDerivedShape({7});
        FAIL() << "rank 1 was accepted";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("[7]"), std::string::npos) << error.what();
    }
    std::ostringstream text;
    text << du::TensorLayout::NHWC;
    EXPECT_EQ(text.str(), "NHWC");
}

TEST(DataSdkCompat, BatchnormDefaultEpsilon) {
    EXPECT_DOUBLE_EQ(du::BATCHNORM_DEFAULT_EPSILON, 1e-5);
}

// ---- Test SDK ----

TEST(TestSdkCompat, ConvolutionReferenceOnTensors) {
    // 1x1x3x3 input, 1x1x2x2 filter of ones, no padding: each output sums a 2x2 window.
    du::Tensor<float> x({1, 1, 3, 3});
    du::Tensor<float> w({1, 1, 2, 2});
    du::Tensor<float> y({1, 1, 2, 2});
    for (int i = 0; i < 9; ++i) {
        x.data()[i] = static_cast<float>(i);
    }
    w.fillWithValue(1.0f);
    tu::CpuFpReferenceConvolution::fprop(x, w, y, {1, 1}, {1, 1}, {0, 0});
    EXPECT_EQ(y.at({0, 0, 0, 0}), 0.0f + 1 + 3 + 4);
    EXPECT_EQ(y.at({0, 0, 1, 1}), 4.0f + 5 + 7 + 8);
}

TEST(TestSdkCompat, BatchnormInferenceReferenceOnTensors) {
    du::Tensor<float> x({1, 2, 1, 1});
    du::Tensor<float> scale({1, 2, 1, 1});
    du::Tensor<float> bias({1, 2, 1, 1});
    du::Tensor<float> mean({1, 2, 1, 1});
    du::Tensor<float> invVariance({1, 2, 1, 1});
    du::Tensor<float> y({1, 2, 1, 1});
    x.data()[0] = 3.0f;
    x.data()[1] = 5.0f;
    scale.fillWithValue(2.0f);
    bias.fillWithValue(1.0f);
    mean.fillWithValue(1.0f);
    invVariance.fillWithValue(0.5f);
    tu::CpuFpReferenceBatchnorm::fwdInference(x, scale, bias, mean, invVariance, y);
    EXPECT_FLOAT_EQ(y.data()[0], 2.0f * (3.0f - 1.0f) * 0.5f + 1.0f);
    EXPECT_FLOAT_EQ(y.data()[1], 2.0f * (5.0f - 1.0f) * 0.5f + 1.0f);
}

TEST(TestSdkCompat, PointwiseReferenceBroadcastsAndActivates) {
    du::Tensor<float> in({1, 2, 1, 2});
    du::Tensor<float> bias({1, 2, 1, 1});
    du::Tensor<float> sum({1, 2, 1, 2});
    du::Tensor<float> relu({1, 2, 1, 2});
    const float values[] = {-3.0f, 1.0f, 2.0f, -0.5f};
    std::copy(std::begin(values), std::end(values), in.data());
    bias.data()[0] = 1.0f;
    bias.data()[1] = -1.0f;
    using Pointwise = tu::CpuReferencePointwiseImpl<float>;
    Pointwise::pointwiseCompute(hipdnn_data_sdk::data_objects::PointwiseMode::ADD, sum, in, bias);
    Pointwise::pointwiseCompute(hipdnn_data_sdk::data_objects::PointwiseMode::RELU_FWD, relu, sum);
    EXPECT_EQ(std::vector<float>(sum.data(), sum.data() + 4), (std::vector<float>{-2.0f, 2.0f, 1.0f, -1.5f}));
    EXPECT_EQ(std::vector<float>(relu.data(), relu.data() + 4), (std::vector<float>{0.0f, 2.0f, 1.0f, 0.0f}));
}

TEST(TestSdkCompat, ValidatorsCompareWithTolerance) {
    du::Tensor<float> reference({2, 2});
    du::Tensor<float> result({2, 2});
    reference.fillWithValue(1.0f);
    result.fillWithValue(1.0f);
    const auto validator = tu::CpuFpReferenceValidation<float>(1e-3f, 1e-3f);
    EXPECT_TRUE(validator.allClose(reference, result));
    result.data()[3] = 1.1f;
    EXPECT_FALSE(validator.allClose(reference, result));
    EXPECT_EQ(validator.lastReport().mismatchCount, 1);

    const auto strict = tu::createAllCloseValidator<float>();
    result.data()[3] = 1.0f;
    EXPECT_TRUE(strict->allClose(reference, result));
    du::Tensor<float> otherDims({4});
    EXPECT_FALSE(strict->allClose(reference, otherDims));
}

TEST(TestSdkCompat, ValidatorRejectsNegativeTolerance) {
    try {
        tu::CpuFpReferenceValidation<half> validator(-1.0f, 0.0f);
        FAIL() << "a negative tolerance was accepted";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("-1.0"), std::string::npos) << error.what();
    }
}

TEST(TestSdkCompat, TolerancesFollowTheUpstreamTable) {
    EXPECT_FLOAT_EQ(tu::conv::getToleranceFwd<float>(), 1e-5f);
    EXPECT_FLOAT_EQ(tu::conv::getToleranceFwd<half>(), 1e-1f);
    EXPECT_FLOAT_EQ(tu::conv::getRelativeToleranceFwd<bfloat16>(), 2e-2f);
    EXPECT_FLOAT_EQ(tu::batchnorm::getToleranceInference<float>(), 2e-4f);
    EXPECT_FLOAT_EQ(tu::batchnorm::getToleranceInference<bfloat16>(), 5e-3f);
    EXPECT_FLOAT_EQ(tu::pointwise::getTolerance<half>(), 1e-3f);
}

// ---- Frontend ----

TEST(FrontendCompat, DataTypeEnumFromElementType) {
    static_assert(fe::getDataTypeEnumFromType<float>() == fe::DataType::FLOAT);
    static_assert(fe::getDataTypeEnumFromType<half>() == fe::DataType::HALF);
    static_assert(fe::getDataTypeEnumFromType<hip_bfloat16>() == fe::DataType::BFLOAT16);
    static_assert(fe::getDataTypeEnumFromType<double>() == fe::DataType::DOUBLE);
    static_assert(fe::getDataTypeEnumFromType<int32_t>() == fe::DataType::INT32);
    static_assert(fe::getDataTypeEnumFromType<uint8_t>() == fe::DataType::UINT8);
    SUCCEED();
}

TEST(FrontendCompat, DataTypeStreamsItsName) {
    std::ostringstream text;
    text << fe::DataType::HALF << " " << fe::getDataTypeEnumFromType<bfloat16>();
    EXPECT_EQ(text.str(), "HALF BFLOAT16");
}

TEST(FrontendCompat, MatmulAttributesPortAccessors) {
    auto a = std::make_shared<fe::graph::Tensor_attributes>();
    auto b = std::make_shared<fe::graph::Tensor_attributes>();
    auto c = std::make_shared<fe::graph::Tensor_attributes>();
    fe::graph::Matmul_attributes attributes;
    EXPECT_EQ(attributes.get_a(), nullptr);
    attributes.set_a(a).set_b(b).set_c(c).set_name("mm");
    EXPECT_EQ(attributes.get_a(), a);
    EXPECT_EQ(attributes.get_b(), b);
    EXPECT_EQ(attributes.get_c(), c);
}

fe::graph::Graph namedConvGraph() {
    fe::graph::Graph graph;
    graph.set_name("compat").set_io_data_type(fe::DataType::FLOAT).set_compute_data_type(fe::DataType::FLOAT);
    auto x = graph.tensor(fe::graph::Tensor_attributes()
                              .set_name("x")
                              .set_dim({1, 2, 4, 4})
                              .set_stride(du::generateStrides({1, 2, 4, 4})));
    auto w = graph.tensor(fe::graph::Tensor_attributes()
                              .set_name("w")
                              .set_dim({3, 2, 3, 3})
                              .set_stride(du::generateStrides({3, 2, 3, 3})));
    auto y = graph.conv_fprop(
        x, w, fe::graph::ConvFpropAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    y->set_name("y").set_output(true);
    return graph;
}

TEST(FrontendCompat, TensorsByNameListsNamedTensors) {
    auto graph = namedConvGraph();
    const auto tensors = graph.getTensorsByName();
    ASSERT_EQ(tensors.size(), 3U);
    EXPECT_EQ(tensors.at("x")->get_dim(), (std::vector<int64_t>{1, 2, 4, 4}));
    EXPECT_EQ(tensors.at("w")->get_dim(), (std::vector<int64_t>{3, 2, 3, 3}));
    EXPECT_FALSE(tensors.at("y")->get_is_virtual());
}

TEST(FrontendCompat, TensorsByNameRejectsASharedName) {
    auto graph = namedConvGraph();
    graph.getTensorsByName().at("w")->set_name("x");
    try {
        (void)graph.getTensorsByName();
        FAIL() << "two tensors named x were accepted";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("'x'"), std::string::npos) << error.what();
    }
}

TEST(FrontendCompat, ConstSerializeNeedsABuiltGraph) {
    const auto graph = namedConvGraph();
    std::vector<uint8_t> bytes;
    const auto error = graph.serialize(bytes);
    EXPECT_EQ(error.get_code(), fe::ErrorCode::INVALID_STATE);
    EXPECT_NE(error.get_message().find("'compat'"), std::string::npos) << error.get_message();
    std::string json;
    EXPECT_EQ(graph.serialize(json).get_code(), fe::ErrorCode::INVALID_STATE);
}

TEST(FrontendCompat, InitializeFrontendLoggingRoutesFrontendLines) {
    static int frontendLines = 0;
    const hipdnnCallback_t counter = [](hipdnnSeverity_t, const char* message) {
        if (std::string(message).find("[hipdnn_frontend]") != std::string::npos) {
            ++frontendLines;
        }
    };
    hipdnnSeverity_t previousLevel = HIPDNN_SEV_OFF;
    ASSERT_EQ(hipdnnBackendGetGlobalLogLevel_ext(&previousLevel), HIPDNN_STATUS_SUCCESS);
    ASSERT_EQ(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO), HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(fe::initializeFrontendLogging(counter), 0);
    fe::graph::Graph empty;
    EXPECT_TRUE(empty.build(nullptr).is_bad());  // a failing step logs where it failed
    EXPECT_EQ(fe::initializeFrontendLogging(), 0);
    EXPECT_EQ(hipdnnBackendSetGlobalLogLevel_ext(previousLevel), HIPDNN_STATUS_SUCCESS);
    EXPECT_GT(frontendLines, 0);
}

}  // namespace
