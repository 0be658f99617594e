#include "CudnnEstimates.hpp"

namespace hipdnn_cudnn_plugin {

std::optional<hipdnn_plugin_sdk::EngineEfficiency> measuredEfficiency(
    const hipdnn_plugin_sdk::GraphClass& graph) {
    namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
    using hipdnn_plugin_sdk::EngineEfficiency;
    if (graph.mixed) {
        return std::nullopt;
    }
    // Fractions of the H200's 4.8 TB/s and 1070 dense bf16 TFLOP/s measured through the driver on
    // problems 2-5x the L2. cuDNN's norms run as one (persistent) kernel.
    switch (graph.principal) {
        case fbs::NodeAttributes::LayernormAttributes:
            return EngineEfficiency{.memory = 0.18, .compute = 0.0, .launches = 1};  // 864-919 GB/s
        case fbs::NodeAttributes::RMSNormAttributes:
            return EngineEfficiency{.memory = 0.23, .compute = 0.0, .launches = 1};  // 1110-1170 GB/s
        case fbs::NodeAttributes::RMSNormBackwardAttributes:
        case fbs::NodeAttributes::LayernormBackwardAttributes:
            // On an H100 beside CUDA_NORM_ENGINE, bf16 16384x4096 and 65536x1024: 2660-2920 GB/s,
            // 1.06-1.25x that engine; its H200 fraction scaled by the same factor.
            return EngineEfficiency{.memory = 0.72, .compute = 0.0, .launches = 1};
        case fbs::NodeAttributes::BatchnormInferenceAttributes:
        case fbs::NodeAttributes::BatchnormInferenceAttributesVarianceExt:
            return EngineEfficiency{.memory = 0.65, .compute = 0.0, .launches = 1};  // NHWC 3130-3140 GB/s
        case fbs::NodeAttributes::BatchnormAttributes:
            // NHWC 2550-2610 GB/s, NCHW 824.
            return EngineEfficiency{
                .memory = graph.channelsLast ? 0.54 : 0.17, .compute = 0.0, .launches = 1};
        case fbs::NodeAttributes::BatchnormBackwardAttributes:
            // NHWC 2280 GB/s, NCHW 816.
            return EngineEfficiency{
                .memory = graph.channelsLast ? 0.47 : 0.17, .compute = 0.0, .launches = 1};
        case fbs::NodeAttributes::MatmulAttributes:
            // bf16 8192³: 809 TFLOP/s plain, 671 with a bias + relu epilogue.
            return EngineEfficiency{
                .memory = 0.8, .compute = graph.pointwiseNodes > 0 ? 0.63 : 0.76, .launches = 1};
        default:
            return std::nullopt;
    }
}

}  // namespace hipdnn_cudnn_plugin
