#include "BatchnormPlan.hpp"

#include "MemoryDesc.hpp"

#include <cmath>

namespace hipdnn_onednn {

using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::NodeWrapper;
using md = dnnl::memory::desc;
using flags = dnnl::normalization_flags;

float unbiasedVariance(float biasedVariance, int64_t elementsPerChannel) {
    if (elementsPerChannel < 2) {
        return biasedVariance;
    }
    return biasedVariance * static_cast<float>(elementsPerChannel) /
           static_cast<float>(elementsPerChannel - 1);
}

namespace {

/// Per-channel tensors are read as dense f32 vectors by oneDNN and by the host work here.
void requireChannelVector(const NodeWrapper& node, const fb::TensorAttributes& tensor, int64_t channels,
                          const char* role) {
    const auto strides = stridesOf(tensor);
    if (tensor.data_type() != fb::DataType::FLOAT || !isVectorAlong(tensor, 1, channels) || strides[1] != 1) {
        decline(node, std::string(role) +
                          " must be a FLOAT (1, C, 1, ...) tensor with unit channel stride (" +
                          describeTensor(tensor) + ")");
    }
}

float requireEpsilon(const NodeWrapper& node, const GraphWrapper& graph, int64_t uid) {
    const auto value = hipdnn_flatbuffers_sdk::passByValueNumber(graph.tensor(uid));
    if (!value) {
        decline(node,
                "epsilon must be a pass-by-value scalar (oneDNN fixes it when the primitive is created)");
    }
    return static_cast<float>(*value);
}

/// The data tensors: the 2.6 batch norm primitive has one descriptor for source and destination.
md requireDataPair(const NodeWrapper& node, const fb::TensorAttributes& in, const fb::TensorAttributes& out) {
    if (!sameLayout(in, out) || in.data_type() != out.data_type()) {
        decline(node, "input and output need the same dims, strides and data type (" + describeTensor(in) +
                          " vs " + describeTensor(out) + ")");
    }
    const auto dims = dimsOf(in);
    if (dims.size() < 3 || dims.size() > 5) {
        decline(node, "oneDNN batch norm takes 3-D to 5-D data (" + describeTensor(in) + ")");
    }
    return makeMemoryDesc(in);
}

/// Elements each channel's statistics are taken over: every dim but the channel dim.
int64_t elementCountPerChannel(const std::vector<int64_t>& dims) {
    int64_t count = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
        count *= i == 1 ? 1 : dims[i];
    }
    return count;
}

float* floats(const ExecutionBuffers& buffers, int64_t uid) {
    return static_cast<float*>(buffers.tensor(uid));
}

/// Converts a saved inverse standard deviation 1/sqrt(var + eps) into the variance oneDNN
/// takes with epsilon 0, which reproduces the same normalization factor.
void addInverseToVariance(PlanStep& step, int64_t invVarianceUid, int64_t channels, size_t varianceOffset) {
    step.addHostWork([=](const ExecutionBuffers& buffers, std::byte* privateArea) {
        const float* inv = floats(buffers, invVarianceUid);
        auto* variance = reinterpret_cast<float*>(privateArea + varianceOffset);
        for (int64_t c = 0; c < channels; ++c) {
            variance[c] = 1.0F / (inv[c] * inv[c]);
        }
    });
}

}  // namespace

std::unique_ptr<PlanStep> buildBatchnormInferenceStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                                      const Stage& stage) {
    const NodeWrapper node = graph.node(stage.primaryNode);
    int64_t xUid = 0;
    int64_t meanUid = 0;
    int64_t scaleUid = 0;
    int64_t biasUid = 0;
    std::optional<int64_t> invVarianceUid;
    std::optional<int64_t> varianceUid;
    float epsilon = 0.0F;
    if (const auto* a = node.attributesAs<fb::BatchnormInferenceAttributes>()) {
        xUid = a->x_tensor_uid();
        meanUid = a->mean_tensor_uid();
        invVarianceUid = a->inv_variance_tensor_uid();
        scaleUid = a->scale_tensor_uid();
        biasUid = a->bias_tensor_uid();
    } else {
        const auto* v = node.attributesAs<fb::BatchnormInferenceAttributesVarianceExt>();
        xUid = v->x_tensor_uid();
        meanUid = v->mean_tensor_uid();
        varianceUid = v->variance_tensor_uid();
        scaleUid = v->scale_tensor_uid();
        biasUid = v->bias_tensor_uid();
        epsilon = requireEpsilon(node, graph, v->epsilon_tensor_uid());
    }
    const fb::TensorAttributes& x = graph.tensor(xUid);
    const fb::TensorAttributes& y = graph.tensor(stage.outputUid);
    const md data = requireDataPair(node, x, y);
    const int64_t channels = dimsOf(x)[1];
    for (const auto& [uid, role] :
         {std::pair{meanUid, "mean"}, std::pair{scaleUid, "scale"}, std::pair{biasUid, "bias"},
          std::pair{invVarianceUid.value_or(varianceUid.value_or(0)), "variance"}}) {
        requireChannelVector(node, graph.tensor(uid), channels, role);
    }
    flags f = flags::use_global_stats | flags::use_scale | flags::use_shift;
    if (stage.fuseRelu) {
        f |= flags::fuse_norm_relu;
    }
    const dnnl::batch_normalization_forward::primitive_desc pd(
        {dnnl::prop_kind::forward_inference, data, epsilon, f}, userScratchpadAttr(), engine);
    auto step = std::make_unique<PlanStep>(engine);
    const md channel({channels}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
    PlanStep::Args args{{DNNL_ARG_SRC, step->tensorMemory(data, x.uid())},
                        {DNNL_ARG_DST, step->tensorMemory(data, y.uid())},
                        {DNNL_ARG_MEAN, step->tensorMemory(channel, meanUid)},
                        {DNNL_ARG_SCALE, step->tensorMemory(channel, scaleUid)},
                        {DNNL_ARG_SHIFT, step->tensorMemory(channel, biasUid)}};
    if (varianceUid) {
        args[DNNL_ARG_VARIANCE] = step->tensorMemory(channel, *varianceUid);
    } else {
        const size_t varianceOffset = step->reservePrivate(channel.get_size());
        addInverseToVariance(*step, *invVarianceUid, channels, varianceOffset);
        args[DNNL_ARG_VARIANCE] = step->privateMemoryAt(channel, varianceOffset);
    }
    step->addPrimitive(dnnl::batch_normalization_forward(pd), std::move(args), pd.scratchpad_desc());
    return step;
}

std::unique_ptr<PlanStep> buildBatchnormTrainingStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                                     const Stage& stage) {
    const NodeWrapper node = graph.node(stage.primaryNode);
    const auto* a = node.attributesAs<fb::BatchnormAttributes>();
    if (a->peer_stats_tensor_uid() != nullptr && a->peer_stats_tensor_uid()->size() > 0) {
        decline(node, "peer statistics (multi-device batch norm) are not supported");
    }
    const fb::TensorAttributes& x = graph.tensor(a->x_tensor_uid());
    const fb::TensorAttributes& y = graph.tensor(stage.outputUid);
    const md data = requireDataPair(node, x, y);
    const auto dims = dimsOf(x);
    const int64_t channels = dims[1];
    const int64_t perChannel = elementCountPerChannel(dims);
    const float epsilon = requireEpsilon(node, graph, a->epsilon_tensor_uid());
    requireChannelVector(node, graph.tensor(a->scale_tensor_uid()), channels, "scale");
    requireChannelVector(node, graph.tensor(a->bias_tensor_uid()), channels, "bias");
    const bool running =
        a->prev_running_mean_tensor_uid().has_value() && a->prev_running_variance_tensor_uid().has_value() &&
        a->momentum_tensor_uid().has_value() && a->next_running_mean_tensor_uid().has_value() &&
        a->next_running_variance_tensor_uid().has_value();
    std::vector<std::pair<std::optional<int64_t>, const char*>> vectors{
        {a->mean_tensor_uid(), "mean"},
        {a->inv_variance_tensor_uid(), "inv_variance"},
    };
    if (running) {
        vectors.insert(vectors.end(), {{a->prev_running_mean_tensor_uid(), "prev_running_mean"},
                                       {a->prev_running_variance_tensor_uid(), "prev_running_variance"},
                                       {a->next_running_mean_tensor_uid(), "next_running_mean"},
                                       {a->next_running_variance_tensor_uid(), "next_running_variance"}});
    }
    for (const auto& [uid, role] : vectors) {
        if (uid) {
            requireChannelVector(node, graph.tensor(*uid), channels, role);
        }
    }
    std::optional<float> momentum;
    if (running) {
        const fb::TensorAttributes& m = graph.tensor(*a->momentum_tensor_uid());
        if (auto value = hipdnn_flatbuffers_sdk::passByValueNumber(m)) {
            momentum = static_cast<float>(*value);
        } else if (m.data_type() != fb::DataType::FLOAT) {
            decline(node,
                    "momentum must be a FLOAT tensor or a pass-by-value scalar (" + describeTensor(m) + ")");
        }
    }

    flags f = flags::use_scale | flags::use_shift;
    if (stage.fuseRelu) {
        f |= flags::fuse_norm_relu;
    }
    const dnnl::batch_normalization_forward::primitive_desc pd(
        {dnnl::prop_kind::forward_training, data, epsilon, f}, userScratchpadAttr(), engine);
    auto step = std::make_unique<PlanStep>(engine);
    const md channel({channels}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
    PlanStep::Args args{{DNNL_ARG_SRC, step->tensorMemory(data, x.uid())},
                        {DNNL_ARG_DST, step->tensorMemory(data, y.uid())},
                        {DNNL_ARG_SCALE, step->tensorMemory(channel, a->scale_tensor_uid())},
                        {DNNL_ARG_SHIFT, step->tensorMemory(channel, a->bias_tensor_uid())}};
    // The batch mean goes straight to the user's tensor when there is one; the biased batch
    // variance always lands in the private area, converted below.
    const std::optional<int64_t> meanUid = a->mean_tensor_uid();
    const size_t meanOffset = meanUid ? 0 : step->reservePrivate(channel.get_size());
    args[DNNL_ARG_MEAN] =
        meanUid ? step->tensorMemory(channel, *meanUid) : step->privateMemoryAt(channel, meanOffset);
    const size_t varianceOffset = step->reservePrivate(channel.get_size());
    args[DNNL_ARG_VARIANCE] = step->privateMemoryAt(channel, varianceOffset);
    if (stage.fuseRelu) {
        args[DNNL_ARG_WORKSPACE] = step->privateMemory(pd.workspace_desc());
    }
    step->addPrimitive(dnnl::batch_normalization_forward(pd), std::move(args), pd.scratchpad_desc());

    const std::optional<int64_t> invVarianceUid = a->inv_variance_tensor_uid();
    const std::optional<int64_t> momentumUid = a->momentum_tensor_uid();
    const std::optional<int64_t> prevMean = a->prev_running_mean_tensor_uid();
    const std::optional<int64_t> prevVariance = a->prev_running_variance_tensor_uid();
    const std::optional<int64_t> nextMean = a->next_running_mean_tensor_uid();
    const std::optional<int64_t> nextVariance = a->next_running_variance_tensor_uid();
    step->addHostWork([=](const ExecutionBuffers& buffers, std::byte* privateArea) {
        const float* mean =
            meanUid ? floats(buffers, *meanUid) : reinterpret_cast<const float*>(privateArea + meanOffset);
        const auto* variance = reinterpret_cast<const float*>(privateArea + varianceOffset);
        if (invVarianceUid) {
            float* inv = floats(buffers, *invVarianceUid);
            for (int64_t c = 0; c < channels; ++c) {
                inv[c] = 1.0F / std::sqrt(variance[c] + epsilon);
            }
        }
        if (!running) {
            return;
        }
        const float m = momentum ? *momentum : *floats(buffers, *momentumUid);
        const float* prevM = floats(buffers, *prevMean);
        const float* prevV = floats(buffers, *prevVariance);
        float* nextM = floats(buffers, *nextMean);
        float* nextV = floats(buffers, *nextVariance);
        for (int64_t c = 0; c < channels; ++c) {
            nextM[c] = (1.0F - m) * prevM[c] + m * mean[c];
            nextV[c] = (1.0F - m) * prevV[c] + m * unbiasedVariance(variance[c], perChannel);
        }
    });
    return step;
}

std::unique_ptr<PlanStep> buildBatchnormBackwardStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                                     const Stage& stage) {
    const NodeWrapper node = graph.node(stage.primaryNode);
    const auto* a = node.attributesAs<fb::BatchnormBackwardAttributes>();
    if (a->peer_stats_tensor_uid() != nullptr && a->peer_stats_tensor_uid()->size() > 0) {
        decline(node, "peer statistics (multi-device batch norm) are not supported");
    }
    if (!a->mean_tensor_uid().has_value() || !a->inv_variance_tensor_uid().has_value()) {
        decline(node, "batch norm backward needs the saved mean and inv_variance");
    }
    const fb::TensorAttributes& dy = graph.tensor(a->dy_tensor_uid());
    const fb::TensorAttributes& x = graph.tensor(a->x_tensor_uid());
    const fb::TensorAttributes& dx = graph.tensor(a->dx_tensor_uid());
    const md diff = requireDataPair(node, dy, dx);
    const md data = makeMemoryDesc(x);
    const int64_t channels = dimsOf(x)[1];
    const int64_t meanUid = *a->mean_tensor_uid();
    const int64_t invVarianceUid = *a->inv_variance_tensor_uid();
    for (const auto& [uid, role] :
         {std::pair{meanUid, "mean"}, std::pair{invVarianceUid, "inv_variance"},
          std::pair{a->scale_tensor_uid(), "scale"}, std::pair{a->dscale_tensor_uid(), "dscale"},
          std::pair{a->dbias_tensor_uid(), "dbias"}}) {
        requireChannelVector(node, graph.tensor(uid), channels, role);
    }
    // Epsilon 0 with variance 1/inv^2 reproduces the saved normalization factor exactly.
    const flags f = flags::use_scale | flags::use_shift;
    const dnnl::batch_normalization_forward::primitive_desc hint(
        {dnnl::prop_kind::forward_training, data, 0.0F, f}, engine);
    const dnnl::batch_normalization_backward::primitive_desc pd(
        {dnnl::prop_kind::backward, diff, data, 0.0F, f}, userScratchpadAttr(), engine, hint);
    auto step = std::make_unique<PlanStep>(engine);
    const md channel({channels}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
    const size_t varianceOffset = step->reservePrivate(channel.get_size());
    addInverseToVariance(*step, invVarianceUid, channels, varianceOffset);
    PlanStep::Args args{{DNNL_ARG_SRC, step->tensorMemory(data, x.uid())},
                        {DNNL_ARG_DIFF_DST, step->tensorMemory(diff, dy.uid())},
                        {DNNL_ARG_DIFF_SRC, step->tensorMemory(diff, dx.uid())},
                        {DNNL_ARG_MEAN, step->tensorMemory(channel, meanUid)},
                        {DNNL_ARG_VARIANCE, step->privateMemoryAt(channel, varianceOffset)},
                        {DNNL_ARG_SCALE, step->tensorMemory(channel, a->scale_tensor_uid())},
                        {DNNL_ARG_DIFF_SCALE, step->tensorMemory(channel, a->dscale_tensor_uid())},
                        {DNNL_ARG_DIFF_SHIFT, step->tensorMemory(channel, a->dbias_tensor_uid())},
                        // oneDNN 2.6 refuses to execute use_shift backward without a shift argument,
                        // though the gradients do not depend on it: bind unused private bytes.
                        {DNNL_ARG_SHIFT, step->privateMemory(channel)}};
    step->addPrimitive(dnnl::batch_normalization_backward(pd), std::move(args), pd.scratchpad_desc());
    return step;
}

}  // namespace hipdnn_onednn
