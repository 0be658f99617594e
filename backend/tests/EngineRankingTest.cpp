// The order ENGINEHEUR returns applicable engines in: preferred, tuned, estimated time, plugin
// order, the GPU fallback engines, the CPU reference last.
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
const int64_t kNorm = engineNameToId("CUDA_NORM_ENGINE");

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

TEST(EngineRanking, EstimatesOrderTheEnginesOfOneRankFastestFirst) {
    // cuda_kernels loads first, but cuDNN estimates itself faster.
    const std::vector<int64_t> ranked =
        rankEngines({{kNorm, kGraph}, {kCudnn}}, std::nullopt, std::nullopt, {{kNorm, 2e-4}, {kCudnn, 1e-4}});
    EXPECT_EQ(ranked, (std::vector<int64_t>{kCudnn, kNorm, kGraph}));
}

TEST(EngineRanking, EnginesWithoutAnEstimateFollowThoseWithOneInPluginOrder) {
    const std::vector<int64_t> ranked = rankEngines({{kCudnnDeterministic}, {kPointwise}, {kCudnn}},
                                                    std::nullopt, std::nullopt, {{kCudnn, 1.0}});
    EXPECT_EQ(ranked, (std::vector<int64_t>{kCudnn, kCudnnDeterministic, kPointwise}));
}

TEST(EngineRanking, EqualEstimatesKeepPluginOrder) {
    const std::vector<int64_t> ranked = rankEngines({{kPointwise}, {kCudnn}}, std::nullopt, std::nullopt,
                                                    {{kCudnn, 1e-3}, {kPointwise, 1e-3}});
    EXPECT_EQ(ranked, (std::vector<int64_t>{kPointwise, kCudnn}));
}

TEST(EngineRanking, TunedAndPreferredEnginesOutrankEveryEstimate) {
    const std::vector<int64_t> ranked =
        rankEngines({{kNorm, kPointwise}, {kCudnn}, {kReference}}, kPointwise, kCudnn,
                    {{kNorm, 1e-9}, {kCudnn, 1.0}, {kPointwise, 2.0}, {kReference, 1e-12}});
    EXPECT_EQ(ranked, (std::vector<int64_t>{kPointwise, kCudnn, kNorm, kReference}));
}

TEST(EngineRanking, AnEstimateNeverLiftsAFallbackOrTheReferenceAboveTheFusedEngines) {
    const std::vector<int64_t> ranked =
        rankEngines({{kReference}, {kGraph, kNorm}}, std::nullopt, std::nullopt,
                    {{kReference, 1e-9}, {kGraph, 1e-9}, {kNorm, 1.0}});
    EXPECT_EQ(ranked, (std::vector<int64_t>{kNorm, kGraph, kReference}));
}

}  // namespace
