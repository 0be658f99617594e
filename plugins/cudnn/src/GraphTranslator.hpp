// Translates a hipdnn graph (FlatBuffer) into the cuDNN graph it maps to (CudnnGraphSpec).
// Every node maps to one or more cuDNN operations; tensors map 1:1 (uid, type, dims, strides),
// brought to the rank cuDNN needs. Throws TranslationError naming the node that cannot map.
#pragma once

#include "CudnnGraphSpec.hpp"
#include "EnumMapping.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <string>

namespace hipdnn_cudnn_plugin {

CudnnGraphSpec translateGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph);

/// What the per-operation translations (ConvTranslation.cpp, ...) build with.
class TranslationContext {
public:
    TranslationContext(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, CudnnGraphSpec& spec);

    void beginNode(int64_t index, std::string name);

    /// `uid` itself after checking that the graph has the tensor (`port` names it in errors).
    int64_t tensor(int64_t uid, const char* port) const;
    const TensorSpec& tensorSpec(int64_t uid) const;
    /// Rank of the tensor as the hipdnn graph declares it (before any padding).
    size_t declaredRank(int64_t uid) const;

    /// A new FLOAT virtual tensor shaped like `likeUid`, for intermediates of decompositions.
    int64_t addVirtualLike(int64_t likeUid, const std::string& suffix);

    OperationSpec& addOperation(cudnnBackendDescriptorType_t type, std::string label);

    /// Throws TranslationError "node <i> '<name>': <problem>".
    [[noreturn]] void fail(const std::string& problem) const;

    /// Compute type of every cuDNN operation: float (cuDNN's accumulation type for
    /// fp32/fp16/bf16 data).
    static constexpr cudnnDataType_t kComputeType = CUDNN_DATA_FLOAT;

private:
    const hipdnn_flatbuffers_sdk::GraphWrapper& _graph;
    CudnnGraphSpec& _spec;
    int64_t _nodeIndex = -1;
    std::string _nodeName;
    int64_t _nextVirtualUid = 0;
};

// Per-operation translations, one file each group.
void translateConvolutionFwd(TranslationContext& context, const fb::ConvolutionFwdAttributes& attributes);
void translateConvolutionBwd(TranslationContext& context, const fb::ConvolutionBwdAttributes& attributes);
void translateConvolutionWrw(TranslationContext& context, const fb::ConvolutionWrwAttributes& attributes);
void translatePointwise(TranslationContext& context, const fb::PointwiseAttributes& attributes);
void translateMatmul(TranslationContext& context, const fb::MatmulAttributes& attributes);
void translateReduction(TranslationContext& context, const fb::ReductionAttributes& attributes);
void translateBatchnormInference(TranslationContext& context,
                                 const fb::BatchnormInferenceAttributes& attributes);
void translateBatchnormInferenceVariance(TranslationContext& context,
                                         const fb::BatchnormInferenceAttributesVarianceExt& attributes);
void translateBatchnormTraining(TranslationContext& context, const fb::BatchnormAttributes& attributes);
void translateBatchnormBackward(TranslationContext& context,
                                const fb::BatchnormBackwardAttributes& attributes);
void translateLayernorm(TranslationContext& context, const fb::LayernormAttributes& attributes);
void translateRmsNorm(TranslationContext& context, const fb::RMSNormAttributes& attributes);
void translateRmsNormBackward(TranslationContext& context, const fb::RMSNormBackwardAttributes& attributes);

/// One binary/unary pointwise operation (used by decompositions too).
void addPointwiseOperation(TranslationContext& context, cudnnPointwiseMode_t mode, const std::string& label,
                           int64_t x, std::optional<int64_t> b, int64_t y);

}  // namespace hipdnn_cudnn_plugin
