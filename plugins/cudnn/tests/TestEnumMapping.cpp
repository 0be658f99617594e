#include "EnumMapping.hpp"

#include <gtest/gtest.h>

namespace hipdnn_cudnn_plugin {
namespace {

TEST(CudnnEnumMapping, ConvModesFollowTheSchemaNumbering) {
    // Schema: CONVOLUTION = 1, CROSS_CORRELATION = 2 (the reverse of the frontend's order).
    EXPECT_EQ(toCudnnConvMode(static_cast<fb::ConvMode>(1)), CUDNN_CONVOLUTION);
    EXPECT_EQ(toCudnnConvMode(static_cast<fb::ConvMode>(2)), CUDNN_CROSS_CORRELATION);
    EXPECT_EQ(toCudnnConvMode(fb::ConvMode::UNSET), std::nullopt);
}

TEST(CudnnEnumMapping, DataTypes) {
    EXPECT_EQ(toCudnnDataType(fb::DataType::FLOAT), CUDNN_DATA_FLOAT);
    EXPECT_EQ(toCudnnDataType(fb::DataType::HALF), CUDNN_DATA_HALF);
    EXPECT_EQ(toCudnnDataType(fb::DataType::BFLOAT16), CUDNN_DATA_BFLOAT16);
    EXPECT_EQ(toCudnnDataType(fb::DataType::INT64), CUDNN_DATA_INT64);
    EXPECT_EQ(toCudnnDataType(fb::DataType::UNSET), std::nullopt);
    EXPECT_EQ(toCudnnDataType(fb::DataType::FP8_E4M3_FNUZ), std::nullopt);
}

TEST(CudnnEnumMapping, ElementSizesOfEveryMappedDataType) {
    for (fb::DataType type : fb::EnumValuesDataType()) {
        if (const auto cudnnType = toCudnnDataType(type)) {
            EXPECT_GT(cudnnStorageBytes(*cudnnType, 1), 0U) << fb::EnumNameDataType(type);
        }
    }
    EXPECT_EQ(cudnnStorageBytes(CUDNN_DATA_FLOAT, 3), 12U);
    EXPECT_EQ(cudnnStorageBytes(CUDNN_DATA_BFLOAT16, 3), 6U);
    EXPECT_EQ(cudnnStorageBytes(CUDNN_DATA_INT64, 3), 24U);
    EXPECT_EQ(cudnnStorageBytes(CUDNN_DATA_FP4_E2M1, 3), 2U);
}

TEST(CudnnEnumMapping, EveryPointwiseModeButUnsetMaps) {
    for (int mode = static_cast<int>(fb::PointwiseMode::MIN);
         mode <= static_cast<int>(fb::PointwiseMode::MAX); ++mode) {
        const auto pointwise = static_cast<fb::PointwiseMode>(mode);
        EXPECT_EQ(toCudnnPointwiseMode(pointwise).has_value(), pointwise != fb::PointwiseMode::UNSET)
            << fb::EnumNamePointwiseMode(pointwise);
    }
    EXPECT_EQ(toCudnnPointwiseMode(fb::PointwiseMode::MAX_OP), CUDNN_POINTWISE_MAX);
    EXPECT_EQ(toCudnnPointwiseMode(fb::PointwiseMode::RELU_BWD), CUDNN_POINTWISE_RELU_BWD);
    EXPECT_TRUE(isActivationBackward(fb::PointwiseMode::GELU_BWD));
    EXPECT_FALSE(isActivationBackward(fb::PointwiseMode::GELU_FWD));
}

TEST(CudnnEnumMapping, ReductionModes) {
    EXPECT_EQ(toCudnnReductionOp(fb::ReductionMode::ADD), CUDNN_REDUCE_TENSOR_ADD);
    EXPECT_EQ(toCudnnReductionOp(fb::ReductionMode::AMAX), CUDNN_REDUCE_TENSOR_AMAX);
    EXPECT_EQ(toCudnnReductionOp(fb::ReductionMode::NOT_SET), std::nullopt);
}

TEST(CudnnEnumMapping, KnobNamesRoundTrip) {
    EXPECT_EQ(knobTypeName(CUDNN_KNOB_TYPE_TILE_SIZE), "TILE_SIZE");
    EXPECT_EQ(knobTypeName(CUDNN_KNOB_TYPE_SWAP_AB), "SWAP_AB");
    EXPECT_EQ(knobTypeName(1000), "KNOB_1000");
    for (int64_t type = 0; type < CUDNN_KNOB_TYPE_COUNTS; ++type) {
        EXPECT_EQ(knobTypeFromName(knobTypeName(type)), type);
    }
    EXPECT_EQ(knobTypeFromName("KNOB_1000"), 1000);
    EXPECT_EQ(knobTypeFromName("NOT_A_KNOB"), std::nullopt);
}

TEST(CudnnEnumMapping, HeuristicModes) {
    for (cudnnBackendHeurMode_t mode : {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_B, CUDNN_HEUR_MODE_FALLBACK}) {
        EXPECT_EQ(heuristicModeFromName(heuristicModeName(mode)), mode);
    }
    EXPECT_EQ(heuristicModeFromName("C"), std::nullopt);
}

}  // namespace
}  // namespace hipdnn_cudnn_plugin
