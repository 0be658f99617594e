#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <stdexcept>

namespace hipdnn_test_sdk {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

namespace {

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& dims) {
    std::vector<int64_t> strides(dims.size(), 1);
    for (size_t i = dims.size(); i-- > 1;) {
        strides[i - 1] = strides[i] * dims[i];
    }
    return strides;
}

flatbuffers::Optional<int64_t> toFlatbuffers(std::optional<int64_t> value) {
    return value ? flatbuffers::Optional<int64_t>(*value) : flatbuffers::nullopt;
}

flatbuffers::Optional<float> toFlatbuffers(std::optional<float> value) {
    return value ? flatbuffers::Optional<float>(*value) : flatbuffers::nullopt;
}

// The union member a pass-by-value scalar of `dataType` is stored as.
std::pair<fb::TensorValue, Offset<void>> scalarValue(FlatBufferBuilder& builder, fb::DataType dataType,
                                                     double value) {
    switch (dataType) {
        case fb::DataType::FLOAT:
            return {fb::TensorValue::Float32Value,
                    builder.CreateStruct(fb::Float32Value(static_cast<float>(value))).Union()};
        case fb::DataType::HALF:
            return {fb::TensorValue::Float16Value,
                    builder.CreateStruct(fb::Float16Value(static_cast<float>(value))).Union()};
        case fb::DataType::BFLOAT16:
            return {fb::TensorValue::BFloat16Value,
                    builder.CreateStruct(fb::BFloat16Value(static_cast<float>(value))).Union()};
        case fb::DataType::DOUBLE:
            return {fb::TensorValue::Float64Value, builder.CreateStruct(fb::Float64Value(value)).Union()};
        case fb::DataType::INT32:
            return {fb::TensorValue::Int32Value,
                    builder.CreateStruct(fb::Int32Value(static_cast<int32_t>(value))).Union()};
        case fb::DataType::INT64:
            return {fb::TensorValue::Int64Value,
                    builder.CreateStruct(fb::Int64Value(static_cast<int64_t>(value))).Union()};
        default:
            throw std::invalid_argument(
                std::string("GraphBuilder: no pass-by-value representation for data type ") +
                fb::EnumNameDataType(dataType));
    }
}

}  // namespace

GraphBuilder::GraphBuilder(std::string name) : _name(std::move(name)) {}

GraphBuilder& GraphBuilder::setComputeDataType(DataType type) {
    _computeType = type;
    return *this;
}

GraphBuilder& GraphBuilder::setIntermediateDataType(DataType type) {
    _intermediateType = type;
    return *this;
}

GraphBuilder& GraphBuilder::setIoDataType(DataType type) {
    _ioType = type;
    return *this;
}

GraphBuilder& GraphBuilder::setPreferredEngineId(int64_t engineId) {
    _preferredEngineId = engineId;
    return *this;
}

GraphBuilder& GraphBuilder::addTensor(int64_t uid, std::string name, DataType dataType,
                                      std::vector<int64_t> dims, std::vector<int64_t> strides,
                                      bool isVirtual) {
    if (strides.empty()) {
        strides = rowMajorStrides(dims);
    }
    _tensors.push_back(
        {uid, std::move(name), dataType, std::move(dims), std::move(strides), isVirtual, std::nullopt});
    return *this;
}

GraphBuilder& GraphBuilder::addScalar(int64_t uid, std::string name, DataType dataType, double value,
                                      std::vector<int64_t> dims) {
    std::vector<int64_t> strides(dims.size(), 1);
    _tensors.push_back({uid, std::move(name), dataType, std::move(dims), std::move(strides), false, value});
    return *this;
}

GraphBuilder& GraphBuilder::addNode(std::string name, fb::NodeAttributes type,
                                    AttributesFactory createAttributes) {
    _nodes.push_back({std::move(name), DataType::UNSET, type, std::move(createAttributes)});
    return *this;
}

GraphBuilder& GraphBuilder::setNodeComputeDataType(DataType type) {
    if (_nodes.empty()) {
        throw std::logic_error("GraphBuilder::setNodeComputeDataType called before any node was added");
    }
    _nodes.back().computeType = type;
    return *this;
}

GraphBuilder& GraphBuilder::addConvFprop(std::string name, int64_t x, int64_t w, int64_t y,
                                         const ConvolutionGeometry& geometry) {
    return addNode(
        std::move(name), fb::NodeAttributes::ConvolutionFwdAttributes, [=](FlatBufferBuilder& builder) {
            return fb::CreateConvolutionFwdAttributesDirect(builder, x, w, y, &geometry.prePadding,
                                                            &geometry.postPadding, &geometry.stride,
                                                            &geometry.dilation, geometry.mode)
                .Union();
        });
}

GraphBuilder& GraphBuilder::addConvDgrad(std::string name, int64_t dy, int64_t w, int64_t dx,
                                         const ConvolutionGeometry& geometry) {
    return addNode(
        std::move(name), fb::NodeAttributes::ConvolutionBwdAttributes, [=](FlatBufferBuilder& builder) {
            return fb::CreateConvolutionBwdAttributesDirect(builder, dy, w, dx, &geometry.prePadding,
                                                            &geometry.postPadding, &geometry.stride,
                                                            &geometry.dilation, geometry.mode)
                .Union();
        });
}

GraphBuilder& GraphBuilder::addConvWgrad(std::string name, int64_t x, int64_t dy, int64_t dw,
                                         const ConvolutionGeometry& geometry) {
    return addNode(
        std::move(name), fb::NodeAttributes::ConvolutionWrwAttributes, [=](FlatBufferBuilder& builder) {
            return fb::CreateConvolutionWrwAttributesDirect(builder, x, dy, dw, &geometry.prePadding,
                                                            &geometry.postPadding, &geometry.stride,
                                                            &geometry.dilation, geometry.mode)
                .Union();
        });
}

GraphBuilder& GraphBuilder::addBatchnormInference(std::string name, int64_t x, int64_t mean,
                                                  int64_t invVariance, int64_t scale, int64_t bias,
                                                  int64_t y) {
    return addNode(
        std::move(name), fb::NodeAttributes::BatchnormInferenceAttributes, [=](FlatBufferBuilder& builder) {
            return fb::CreateBatchnormInferenceAttributes(builder, x, mean, invVariance, scale, bias, y)
                .Union();
        });
}

GraphBuilder& GraphBuilder::addBatchnormInferenceVariance(std::string name, int64_t x, int64_t mean,
                                                          int64_t variance, int64_t scale, int64_t bias,
                                                          int64_t epsilon, int64_t y) {
    return addNode(std::move(name), fb::NodeAttributes::BatchnormInferenceAttributesVarianceExt,
                   [=](FlatBufferBuilder& builder) {
                       return fb::CreateBatchnormInferenceAttributesVarianceExt(builder, x, mean, variance,
                                                                                scale, bias, y, epsilon)
                           .Union();
                   });
}

GraphBuilder& GraphBuilder::addBatchnormTraining(std::string name, const BatchnormTrainingPorts& p) {
    return addNode(std::move(name), fb::NodeAttributes::BatchnormAttributes, [=](FlatBufferBuilder& builder) {
        return fb::CreateBatchnormAttributesDirect(
                   builder, p.x, p.scale, p.bias, p.epsilon, p.peerStats.empty() ? nullptr : &p.peerStats,
                   toFlatbuffers(p.prevRunningMean), toFlatbuffers(p.prevRunningVariance),
                   toFlatbuffers(p.momentum), p.y, toFlatbuffers(p.mean), toFlatbuffers(p.invVariance),
                   toFlatbuffers(p.nextRunningMean), toFlatbuffers(p.nextRunningVariance))
            .Union();
    });
}

GraphBuilder& GraphBuilder::addBatchnormBackward(std::string name, const BatchnormBackwardPorts& p) {
    return addNode(std::move(name), fb::NodeAttributes::BatchnormBackwardAttributes,
                   [=](FlatBufferBuilder& builder) {
                       return fb::CreateBatchnormBackwardAttributesDirect(
                                  builder, p.dy, p.x, toFlatbuffers(p.mean), toFlatbuffers(p.invVariance),
                                  p.scale, p.peerStats.empty() ? nullptr : &p.peerStats, p.dx, p.dscale,
                                  p.dbias, toFlatbuffers(p.epsilon))
                           .Union();
                   });
}

GraphBuilder& GraphBuilder::addPointwise(std::string name, fb::PointwiseMode mode, int64_t in0, int64_t out0,
                                         std::optional<int64_t> in1, std::optional<int64_t> in2,
                                         const PointwiseOptions& o) {
    return addNode(std::move(name), fb::NodeAttributes::PointwiseAttributes, [=](FlatBufferBuilder& builder) {
        return fb::CreatePointwiseAttributes(
                   builder, mode, toFlatbuffers(o.reluLowerClip), toFlatbuffers(o.reluUpperClip),
                   toFlatbuffers(o.reluLowerClipSlope), toFlatbuffers(o.axis), in0, toFlatbuffers(in1),
                   toFlatbuffers(in2), out0, toFlatbuffers(o.swishBeta), toFlatbuffers(o.eluAlpha),
                   toFlatbuffers(o.softplusBeta))
            .Union();
    });
}

GraphBuilder& GraphBuilder::addMatmul(std::string name, int64_t a, int64_t b, int64_t c) {
    return addNode(std::move(name), fb::NodeAttributes::MatmulAttributes, [=](FlatBufferBuilder& builder) {
        return fb::CreateMatmulAttributes(builder, a, b, c).Union();
    });
}

GraphBuilder& GraphBuilder::addReduction(std::string name, fb::ReductionMode mode, int64_t in, int64_t out) {
    return addNode(std::move(name), fb::NodeAttributes::ReductionAttributes, [=](FlatBufferBuilder& builder) {
        return fb::CreateReductionAttributes(builder, mode, in, out).Union();
    });
}

GraphBuilder& GraphBuilder::addLayernorm(std::string name, int64_t x, int64_t scale, int64_t bias,
                                         int64_t epsilon, int64_t y, std::optional<int64_t> mean,
                                         std::optional<int64_t> invVariance) {
    const auto phase = mean && invVariance ? fb::NormFwdPhase::TRAINING : fb::NormFwdPhase::INFERENCE;
    return addNode(std::move(name), fb::NodeAttributes::LayernormAttributes, [=](FlatBufferBuilder& builder) {
        return fb::CreateLayernormAttributes(builder, x, scale, bias, epsilon, y, 0, toFlatbuffers(mean),
                                             toFlatbuffers(invVariance), phase)
            .Union();
    });
}

GraphBuilder& GraphBuilder::addLayernormBackward(std::string name, int64_t dy, int64_t x, int64_t scale,
                                                 int64_t mean, int64_t invVariance, int64_t dx,
                                                 int64_t dscale, int64_t dbias) {
    return addNode(
        std::move(name), fb::NodeAttributes::LayernormBackwardAttributes, [=](FlatBufferBuilder& builder) {
            return fb::CreateLayernormBackwardAttributes(builder, dy, x, scale, mean, invVariance,
                                                         flatbuffers::nullopt, dx, dscale, dbias, 0)
                .Union();
        });
}

GraphBuilder& GraphBuilder::addRmsNorm(std::string name, int64_t x, int64_t scale, int64_t epsilon, int64_t y,
                                       std::optional<int64_t> bias, std::optional<int64_t> invRms) {
    const auto phase = invRms ? fb::NormFwdPhase::TRAINING : fb::NormFwdPhase::INFERENCE;
    return addNode(std::move(name), fb::NodeAttributes::RMSNormAttributes, [=](FlatBufferBuilder& builder) {
        return fb::CreateRMSNormAttributes(builder, x, scale, epsilon, y, toFlatbuffers(bias),
                                           toFlatbuffers(invRms), phase)
            .Union();
    });
}

GraphBuilder& GraphBuilder::addRmsNormBackward(std::string name, int64_t dy, int64_t x, int64_t scale,
                                               int64_t invRms, int64_t dx, int64_t dscale,
                                               std::optional<int64_t> dbias) {
    return addNode(std::move(name), fb::NodeAttributes::RMSNormBackwardAttributes,
                   [=](FlatBufferBuilder& builder) {
                       return fb::CreateRMSNormBackwardAttributes(builder, dy, x, scale, invRms, dx, dscale,
                                                                  toFlatbuffers(dbias))
                           .Union();
                   });
}

namespace {

// Writes the options both attention tables share (they have the same field names).
template <class TableBuilder>
void addSdpaOptions(TableBuilder& table, const SdpaOptions& options) {
    if (options.scale) {
        table.add_attn_scale_value(*options.scale);
    }
    if (options.scaleTensor) {
        table.add_scale_tensor_uid(*options.scaleTensor);
    }
    table.add_causal_mask(options.causal);
    table.add_causal_mask_bottom_right(options.causalBottomRight);
    if (options.bias) {
        table.add_attn_mask_tensor_uid(*options.bias);
    }
    if (options.seqLenQ) {
        table.add_seq_len_q_tensor_uid(*options.seqLenQ);
    }
    if (options.seqLenKv) {
        table.add_seq_len_kv_tensor_uid(*options.seqLenKv);
    }
    table.add_padding_mask(options.seqLenQ.has_value() || options.seqLenKv.has_value());
    if (options.dropoutProbability) {
        table.add_dropout_probability(*options.dropoutProbability);
    }
    if (options.seed) {
        table.add_seed_tensor_uid(*options.seed);
    }
    if (options.offset) {
        table.add_offset_tensor_uid(*options.offset);
    }
}

}  // namespace

GraphBuilder& GraphBuilder::addSdpa(std::string name, int64_t q, int64_t k, int64_t v, int64_t o,
                                    std::optional<int64_t> stats, const SdpaOptions& options) {
    return addNode(std::move(name), fb::NodeAttributes::SdpaAttributes, [=](FlatBufferBuilder& builder) {
        fb::SdpaAttributesBuilder table(builder);
        table.add_q_tensor_uid(q);
        table.add_k_tensor_uid(k);
        table.add_v_tensor_uid(v);
        table.add_o_tensor_uid(o);
        if (stats) {
            table.add_stats_tensor_uid(*stats);
        }
        table.add_generate_stats(stats.has_value());
        addSdpaOptions(table, options);
        return table.Finish().Union();
    });
}

GraphBuilder& GraphBuilder::addSdpaBackward(std::string name, int64_t q, int64_t k, int64_t v, int64_t o,
                                            int64_t dO, int64_t stats, int64_t dq, int64_t dk, int64_t dv,
                                            const SdpaOptions& options) {
    return addNode(std::move(name), fb::NodeAttributes::SdpaBackwardAttributes,
                   [=](FlatBufferBuilder& builder) {
                       fb::SdpaBackwardAttributesBuilder table(builder);
                       table.add_q_tensor_uid(q);
                       table.add_k_tensor_uid(k);
                       table.add_v_tensor_uid(v);
                       table.add_o_tensor_uid(o);
                       table.add_do_tensor_uid(dO);
                       table.add_stats_tensor_uid(stats);
                       table.add_dq_tensor_uid(dq);
                       table.add_dk_tensor_uid(dk);
                       table.add_dv_tensor_uid(dv);
                       addSdpaOptions(table, options);
                       return table.Finish().Union();
                   });
}

GraphBuilder& GraphBuilder::addResample(std::string name, int64_t x, int64_t y, const PoolingGeometry& g,
                                        std::optional<int64_t> index) {
    return addNode(
        std::move(name), fb::NodeAttributes::ResampleFwdAttributes, [=](FlatBufferBuilder& builder) {
            return fb::CreateResampleFwdAttributesDirect(builder, x, y, toFlatbuffers(index), &g.prePadding,
                                                         &g.postPadding, &g.stride, &g.window, g.mode,
                                                         g.paddingMode, index.has_value())
                .Union();
        });
}

std::vector<uint8_t> GraphBuilder::build() const {
    FlatBufferBuilder builder;
    std::vector<Offset<fb::TensorAttributes>> tensors;
    for (const auto& t : _tensors) {
        const auto [valueType, value] = t.value ? scalarValue(builder, t.dataType, *t.value)
                                                : std::pair{fb::TensorValue::NONE, Offset<void>()};
        tensors.push_back(fb::CreateTensorAttributesDirect(
            builder, t.uid, t.name.c_str(), t.dataType, &t.strides, &t.dims, t.isVirtual, valueType, value));
    }
    std::vector<Offset<fb::Node>> nodes;
    for (const auto& n : _nodes) {
        const auto attributes = n.createAttributes(builder);
        nodes.push_back(fb::CreateNodeDirect(builder, n.name.c_str(), n.computeType, n.type, attributes));
    }
    const auto name = builder.CreateString(_name);
    const auto tensorVector = builder.CreateVector(tensors);
    const auto nodeVector = builder.CreateVector(nodes);
    // Field by field: the optional preferred engine id is written only when set.
    fb::GraphBuilder graph(builder);
    graph.add_name(name);
    graph.add_compute_data_type(_computeType);
    graph.add_intermediate_data_type(_intermediateType);
    graph.add_io_data_type(_ioType);
    graph.add_tensors(tensorVector);
    graph.add_nodes(nodeVector);
    if (_preferredEngineId) {
        graph.add_preferred_engine_id(*_preferredEngineId);
    }
    builder.Finish(graph.Finish());
    return std::vector<uint8_t>(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
}

}  // namespace hipdnn_test_sdk
