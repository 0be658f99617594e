// CUDA_NORM_ENGINE against the CPU reference: layer norm and RMS norm (inference and training,
// with and without bias), RMS norm backward (with and without dbias), layer norm backward (rows
// and (N, C, H, W)), batch norm inference (from inv_variance
// or variance), training (with and without running statistics) and backward, NCHW and NHWC, fp32/fp16/bf16,
// each alone and with a fused relu or residual add + relu; odd sizes, misaligned pointers and large means;
// batch norm training on random shapes and on more rows than the cooperative kernel keeps on chip;
// synchronized batch norm (peer_stats) over a group of one GPU and, where the host has them, two.
#include "../tests/NormGraphs.hpp"
#include "EngineHarness.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/BackendRun.hpp>
#include <hipdnn_test_sdk/DeviceTensor.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <cuda_runtime_api.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>
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

// Shapes no one picked: a fixed seed draws batch, channels (up to 512, odd ones included), height
// and width, the element type, the layout, running statistics or not and the epilogue. Channels
// last, training runs as one cooperative kernel whose blocks each take a range of rows, so the
// row counts here leave blocks with no rows, one row, or a part of an iteration.
TEST(SmokeBatchnormTraining, RandomShapesMatchReference) {
    SKIP_IF_NO_DEVICE();
    std::mt19937 random(20261207);
    const auto draw = [&](int64_t low, int64_t high) {
        return std::uniform_int_distribution<int64_t>(low, high)(random);
    };
    const fb::DataType types[] = {fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16};
    const Epilogue epilogues[] = {Epilogue::None, Epilogue::Relu, Epilogue::AddRelu};
    for (int trial = 0; trial < 16; ++trial) {
        const int64_t channels = draw(0, 1) == 0 ? draw(1, 40) : 8 * draw(1, 64);
        const std::vector<int64_t> dims = {draw(1, 9), channels, draw(1, 23), draw(1, 23)};
        const fb::DataType type = types[draw(0, 2)];
        const BatchnormMode mode =
            draw(0, 1) == 0 ? BatchnormMode::Training : BatchnormMode::TrainingRunningStats;
        const bool channelsLast = draw(0, 3) != 0;
        const Epilogue epilogue = epilogues[draw(0, 2)];
        SCOPED_TRACE(std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]) +
                     "x" + std::to_string(dims[3]) + " " + fb::EnumNameDataType(type) + " " +
                     cuda_kernels_test::batchnormModeName(mode) + (channelsLast ? " NHWC " : " NCHW ") +
                     cuda_kernels_test::epilogueName(epilogue));
        expectMatchesReference(cuda_kernels_test::batchnormGraph(mode, type, dims, channelsLast, epilogue),
                               batchnormOptions(mode, dims));
    }
}

// Each value of the cuda_norm.bn_training_kernel knob, on more rows than half the shared memory
// keeps and with an epilogue reading a residual.
TEST(SmokeBatchnormTraining, EveryTrainingKernelMatchesReference) {
    SKIP_IF_NO_DEVICE();
    const std::vector<int64_t> dims = {64, 64, 48, 48};  // 1118 rows a block on 132 multiprocessors
    for (int64_t kernel = 0; kernel <= 3; ++kernel) {
        SCOPED_TRACE("cuda_norm.bn_training_kernel " + std::to_string(kernel));
        RunOptions options = batchnormOptions(BatchnormMode::TrainingRunningStats, dims);
        options.knobs = {{"cuda_norm.bn_training_kernel", kernel}};
        expectMatchesReference(
            cuda_kernels_test::batchnormGraph(BatchnormMode::TrainingRunningStats, fb::DataType::BFLOAT16,
                                              dims, true, Epilogue::AddRelu),
            options);
    }
}

using SynchronizedCase = std::tuple<BatchnormMode, fb::DataType, bool>;  // mode, type, NHWC

class SynchronizedBatchnorm : public testing::TestWithParam<SynchronizedCase> {};

// A group of one GPU: the per-channel moments go through the workspace as doubles and NCCL's sum
// over one rank, and the results equal batch norm's.
TEST_P(SynchronizedBatchnorm, OneGpuGroupMatchesBatchnorm) {
    SKIP_IF_NO_DEVICE();
    const auto [mode, type, channelsLast] = GetParam();
    const std::vector<int64_t> dims{4, 40, 7, 9};
    const auto local = cuda_kernels_test::batchnormGraph(mode, type, dims, channelsLast);
    RunOptions options = batchnormOptions(mode, dims);
    options.referenceGraph = &local;
    options.communicator = true;
    expectMatchesReference(
        cuda_kernels_test::batchnormGraph(mode, type, dims, channelsLast, Epilogue::None, 1), options);
}

INSTANTIATE_TEST_SUITE_P(Smoke, SynchronizedBatchnorm,
                         testing::Combine(testing::Values(BatchnormMode::TrainingRunningStats,
                                                          BatchnormMode::Backward),
                                          kTypes, testing::Bool()),
                         [](const testing::TestParamInfo<SynchronizedCase>& info) {
                             return cuda_kernels_test::batchnormModeName(std::get<0>(info.param)) + "_" +
                                    fb::EnumNameDataType(std::get<1>(info.param)) +
                                    (std::get<2>(info.param) ? "_nhwc" : "_nchw");
                         });

// Σx and Σx² around zero in double, after each GPU's shifted float sums.
TEST(SmokeSynchronizedBatchnorm, LargeMeansDoNotCancelTheVariance) {
    SKIP_IF_NO_DEVICE();
    const std::vector<int64_t> dims = {8, 16, 12, 12};
    const auto local = cuda_kernels_test::batchnormGraph(BatchnormMode::TrainingRunningStats,
                                                         fb::DataType::FLOAT, dims, true);
    RunOptions options = batchnormOptions(BatchnormMode::TrainingRunningStats, dims);
    options.ranges[1] = {100.0, 101.0};
    options.referenceGraph = &local;
    options.communicator = true;
    expectMatchesReference(
        cuda_kernels_test::batchnormGraph(BatchnormMode::TrainingRunningStats, fb::DataType::FLOAT, dims,
                                          true, Epilogue::None, 1),
        options);
}

std::string planFailure(hipdnnHandle_t handle, const hipdnn_test_sdk::GraphBuilder& builder) {
    try {
        const hipdnn_test_sdk::BackendPlan plan(hipdnn_test_sdk::BackendGraph(handle, builder.build()),
                                                hipdnn_data_sdk::utilities::CUDA_NORM_ENGINE_ID);
    } catch (const hipdnn_test_sdk::BackendError& error) {
        return error.what();
    }
    return "";
}

TEST(SmokeSynchronizedBatchnorm, NeedsACommunicatorWithOneRankPerPeer) {
    SKIP_IF_NO_DEVICE();
    useThisPluginAndTheReference();
    const hipdnn_test_sdk::BackendHandle handle(HIPDNN_DEVICE_TYPE_GPU_EXT, 0);
    const std::vector<int64_t> dims = {2, 8, 3, 3};
    for (const BatchnormMode mode : {BatchnormMode::Training, BatchnormMode::Backward}) {
        EXPECT_THAT(planFailure(handle.get(), cuda_kernels_test::batchnormGraph(
                                                  mode, fb::DataType::FLOAT, dims, true, Epilogue::None, 1)),
                    testing::HasSubstr(
                        "1 peer_stats tensors, which need an NCCL communicator on the handle "
                        "(hipdnnSetCommunicator_ext or hipdnnCreateCommunicators_ext); none is attached"));
    }
    const hipdnnHandle_t group[] = {handle.get()};
    hipdnn_test_sdk::checkBackend(hipdnnCreateCommunicators_ext(1, group), "hipdnnCreateCommunicators_ext");
    EXPECT_THAT(
        planFailure(handle.get(),
                    cuda_kernels_test::batchnormGraph(BatchnormMode::Training, fb::DataType::FLOAT, dims,
                                                      true, Epilogue::None, 2)),
        testing::HasSubstr("the node has 2 peer_stats tensors (one per GPU of the group), but the handle's "
                           "communicator has 1 ranks"));
    EXPECT_EQ(planFailure(handle.get(),
                          cuda_kernels_test::batchnormGraph(BatchnormMode::Training, fb::DataType::FLOAT,
                                                            dims, true, Epilogue::None, 1)),
              "");
}

// What one GPU of a two-GPU group computes on its half of the batch.
struct HalfBatchRun {
    std::map<int64_t, std::vector<float>> outputs;
    std::string error;
};

// Runs `graph` (a half batch of N/2) on GPU `ordinal` through `handle`, its inputs the GPU's half
// of `full` (activations: the rows of batch index [ordinal·N/2, (ordinal + 1)·N/2)) or all of it
// (per-channel tensors); peer_stats buffers are zero.
HalfBatchRun runHalfBatch(int ordinal, hipdnnHandle_t handle, const std::vector<uint8_t>& graph,
                          const std::map<int64_t, std::vector<double>>& full) {
    HalfBatchRun run;
    try {
        hipdnn_test_sdk::checkCuda(cudaSetDevice(ordinal), "cudaSetDevice");
        const hipdnn_flatbuffers_sdk::GraphWrapper wrapper(graph.data(), graph.size());
        std::map<int64_t, hipdnn_test_sdk::DeviceBuffer> buffers;
        std::map<int64_t, void*> pointers;
        for (const auto* tensor : *wrapper.graph().tensors()) {
            if (tensor->virtual_() || tensor->value_type() != fb::TensorValue::NONE) {
                continue;
            }
            const int64_t count = hipdnn_data_sdk::utilities::elementCount(
                std::vector<int64_t>(tensor->dims()->begin(), tensor->dims()->end()));
            std::vector<float> host(static_cast<size_t>(count), 0.0F);
            if (const auto values = full.find(tensor->uid()); values != full.end()) {
                const bool activation = static_cast<int64_t>(values->second.size()) == 2 * count;
                const size_t first = activation ? static_cast<size_t>(ordinal * count) : 0;
                std::transform(values->second.begin() + static_cast<std::ptrdiff_t>(first),
                               values->second.begin() + static_cast<std::ptrdiff_t>(first + host.size()),
                               host.begin(), [](double v) { return static_cast<float>(v); });
            }
            auto& buffer =
                buffers.emplace(tensor->uid(), hipdnn_test_sdk::DeviceBuffer(host.size() * sizeof(float)))
                    .first->second;
            buffer.copyFromHost(host.data());
            pointers[tensor->uid()] = buffer.data();
        }
        const hipdnn_test_sdk::BackendPlan plan(hipdnn_test_sdk::BackendGraph(handle, graph),
                                                hipdnn_data_sdk::utilities::CUDA_NORM_ENGINE_ID);
        hipdnn_test_sdk::DeviceBuffer workspace(static_cast<size_t>(plan.workspaceSize()));
        plan.execute(hipdnn_test_sdk::BackendVariantPack(pointers, workspace.data()));
        hipdnn_test_sdk::checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        for (const int64_t uid : wrapper.outputUids()) {
            std::vector<float>& host = run.outputs[uid];
            host.resize(buffers.at(uid).size() / sizeof(float));
            buffers.at(uid).copyToHost(host.data());
        }
    } catch (const std::exception& error) {
        run.error = "GPU " + std::to_string(ordinal) + ": " + error.what();
    }
    return run;
}

// Two GPUs, half the batch each, one thread each: every output equals batch norm over the whole
// batch on one device (the CPU reference): the halves of y or dx, and the same statistics, running
// statistics, dscale and dbias on both.
TEST(SmokeSynchronizedBatchnorm, TwoGpusEqualBatchnormOverTheConcatenatedBatch) {
    SKIP_IF_NO_DEVICE();
    int gpus = 0;
    if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus < 2) {
        GTEST_SKIP() << "needs two GPUs; this host has " << gpus;
    }
    useThisPluginAndTheReference();
    const hipdnn_test_sdk::BackendHandle first(HIPDNN_DEVICE_TYPE_GPU_EXT, 0);
    const hipdnn_test_sdk::BackendHandle second(HIPDNN_DEVICE_TYPE_GPU_EXT, 1);
    const hipdnnHandle_t group[] = {first.get(), second.get()};
    hipdnn_test_sdk::checkBackend(hipdnnCreateCommunicators_ext(2, group), "hipdnnCreateCommunicators_ext");
    for (const bool channelsLast : {true, false}) {
        for (const BatchnormMode mode : {BatchnormMode::TrainingRunningStats, BatchnormMode::Backward}) {
            SCOPED_TRACE(cuda_kernels_test::batchnormModeName(mode) + (channelsLast ? " NHWC" : " NCHW"));
            const std::vector<int64_t> dims = {8, 24, 6, 10};
            const std::vector<int64_t> halfDims = {4, 24, 6, 10};
            const RunOptions options = batchnormOptions(mode, dims);
            const auto full = referenceTensors(
                cuda_kernels_test::batchnormGraph(mode, fb::DataType::FLOAT, dims, channelsLast), options);
            const std::vector<uint8_t> half =
                cuda_kernels_test::batchnormGraph(mode, fb::DataType::FLOAT, halfDims, channelsLast,
                                                  Epilogue::None, 2)
                    .build();
            HalfBatchRun runs[2];
            std::thread other([&] { runs[1] = runHalfBatch(1, second.get(), half, full); });
            runs[0] = runHalfBatch(0, first.get(), half, full);
            other.join();
            const auto tolerance = hipdnn_test_sdk::reductionTolerance(
                options.tolerance, fb::DataType::FLOAT, fb::DataType::FLOAT, options.reductionTerms, 1.0);
            for (int gpu = 0; gpu < 2; ++gpu) {
                ASSERT_EQ(runs[gpu].error, "");
                for (const auto& [uid, got] : runs[gpu].outputs) {
                    const std::vector<double>& want = full.at(uid);
                    const bool activation = want.size() == 2 * got.size();
                    const size_t offset = activation ? static_cast<size_t>(gpu) * got.size() : 0;
                    const std::vector<float> expected(
                        want.begin() + static_cast<std::ptrdiff_t>(offset),
                        want.begin() + static_cast<std::ptrdiff_t>(offset + got.size()));
                    const std::vector<int64_t> shape = {static_cast<int64_t>(got.size())};
                    const auto report =
                        hipdnn_test_sdk::allClose({fb::DataType::FLOAT, expected.data(), shape, {1}},
                                                  {fb::DataType::FLOAT, got.data(), shape, {1}}, tolerance);
                    EXPECT_TRUE(report.passed)
                        << "GPU " << gpu << " output uid " << uid << ": " << report.describe();
                }
            }
        }
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

// Channels-last training of more rows than the cooperative kernel's shared memory holds: each
// block reads the rest of its rows again after the statistics, last first.
TEST_P(FullNorm, BatchnormTrainingBeyondSharedMemory) {
    SKIP_IF_NO_DEVICE();
    const std::vector<int64_t> dims = {40, 256, 40, 40};
    expectMatchesReference(cuda_kernels_test::batchnormGraph(BatchnormMode::TrainingRunningStats, GetParam(),
                                                             dims, true, Epilogue::Relu),
                           batchnormOptions(BatchnormMode::TrainingRunningStats, dims));
}

INSTANTIATE_TEST_SUITE_P(Full, FullNorm, kTypes,
                         [](const auto& info) { return std::string(fb::EnumNameDataType(info.param)); });

}  // namespace
}  // namespace cuda_kernels_integration
