// The built-in node implementations: each reads its node's attributes, gives the references
// views of the node's tensors and runs them in the node's compute type.
//
// The references are instantiated for float, half and bfloat16 elements. When a node's ports
// of one role (say conv x, w and y) have different element types, the inputs are copied into
// float buffers (exact for half and bfloat16) and the outputs computed in float and rounded
// once into their own type, which is what the reference does internally anyway.
#include "ExecutorSupport.hpp"
#include "IndexIteration.hpp"

#include <hipdnn_test_sdk/ElementAccess.hpp>
#include <hipdnn_test_sdk/references/References.hpp>

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_flatbuffers_sdk/ElementDataType.hpp>

#include <initializer_list>
#include <memory>

namespace hipdnn_test_sdk::detail {

namespace {

namespace ref = hipdnn_test_sdk::references;
using fb::DataType;
using fb::NodeAttributes;
using hipdnn_data_sdk::types::bfloat16;
using hipdnn_data_sdk::types::half;
using hipdnn_flatbuffers_sdk::dataTypeOf;

template <class T>
struct TypeTag {
    using type = T;
};

// Calls fn(TypeTag<T>{}) for the element type `dataType` names.
template <class Fn>
void withElementType(DataType dataType, Fn&& fn) {
    switch (dataType) {
        case DataType::FLOAT:
            return fn(TypeTag<float>{});
        case DataType::HALF:
            return fn(TypeTag<half>{});
        case DataType::BFLOAT16:
            return fn(TypeTag<bfloat16>{});
        default:
            throw GraphExecutionError("element type " + dataTypeName(dataType) +
                                      " has no reference instantiation");
    }
}

template <class Fn>
void withIndexType(DataType dataType, Fn&& fn) {
    switch (dataType) {
        case DataType::INT8:
            return fn(TypeTag<int8_t>{});
        case DataType::INT32:
            return fn(TypeTag<int32_t>{});
        case DataType::INT64:
            return fn(TypeTag<int64_t>{});
        default:
            throw GraphExecutionError("pooling index type " + dataTypeName(dataType) + " is not supported");
    }
}

template <class Fn>
void withComputeType(DataType computeType, Fn&& fn) {
    switch (computeType) {
        case DataType::FLOAT:
            return fn(TypeTag<float>{});
        case DataType::DOUBLE:
            return fn(TypeTag<double>{});
        default:
            throw GraphExecutionError("compute type " + dataTypeName(computeType) + " is not supported");
    }
}

// Gives the references views of a node's tensors in the element type they are instantiated
// for, copying through conversion buffers where the tensor's own type differs.
class NodeTensors {
public:
    explicit NodeTensors(const NodeRunContext& context) : _context(context) {}

    DataType typeOf(int64_t uid) const {
        return effectiveDataType(_context.graph, _context.graph.tensor(uid));
    }

    // FLOAT unless every listed tensor has the same type.
    DataType commonTypeOrFloat(std::initializer_list<std::optional<int64_t>> uids) const {
        std::optional<DataType> common;
        for (const auto& uid : uids) {
            if (!uid) {
                continue;
            }
            const DataType type = typeOf(*uid);
            if (common && *common != type) {
                return DataType::FLOAT;
            }
            common = type;
        }
        return common.value_or(DataType::FLOAT);
    }

    template <class W>
    ref::TensorView<const W> input(int64_t uid) {
        const auto& tensor = _context.graph.tensor(uid);
        const DataType type = effectiveDataType(_context.graph, tensor);
        const void* data = _context.buffers.at(uid);
        if (type == dataTypeOf<W>()) {
            return {static_cast<const W*>(data), dimsOf(tensor), stridesOf(tensor)};
        }
        const auto dims = dimsOf(tensor);
        const auto strides = stridesOf(tensor);
        auto storage = std::make_shared<std::vector<W>>(static_cast<size_t>(elementCountOf(dims)));
        _conversions.push_back(storage);
        W* converted = storage->data();
        int64_t linear = 0;
        forEachIndex(dims, [&](const std::vector<int64_t>& index) {
            converted[linear++] = static_cast<W>(readElement(type, data, offsetOf(index, strides)));
        });
        return {converted, dims, ref::packedStrides(dims)};
    }

    template <class W>
    std::optional<ref::TensorView<const W>> optionalInput(std::optional<int64_t> uid) {
        if (!uid) {
            return std::nullopt;
        }
        return input<W>(*uid);
    }

    template <class W>
    ref::TensorView<W> output(int64_t uid) {
        const auto& tensor = _context.graph.tensor(uid);
        const DataType type = effectiveDataType(_context.graph, tensor);
        void* data = _context.buffers.at(uid);
        if (type == dataTypeOf<W>()) {
            return {static_cast<W*>(data), dimsOf(tensor), stridesOf(tensor)};
        }
        const auto dims = dimsOf(tensor);
        auto storage = std::make_shared<std::vector<W>>(static_cast<size_t>(elementCountOf(dims)));
        _conversions.push_back(storage);
        W* buffer = storage->data();
        _pendingCommits.push_back([this, uid, buffer] {
            const auto& target = _context.graph.tensor(uid);
            const auto strides = stridesOf(target);
            const DataType targetType = effectiveDataType(_context.graph, target);
            void* targetData = _context.buffers.at(uid);
            int64_t linear = 0;
            forEachIndex(dimsOf(target), [&](const std::vector<int64_t>& index) {
                writeElement(targetType, targetData, offsetOf(index, strides),
                             static_cast<double>(buffer[linear++]));
            });
        });
        return {buffer, dims, ref::packedStrides(dims)};
    }

    template <class W>
    std::optional<ref::TensorView<W>> optionalOutput(std::optional<int64_t> uid) {
        if (!uid) {
            return std::nullopt;
        }
        return output<W>(*uid);
    }

    double scalar(int64_t uid) const { return scalarValue(_context.graph, uid, _context.buffers); }

    // The values of an INT32 or INT64 tensor (sequence lengths, a dropout seed), read exactly.
    std::vector<int64_t> integers(int64_t uid) const {
        const auto& tensor = _context.graph.tensor(uid);
        if (tensor.value_type() == fb::TensorValue::Int64Value) {
            return {tensor.value_as_Int64Value()->value()};
        }
        if (tensor.value_type() == fb::TensorValue::Int32Value) {
            return {tensor.value_as_Int32Value()->value()};
        }
        const DataType type = effectiveDataType(_context.graph, tensor);
        if (type != DataType::INT32 && type != DataType::INT64) {
            throw GraphExecutionError(tensorLabel(tensor) + " has data type " + dataTypeName(type) +
                                      "; an integer tensor (INT32 or INT64) is needed");
        }
        const void* data = _context.buffers.at(uid);
        const auto strides = stridesOf(tensor);
        std::vector<int64_t> values;
        forEachIndex(dimsOf(tensor), [&](const std::vector<int64_t>& index) {
            const int64_t offset = offsetOf(index, strides);
            values.push_back(type == DataType::INT64 ? static_cast<const int64_t*>(data)[offset]
                                                     : static_cast<const int32_t*>(data)[offset]);
        });
        return values;
    }

    // Writes outputs computed in a conversion buffer into the caller's tensors.
    void commitOutputs() {
        for (const auto& commit : _pendingCommits) {
            commit();
        }
    }

private:
    const NodeRunContext& _context;
    // Conversion buffers (std::vector<W> of varying W), alive until the node has run.
    std::vector<std::shared_ptr<void>> _conversions;
    // Copy-backs of outputs computed in a conversion buffer.
    std::vector<std::function<void()>> _pendingCommits;
};

std::optional<int64_t> toOptional(flatbuffers::Optional<int64_t> value) {
    return value.has_value() ? std::optional<int64_t>(*value) : std::nullopt;
}

std::optional<double> toOptional(flatbuffers::Optional<float> value) {
    return value.has_value() ? std::optional<double>(*value) : std::nullopt;
}

std::vector<int64_t> toVector(const flatbuffers::Vector<int64_t>* values) {
    return values != nullptr ? std::vector<int64_t>(values->begin(), values->end()) : std::vector<int64_t>{};
}

template <class Attributes>
ref::ConvolutionParams convolutionParams(const Attributes& attributes) {
    ref::ConvolutionParams params;
    params.prePadding = toVector(attributes.pre_padding());
    params.postPadding = toVector(attributes.post_padding());
    params.stride = toVector(attributes.stride());
    params.dilation = toVector(attributes.dilation());
    params.mode = static_cast<ref::ConvMode>(attributes.conv_mode());
    return params;
}

// Runs `body(TypeTag<T>, TypeTag<C>)` with T the working element type and C the compute type.
template <class Body>
void withTypes(DataType elementType, DataType computeType, Body&& body) {
    withElementType(elementType, [&](auto elementTag) {
        withComputeType(computeType, [&](auto computeTag) { body(elementTag, computeTag); });
    });
}

template <class Body>
void withTypes(DataType elementType, DataType paramType, DataType computeType, Body&& body) {
    withElementType(elementType, [&](auto elementTag) {
        withElementType(paramType, [&](auto paramTag) {
            withComputeType(computeType, [&](auto computeTag) { body(elementTag, paramTag, computeTag); });
        });
    });
}

void runConvolutionFwd(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::ConvolutionFwdAttributes>();
    NodeTensors tensors(context);
    const DataType working =
        tensors.commonTypeOrFloat({a.x_tensor_uid(), a.w_tensor_uid(), a.y_tensor_uid()});
    withTypes(working, context.computeType, [&](auto elementTag, auto computeTag) {
        using T = typename decltype(elementTag)::type;
        using C = typename decltype(computeTag)::type;
        ref::convolutionFprop<T, C>(tensors.input<T>(a.x_tensor_uid()), tensors.input<T>(a.w_tensor_uid()),
                                    tensors.output<T>(a.y_tensor_uid()), convolutionParams(a));
    });
    tensors.commitOutputs();
}

void runConvolutionBwd(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::ConvolutionBwdAttributes>();
    NodeTensors tensors(context);
    const DataType working =
        tensors.commonTypeOrFloat({a.dy_tensor_uid(), a.w_tensor_uid(), a.dx_tensor_uid()});
    withTypes(working, context.computeType, [&](auto elementTag, auto computeTag) {
        using T = typename decltype(elementTag)::type;
        using C = typename decltype(computeTag)::type;
        ref::convolutionDgrad<T, C>(tensors.input<T>(a.dy_tensor_uid()), tensors.input<T>(a.w_tensor_uid()),
                                    tensors.output<T>(a.dx_tensor_uid()), convolutionParams(a));
    });
    tensors.commitOutputs();
}

void runConvolutionWrw(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::ConvolutionWrwAttributes>();
    NodeTensors tensors(context);
    const DataType working =
        tensors.commonTypeOrFloat({a.x_tensor_uid(), a.dy_tensor_uid(), a.dw_tensor_uid()});
    withTypes(working, context.computeType, [&](auto elementTag, auto computeTag) {
        using T = typename decltype(elementTag)::type;
        using C = typename decltype(computeTag)::type;
        ref::convolutionWgrad<T, C>(tensors.input<T>(a.x_tensor_uid()), tensors.input<T>(a.dy_tensor_uid()),
                                    tensors.output<T>(a.dw_tensor_uid()), convolutionParams(a));
    });
    tensors.commitOutputs();
}

void runBatchnormInference(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::BatchnormInferenceAttributes>();
    NodeTensors tensors(context);
    const DataType working = tensors.commonTypeOrFloat({a.x_tensor_uid(), a.y_tensor_uid()});
    const DataType params = tensors.typeOf(a.scale_tensor_uid());
    withTypes(working, params, context.computeType, [&](auto elementTag, auto paramTag, auto computeTag) {
        using T = typename decltype(elementTag)::type;
        using P = typename decltype(paramTag)::type;
        using C = typename decltype(computeTag)::type;
        ref::batchnormInference<T, P, C>(
            tensors.input<T>(a.x_tensor_uid()), tensors.input<P>(a.mean_tensor_uid()),
            tensors.input<P>(a.inv_variance_tensor_uid()), tensors.input<P>(a.scale_tensor_uid()),
            tensors.input<P>(a.bias_tensor_uid()), tensors.output<T>(a.y_tensor_uid()));
    });
    tensors.commitOutputs();
}

void runBatchnormInferenceVariance(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::BatchnormInferenceAttributesVarianceExt>();
    NodeTensors tensors(context);
    const DataType working = tensors.commonTypeOrFloat({a.x_tensor_uid(), a.y_tensor_uid()});
    const DataType params = tensors.typeOf(a.scale_tensor_uid());
    const double epsilon = tensors.scalar(a.epsilon_tensor_uid());
    withTypes(working, params, context.computeType, [&](auto elementTag, auto paramTag, auto computeTag) {
        using T = typename decltype(elementTag)::type;
        using P = typename decltype(paramTag)::type;
        using C = typename decltype(computeTag)::type;
        ref::batchnormInferenceWithVariance<T, P, C>(
            tensors.input<T>(a.x_tensor_uid()), tensors.input<P>(a.mean_tensor_uid()),
            tensors.input<P>(a.variance_tensor_uid()), tensors.input<P>(a.scale_tensor_uid()),
            tensors.input<P>(a.bias_tensor_uid()), epsilon, tensors.output<T>(a.y_tensor_uid()));
    });
    tensors.commitOutputs();
}

void runBatchnormTraining(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::BatchnormAttributes>();
    NodeTensors tensors(context);
    const DataType working = tensors.commonTypeOrFloat({a.x_tensor_uid(), a.y_tensor_uid()});
    const DataType params = tensors.typeOf(a.scale_tensor_uid());
    const double epsilon = tensors.scalar(a.epsilon_tensor_uid());
    const bool hasRunningStats = a.momentum_tensor_uid().has_value();
    const double momentum = hasRunningStats ? tensors.scalar(*a.momentum_tensor_uid()) : 0.0;
    withTypes(working, params, context.computeType, [&](auto elementTag, auto paramTag, auto computeTag) {
        using T = typename decltype(elementTag)::type;
        using P = typename decltype(paramTag)::type;
        using C = typename decltype(computeTag)::type;
        std::optional<ref::BatchnormRunningStats<P>> runningStats;
        if (hasRunningStats) {
            runningStats = ref::BatchnormRunningStats<P>{
                tensors.input<P>(*a.prev_running_mean_tensor_uid()),
                tensors.input<P>(*a.prev_running_variance_tensor_uid()),
                tensors.output<P>(*a.next_running_mean_tensor_uid()),
                tensors.output<P>(*a.next_running_variance_tensor_uid()), momentum};
        }
        ref::batchnormTraining<T, P, C>(
            tensors.input<T>(a.x_tensor_uid()), tensors.input<P>(a.scale_tensor_uid()),
            tensors.input<P>(a.bias_tensor_uid()), epsilon, tensors.output<T>(a.y_tensor_uid()),
            tensors.optionalOutput<P>(toOptional(a.mean_tensor_uid())),
            tensors.optionalOutput<P>(toOptional(a.inv_variance_tensor_uid())), runningStats);
    });
    tensors.commitOutputs();
}

void runBatchnormBackward(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::BatchnormBackwardAttributes>();
    NodeTensors tensors(context);
    const DataType working =
        tensors.commonTypeOrFloat({a.dy_tensor_uid(), a.x_tensor_uid(), a.dx_tensor_uid()});
    const DataType params = tensors.typeOf(a.scale_tensor_uid());
    const std::optional<double> epsilon = a.epsilon_tensor_uid().has_value()
                                              ? std::optional<double>(tensors.scalar(*a.epsilon_tensor_uid()))
                                              : std::nullopt;
    withTypes(working, params, context.computeType, [&](auto elementTag, auto paramTag, auto computeTag) {
        using T = typename decltype(elementTag)::type;
        using P = typename decltype(paramTag)::type;
        using C = typename decltype(computeTag)::type;
        ref::batchnormBackward<T, P, C>(
            tensors.input<T>(a.dy_tensor_uid()), tensors.input<T>(a.x_tensor_uid()),
            tensors.optionalInput<P>(toOptional(a.mean_tensor_uid())),
            tensors.optionalInput<P>(toOptional(a.inv_variance_tensor_uid())),
            tensors.input<P>(a.scale_tensor_uid()), epsilon, tensors.output<T>(a.dx_tensor_uid()),
            tensors.output<P>(a.dscale_tensor_uid()), tensors.output<P>(a.dbias_tensor_uid()));
    });
    tensors.commitOutputs();
}

void runPointwise(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::PointwiseAttributes>();
    NodeTensors tensors(context);
    const auto in1 = toOptional(a.in_1_tensor_uid());
    const auto in2 = toOptional(a.in_2_tensor_uid());
    const DataType inputType = tensors.commonTypeOrFloat({a.in_0_tensor_uid(), in1, in2});
    const DataType outputType = tensors.typeOf(a.out_0_tensor_uid());

    ref::PointwiseParams params;
    params.mode = static_cast<ref::PointwiseMode>(a.operation());
    params.reluLowerClip = toOptional(a.relu_lower_clip());
    params.reluUpperClip = toOptional(a.relu_upper_clip());
    params.reluLowerClipSlope = toOptional(a.relu_lower_clip_slope());
    params.axis = toOptional(a.axis_tensor_uid());
    params.swishBeta = toOptional(a.swish_beta());
    params.eluAlpha = toOptional(a.elu_alpha());
    params.softplusBeta = toOptional(a.softplus_beta());

    withTypes(inputType, outputType, context.computeType, [&](auto inTag, auto outTag, auto computeTag) {
        using In = typename decltype(inTag)::type;
        using Out = typename decltype(outTag)::type;
        using C = typename decltype(computeTag)::type;
        ref::pointwise<In, Out, C>(params, tensors.input<In>(a.in_0_tensor_uid()),
                                   tensors.optionalInput<In>(in1), tensors.optionalInput<In>(in2),
                                   tensors.output<Out>(a.out_0_tensor_uid()));
    });
    tensors.commitOutputs();
}

void runMatmul(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::MatmulAttributes>();
    NodeTensors tensors(context);
    const DataType inputType = tensors.commonTypeOrFloat({a.a_tensor_uid(), a.b_tensor_uid()});
    withTypes(inputType, tensors.typeOf(a.c_tensor_uid()), context.computeType,
              [&](auto inTag, auto outTag, auto computeTag) {
                  using In = typename decltype(inTag)::type;
                  using Out = typename decltype(outTag)::type;
                  using C = typename decltype(computeTag)::type;
                  ref::matmul<In, Out, C>(tensors.input<In>(a.a_tensor_uid()),
                                          tensors.input<In>(a.b_tensor_uid()),
                                          tensors.output<Out>(a.c_tensor_uid()));
              });
    tensors.commitOutputs();
}

void runReduction(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::ReductionAttributes>();
    NodeTensors tensors(context);
    withTypes(tensors.typeOf(a.in_tensor_uid()), tensors.typeOf(a.out_tensor_uid()), context.computeType,
              [&](auto inTag, auto outTag, auto computeTag) {
                  using In = typename decltype(inTag)::type;
                  using Out = typename decltype(outTag)::type;
                  using C = typename decltype(computeTag)::type;
                  ref::reduction<In, Out, C>(static_cast<ref::ReductionMode>(a.mode()),
                                             tensors.input<In>(a.in_tensor_uid()),
                                             tensors.output<Out>(a.out_tensor_uid()));
              });
    tensors.commitOutputs();
}

void runLayernorm(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::LayernormAttributes>();
    NodeTensors tensors(context);
    const DataType working = tensors.commonTypeOrFloat({a.x_tensor_uid(), a.y_tensor_uid()});
    const double epsilon = tensors.scalar(a.epsilon_tensor_uid());
    withTypes(working, tensors.typeOf(a.scale_tensor_uid()), context.computeType,
              [&](auto elementTag, auto paramTag, auto computeTag) {
                  using T = typename decltype(elementTag)::type;
                  using P = typename decltype(paramTag)::type;
                  using C = typename decltype(computeTag)::type;
                  ref::layernormForward<T, P, C>(
                      tensors.input<T>(a.x_tensor_uid()), tensors.input<P>(a.scale_tensor_uid()),
                      tensors.input<P>(a.bias_tensor_uid()), epsilon, tensors.output<T>(a.y_tensor_uid()),
                      tensors.optionalOutput<P>(toOptional(a.mean_tensor_uid())),
                      tensors.optionalOutput<P>(toOptional(a.inv_variance_tensor_uid())));
              });
    tensors.commitOutputs();
}

void runRmsNorm(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::RMSNormAttributes>();
    NodeTensors tensors(context);
    const DataType working = tensors.commonTypeOrFloat({a.x_tensor_uid(), a.y_tensor_uid()});
    const double epsilon = tensors.scalar(a.epsilon_tensor_uid());
    withTypes(working, tensors.typeOf(a.scale_tensor_uid()), context.computeType,
              [&](auto elementTag, auto paramTag, auto computeTag) {
                  using T = typename decltype(elementTag)::type;
                  using P = typename decltype(paramTag)::type;
                  using C = typename decltype(computeTag)::type;
                  ref::rmsnormForward<T, P, C>(tensors.input<T>(a.x_tensor_uid()),
                                               tensors.input<P>(a.scale_tensor_uid()),
                                               tensors.optionalInput<P>(toOptional(a.bias_tensor_uid())),
                                               epsilon, tensors.output<T>(a.y_tensor_uid()),
                                               tensors.optionalOutput<P>(toOptional(a.inv_rms_tensor_uid())));
              });
    tensors.commitOutputs();
}

void runRmsNormBackward(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::RMSNormBackwardAttributes>();
    NodeTensors tensors(context);
    const DataType working =
        tensors.commonTypeOrFloat({a.dy_tensor_uid(), a.x_tensor_uid(), a.dx_tensor_uid()});
    withTypes(working, tensors.typeOf(a.scale_tensor_uid()), context.computeType,
              [&](auto elementTag, auto paramTag, auto computeTag) {
                  using T = typename decltype(elementTag)::type;
                  using P = typename decltype(paramTag)::type;
                  using C = typename decltype(computeTag)::type;
                  ref::rmsnormBackward<T, P, C>(
                      tensors.input<T>(a.dy_tensor_uid()), tensors.input<T>(a.x_tensor_uid()),
                      tensors.input<P>(a.scale_tensor_uid()), tensors.input<P>(*a.inv_rms_tensor_uid()),
                      tensors.output<T>(a.dx_tensor_uid()), tensors.output<P>(a.dscale_tensor_uid()),
                      tensors.optionalOutput<P>(toOptional(a.dbias_tensor_uid())));
              });
    tensors.commitOutputs();
}

void runLayernormBackward(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::LayernormBackwardAttributes>();
    NodeTensors tensors(context);
    const DataType working =
        tensors.commonTypeOrFloat({a.dy_tensor_uid(), a.x_tensor_uid(), a.dx_tensor_uid()});
    withTypes(working, tensors.typeOf(a.scale_tensor_uid()), context.computeType,
              [&](auto elementTag, auto paramTag, auto computeTag) {
                  using T = typename decltype(elementTag)::type;
                  using P = typename decltype(paramTag)::type;
                  using C = typename decltype(computeTag)::type;
                  ref::layernormBackward<T, P, C>(
                      tensors.input<T>(a.dy_tensor_uid()), tensors.input<T>(a.x_tensor_uid()),
                      tensors.input<P>(a.scale_tensor_uid()), tensors.input<P>(*a.mean_tensor_uid()),
                      tensors.input<P>(*a.inv_variance_tensor_uid()), tensors.output<T>(a.dx_tensor_uid()),
                      tensors.output<P>(a.dscale_tensor_uid()), tensors.output<P>(a.dbias_tensor_uid()));
              });
    tensors.commitOutputs();
}

void runResample(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::ResampleFwdAttributes>();
    NodeTensors tensors(context);
    ref::PoolingParams params;
    params.mode = static_cast<ref::ResampleMode>(a.resample_mode());
    // NOT_SET means the schema default, which for max pooling is "padding never wins".
    params.paddingMode = a.padding_mode() == fb::PaddingMode::PADDING_NOT_SET
                             ? ref::PaddingMode::NEG_INF_PAD
                             : static_cast<ref::PaddingMode>(a.padding_mode());
    params.prePadding = toVector(a.pre_padding());
    params.postPadding = toVector(a.post_padding());
    params.stride = toVector(a.stride());
    params.window = toVector(a.window());
    const DataType working = tensors.commonTypeOrFloat({a.x_tensor_uid(), a.y_tensor_uid()});
    const auto indexUid = toOptional(a.index_tensor_uid());
    // Without an index tensor any index type will do; int32_t is the reference's default.
    const DataType indexType = indexUid ? tensors.typeOf(*indexUid) : DataType::INT32;
    withTypes(working, context.computeType, [&](auto elementTag, auto computeTag) {
        using T = typename decltype(elementTag)::type;
        using C = typename decltype(computeTag)::type;
        withIndexType(indexType, [&](auto indexTag) {
            using Index = typename decltype(indexTag)::type;
            std::optional<ref::TensorView<Index>> index;
            if (indexUid) {
                index = tensors.output<Index>(*indexUid);
            }
            ref::poolingForward<T, Index, C>(params, tensors.input<T>(a.x_tensor_uid()),
                                             tensors.output<T>(a.y_tensor_uid()), index);
        });
    });
    tensors.commitOutputs();
}

// Forward and backward read their options from fields of the same names. Without a scale the
// scores are not scaled, as in cuDNN.
template <class Attributes>
ref::AttentionParams attentionParams(const Attributes& a, const NodeTensors& tensors) {
    ref::AttentionParams params;
    params.scale = a.scale_tensor_uid().has_value()   ? tensors.scalar(*a.scale_tensor_uid())
                   : a.attn_scale_value().has_value() ? static_cast<double>(*a.attn_scale_value())
                                                      : 1.0;
    const bool bottomRight = a.diagonal_alignment() == fb::DiagonalAlignment::BOTTOM_RIGHT;
    params.causal = a.causal_mask() && !bottomRight;
    params.causalBottomRight = a.causal_mask_bottom_right() || (a.causal_mask() && bottomRight);
    if (a.padding_mask()) {
        params.seqLenQ = tensors.integers(*a.seq_len_q_tensor_uid());
        params.seqLenKv = tensors.integers(*a.seq_len_kv_tensor_uid());
    }
    if (a.dropout_probability().has_value() && *a.dropout_probability() > 0.0F) {
        params.dropoutProbability = *a.dropout_probability();
        params.dropoutSeed = static_cast<uint64_t>(tensors.integers(*a.seed_tensor_uid()).front());
        params.dropoutOffset = static_cast<uint64_t>(tensors.integers(*a.offset_tensor_uid()).front());
    }
    return params;
}

void runSdpa(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::SdpaAttributes>();
    NodeTensors tensors(context);
    const auto params = attentionParams(a, tensors);
    withElementType(tensors.typeOf(a.q_tensor_uid()), [&](auto elementTag) {
        using T = typename decltype(elementTag)::type;
        ref::sdpaForward<T>(params, tensors.input<T>(a.q_tensor_uid()), tensors.input<T>(a.k_tensor_uid()),
                            tensors.input<T>(a.v_tensor_uid()),
                            tensors.optionalInput<float>(toOptional(a.attn_mask_tensor_uid())),
                            tensors.output<T>(a.o_tensor_uid()),
                            tensors.optionalOutput<float>(toOptional(a.stats_tensor_uid())));
    });
    tensors.commitOutputs();
}

void runSdpaBackward(const NodeRunContext& context) {
    const auto& a = *context.node.attributesAs<fb::SdpaBackwardAttributes>();
    NodeTensors tensors(context);
    const auto params = attentionParams(a, tensors);
    withElementType(tensors.typeOf(a.q_tensor_uid()), [&](auto elementTag) {
        using T = typename decltype(elementTag)::type;
        ref::sdpaBackward<T>(params, tensors.input<T>(a.q_tensor_uid()), tensors.input<T>(a.k_tensor_uid()),
                             tensors.input<T>(a.v_tensor_uid()), tensors.input<T>(a.o_tensor_uid()),
                             tensors.input<T>(a.do_tensor_uid()), tensors.input<float>(a.stats_tensor_uid()),
                             tensors.optionalInput<float>(toOptional(a.attn_mask_tensor_uid())),
                             tensors.output<T>(a.dq_tensor_uid()), tensors.output<T>(a.dk_tensor_uid()),
                             tensors.output<T>(a.dv_tensor_uid()));
    });
    tensors.commitOutputs();
}

constexpr std::initializer_list<DataType> floatTypes = {DataType::FLOAT, DataType::HALF, DataType::BFLOAT16};
constexpr std::initializer_list<DataType> indexTypes = {DataType::INT8, DataType::INT32, DataType::INT64};

// Registers `implementation` for every combination of the per-port type choices.
void registerCombinations(NodeRegistry& registry, NodeAttributes op,
                          const std::vector<std::vector<DataType>>& choicesPerPort,
                          const NodeImplementation& implementation) {
    std::vector<size_t> choice(choicesPerPort.size(), 0);
    while (true) {
        NodeSignature signature{op, {}};
        for (size_t port = 0; port < choicesPerPort.size(); ++port) {
            signature.dataTypes.push_back(choicesPerPort[port][choice[port]]);
        }
        registry.add(signature, implementation);
        size_t port = choicesPerPort.size();
        while (port > 0 && ++choice[port - 1] == choicesPerPort[port - 1].size()) {
            choice[port - 1] = 0;
            --port;
        }
        if (port == 0) {
            return;
        }
    }
}

void registerFloatPorts(NodeRegistry& registry, NodeAttributes op, size_t portCount,
                        const NodeImplementation& implementation) {
    registerCombinations(registry, op, std::vector<std::vector<DataType>>(portCount, floatTypes),
                         implementation);
}

}  // namespace

void registerBuiltinImplementations(NodeRegistry& registry) {
    registerFloatPorts(registry, NodeAttributes::ConvolutionFwdAttributes, 3, runConvolutionFwd);
    registerFloatPorts(registry, NodeAttributes::ConvolutionBwdAttributes, 3, runConvolutionBwd);
    registerFloatPorts(registry, NodeAttributes::ConvolutionWrwAttributes, 3, runConvolutionWrw);
    registerFloatPorts(registry, NodeAttributes::BatchnormInferenceAttributes, 3, runBatchnormInference);
    registerFloatPorts(registry, NodeAttributes::BatchnormInferenceAttributesVarianceExt, 3,
                       runBatchnormInferenceVariance);
    registerFloatPorts(registry, NodeAttributes::BatchnormAttributes, 3, runBatchnormTraining);
    registerFloatPorts(registry, NodeAttributes::BatchnormBackwardAttributes, 4, runBatchnormBackward);
    // Unary, binary and ternary pointwise nodes have 2, 3 and 4 signature ports.
    for (size_t ports = 2; ports <= 4; ++ports) {
        registerFloatPorts(registry, NodeAttributes::PointwiseAttributes, ports, runPointwise);
    }
    registerFloatPorts(registry, NodeAttributes::MatmulAttributes, 3, runMatmul);
    registerFloatPorts(registry, NodeAttributes::ReductionAttributes, 2, runReduction);
    registerFloatPorts(registry, NodeAttributes::LayernormAttributes, 3, runLayernorm);
    registerFloatPorts(registry, NodeAttributes::RMSNormAttributes, 3, runRmsNorm);
    registerFloatPorts(registry, NodeAttributes::RMSNormBackwardAttributes, 4, runRmsNormBackward);
    registerFloatPorts(registry, NodeAttributes::LayernormBackwardAttributes, 4, runLayernormBackward);
    registerFloatPorts(registry, NodeAttributes::ResampleFwdAttributes, 2, runResample);
    registerCombinations(registry, NodeAttributes::ResampleFwdAttributes,
                         {floatTypes, floatTypes, indexTypes}, runResample);
    // Attention's operands share one element type; the bias has any, the stats are FLOAT. The
    // signature lists the operands (forward q, k, v, o; backward q, k, v, o, do, dq, dk, dv), then
    // the bias, then the stats.
    for (const DataType type : floatTypes) {
        const std::vector<DataType> same{type};
        const std::vector<DataType> statistics{DataType::FLOAT};
        const std::vector<std::vector<DataType>> forward(4, same);
        const std::vector<std::vector<DataType>> backward(8, same);
        registerCombinations(registry, NodeAttributes::SdpaAttributes, forward, runSdpa);
        auto withBias = forward;
        withBias.push_back(floatTypes);
        registerCombinations(registry, NodeAttributes::SdpaAttributes, withBias, runSdpa);
        withBias.push_back(statistics);
        registerCombinations(registry, NodeAttributes::SdpaAttributes, withBias, runSdpa);
        auto backwardWithStats = backward;
        backwardWithStats.push_back(statistics);
        registerCombinations(registry, NodeAttributes::SdpaBackwardAttributes, backwardWithStats,
                             runSdpaBackward);
        auto backwardWithBias = backward;
        backwardWithBias.push_back(floatTypes);
        backwardWithBias.push_back(statistics);
        registerCombinations(registry, NodeAttributes::SdpaBackwardAttributes, backwardWithBias,
                             runSdpaBackward);
    }
}

}  // namespace hipdnn_test_sdk::detail
