// The order ENGINEHEUR returns applicable engines in: preferred, tuned, plugin order, the GPU
// fallback engines, the CPU reference last.
#include <gtest/gtest.h>

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include "heuristics/EngineRanking.hpp"

namespace {

using hipdnn_backend::heuristics::rankEngines;
using hipdnn_data_sdk::utilities::engineNameToId;

const int64_t kReference = engineNameToId("CPU_REFERENCE_ENGINE");
const int64_t kGraph = engineNameToId("CUDA_GRAPH_ENGINE");
const int64_t kSdpa = engineNameToId("CUDA_SDPA_ENGINE");
const int64_t kPointwise = engineNameToId("CUDA_POINTWISE_ENGINE");
const int64_t kCudnn = engineNameToId("CUDNN_ENGINE");
const int64_t kCudnnDeterministic = engineNameToId("CUDNN_ENGINE_DETERMINISTIC");

TEST(EngineRanking, FallbackEnginesFollowEveryOtherPluginsEngines) {
    // cuda_kernels loads before cudnn, yet cuDNN's fused engines rank before its fallbacks.
    const std::vector<int64_t> ranked =
        rankEngines({{kReference}, {kPointwise, kSdpa, kGraph}, {kCudnn, kCudnnDeterministic}}, std::nullopt,
                    std::nullopt);
    EXPECT_EQ(ranked,
              (std::vector<int64_t>{kPointwise, kCudnn, kCudnnDeterministic, kSdpa, kGraph, kReference}));
}

TEST(EngineRanking, PreferredAndTunedEnginesComeFirstEvenWhenFallbacks) {
    const std::vector<int64_t> ranked = rankEngines({{kSdpa, kGraph}, {kCudnn}, {kReference}}, kGraph, kSdpa);
    EXPECT_EQ(ranked, (std::vector<int64_t>{kGraph, kSdpa, kCudnn, kReference}));
}

TEST(EngineRanking, PluginOrderHoldsAmongEnginesOfOneRank) {
    const std::vector<int64_t> ranked =
        rankEngines({{kCudnnDeterministic}, {kPointwise, kCudnn}}, std::nullopt, std::nullopt);
    EXPECT_EQ(ranked, (std::vector<int64_t>{kCudnnDeterministic, kPointwise, kCudnn}));
}

}  // namespace
