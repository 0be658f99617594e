// CUDA_NORM_ENGINE against the CPU reference: layer norm and RMS norm (inference and training,
// with and without bias), RMS norm backward (with and without dbias), layer norm backward (rows
// and (N, C, H, W)), batch norm inference (from inv_variance
// or variance), training (with and without running statistics) and backward, NCHW and NHWC, fp32/fp16/bf16,
// each alone and with a fused relu or residual add + relu; odd sizes, misaligned pointers and large means.
#include "../tests/NormGraphs.hpp"
#include "EngineHarness.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <utility>

namespace cuda_kernels_integration {
namespace {

using cuda_kernels_test::BatchnormMode;
using cuda_kernels_test::Epilogue;
using hipdnn_test_sdk::ToleranceOp;

const auto kTypes = testing::Values(fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16);
const auto kEpilogues = testing::Values(Epilogue::None, Epilogue::Relu, Epilogue::AddRelu);

RunOptions rowNormOptions(bool layernorm, int64_t columns) {
    RunOptions options;
    options.engineId = hipdnn_data_sdk::utilities::CUDA_NORM_ENGINE_ID;
    options.tolerance = layernorm ? ToleranceOp::Layernorm : ToleranceOp::RmsNorm;
    options.reductionTerms = columns;
    return options;
}

// dx sums over a row, dscale and dbias over the rows.
RunOptions rmsnormBackwardOptions(int64_t rows, int64_t columns) {
    RunOptions options = rowNormOptions(false, std::max(rows, columns));
    options.ranges[5] = {0.5, 2.0};  // inv_rms is positive
    return options;
}

// dx sums over a row, dscale and dbias over the rows.
RunOptions layernormBackwardOptions(const std::vector<int64_t>& dims) {
    const int64_t columns = hipdnn_data_sdk::utilities::elementCount(dims) / dims[0];
    RunOptions options = rowNormOptions(true, std::max(dims[0], columns));
    options.ranges[5] = {0.5, 2.0};  // inv_variance is positive
    return options;
}

RunOptions batchnormOptions(BatchnormMode mode, const std::vector<int64_t>& dims) {
    RunOptions options;
    options.engineId = hipdnn_data_sdk::utilities::CUDA_NORM_ENGINE_ID;
    const bool training = mode == BatchnormMode::Training || mode == BatchnormMode::TrainingRunningStats;
    options.tolerance = mode == BatchnormMode::Backward            ? ToleranceOp::BatchnormBackward
                        : training                                 ? ToleranceOp::BatchnormTraining
                        : mode == BatchnormMode::InferenceVariance ? ToleranceOp::BatchnormInferenceVariance
                                                                   : ToleranceOp::BatchnormInference;
    if (training || mode == BatchnormMode::Backward) {
        options.reductionTerms = dims[0] * dims[2] * dims[3];
    }
    // Variances (uid 5, 10) must be positive.
    options.ranges[5] = {0.5, 2.0};
    options.ranges[10] = {0.5, 2.0};
    return options;
}

using RowCase = std::tuple<bool, fb::DataType, bool, Epilogue>;  // layernorm, type, training, epilogue

std::string rowCaseName(const testing::TestParamInfo<RowCase>& info) {
    return std::string(std::get<0>(info.param) ? "layernorm_" : "rmsnorm_") +
           fb::EnumNameDataType(std::get<1>(info.param)) +
           (std::get<2>(info.param) ? "_training_" : "_inference_") +
           cuda_kernels_test::epilogueName(std::get<3>(info.param));
}

class RowNorm : public testing::TestWithParam<RowCase> {};

TEST_P(RowNorm, MatchesReference) {
    SKIP_IF_NO_DEVICE();
    const auto [layernorm, type, training, epilogue] = GetParam();
    for (const int64_t columns : {64, 1000, 4096}) {
        SCOPED_TRACE("columns " + std::to_string(columns));
        expectMatchesReference(
            cuda_kernels_test::rowNormGraph(layernorm, type, 37, columns, training, true, epilogue),
            rowNormOptions(layernorm, columns));
    }
}

TEST_P(RowNorm, OddColumnsAndMisalignedPointers) {
    SKIP_IF_NO_DEVICE();
    const auto [layernorm, type, training, epilogue] = GetParam();
    expectMatchesReference(
        cuda_kernels_test::rowNormGraph(layernorm, type, 5, 333, training, false, epilogue),
        rowNormOptions(layernorm, 333));
    RunOptions misaligned = rowNormOptions(layernorm, 512);
    misaligned.misalign = true;
    expectMatchesReference(cuda_kernels_test::rowNormGraph(layernorm, type, 9, 512, training, true, epilogue),
                           misaligned);
}

INSTANTIATE_TEST_SUITE_P(Smoke, RowNorm,
                         testing::Combine(testing::Bool(), kTypes, testing::Bool(), kEpilogues), rowCaseName);

using RmsNormBackwardCase = std::tuple<fb::DataType, bool>;  // type, dbias

class RmsNormBackward : public testing::TestWithParam<RmsNormBackwardCase> {};

// 20000 rows of 64 columns: eight rows per block, more row groups than resident blocks, so each
// block's column sums cover several groups.
TEST_P(RmsNormBackward, MatchesReference) {
    SKIP_IF_NO_DEVICE();
    const auto [type, dbias] = GetParam();
    const std::vector<std::pair<int64_t, int64_t>> shapes = {{37, 64}, {37, 1000}, {37, 4096}, {20000, 64}};
    for (const auto& [rows, columns] : shapes) {
        SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(columns));
        expectMatchesReference(cuda_kernels_test::rmsnormBackwardGraph(type, rows, columns, dbias),
                               rmsnormBackwardOptions(rows, columns));
    }
}

TEST_P(RmsNormBackward, OddColumnsAndMisalignedPointers) {
    SKIP_IF_NO_DEVICE();
    const auto [type, dbias] = GetParam();
    expectMatchesReference(cuda_kernels_test::rmsnormBackwardGraph(type, 5, 333, dbias),
                           rmsnormBackwardOptions(5, 333));
    RunOptions misaligned = rmsnormBackwardOptions(9, 512);
    misaligned.misalign = true;
    expectMatchesReference(cuda_kernels_test::rmsnormBackwardGraph(type, 9, 512, dbias), misaligned);
}

INSTANTIATE_TEST_SUITE_P(Smoke, RmsNormBackward, testing::Combine(kTypes, testing::Bool()),
                         [](const auto& info) {
                             return std::string(fb::EnumNameDataType(std::get<0>(info.param))) +
                                    (std::get<1>(info.param) ? "_dbias" : "");
                         });

class LayernormBackward : public testing::TestWithParam<fb::DataType> {};

// 20000 rows of 64 columns: eight rows per block, more row groups than resident blocks, so each
// block's column sums cover several groups; (N, C, H, W) normalizes C * H * W.
TEST_P(LayernormBackward, MatchesReference) {
    SKIP_IF_NO_DEVICE();
    const std::vector<std::vector<int64_t>> shapes = {{37, 64},    {37, 1000},     {37, 4096},
                                                      {20000, 64}, {6, 8, 14, 14}, {5, 333}};
    for (const auto& dims : shapes) {
        SCOPED_TRACE(hipdnn_data_sdk::utilities::formatDims(dims));
        expectMatchesReference(cuda_kernels_test::layernormBackwardGraph(GetParam(), dims),
                               layernormBackwardOptions(dims));
    }
}

TEST_P(LayernormBackward, MisalignedPointers) {
    SKIP_IF_NO_DEVICE();
    RunOptions misaligned = layernormBackwardOptions({9, 512});
    misaligned.misalign = true;
    expectMatchesReference(cuda_kernels_test::layernormBackwardGraph(GetParam(), {9, 512}), misaligned);
}

INSTANTIATE_TEST_SUITE_P(Smoke, LayernormBackward, kTypes,
                         [](const auto& info) { return std::string(fb::EnumNameDataType(info.param)); });

using BatchnormCase = std::tuple<BatchnormMode, fb::DataType, bool, Epilogue>;  // mode, type, NHWC, epilogue

std::string batchnormCaseName(const testing::TestParamInfo<BatchnormCase>& info) {
    return cuda_kernels_test::batchnormModeName(std::get<0>(info.param)) + "_" +
           fb::EnumNameDataType(std::get<1>(info.param)) + (std::get<2>(info.param) ? "_nhwc_" : "_nchw_") +
           cuda_kernels_test::epilogueName(std::get<3>(info.param));
}

class Batchnorm : public testing::TestWithParam<BatchnormCase> {};

TEST_P(Batchnorm, MatchesReference) {
    SKIP_IF_NO_DEVICE();
    const auto [mode, type, channelsLast, epilogue] = GetParam();
    for (const std::vector<int64_t>& dims :
         {std::vector<int64_t>{2, 32, 7, 8}, std::vector<int64_t>{3, 5, 3, 3}}) {
        SCOPED_TRACE("dims " + std::to_string(dims[0]) + "x" + std::to_string(dims[1]));
        expectMatchesReference(cuda_kernels_test::batchnormGraph(mode, type, dims, channelsLast, epilogue),
                               batchnormOptions(mode, dims));
    }
}

TEST_P(Batchnorm, MisalignedPointers) {
    SKIP_IF_NO_DEVICE();
    const auto [mode, type, channelsLast, epilogue] = GetParam();
    const std::vector<int64_t> dims = {2, 16, 4, 4};
    RunOptions options = batchnormOptions(mode, dims);
    options.misalign = true;
    expectMatchesReference(cuda_kernels_test::batchnormGraph(mode, type, dims, channelsLast, epilogue),
                           options);
}

INSTANTIATE_TEST_SUITE_P(
    Smoke, Batchnorm,
    testing::Combine(testing::Values(BatchnormMode::Inference, BatchnormMode::InferenceVariance,
                                     BatchnormMode::Training, BatchnormMode::TrainingRunningStats),
                     kTypes, testing::Bool(), kEpilogues),
    batchnormCaseName);

INSTANTIATE_TEST_SUITE_P(SmokeBackward, Batchnorm,
                         testing::Combine(testing::Values(BatchnormMode::Backward), kTypes, testing::Bool(),
                                          testing::Values(Epilogue::None)),
                         batchnormCaseName);

// Row norms, batch norm training and RMS norm backward (the kinds with a workspace or several
// kernels) rebuilt from their serialized plans.
TEST(SmokeNormSerialization, SerializedPlansReloadAndRunBitIdentically) {
    SKIP_IF_NO_DEVICE();
    RunOptions rows = rowNormOptions(true, 1000);
    rows.roundTripSerialization = true;
    expectMatchesReference(
        cuda_kernels_test::rowNormGraph(true, fb::DataType::BFLOAT16, 37, 1000, true, true), rows);
    const std::vector<int64_t> dims{4, 16, 5, 5};
    RunOptions training = batchnormOptions(BatchnormMode::Training, dims);
    training.roundTripSerialization = true;
    expectMatchesReference(
        cuda_kernels_test::batchnormGraph(BatchnormMode::Training, fb::DataType::HALF, dims, true), training);
    RunOptions backward = rmsnormBackwardOptions(64, 1000);
    backward.roundTripSerialization = true;
    expectMatchesReference(cuda_kernels_test::rmsnormBackwardGraph(fb::DataType::BFLOAT16, 64, 1000, true),
                           backward);
}

TEST(SmokeBatchnormTraining, LargeMeansDoNotCancelTheVariance) {
    SKIP_IF_NO_DEVICE();
    for (const bool channelsLast : {true, false}) {
        const std::vector<int64_t> dims = {8, 16, 12, 12};
        RunOptions options = batchnormOptions(BatchnormMode::TrainingRunningStats, dims);
        options.ranges[1] = {100.0, 101.0};  // x: mean 100.5, standard deviation 0.29
        expectMatchesReference(cuda_kernels_test::batchnormGraph(BatchnormMode::TrainingRunningStats,
                                                                 fb::DataType::FLOAT, dims, channelsLast),
                               options);
    }
}

class FullNorm : public testing::TestWithParam<fb::DataType> {};

TEST_P(FullNorm, LlmRows) {
    SKIP_IF_NO_DEVICE();
    for (const bool layernorm : {true, false}) {
        expectMatchesReference(cuda_kernels_test::rowNormGraph(layernorm, GetParam(), 2048, 4096, true, true),
                               rowNormOptions(layernorm, 4096));
        expectMatchesReference(cuda_kernels_test::rowNormGraph(layernorm, GetParam(), 8192, 1024, false,
                                                               false, Epilogue::AddRelu),
                               rowNormOptions(layernorm, 1024));
    }
}

TEST_P(FullNorm, LlmRmsNormBackward) {
    SKIP_IF_NO_DEVICE();
    expectMatchesReference(cuda_kernels_test::rmsnormBackwardGraph(GetParam(), 4096, 4096, true),
                           rmsnormBackwardOptions(4096, 4096));
}

TEST_P(FullNorm, LlmLayernormBackward) {
    SKIP_IF_NO_DEVICE();
    for (const std::vector<int64_t>& dims :
         {std::vector<int64_t>{4096, 4096}, std::vector<int64_t>{64, 16, 28, 28}}) {
        expectMatchesReference(cuda_kernels_test::layernormBackwardGraph(GetParam(), dims),
                               layernormBackwardOptions(dims));
    }
}

TEST_P(FullNorm, ResnetBatchnorm) {
    SKIP_IF_NO_DEVICE();
    const std::vector<int64_t> dims = {16, 256, 28, 28};
    for (const bool channelsLast : {true, false}) {
        for (const BatchnormMode mode : {BatchnormMode::Inference, BatchnormMode::TrainingRunningStats}) {
            expectMatchesReference(
                cuda_kernels_test::batchnormGraph(mode, GetParam(), dims, channelsLast, Epilogue::Relu),
                batchnormOptions(mode, dims));
        }
        expectMatchesReference(
            cuda_kernels_test::batchnormGraph(BatchnormMode::Backward, GetParam(), dims, channelsLast),
            batchnormOptions(BatchnormMode::Backward, dims));
    }
}

INSTANTIATE_TEST_SUITE_P(Full, FullNorm, kTypes,
                         [](const auto& info) { return std::string(fb::EnumNameDataType(info.param)); });

}  // namespace
}  // namespace cuda_kernels_integration
