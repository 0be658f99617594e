// CUDA_NORM_ENGINE without a GPU: which graphs the analysis takes and why it declines the others,
// and every generated source — each norm and pooling mode, element type, layout and epilogue,
// vector and scalar — compiled with NVRTC for sm_90 and sm_75.
#include "NormGraphs.hpp"

#include <Nvrtc.hpp>
#include <norm/NormEngine.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <tuple>

namespace cuda_kernels_test {
namespace {

using hipdnn_cuda_kernels::DeviceInfo;
using hipdnn_cuda_kernels::NormKind;

hipdnn_flatbuffers_sdk::GraphWrapper wrapGraph(const hipdnn_test_sdk::GraphBuilder& builder,
                                               std::vector<uint8_t>& bytes) {
    bytes = builder.build();
    return {bytes.data(), bytes.size()};
}

DeviceInfo hopper(int computeCapability = 90) {
    DeviceInfo device;
    device.computeCapability = computeCapability;
    device.multiprocessorCount = 132;
    device.maxThreadsPerMultiprocessor = 2048;
    device.sharedMemoryPerBlockOptin = computeCapability >= 90 ? 232448 : 65536;
    device.cooperativeLaunch = true;
    return device;
}

std::string declineReason(const hipdnn_test_sdk::GraphBuilder& builder) {
    std::vector<uint8_t> bytes;
    std::string reason;
    EXPECT_FALSE(hipdnn_cuda_kernels::planNorm(wrapGraph(builder, bytes), hopper(), reason).has_value());
    return reason;
}

void expectCompiles(const hipdnn_test_sdk::GraphBuilder& builder, int computeCapability, bool scalar) {
    std::vector<uint8_t> bytes;
    const auto graph = wrapGraph(builder, bytes);
    std::string reason;
    const auto program = hipdnn_cuda_kernels::analyzeNormGraph(graph, reason);
    ASSERT_TRUE(program.has_value()) << reason;
    const auto source =
        hipdnn_cuda_kernels::generateNormSource(*program, hopper(computeCapability), scalar, reason);
    ASSERT_TRUE(source.has_value()) << reason;
    if (scalar) {
        EXPECT_EQ(source->vectorWidth, 1);
    }
    const hipdnn_cuda_kernels::Nvrtc* nvrtc = hipdnn_cuda_kernels::Nvrtc::instance(reason);
    ASSERT_NE(nvrtc, nullptr) << reason;
    const auto result = nvrtc->compileToCubin(source->source, "norm.cu", computeCapability);
    ASSERT_TRUE(result.succeeded()) << result.error << "\n" << source->source;
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(result.cubin.data()), 4),
              "\x7f"
              "ELF");
    EXPECT_EQ(source->launches.size(), source->kernelNames.size());
}

const fb::DataType kTypes[] = {fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16};
const Epilogue kEpilogues[] = {Epilogue::None, Epilogue::Relu, Epilogue::AddRelu};

using RowCase =
    std::tuple<bool, fb::DataType, bool, Epilogue, int64_t>;  // layernorm, type, training, epilogue, columns

class RowNormCompiles : public testing::TestWithParam<RowCase> {};

TEST_P(RowNormCompiles, VectorAndScalarForSm90AndSm75) {
    const auto [layernorm, type, training, epilogue, columns] = GetParam();
    const auto graph = rowNormGraph(layernorm, type, 7, columns, training, true, epilogue);
    expectCompiles(graph, 90, false);
    expectCompiles(graph, 90, true);
    expectCompiles(graph, 75, false);
}

INSTANTIATE_TEST_SUITE_P(Norms, RowNormCompiles,
                         testing::Combine(testing::Bool(), testing::ValuesIn(kTypes), testing::Bool(),
                                          testing::ValuesIn(kEpilogues), testing::Values(int64_t{1000})),
                         [](const auto& info) {
                             return std::string(std::get<0>(info.param) ? "layernorm_" : "rmsnorm_") +
                                    fb::EnumNameDataType(std::get<1>(info.param)) +
                                    (std::get<2>(info.param) ? "_training_" : "_inference_") +
                                    epilogueName(std::get<3>(info.param)) + "_" +
                                    std::to_string(std::get<4>(info.param));
                         });

using BatchnormCase =
    std::tuple<BatchnormMode, fb::DataType, bool, Epilogue>;  // mode, type, channels last, epilogue

class BatchnormCompiles : public testing::TestWithParam<BatchnormCase> {};

TEST_P(BatchnormCompiles, VectorAndScalarForSm90AndSm75) {
    const auto [mode, type, channelsLast, epilogue] = GetParam();
    const auto graph = batchnormGraph(mode, type, {2, 24, 5, 8}, channelsLast, epilogue);
    expectCompiles(graph, 90, false);
    expectCompiles(graph, 90, true);
    expectCompiles(graph, 75, false);
}

INSTANTIATE_TEST_SUITE_P(
    Modes, BatchnormCompiles,
    testing::Combine(testing::Values(BatchnormMode::Inference, BatchnormMode::InferenceVariance,
                                     BatchnormMode::Training, BatchnormMode::TrainingRunningStats),
                     testing::ValuesIn(kTypes), testing::Bool(), testing::ValuesIn(kEpilogues)),
    [](const auto& info) {
        return batchnormModeName(std::get<0>(info.param)) + "_" +
               fb::EnumNameDataType(std::get<1>(info.param)) +
               (std::get<2>(info.param) ? "_nhwc_" : "_nchw_") + epilogueName(std::get<3>(info.param));
    });

class BatchnormBackwardCompiles : public testing::TestWithParam<std::tuple<fb::DataType, bool>> {};

TEST_P(BatchnormBackwardCompiles, VectorAndScalarForSm90AndSm75) {
    const auto [type, channelsLast] = GetParam();
    const auto graph = batchnormGraph(BatchnormMode::Backward, type, {2, 24, 5, 8}, channelsLast);
    expectCompiles(graph, 90, false);
    expectCompiles(graph, 90, true);
    expectCompiles(graph, 75, false);
}

INSTANTIATE_TEST_SUITE_P(Types, BatchnormBackwardCompiles,
                         testing::Combine(testing::ValuesIn(kTypes), testing::Bool()), [](const auto& info) {
                             return std::string(fb::EnumNameDataType(std::get<0>(info.param))) +
                                    (std::get<1>(info.param) ? "_nhwc" : "_nchw");
                         });

class SynchronizedBatchnormCompiles
    : public testing::TestWithParam<std::tuple<BatchnormMode, fb::DataType, bool>> {};

TEST_P(SynchronizedBatchnormCompiles, VectorAndScalarForSm90AndSm75) {
    const auto [mode, type, channelsLast] = GetParam();
    const auto graph = batchnormGraph(mode, type, {2, 24, 5, 8}, channelsLast, Epilogue::None, 2);
    expectCompiles(graph, 90, false);
    expectCompiles(graph, 90, true);
    expectCompiles(graph, 75, false);
}

INSTANTIATE_TEST_SUITE_P(Modes, SynchronizedBatchnormCompiles,
                         testing::Combine(testing::Values(BatchnormMode::Training,
                                                          BatchnormMode::TrainingRunningStats,
                                                          BatchnormMode::Backward),
                                          testing::ValuesIn(kTypes), testing::Bool()),
                         [](const auto& info) {
                             return batchnormModeName(std::get<0>(info.param)) + "_" +
                                    fb::EnumNameDataType(std::get<1>(info.param)) +
                                    (std::get<2>(info.param) ? "_nhwc" : "_nchw");
                         });

// The moments go through the workspace as doubles: count, then two sums per channel, summed
// across GPUs between the moments kernel and the finalize; the local plan has no such step.
TEST(NormCodegen, SynchronizedBatchnormSumsMomentsAcrossGpusBetweenTwoKernels) {
    for (const BatchnormMode mode : {BatchnormMode::TrainingRunningStats, BatchnormMode::Backward}) {
        SCOPED_TRACE(batchnormModeName(mode));
        const std::vector<int64_t> dims = {64, 256, 56, 56};
        std::vector<uint8_t> localBytes;
        std::vector<uint8_t> syncBytes;
        std::string reason;
        const auto local = hipdnn_cuda_kernels::planNorm(
            wrapGraph(batchnormGraph(mode, fb::DataType::BFLOAT16, dims, true), localBytes), hopper(),
            reason);
        ASSERT_TRUE(local.has_value()) << reason;
        const auto synchronized = hipdnn_cuda_kernels::planNorm(
            wrapGraph(batchnormGraph(mode, fb::DataType::BFLOAT16, dims, true, Epilogue::None, 2), syncBytes),
            hopper(), reason);
        ASSERT_TRUE(synchronized.has_value()) << reason;
        EXPECT_EQ(local->program.peerCount, 0);
        EXPECT_FALSE(local->source.allReduce.has_value());
        EXPECT_EQ(synchronized->program.peerCount, 2);

        const auto& launches = synchronized->source.launches;
        ASSERT_EQ(launches.size(), 4U);
        EXPECT_EQ(launches[0].kernel, hipdnn_cuda_kernels::kBatchnormStatsKernel);
        EXPECT_EQ(launches[1].kernel, hipdnn_cuda_kernels::kBatchnormMomentsKernel);
        EXPECT_EQ(launches[2].kernel, hipdnn_cuda_kernels::kBatchnormFinalizeKernel);
        EXPECT_EQ(launches[3].kernel, hipdnn_cuda_kernels::kBatchnormApplyKernel);
        ASSERT_TRUE(synchronized->source.allReduce.has_value());
        EXPECT_EQ(synchronized->source.allReduce->afterLaunches, 2U);
        EXPECT_EQ(synchronized->source.allReduce->offsetBytes, 2 * 256 * sizeof(float));
        EXPECT_EQ(synchronized->source.allReduce->doubles, 3U * 256);
        EXPECT_EQ(synchronized->source.workspaceBytes,
                  (2 * synchronized->source.maxParts + 2) * 256 * sizeof(float) + 3 * 256 * sizeof(double));
        EXPECT_NE(synchronized->source.source.find("hdnn_moments[2 * kC + c]"), std::string::npos);
    }
}

using RmsNormBackwardCase = std::tuple<fb::DataType, bool, int64_t>;  // type, dbias, columns

class RmsNormBackwardCompiles : public testing::TestWithParam<RmsNormBackwardCase> {};

// 64 columns put eight rows in a block (their column sums combine in shared memory), 333 runs
// width 1, 16384 takes 1024 threads per row.
TEST_P(RmsNormBackwardCompiles, VectorAndScalarForSm90AndSm75) {
    const auto [type, dbias, columns] = GetParam();
    const auto graph = rmsnormBackwardGraph(type, 7, columns, dbias);
    expectCompiles(graph, 90, false);
    expectCompiles(graph, 90, true);
    expectCompiles(graph, 75, false);
}

INSTANTIATE_TEST_SUITE_P(Types, RmsNormBackwardCompiles,
                         testing::Combine(testing::ValuesIn(kTypes), testing::Bool(),
                                          testing::Values(int64_t{64}, int64_t{333}, int64_t{16384})),
                         [](const auto& info) {
                             return std::string(fb::EnumNameDataType(std::get<0>(info.param))) +
                                    (std::get<1>(info.param) ? "_dbias_" : "_") +
                                    std::to_string(std::get<2>(info.param));
                         });

TEST(NormProgram, RmsNormBackwardFactsFollowTheGraph) {
    std::vector<uint8_t> bytes;
    std::string reason;
    const auto program = hipdnn_cuda_kernels::analyzeNormGraph(
        wrapGraph(rmsnormBackwardGraph(fb::DataType::HALF, 16, 4096, true), bytes), reason);
    ASSERT_TRUE(program.has_value()) << reason;
    EXPECT_EQ(program->kind, NormKind::RmsNormBackward);
    EXPECT_TRUE(program->isRowNorm());
    EXPECT_FALSE(program->hasStatisticsPass());
    EXPECT_EQ(program->rows, 16);
    EXPECT_EQ(program->columns, 4096);
    EXPECT_TRUE(program->storesY);
    EXPECT_EQ(program->yType, hipdnn_cuda_kernels::ElementType::Half);
    EXPECT_FALSE(program->epilogue.has_value());
    std::vector<std::string> names;
    for (const auto& operand : program->operands) {
        names.push_back(operand.name + (operand.isOutput ? " out" : ""));
    }
    EXPECT_EQ(names,
              (std::vector<std::string>{"x", "y out", "dy", "scale", "inv_rms", "dscale out", "dbias out"}));
    EXPECT_EQ(program->operand("y")->uid, 20);
    EXPECT_EQ(program->operand("inv_rms")->stride, 1);
    EXPECT_EQ(program->operand("dscale")->type, hipdnn_cuda_kernels::ElementType::Float);
}

TEST(NormCodegen, RmsNormBackwardSumsColumnPartsInTheWorkspace) {
    std::vector<uint8_t> bytes;
    std::string reason;
    const auto plan = hipdnn_cuda_kernels::planNorm(
        wrapGraph(rmsnormBackwardGraph(fb::DataType::BFLOAT16, 4096, 4096, true), bytes), hopper(), reason);
    ASSERT_TRUE(plan.has_value()) << reason;
    const auto& source = plan->source;
    ASSERT_EQ(source.launches.size(), 2U);
    EXPECT_EQ(source.launches[0].kernel, hipdnn_cuda_kernels::kRowNormBackwardKernel);
    EXPECT_EQ(source.launches[0].grid, hipdnn_cuda_kernels::NormGrid::PerPart);
    EXPECT_EQ(source.launches[0].gridSize, 1U);
    EXPECT_EQ(source.launches[0].blockSize, 256U);  // 512 bf16 vectors, two per thread
    EXPECT_EQ(source.launches[1].kernel, hipdnn_cuda_kernels::kRowNormFinalizeKernel);
    EXPECT_EQ(source.launches[1].grid, hipdnn_cuda_kernels::NormGrid::Fixed);
    EXPECT_EQ(source.launches[1].gridSize, 4096U / 32);
    EXPECT_EQ(source.vectorWidth, 8);
    EXPECT_EQ(source.vectorOperands, (std::vector<std::string>{"x", "dy", "y", "scale"}));
    // At most eight blocks per multiprocessor, each one partial row of dscale and one of dbias.
    EXPECT_EQ(source.maxParts, 132U * 8);
    EXPECT_EQ(source.workspaceBytes, 2 * size_t{132 * 8} * 4096 * sizeof(float));
    EXPECT_NE(source.source.find("constexpr int kT = 256;"), std::string::npos);
    EXPECT_NE(source.source.find("constexpr int kV = 2;"), std::string::npos);
    EXPECT_NE(source.source.find("typedef unsigned int hdnn_index;"), std::string::npos);
    EXPECT_NE(source.source.find("dbias[c] = "), std::string::npos);

    // Without dbias: one partial row per block, no dbias terms. Eight rows of 64 columns share a
    // block, so 37 rows take at most five parts.
    const auto short_rows = hipdnn_cuda_kernels::planNorm(
        wrapGraph(rmsnormBackwardGraph(fb::DataType::FLOAT, 37, 64, false), bytes), hopper(), reason);
    ASSERT_TRUE(short_rows.has_value()) << reason;
    EXPECT_EQ(short_rows->source.maxParts, 5U);
    EXPECT_EQ(short_rows->source.workspaceBytes, size_t{5} * 64 * sizeof(float));
    EXPECT_NE(short_rows->source.source.find("constexpr int kR = 8;"), std::string::npos);
    EXPECT_EQ(short_rows->source.source.find("hdnn_dbias"), std::string::npos);
    EXPECT_EQ(short_rows->source.source.find("dbias[c]"), std::string::npos);
}

TEST(NormProgram, RmsNormBackwardDeclinesWithReasons) {
    const auto graph = [](const std::vector<int64_t>& dims, const std::vector<int64_t>& scaleDims,
                          bool dxVirtual, const std::vector<int64_t>& dyStrides) {
        hipdnn_test_sdk::GraphBuilder builder("rmsnorm_backward");
        std::vector<int64_t> statisticDims(dims.size(), 1);
        statisticDims[0] = dims[0];
        builder.addTensor(1, "x", fb::DataType::FLOAT, dims)
            .addTensor(14, "dy", fb::DataType::FLOAT, dims, dyStrides)
            .addTensor(2, "scale", fb::DataType::FLOAT, scaleDims)
            .addTensor(5, "inv_rms", fb::DataType::FLOAT, statisticDims)
            .addTensor(20, "dx", fb::DataType::FLOAT, dims, {}, dxVirtual)
            .addTensor(15, "dscale", fb::DataType::FLOAT, scaleDims)
            .addRmsNormBackward("rmsnorm_backward", 14, 1, 2, 5, 20, 15);
        return builder;
    };
    const std::vector<int64_t> rows = {4, 8};
    EXPECT_EQ(declineReason(graph(rows, {1, 8}, true, {})), "tensor uid 20 'dx' (dx) is virtual");
    EXPECT_EQ(declineReason(graph(rows, {1, 8}, false, {1, 4})),
              "tensor uid 14 'dy' (dy) has a layout other than x's");
    EXPECT_EQ(declineReason(graph({2, 4, 3, 3}, {1, 4, 1, 1}, false, {})),
              "tensor uid 2 'scale' has dims [1, 4, 1, 1]; the engine needs one row of x: [1, 4, 3, 3]");
    EXPECT_EQ(declineReason(rmsnormBackwardGraph(fb::DataType::BFLOAT16, 2, 40000, true)),
              "rows of 40000 elements are longer than the 32768 the engine keeps in registers");

    auto fused = rmsnormBackwardGraph(fb::DataType::FLOAT, 4, 8, false);
    fused.addTensor(31, "out", fb::DataType::FLOAT, {4, 8})
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 20, 31);
    EXPECT_EQ(declineReason(fused), "pointwise nodes after RMS norm backward are not fused");
}

class LayernormBackwardCompiles
    : public testing::TestWithParam<std::tuple<fb::DataType, std::vector<int64_t>>> {};

// 64 columns put eight rows in a block, 333 runs width 1, (N, C, H, W) normalizes C * H * W,
// 16384 takes 1024 threads per row.
TEST_P(LayernormBackwardCompiles, VectorAndScalarForSm90AndSm75) {
    const auto& [type, dims] = GetParam();
    const auto graph = layernormBackwardGraph(type, dims);
    expectCompiles(graph, 90, false);
    expectCompiles(graph, 90, true);
    expectCompiles(graph, 75, false);
}

INSTANTIATE_TEST_SUITE_P(
    Types, LayernormBackwardCompiles,
    testing::Combine(testing::ValuesIn(kTypes),
                     testing::Values(std::vector<int64_t>{7, 64}, std::vector<int64_t>{7, 333},
                                     std::vector<int64_t>{4, 8, 6, 10}, std::vector<int64_t>{3, 16384})),
    [](const auto& info) {
        std::string name = fb::EnumNameDataType(std::get<0>(info.param));
        for (const int64_t dim : std::get<1>(info.param)) {
            name.append(1, '_').append(std::to_string(dim));
        }
        return name;
    });

TEST(NormProgram, LayernormBackwardFactsFollowTheGraph) {
    std::vector<uint8_t> bytes;
    std::string reason;
    const auto program = hipdnn_cuda_kernels::analyzeNormGraph(
        wrapGraph(layernormBackwardGraph(fb::DataType::HALF, {16, 8, 4, 4}), bytes), reason);
    ASSERT_TRUE(program.has_value()) << reason;
    EXPECT_EQ(program->kind, NormKind::LayernormBackward);
    EXPECT_TRUE(program->isRowNorm());
    EXPECT_TRUE(program->isRowNormBackward());
    EXPECT_EQ(program->rows, 16);
    EXPECT_EQ(program->columns, 128);
    EXPECT_EQ(program->yType, hipdnn_cuda_kernels::ElementType::Half);
    std::vector<std::string> names;
    for (const auto& operand : program->operands) {
        names.push_back(operand.name + (operand.isOutput ? " out" : ""));
    }
    EXPECT_EQ(names, (std::vector<std::string>{"x", "y out", "dy", "scale", "mean", "inv_variance",
                                               "dscale out", "dbias out"}));
    EXPECT_EQ(program->operand("mean")->stride, 1);
    EXPECT_EQ(program->operand("inv_variance")->stride, 1);
}

TEST(NormCodegen, LayernormBackwardReadsEachRowOnceAndSumsColumnParts) {
    std::vector<uint8_t> bytes;
    std::string reason;
    const auto plan = hipdnn_cuda_kernels::planNorm(
        wrapGraph(layernormBackwardGraph(fb::DataType::BFLOAT16, {4096, 4096}), bytes), hopper(), reason);
    ASSERT_TRUE(plan.has_value()) << reason;
    const auto& source = plan->source;
    ASSERT_EQ(source.launches.size(), 2U);
    EXPECT_EQ(source.launches[0].kernel, hipdnn_cuda_kernels::kRowNormBackwardKernel);
    EXPECT_EQ(source.launches[0].grid, hipdnn_cuda_kernels::NormGrid::PerPart);
    EXPECT_EQ(source.launches[1].kernel, hipdnn_cuda_kernels::kRowNormFinalizeKernel);
    EXPECT_EQ(source.launches[1].gridSize, 4096U / 32);
    EXPECT_EQ(source.vectorWidth, 8);
    EXPECT_EQ(source.vectorOperands, (std::vector<std::string>{"x", "dy", "y", "scale"}));
    // dscale and dbias: one partial row each per block, at most eight blocks per multiprocessor.
    EXPECT_EQ(source.maxParts, 132U * 8);
    EXPECT_EQ(source.workspaceBytes, 2 * size_t{132 * 8} * 4096 * sizeof(float));
    EXPECT_NE(source.source.find("layer norm backward kernels"), std::string::npos);
    EXPECT_NE(source.source.find("hdnn_gradient_mean"), std::string::npos);
    EXPECT_NE(source.source.find("dscale[c] = "), std::string::npos);
    EXPECT_NE(source.source.find("dbias[c] = "), std::string::npos);
    // x and dy are loaded once per row, dx stored once.
    const auto count = [&](const std::string& needle) {
        size_t found = 0;
        for (size_t at = source.source.find(needle); at != std::string::npos;
             at = source.source.find(needle, at + 1)) {
            ++found;
        }
        return found;
    };
    EXPECT_EQ(count("(x, row * kCols"), 1U);
    EXPECT_EQ(count("(dy, row * kCols"), 1U);
    EXPECT_EQ(count("(y, row * kCols"), 1U);
}

TEST(NormProgram, LayernormBackwardDeclinesWithReasons) {
    auto fused = layernormBackwardGraph(fb::DataType::FLOAT, {4, 8});
    fused.addTensor(31, "out", fb::DataType::FLOAT, {4, 8})
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 20, 31);
    EXPECT_EQ(declineReason(fused), "pointwise nodes after layer norm backward are not fused");
    EXPECT_EQ(declineReason(layernormBackwardGraph(fb::DataType::BFLOAT16, {2, 40000})),
              "rows of 40000 elements are longer than the 32768 the engine keeps in registers");
}

TEST(NormProgram, RowNormFactsFollowTheGraph) {
    std::vector<uint8_t> bytes;
    std::string reason;
    const auto program = hipdnn_cuda_kernels::analyzeNormGraph(
        wrapGraph(rowNormGraph(true, fb::DataType::BFLOAT16, 16, 4096, true, true, Epilogue::AddRelu), bytes),
        reason);
    ASSERT_TRUE(program.has_value()) << reason;
    EXPECT_EQ(program->kind, NormKind::Layernorm);
    EXPECT_EQ(program->rows, 16);
    EXPECT_EQ(program->columns, 4096);
    EXPECT_FALSE(program->storesY);
    ASSERT_TRUE(program->epilogue.has_value());
    EXPECT_EQ(program->epilogue->steps.size(), 2U);
    EXPECT_EQ(program->epilogueArguments.size(), 2U);  // the residual and the output
    ASSERT_NE(program->operand("mean"), nullptr);
    EXPECT_EQ(program->operand("mean")->stride, 1);
    EXPECT_TRUE(program->epsilon.constant.has_value());
    EXPECT_FLOAT_EQ(static_cast<float>(*program->epsilon.constant), 1e-5F);
}

TEST(NormProgram, BatchnormChannelFactsFollowTheLayout) {
    std::vector<uint8_t> bytes;
    std::string reason;
    const auto nhwc = hipdnn_cuda_kernels::analyzeNormGraph(
        wrapGraph(batchnormGraph(BatchnormMode::Training, fb::DataType::HALF, {2, 24, 5, 8}, true), bytes),
        reason);
    ASSERT_TRUE(nhwc.has_value()) << reason;
    EXPECT_EQ(nhwc->channels, 24);
    EXPECT_EQ(nhwc->channelStride, 1);
    const auto nchw = hipdnn_cuda_kernels::analyzeNormGraph(
        wrapGraph(batchnormGraph(BatchnormMode::Training, fb::DataType::HALF, {2, 24, 5, 8}, false), bytes),
        reason);
    ASSERT_TRUE(nchw.has_value()) << reason;
    EXPECT_EQ(nchw->channelStride, 40);
}

// NCHW training, and training on a device without cooperative launches, run three kernels: the
// statistics parts, the finalize and the apply pass.
TEST(NormCodegen, TrainingNeedsWorkspaceForPartialSums) {
    DeviceInfo noCooperativeLaunch = hopper();
    noCooperativeLaunch.cooperativeLaunch = false;
    for (const auto& [channelsLast, device] :
         {std::pair{false, hopper()}, std::pair{true, noCooperativeLaunch}}) {
        std::vector<uint8_t> bytes;
        std::string reason;
        const auto plan = hipdnn_cuda_kernels::planNorm(
            wrapGraph(batchnormGraph(BatchnormMode::Training, fb::DataType::BFLOAT16, {64, 256, 56, 56},
                                     channelsLast),
                      bytes),
            device, reason);
        ASSERT_TRUE(plan.has_value()) << reason;
        ASSERT_EQ(plan->source.launches.size(), 3U);
        EXPECT_EQ(plan->source.launches[0].kernel, hipdnn_cuda_kernels::kBatchnormStatsKernel);
        EXPECT_EQ(plan->source.launches[2].kernel, hipdnn_cuda_kernels::kBatchnormApplyKernel);
        EXPECT_FALSE(plan->source.zeroed.has_value());
        EXPECT_GT(plan->source.workspaceBytes, 2 * 256 * sizeof(float));
        EXPECT_EQ(plan->source.vectorWidth, 8);  // 16-byte accesses of bf16
    }
}

// Channels-last training is one cooperative launch of a block per multiprocessor, keeping as many
// 8 KiB iterations of x (512 threads, 16 bytes each) as the shared memory holds; the workspace
// holds the coefficients, each block's two sums per channel and the barrier's counter, zeroed
// before the launch.
TEST(NormCodegen, ChannelsLastTrainingIsOneCooperativeKernel) {
    std::vector<uint8_t> bytes;
    std::string reason;
    const auto plan = hipdnn_cuda_kernels::planNorm(
        wrapGraph(batchnormGraph(BatchnormMode::TrainingRunningStats, fb::DataType::BFLOAT16,
                                 {64, 256, 56, 56}, true),
                  bytes),
        hopper(), reason);
    ASSERT_TRUE(plan.has_value()) << reason;
    ASSERT_EQ(plan->source.launches.size(), 1U);
    const auto& launch = plan->source.launches[0];
    EXPECT_EQ(launch.kernel, hipdnn_cuda_kernels::kBatchnormPersistentKernel);
    EXPECT_TRUE(launch.cooperative);
    EXPECT_EQ(launch.gridSize, 132U);
    EXPECT_EQ(launch.blockSize, 512U);
    // 64·56·56 rows over 132 blocks: 1521 rows, 96 iterations of 16 rows; 26 fit beside the
    // 16 KiB of per-row sums.
    EXPECT_EQ(launch.sharedBytes, 26U * 8192);
    const size_t counter = (2 + 2 * 132) * 256 * sizeof(float);
    ASSERT_TRUE(plan->source.zeroed.has_value());
    EXPECT_EQ(plan->source.zeroed->offsetBytes, counter);
    EXPECT_EQ(plan->source.zeroed->bytes, sizeof(unsigned));
    EXPECT_EQ(plan->source.workspaceBytes, counter + sizeof(unsigned));
    EXPECT_NE(plan->source.source.find("hdnn_grid_barrier(hdnn_counter, 2)"), std::string::npos);
}

// The training-kernel knob: how much of x the cooperative kernel keeps, or the three kernels.
TEST(NormCodegen, TrainingKernelOptionsChooseTheKernels) {
    using hipdnn_cuda_kernels::TrainingKernel;
    std::vector<uint8_t> bytes;
    const auto graph = wrapGraph(
        batchnormGraph(BatchnormMode::TrainingRunningStats, fb::DataType::BFLOAT16, {64, 256, 56, 56}, true),
        bytes);
    const std::pair<TrainingKernel, unsigned> keptBytes[] = {{TrainingKernel::KeepAll, 26U * 8192},
                                                             {TrainingKernel::KeepHalf, 14U * 8192},
                                                             {TrainingKernel::KeepNone, 0U}};
    for (const auto& [kernel, kept] : keptBytes) {
        SCOPED_TRACE(static_cast<int>(kernel));
        std::string reason;
        const auto plan = hipdnn_cuda_kernels::planNorm(graph, hopper(), reason, {kernel});
        ASSERT_TRUE(plan.has_value()) << reason;
        ASSERT_EQ(plan->source.launches.size(), 1U);
        EXPECT_TRUE(plan->source.launches[0].cooperative);
        EXPECT_EQ(plan->source.launches[0].sharedBytes, kept);
        EXPECT_EQ(plan->options.trainingKernel, kernel);
    }
    std::string reason;
    const auto three = hipdnn_cuda_kernels::planNorm(graph, hopper(), reason, {TrainingKernel::ThreeKernels});
    ASSERT_TRUE(three.has_value()) << reason;
    ASSERT_EQ(three->source.launches.size(), 3U);
    EXPECT_EQ(three->source.launches[0].kernel, hipdnn_cuda_kernels::kBatchnormStatsKernel);
    EXPECT_FALSE(three->source.zeroed.has_value());
}

// Every training kernel compiles, with and without an epilogue, for sm_90 and sm_75.
TEST(NormCodegen, EveryTrainingKernelCompiles) {
    using hipdnn_cuda_kernels::TrainingKernel;
    std::string reason;
    const hipdnn_cuda_kernels::Nvrtc* nvrtc = hipdnn_cuda_kernels::Nvrtc::instance(reason);
    ASSERT_NE(nvrtc, nullptr) << reason;
    for (const Epilogue epilogue : {Epilogue::None, Epilogue::AddRelu}) {
        std::vector<uint8_t> bytes;
        const auto graph = wrapGraph(
            batchnormGraph(BatchnormMode::Training, fb::DataType::HALF, {8, 40, 30, 30}, true, epilogue),
            bytes);
        const auto program = hipdnn_cuda_kernels::analyzeNormGraph(graph, reason);
        ASSERT_TRUE(program.has_value()) << reason;
        for (const TrainingKernel kernel : {TrainingKernel::KeepAll, TrainingKernel::KeepHalf,
                                            TrainingKernel::KeepNone, TrainingKernel::ThreeKernels}) {
            for (const int computeCapability : {90, 75}) {
                SCOPED_TRACE(std::to_string(static_cast<int>(kernel)) + " sm_" +
                             std::to_string(computeCapability));
                const auto source = hipdnn_cuda_kernels::generateNormSource(
                    *program, hopper(computeCapability), false, reason, {kernel});
                ASSERT_TRUE(source.has_value()) << reason;
                const auto result = nvrtc->compileToCubin(source->source, "norm.cu", computeCapability);
                EXPECT_TRUE(result.succeeded()) << result.error;
            }
        }
    }
}

// A small problem keeps all of x in registers; rows past the last block's end are masked.
TEST(NormCodegen, PersistentTrainingKeepsSmallInputsWhole) {
    std::vector<uint8_t> bytes;
    std::string reason;
    const auto plan = hipdnn_cuda_kernels::planNorm(
        wrapGraph(batchnormGraph(BatchnormMode::Training, fb::DataType::FLOAT, {3, 24, 5, 7}, true), bytes),
        hopper(), reason);
    ASSERT_TRUE(plan.has_value()) << reason;
    ASSERT_EQ(plan->source.launches.size(), 1U);
    // 105 rows over 132 blocks: one row each, one iteration of 85 rows of 6 vectors.
    EXPECT_EQ(plan->source.launches[0].sharedBytes, 0U);
    EXPECT_NE(plan->source.source.find("constexpr int kHeld = 1;"), std::string::npos);
    EXPECT_NE(plan->source.source.find("constexpr int kKept = 0;"), std::string::npos);
}

// Keeping all of x holds its first 12 iterations of 16-byte vectors in registers, then as many as
// the shared memory holds; the other knob values keep none in registers.
TEST(NormCodegen, PersistentTrainingHoldsIterationsInRegisters) {
    using hipdnn_cuda_kernels::TrainingKernel;
    std::vector<uint8_t> bytes;
    const auto graph = wrapGraph(
        batchnormGraph(BatchnormMode::Training, fb::DataType::BFLOAT16, {64, 256, 56, 56}, true), bytes);
    const std::tuple<TrainingKernel, int, int> expected[] = {{TrainingKernel::KeepAll, 12, 26},
                                                             {TrainingKernel::KeepHalf, 0, 14},
                                                             {TrainingKernel::KeepNone, 0, 0}};
    for (const auto& [kernel, held, kept] : expected) {
        SCOPED_TRACE(static_cast<int>(kernel));
        std::string reason;
        const auto plan = hipdnn_cuda_kernels::planNorm(graph, hopper(), reason, {kernel});
        ASSERT_TRUE(plan.has_value()) << reason;
        const std::string& source = plan->source.source;
        EXPECT_NE(source.find("constexpr int kHeld = " + std::to_string(held) + ";"), std::string::npos);
        EXPECT_NE(source.find("constexpr int kKept = " + std::to_string(kept) + ";"), std::string::npos);
        // Kept rows and x's last reads are evict-first, y's stores too.
        EXPECT_NE(source.find("hdnn_read_vec<2, kW, 1>(x"), std::string::npos);
        EXPECT_NE(source.find("hdnn_store<2, kW, 1>(y"), std::string::npos);
    }
}

// A virtual y is in registers only: an fp32 y between bf16 x and a bf16 epilogue output leaves
// 16-byte vectors of eight elements.
TEST(NormCodegen, VirtualFloatYKeepsTheWidestVectorOfMemory) {
    std::vector<uint8_t> bytes;
    std::string reason;
    const auto plan = hipdnn_cuda_kernels::planNorm(
        wrapGraph(batchnormGraph(BatchnormMode::Training, fb::DataType::BFLOAT16, {64, 256, 56, 56}, true,
                                 Epilogue::Relu),
                  bytes),
        hopper(), reason);
    ASSERT_TRUE(plan.has_value()) << reason;
    EXPECT_EQ(plan->source.vectorWidth, 8);
    EXPECT_NE(plan->source.source.find("constexpr int kHeld = 12;"), std::string::npos);
}

TEST(NormCodegen, WideRowsUseMoreThreadsPerRow) {
    std::vector<uint8_t> bytes;
    std::string reason;
    const auto narrow = hipdnn_cuda_kernels::planNorm(
        wrapGraph(rowNormGraph(false, fb::DataType::BFLOAT16, 65536, 1024, false, false), bytes), hopper(),
        reason);
    ASSERT_TRUE(narrow.has_value()) << reason;
    const auto wide = hipdnn_cuda_kernels::planNorm(
        wrapGraph(rowNormGraph(false, fb::DataType::BFLOAT16, 16384, 4096, false, false), bytes), hopper(),
        reason);
    ASSERT_TRUE(wide.has_value()) << reason;
    EXPECT_LT(narrow->source.launches[0].blockSize / 8, 65536U);
    // One row per block of 32 threads at most 8 rows: 65536 rows take at least 8192 blocks.
    EXPECT_GE(narrow->source.launches[0].gridSize, 8192U);
    EXPECT_EQ(wide->source.launches[0].gridSize * (256 / 128), 16384U);
}

TEST(NormProgram, DeclinesWithReasons) {
    hipdnn_test_sdk::GraphBuilder pointwiseOnly("pointwise_only");
    pointwiseOnly.addTensor(1, "x", fb::DataType::FLOAT, {4, 4})
        .addTensor(2, "y", fb::DataType::FLOAT, {4, 4})
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 1, 2);
    EXPECT_EQ(declineReason(pointwiseOnly), "the graph has no norm or pooling node");

    hipdnn_test_sdk::GraphBuilder matmul("matmul");
    matmul.addTensor(1, "a", fb::DataType::FLOAT, {1, 4, 4})
        .addTensor(2, "b", fb::DataType::FLOAT, {1, 4, 4})
        .addTensor(3, "c", fb::DataType::FLOAT, {1, 4, 4})
        .addMatmul("mm", 1, 2, 3);
    EXPECT_NE(declineReason(matmul).find("is not a layer norm"), std::string::npos);

    hipdnn_test_sdk::GraphBuilder prologue("prologue");
    prologue.addTensor(1, "a", fb::DataType::FLOAT, {4, 8})
        .addTensor(40, "b", fb::DataType::FLOAT, {4, 8})
        .addTensor(41, "x", fb::DataType::FLOAT, {4, 8}, {}, true)
        .addTensor(2, "scale", fb::DataType::FLOAT, {1, 8})
        .addTensor(3, "bias", fb::DataType::FLOAT, {1, 8})
        .addScalar(4, "epsilon", fb::DataType::FLOAT, 1e-5)
        .addTensor(5, "y", fb::DataType::FLOAT, {4, 8})
        .addPointwise("add", fb::PointwiseMode::ADD, 1, 41, 40)
        .addLayernorm("ln", 41, 2, 3, 4, 5);
    EXPECT_NE(declineReason(prologue).find("comes before the norm"), std::string::npos);

    hipdnn_test_sdk::GraphBuilder strided("strided");
    strided.addTensor(1, "x", fb::DataType::FLOAT, {4, 8}, {1, 4})
        .addTensor(2, "scale", fb::DataType::FLOAT, {1, 8})
        .addTensor(3, "bias", fb::DataType::FLOAT, {1, 8})
        .addScalar(4, "epsilon", fb::DataType::FLOAT, 1e-5)
        .addTensor(5, "y", fb::DataType::FLOAT, {4, 8}, {1, 4})
        .addLayernorm("ln", 1, 2, 3, 4, 5);
    EXPECT_NE(declineReason(strided).find("are not its outermost dim"), std::string::npos);

    hipdnn_test_sdk::GraphBuilder recompute("recompute");
    recompute.addTensor(1, "x", fb::DataType::FLOAT, {2, 4, 2, 2})
        .addTensor(2, "dy", fb::DataType::FLOAT, {2, 4, 2, 2})
        .addTensor(3, "scale", fb::DataType::FLOAT, {1, 4, 1, 1})
        .addTensor(4, "dx", fb::DataType::FLOAT, {2, 4, 2, 2})
        .addTensor(5, "dscale", fb::DataType::FLOAT, {1, 4, 1, 1})
        .addTensor(6, "dbias", fb::DataType::FLOAT, {1, 4, 1, 1})
        .addScalar(7, "epsilon", fb::DataType::FLOAT, 1e-5);
    hipdnn_test_sdk::BatchnormBackwardPorts ports;
    ports.x = 1;
    ports.dy = 2;
    ports.scale = 3;
    ports.dx = 4;
    ports.dscale = 5;
    ports.dbias = 6;
    ports.epsilon = 7;
    recompute.addBatchnormBackward("bn_backward", ports);
    EXPECT_NE(declineReason(recompute).find("recomputing them is not supported"), std::string::npos);

    EXPECT_NE(
        declineReason(batchnormGraph(BatchnormMode::Inference, fb::DataType::FLOAT, {2, 4096, 2, 2}, true))
            .find("4096 channels"),
        std::string::npos);
}

PoolingShape maxPool3x3(bool channelsLast) {
    PoolingShape shape;
    shape.xDims = {2, 16, 9, 11};
    shape.window = {3, 3};
    shape.stride = {2, 2};
    shape.prePadding = {1, 1};
    shape.postPadding = {1, 1};
    shape.channelsLast = channelsLast;
    return shape;
}

PoolingShape avgPool3d() {
    PoolingShape shape;
    shape.mode = fb::ResampleMode::AVGPOOL_INCLUDE_PADDING;
    shape.xDims = {2, 3, 5, 6, 7};
    shape.window = {2, 3, 2};
    shape.stride = {1, 2, 3};
    shape.prePadding = {1, 0, 1};
    shape.postPadding = {0, 2, 1};
    return shape;
}

using PoolingCompileCase = std::tuple<fb::ResampleMode, fb::PaddingMode, fb::DataType, bool, Epilogue>;

class PoolingCompiles : public testing::TestWithParam<PoolingCompileCase> {};

TEST_P(PoolingCompiles, For2dAnd3dOnSm90AndSm75) {
    const auto [mode, padding, type, channelsLast, epilogue] = GetParam();
    PoolingShape planar = maxPool3x3(channelsLast);
    PoolingShape volume = avgPool3d();
    for (PoolingShape* shape : {&planar, &volume}) {
        shape->mode = mode;
        shape->padding = padding;
        shape->channelsLast = channelsLast;
        SCOPED_TRACE(shape->name());
        const auto graph = poolingGraph(type, *shape, epilogue);
        expectCompiles(graph, 90, false);
        expectCompiles(graph, 75, false);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Max, PoolingCompiles,
    testing::Combine(testing::Values(fb::ResampleMode::MAXPOOL),
                     testing::Values(fb::PaddingMode::PADDING_NOT_SET, fb::PaddingMode::ZERO_PAD,
                                     fb::PaddingMode::EDGE_VAL_PAD),
                     testing::ValuesIn(kTypes), testing::Bool(), testing::ValuesIn(kEpilogues)),
    [](const auto& info) {
        return std::string(fb::EnumNamePaddingMode(std::get<1>(info.param))) + "_" +
               fb::EnumNameDataType(std::get<2>(info.param)) +
               (std::get<3>(info.param) ? "_nhwc_" : "_nchw_") + epilogueName(std::get<4>(info.param));
    });

INSTANTIATE_TEST_SUITE_P(Average, PoolingCompiles,
                         testing::Combine(testing::Values(fb::ResampleMode::AVGPOOL_EXCLUDE_PADDING,
                                                          fb::ResampleMode::AVGPOOL_INCLUDE_PADDING),
                                          testing::Values(fb::PaddingMode::PADDING_NOT_SET),
                                          testing::ValuesIn(kTypes), testing::Bool(),
                                          testing::ValuesIn(kEpilogues)),
                         [](const auto& info) {
                             return std::string(fb::EnumNameResampleMode(std::get<0>(info.param))) + "_" +
                                    fb::EnumNameDataType(std::get<2>(info.param)) +
                                    (std::get<3>(info.param) ? "_nhwc_" : "_nchw_") +
                                    epilogueName(std::get<4>(info.param));
                         });

TEST(NormProgram, PoolingFactsFollowTheGraph) {
    std::vector<uint8_t> bytes;
    std::string reason;
    const auto program = hipdnn_cuda_kernels::analyzeNormGraph(
        wrapGraph(poolingGraph(fb::DataType::BFLOAT16, maxPool3x3(true)), bytes), reason);
    ASSERT_TRUE(program.has_value()) << reason;
    EXPECT_EQ(program->kind, NormKind::Pooling);
    EXPECT_EQ(program->elementCount, 2 * 16 * 5 * 6);
    EXPECT_TRUE(program->storesY);
    EXPECT_EQ(program->yType, hipdnn_cuda_kernels::ElementType::BFloat16);
    ASSERT_TRUE(program->pooling.has_value());
    EXPECT_EQ(program->pooling->mode, hipdnn_cuda_kernels::PoolingMode::Max);
    EXPECT_EQ(program->pooling->padding, hipdnn_cuda_kernels::PoolingPadding::None);
    EXPECT_EQ(program->pooling->yDims, (std::vector<int64_t>{2, 16, 5, 6}));
    EXPECT_EQ(program->pooling->xStrides, (std::vector<int64_t>{16 * 9 * 11, 1, 11 * 16, 16}));
    EXPECT_EQ(program->pooling->yStrides, (std::vector<int64_t>{16 * 5 * 6, 1, 6 * 16, 16}));
    ASSERT_EQ(program->operands.size(), 2U);
    EXPECT_EQ(program->operands[0].name, "x");
    EXPECT_EQ(program->operands[1].name, "y");

    const auto fused = hipdnn_cuda_kernels::analyzeNormGraph(
        wrapGraph(poolingGraph(fb::DataType::HALF, avgPool3d(), Epilogue::AddRelu), bytes), reason);
    ASSERT_TRUE(fused.has_value()) << reason;
    EXPECT_EQ(fused->pooling->mode, hipdnn_cuda_kernels::PoolingMode::AverageIncludePadding);
    EXPECT_EQ(fused->pooling->yDims, (std::vector<int64_t>{2, 3, 5, 3, 3}));
    EXPECT_FALSE(fused->storesY);
    ASSERT_TRUE(fused->epilogue.has_value());
    EXPECT_EQ(fused->epilogue->steps.size(), 2U);
    EXPECT_EQ(fused->epilogueArguments.size(), 2U);  // the residual and the output
}

TEST(NormCodegen, PoolingIndexesLargeInputsIn64Bits) {
    // y is small, but x's offsets pass 2^31: the kernel's index type must hold them.
    PoolingShape shape;
    shape.xDims = {1, 1, 65536, 65537};
    shape.window = {1, 1};
    shape.stride = {65536, 65536};
    shape.prePadding = {0, 0};
    shape.postPadding = {0, 0};
    std::vector<uint8_t> bytes;
    std::string reason;
    const auto plan = hipdnn_cuda_kernels::planNorm(wrapGraph(poolingGraph(fb::DataType::HALF, shape), bytes),
                                                    hopper(), reason);
    ASSERT_TRUE(plan.has_value()) << reason;
    EXPECT_EQ(plan->program.elementCount, 2);
    EXPECT_NE(plan->source.source.find("typedef unsigned long long hdnn_index;"), std::string::npos);
    EXPECT_EQ(plan->source.launches.size(), 1U);
    EXPECT_TRUE(plan->source.vectorOperands.empty());

    const auto small = hipdnn_cuda_kernels::planNorm(
        wrapGraph(poolingGraph(fb::DataType::HALF, maxPool3x3(false)), bytes), hopper(), reason);
    ASSERT_TRUE(small.has_value()) << reason;
    EXPECT_NE(small->source.source.find("typedef unsigned int hdnn_index;"), std::string::npos);
}

TEST(NormProgram, PoolingDeclinesWithReasons) {
    const auto declined = [](PoolingShape shape, const std::function<void(PoolingShape&)>& change) {
        change(shape);
        return declineReason(poolingGraph(fb::DataType::FLOAT, shape));
    };
    const PoolingShape base = maxPool3x3(false);
    EXPECT_NE(declined(base, [](PoolingShape& s) { s.mode = fb::ResampleMode::BILINEAR; })
                  .find("resample mode BILINEAR; supported: MAXPOOL"),
              std::string::npos);
    EXPECT_NE(declined(base,
                       [](PoolingShape& s) {
                           s.prePadding = {3, 1};
                           s.postPadding = {3, 1};
                       })
                  .find("spatial dim 0 has window 3 and padding 3 / 3"),
              std::string::npos);

    hipdnn_test_sdk::PoolingGeometry geometry;
    geometry.window = {2, 2};
    geometry.stride = {2, 2};
    geometry.prePadding = {0, 0};
    geometry.postPadding = {0, 0};
    hipdnn_test_sdk::GraphBuilder withIndex("with_index");
    withIndex.addTensor(1, "x", fb::DataType::FLOAT, {1, 2, 4, 4})
        .addTensor(2, "y", fb::DataType::FLOAT, {1, 2, 2, 2})
        .addTensor(3, "index", fb::DataType::INT32, {1, 2, 2, 2})
        .addResample("pool", 1, 2, geometry, 3);
    EXPECT_NE(declineReason(withIndex).find("writes the max pooling index (tensor uid 3"), std::string::npos);

    hipdnn_test_sdk::GraphBuilder stridedY("strided_y");
    stridedY.addTensor(1, "x", fb::DataType::FLOAT, {1, 2, 4, 4})
        .addTensor(2, "y", fb::DataType::FLOAT, {1, 2, 2, 2}, {16, 8, 4, 2})
        .addResample("pool", 1, 2, geometry);
    EXPECT_NE(declineReason(stridedY).find("is not dense (its strides [16, 8, 4, 2]"), std::string::npos);

    hipdnn_test_sdk::GraphBuilder twoPools("two_pools");
    twoPools.addTensor(1, "x", fb::DataType::FLOAT, {1, 2, 8, 8})
        .addTensor(2, "t", fb::DataType::FLOAT, {1, 2, 4, 4}, {}, true)
        .addTensor(3, "y", fb::DataType::FLOAT, {1, 2, 2, 2})
        .addResample("pool1", 1, 2, geometry)
        .addResample("pool2", 2, 3, geometry);
    EXPECT_NE(declineReason(twoPools).find("two norm or pooling nodes"), std::string::npos);
}

}  // namespace

}  // namespace cuda_kernels_test
