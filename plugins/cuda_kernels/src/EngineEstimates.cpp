#include "EngineEstimates.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

namespace hipdnn_cuda_kernels {

namespace {

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_plugin_sdk::EngineEfficiency;
using hipdnn_plugin_sdk::GraphClass;

// Fractions of the H200's 4.8 TB/s and dense peaks the engines reached on problems 2-5x the L2
// (measured GB/s or TFLOP/s over the theoretical figure), and the kernels each launches.
std::optional<EngineEfficiency> normEfficiency(const GraphClass& graph) {
    const bool epilogue = graph.pointwiseNodes > 0;
    switch (graph.principal) {
        case fbs::NodeAttributes::LayernormAttributes:
            return EngineEfficiency{.memory = 0.76, .compute = 0.0, .launches = 1};  // 3590-3720 GB/s
        case fbs::NodeAttributes::RMSNormAttributes:
            return EngineEfficiency{.memory = 0.79, .compute = 0.0, .launches = 1};  // 3770-3810 GB/s
        case fbs::NodeAttributes::RMSNormBackwardAttributes:
            // A row pass writing dx and partial column sums, then their reduction: 3020-3170 GB/s.
            return EngineEfficiency{.memory = 0.63, .compute = 0.0, .launches = 2};
        case fbs::NodeAttributes::LayernormBackwardAttributes:
            // Not measured yet: the same two passes as RMS norm backward, with one more row
            // reduction and dbias always written, so its figure.
            return EngineEfficiency{.memory = 0.63, .compute = 0.0, .launches = 2};
        case fbs::NodeAttributes::BatchnormInferenceAttributes:
        case fbs::NodeAttributes::BatchnormInferenceAttributesVarianceExt:
            // 3660 GB/s, 3470 with a fused relu.
            return EngineEfficiency{.memory = epilogue ? 0.72 : 0.76, .compute = 0.0, .launches = 1};
        case fbs::NodeAttributes::BatchnormAttributes:
            // Statistics, finalize and streaming pass: NHWC 2120-2250 GB/s, NCHW 2240.
            return EngineEfficiency{
                .memory = graph.channelsLast ? 0.44 : 0.47, .compute = 0.0, .launches = 3};
        case fbs::NodeAttributes::BatchnormBackwardAttributes:
            // NHWC 1970 GB/s, NCHW 2030.
            return EngineEfficiency{
                .memory = graph.channelsLast ? 0.41 : 0.42, .compute = 0.0, .launches = 3};
        default:
            return std::nullopt;
    }
}

}  // namespace

std::optional<EngineEfficiency> measuredEfficiency(int64_t engineId, const GraphClass& graph) {
    using namespace hipdnn_data_sdk::utilities;
    if (graph.mixed) {
        return std::nullopt;
    }
    if (engineId == CUDA_POINTWISE_ENGINE_ID && graph.principal == fbs::NodeAttributes::NONE) {
        return EngineEfficiency{.memory = 0.82, .compute = 0.0, .launches = 1};  // 3927-4003 GB/s
    }
    if (engineId == CUDA_NORM_ENGINE_ID) {
        return normEfficiency(graph);
    }
    if (engineId == CUBLASLT_ENGINE_ID && graph.principal == fbs::NodeAttributes::MatmulAttributes) {
        // bf16 809, fp16 778 of 1070 dense TFLOP/s, strict fp32 51.4 of 67, the same with cuBLASLt's
        // bias + relu epilogue; a pointwise epilogue cuBLASLt cannot fuse is a second kernel.
        return EngineEfficiency{.memory = 0.8, .compute = 0.76, .launches = graph.pointwiseNodes > 2 ? 2 : 1};
    }
    return std::nullopt;
}

std::optional<double> estimateEngineSeconds(int64_t engineId,
                                            const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                            const hipdnn_plugin_sdk::DeviceCeilings& ceilings) {
    return hipdnn_plugin_sdk::estimateSeconds(graph, ceilings, [engineId](const GraphClass& graphClass) {
        return measuredEfficiency(engineId, graphClass);
    });
}

}  // namespace hipdnn_cuda_kernels
