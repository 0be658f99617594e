// Across plugins, the backend ranks a device's engines by the time each estimates for the graph:
// with this plugin and the cuDNN plugin loaded, the heuristics' first engine is the one measured
// faster for that kind of graph (docs/performance.md), whichever plugin loads first.
#include "../tests/MatmulGraphs.hpp"
#include "../tests/NormGraphs.hpp"

#include <hipdnn_backend.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_test_sdk/BackendRun.hpp>
#include <hipdnn_test_sdk/SkipIfNoDevice.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cuda_kernels_integration {
namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using namespace hipdnn_data_sdk::utilities;
using cuda_kernels_test::BatchnormMode;
using hipdnn_test_sdk::BackendHandle;
using hipdnn_test_sdk::BackendHeuristics;

std::vector<int64_t> rankedOnGpu(const std::vector<uint8_t>& graph) {
    const char* paths[] = {HIPDNN_CUDNN_PLUGIN_PATH, HIPDNN_CUDA_KERNELS_PLUGIN_PATH};
    hipdnn_test_sdk::checkBackend(hipdnnSetEnginePluginPaths_ext(2, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE),
                                  "hipdnnSetEnginePluginPaths_ext");
    const BackendHandle handle(HIPDNN_DEVICE_TYPE_GPU_EXT, 0);
    return BackendHeuristics(handle.get(), graph).engineIds();
}

std::string names(const std::vector<int64_t>& ids) {
    std::string text;
    for (int64_t id : ids) {
        text += std::string(tryGetEngineNameFromId(id).value_or("?")) + " ";
    }
    return text;
}

void expectFirst(const std::vector<uint8_t>& graph, int64_t expected) {
    const std::vector<int64_t> ranked = rankedOnGpu(graph);
    ASSERT_FALSE(ranked.empty());
    EXPECT_EQ(ranked.front(), expected) << "ranked: " << names(ranked);
}

TEST(SmokeRanking, RowNormsRankThisPluginsNormEngineFirst) {
    SKIP_IF_NO_DEVICE();
    expectFirst(cuda_kernels_test::rowNormGraph(true, fb::DataType::BFLOAT16, 256, 1024, false, true).build(),
                CUDA_NORM_ENGINE_ID);
}

// cuDNN's one-kernel norm backward measured 1.06-1.25x this plugin's two passes.
TEST(SmokeRanking, RowNormBackwardRanksCudnnFirst) {
    SKIP_IF_NO_DEVICE();
    expectFirst(cuda_kernels_test::rmsnormBackwardGraph(fb::DataType::BFLOAT16, 16384, 4096, true).build(),
                CUDNN_ENGINE_ID);
    expectFirst(cuda_kernels_test::layernormBackwardGraph(fb::DataType::BFLOAT16, {65536, 1024}).build(),
                CUDNN_ENGINE_ID);
}

TEST(SmokeRanking, ChannelsLastBatchnormTrainingAndBackwardRankCudnnFirst) {
    SKIP_IF_NO_DEVICE();
    // The measured shape: at small sizes the three launches of this plugin's training kernels
    // weigh more and the estimates may put cuDNN first for NCHW too.
    const std::vector<int64_t> dims{64, 256, 56, 56};
    expectFirst(cuda_kernels_test::batchnormGraph(BatchnormMode::Training, fb::DataType::BFLOAT16, dims, true)
                    .build(),
                CUDNN_ENGINE_ID);
    expectFirst(cuda_kernels_test::batchnormGraph(BatchnormMode::Backward, fb::DataType::BFLOAT16, dims, true)
                    .build(),
                CUDNN_ENGINE_ID);
    // NCHW, where cuDNN's kernels are slow, stays with this plugin.
    expectFirst(
        cuda_kernels_test::batchnormGraph(BatchnormMode::Training, fb::DataType::BFLOAT16, dims, false)
            .build(),
        CUDA_NORM_ENGINE_ID);
}

TEST(SmokeRanking, BatchnormInferenceRanksThisPluginsNormEngineFirst) {
    SKIP_IF_NO_DEVICE();
    expectFirst(cuda_kernels_test::batchnormGraph(BatchnormMode::Inference, fb::DataType::BFLOAT16,
                                                  {64, 256, 56, 56}, true)
                    .build(),
                CUDA_NORM_ENGINE_ID);
}

TEST(SmokeRanking, MatmulWithAFusedEpilogueRanksCublasLtFirst) {
    SKIP_IF_NO_DEVICE();
    const cuda_kernels_test::MatmulCase matmul{.type = fb::DataType::BFLOAT16,
                                               .m = 256,
                                               .k = 256,
                                               .n = 256,
                                               .epilogue = cuda_kernels_test::MatmulEpilogue::BiasRelu};
    expectFirst(cuda_kernels_test::matmulGraph(matmul).build(), CUBLASLT_ENGINE_ID);
}

}  // namespace
}  // namespace cuda_kernels_integration
