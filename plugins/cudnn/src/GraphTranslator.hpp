// Translates a hipdnn graph (FlatBuffer) into the cuDNN graph it maps to (CudnnGraphSpec).
// Every node maps to one or more cuDNN operations; tensors map 1:1 (uid, type, dims, strides),
// brought to the rank cuDNN needs. Throws TranslationError naming the node that cannot map.
#pragma once

#include "CudnnGraphSpec.hpp"
#include "EnumMapping.hpp"

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <string>

namespace hipdnn_cudnn_plugin {

/// The cuDNN a translation is for: some graphs are spelled differently per release.
struct TranslationTarget {
    /// cudnnGetVersion() of the library that will run the graph (default: the headers').
    size_t cudnnVersion = CUDNN_VERSION;
};

CudnnGraphSpec translateGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                              const TranslationTarget& target = {});

/// What the per-operation translations (ConvTranslation.cpp, ...) build with.
class TranslationContext {
public:
    TranslationContext(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, CudnnGraphSpec& spec,
                       TranslationTarget target = {});

    const TranslationTarget& target() const noexcept { return _target; }
    /// Number of nodes of the graph being translated.
    size_t nodeCount() const { return _graph.nodeCount(); }

    void beginNode(int64_t index, std::string name);

    /// `uid` itself after checking that the graph has the tensor (`port` names it in errors).
    int64_t tensor(int64_t uid, const char* port) const;
    const TensorSpec& tensorSpec(int64_t uid) const;
    /// Every tensor of the graph, by uid.
    const auto& tensorSpecs() const { return _spec.tensors; }
    /// Rank of the tensor as the hipdnn graph declares it (before any padding).
    size_t declaredRank(int64_t uid) const;
    /// Whether any node of the graph is of `type`.
    bool graphHas(fb::NodeAttributes type) const;

    /// A new FLOAT virtual tensor shaped like `likeUid`, for intermediates of decompositions.
    int64_t addVirtualLike(int64_t likeUid, const std::string& suffix);
    /// A new virtual tensor of `dims` (row-major unless `strides` are given) and `type`.
    int64_t addVirtual(const std::vector<int64_t>& dims, cudnnDataType_t type, const std::string& suffix,
                       std::vector<int64_t> strides = {});
    /// A new pass-by-value scalar, dims all 1 at the graph's rank, FLOAT or INT32.
    int64_t addScalar(double value, cudnnDataType_t type, const std::string& suffix);
    /// A new dense row-major tensor that lives in the workspace (CudnnGraphSpec::workspaceOffset).
    int64_t addWorkspaceTensor(const std::vector<int64_t>& dims, cudnnDataType_t type,
                               const std::string& suffix);
    /// Describes the user tensor `uid` to cuDNN as its view with dims (and strides) `first` and
    /// `second` swapped: the same memory read transposed.
    void swapDims(int64_t uid, size_t first, size_t second);
    /// Describes the extent-1 dims of user tensor `uid` with the strides a packed tensor of the
    /// dim order `innerToOuter` (innermost first) has there. Those strides never address memory,
    /// but cuDNN infers a tensor's layout from the order of its strides.
    void restrideUnitDims(int64_t uid, const std::vector<size_t>& innerToOuter);
    /// Has execute set user output `uid` to zero before cuDNN runs (TensorSpec::zeroedBeforeExecute);
    /// fails naming `port` when the tensor has gaps between its elements, which zeroing would clobber.
    void zeroBeforeExecute(int64_t uid, const char* port);
    /// What global.benchmarking's scratch copy of INT32 tensor `uid` holds (TensorSpec::timingValue).
    void setTimingValue(int64_t uid, int32_t value) { _spec.tensors.at(uid).timingValue = value; }
    /// Records structural nondeterminism of the graph (CudnnGraphSpec::nondeterminism).
    void setNondeterminism(std::string reason) { _spec.nondeterminism = std::move(reason); }

    OperationSpec& addOperation(cudnnBackendDescriptorType_t type, std::string label);

    /// Throws TranslationError "node <i> '<name>': <problem>".
    [[noreturn]] void fail(const std::string& problem) const;

    /// Compute type of every cuDNN operation: float (cuDNN's accumulation type for
    /// fp32/fp16/bf16 data).
    static constexpr cudnnDataType_t kComputeType = CUDNN_DATA_FLOAT;

private:
    int64_t addTensorSpec(TensorSpec spec, const std::string& suffix);

    const hipdnn_flatbuffers_sdk::GraphWrapper& _graph;
    CudnnGraphSpec& _spec;
    TranslationTarget _target;
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
void translateLayernormBackward(TranslationContext& context,
                                const fb::LayernormBackwardAttributes& attributes);
void translateRmsNorm(TranslationContext& context, const fb::RMSNormAttributes& attributes);
void translateRmsNormBackward(TranslationContext& context, const fb::RMSNormBackwardAttributes& attributes);
void translateSdpa(TranslationContext& context, const fb::SdpaAttributes& attributes);
void translateSdpaBackward(TranslationContext& context, const fb::SdpaBackwardAttributes& attributes);

/// What a decomposition's pointwise operation may set beyond its mode and x, b, y ports.
struct PointwiseOptions {
    /// The third input (BINARY_SELECT's mask).
    std::optional<int64_t> t;
    /// CUDNN_ATTR_POINTWISE_MATH_PREC: comparisons and logic compute in BOOLEAN, index
    /// arithmetic in INT32.
    cudnnDataType_t mathPrecision = TranslationContext::kComputeType;
    /// CUDNN_ATTR_POINTWISE_AXIS (GEN_INDEX).
    std::optional<int64_t> axis;
};

/// One binary/unary pointwise operation (used by decompositions too).
void addPointwiseOperation(TranslationContext& context, cudnnPointwiseMode_t mode, const std::string& label,
                           int64_t x, std::optional<int64_t> b, int64_t y,
                           const PointwiseOptions& options = {});
/// Tensors whose per-batch values replace a matmul's M, N or K (INT32, one value per batch):
/// attention's sequence lengths, so that padded rows and columns are never computed.
struct GemmOverrides {
    std::optional<int64_t> m;
    std::optional<int64_t> n;
    std::optional<int64_t> k;
};

/// One matmul c = a x b with float accumulation (used by decompositions too).
void addMatmulOperation(TranslationContext& context, int64_t a, int64_t b, int64_t c,
                        const GemmOverrides& overrides = {});
/// One reduction of x into y over the dims where y is 1 (used by decompositions too).
void addReductionOperation(TranslationContext& context, cudnnReduceTensorOp_t mode, const std::string& label,
                           int64_t x, int64_t y);

}  // namespace hipdnn_cudnn_plugin
