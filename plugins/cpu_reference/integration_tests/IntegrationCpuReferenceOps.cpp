// Every operation through the backend C API with the cpu_reference plugin, for fp32, fp16 and
// bf16 in NCHW and NHWC, compared with the test SDK references called directly.
#include "IntegrationSupport.hpp"

#include <hipdnn_test_sdk/AllCloseAssertions.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/SeedTrace.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include <gtest/gtest.h>

#include <functional>

namespace cpu_reference_integration {
namespace {

using hipdnn_flatbuffers_sdk::data_objects::PointwiseMode;
using hipdnn_flatbuffers_sdk::data_objects::ReductionMode;
using hipdnn_flatbuffers_sdk::data_objects::ResampleMode;
using hipdnn_test_sdk::ConvolutionGeometry;
using hipdnn_test_sdk::GraphBuilder;
using hipdnn_test_sdk::ToleranceOp;

/// One problem: the graph, every non-virtual tensor (inputs filled), and the expected outputs.
struct OpCase {
    ToleranceOp toleranceOp;
    std::vector<uint8_t> graph;
    std::map<int64_t, HostTensor> tensors;
    std::map<int64_t, HostTensor> expected;
};

struct Shape {
    int64_t n, c, h, w, k;
};

struct OpTestParam {
    std::string op;
    DataType dataType;
    Layout layout;
    bool full;
};

// Readable parameter in failure messages instead of gtest's byte dump.
void PrintTo(const OpTestParam& param, std::ostream* out) {
    *out << param.op << " " << hipdnn_test_sdk::dataTypeName(param.dataType) << " " << param.layout.name;
}

std::vector<int64_t> stridesFor(const std::vector<int64_t>& dims, const Layout& layout) {
    return ref::stridesForOrder(dims, layout.strideOrder4d);
}

uint32_t seedFor(int64_t uid) {
    return hipdnn_test_sdk::globalTestSeed() * 31u + static_cast<uint32_t>(uid);
}

// Adds a tensor to the graph and to the case (inputs filled randomly, outputs zeroed).
struct CaseBuilder {
    OpCase result;
    GraphBuilder graph{"op"};
    const Layout& layout;

    CaseBuilder(ToleranceOp op, const Layout& l) : layout(l) { result.toleranceOp = op; }

    HostTensor& tensor(int64_t uid, DataType type, std::vector<int64_t> dims, bool input, double low = -1.0,
                       double high = 1.0) {
        const auto strides = dims.size() == 4 ? stridesFor(dims, layout) : ref::packedStrides(dims);
        graph.addTensor(uid, tensorName(uid), type, dims, strides);
        auto& stored = result.tensors[uid] = HostTensor(type, dims, strides);
        if (input) {
            stored.fillRandom(seedFor(uid), low, high);
        }
        return stored;
    }

    // A pass-by-value scalar. A variant-pack pointer for it is optional; the test binds one that
    // holds a decoy (1000), so a result that used it instead of the graph's value would fail.
    void scalar(int64_t uid, const char* name, DataType type, double value) {
        graph.addScalar(uid, name, type, value);
        result.tensors[uid] = HostTensor(type, {1});
        hipdnn_test_sdk::writeElement(type, result.tensors[uid].data(), 0, 1000.0);
    }

    // A copy of output `uid` to receive the reference's result.
    HostTensor& expected(int64_t uid) { return result.expected[uid] = result.tensors.at(uid); }

    OpCase finish() {
        result.graph = graph.build();
        return std::move(result);
    }
};

Shape shapeFor(bool full) {
    return full ? Shape{4, 16, 28, 28, 32} : Shape{2, 3, 6, 5, 4};
}

const ref::ConvolutionParams convParams{{1, 1}, {1, 1}, {1, 1}, {1, 1}};
const ConvolutionGeometry convGeometry{{1, 1}, {1, 1}, {1, 1}, {1, 1}};

OpCase convFprop(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    CaseBuilder b(ToleranceOp::ConvolutionFwd, layout);
    auto& x = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    auto& w = b.tensor(2, t, {s.k, s.c, 3, 3}, true);
    b.tensor(3, t, {s.n, s.k, s.h, s.w}, false);
    b.graph.addConvFprop("conv_fprop", 1, 2, 3, convGeometry);
    auto& y = b.expected(3);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::convolutionFprop<T>(x.constView<T>(), w.constView<T>(), y.view<T>(), convParams);
    });
    return b.finish();
}

OpCase convDgrad(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    CaseBuilder b(ToleranceOp::ConvolutionBwd, layout);
    auto& dy = b.tensor(1, t, {s.n, s.k, s.h, s.w}, true);
    auto& w = b.tensor(2, t, {s.k, s.c, 3, 3}, true);
    b.tensor(3, t, {s.n, s.c, s.h, s.w}, false);
    b.graph.addConvDgrad("conv_dgrad", 1, 2, 3, convGeometry);
    auto& dx = b.expected(3);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::convolutionDgrad<T>(dy.constView<T>(), w.constView<T>(), dx.view<T>(), convParams);
    });
    return b.finish();
}

OpCase convWgrad(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    CaseBuilder b(ToleranceOp::ConvolutionWrw, layout);
    auto& x = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    auto& dy = b.tensor(2, t, {s.n, s.k, s.h, s.w}, true);
    b.tensor(3, t, {s.k, s.c, 3, 3}, false);
    b.graph.addConvWgrad("conv_wgrad", 1, 2, 3, convGeometry);
    auto& dw = b.expected(3);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::convolutionWgrad<T>(x.constView<T>(), dy.constView<T>(), dw.view<T>(), convParams);
    });
    return b.finish();
}

OpCase bnInference(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    const std::vector<int64_t> channel{1, s.c, 1, 1};
    CaseBuilder b(ToleranceOp::BatchnormInference, layout);
    auto& x = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    auto& mean = b.tensor(2, DataType::FLOAT, channel, true);
    auto& invVar = b.tensor(3, DataType::FLOAT, channel, true, 0.5, 2.0);
    auto& scale = b.tensor(4, DataType::FLOAT, channel, true);
    auto& bias = b.tensor(5, DataType::FLOAT, channel, true);
    b.tensor(6, t, {s.n, s.c, s.h, s.w}, false);
    b.graph.addBatchnormInference("bn_inference", 1, 2, 3, 4, 5, 6);
    auto& y = b.expected(6);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::batchnormInference<T, float>(x.constView<T>(), mean.constView<float>(),
                                          invVar.constView<float>(), scale.constView<float>(),
                                          bias.constView<float>(), y.view<T>());
    });
    return b.finish();
}

OpCase bnInferenceVariance(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    const std::vector<int64_t> channel{1, s.c, 1, 1};
    CaseBuilder b(ToleranceOp::BatchnormInferenceVariance, layout);
    auto& x = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    auto& mean = b.tensor(2, DataType::FLOAT, channel, true);
    auto& var = b.tensor(3, DataType::FLOAT, channel, true, 0.5, 2.0);
    auto& scale = b.tensor(4, DataType::FLOAT, channel, true);
    auto& bias = b.tensor(5, DataType::FLOAT, channel, true);
    b.scalar(6, "epsilon", DataType::FLOAT, 1e-5);
    b.tensor(7, t, {s.n, s.c, s.h, s.w}, false);
    b.graph.addBatchnormInferenceVariance("bn_inference_variance", 1, 2, 3, 4, 5, 6, 7);
    auto& y = b.expected(7);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::batchnormInferenceWithVariance<T, float>(
            x.constView<T>(), mean.constView<float>(), var.constView<float>(), scale.constView<float>(),
            bias.constView<float>(), static_cast<double>(1e-5f), y.view<T>());
    });
    return b.finish();
}

OpCase bnTraining(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    const std::vector<int64_t> channel{1, s.c, 1, 1};
    CaseBuilder b(ToleranceOp::BatchnormTraining, layout);
    auto& x = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    auto& scale = b.tensor(2, DataType::FLOAT, channel, true);
    auto& bias = b.tensor(3, DataType::FLOAT, channel, true);
    b.scalar(4, "epsilon", DataType::FLOAT, 1e-5);
    auto& prevMean = b.tensor(5, DataType::FLOAT, channel, true);
    auto& prevVar = b.tensor(6, DataType::FLOAT, channel, true, 0.5, 2.0);
    b.scalar(7, "momentum", DataType::FLOAT, 0.1);
    b.tensor(8, t, {s.n, s.c, s.h, s.w}, false);
    for (int64_t uid = 9; uid <= 12; ++uid) {
        b.tensor(uid, DataType::FLOAT, channel, false);
    }
    b.graph.addBatchnormTraining("bn_training", {1, 2, 3, 4, 8, 9, 10, 5, 6, 7, 11, 12, {}});
    auto& y = b.expected(8);
    auto& mean = b.expected(9);
    auto& invVar = b.expected(10);
    auto& nextMean = b.expected(11);
    auto& nextVar = b.expected(12);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::batchnormTraining<T, float>(
            x.constView<T>(), scale.constView<float>(), bias.constView<float>(), static_cast<double>(1e-5f),
            y.view<T>(), mean.view<float>(), invVar.view<float>(),
            ref::BatchnormRunningStats<float>{prevMean.constView<float>(), prevVar.constView<float>(),
                                              nextMean.view<float>(), nextVar.view<float>(),
                                              static_cast<double>(0.1f)});
    });
    return b.finish();
}

OpCase bnBackward(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    const std::vector<int64_t> channel{1, s.c, 1, 1};
    CaseBuilder b(ToleranceOp::BatchnormBackward, layout);
    auto& dy = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    auto& x = b.tensor(2, t, {s.n, s.c, s.h, s.w}, true);
    auto& mean = b.tensor(3, DataType::FLOAT, channel, true, -0.1, 0.1);
    auto& invVar = b.tensor(4, DataType::FLOAT, channel, true, 0.5, 2.0);
    auto& scale = b.tensor(5, DataType::FLOAT, channel, true);
    b.tensor(6, t, {s.n, s.c, s.h, s.w}, false);
    b.tensor(7, DataType::FLOAT, channel, false);
    b.tensor(8, DataType::FLOAT, channel, false);
    b.graph.addBatchnormBackward("bn_backward", {1, 2, 5, 6, 7, 8, 3, 4, std::nullopt, {}});
    auto& dx = b.expected(6);
    auto& dscale = b.expected(7);
    auto& dbias = b.expected(8);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::batchnormBackward<T, float>(dy.constView<T>(), x.constView<T>(), mean.constView<float>(),
                                         invVar.constView<float>(), scale.constView<float>(), std::nullopt,
                                         dx.view<T>(), dscale.view<float>(), dbias.view<float>());
    });
    return b.finish();
}

OpCase pointwiseUnary(PointwiseMode mode, DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    CaseBuilder b(ToleranceOp::Pointwise, layout);
    auto& x = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true, -3.0, 3.0);
    b.tensor(2, t, {s.n, s.c, s.h, s.w}, false);
    b.graph.addPointwise("pointwise", mode, 1, 2);
    auto& y = b.expected(2);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::PointwiseParams params{static_cast<ref::PointwiseMode>(mode), {}, {}, {}, {}, {}, {}, {}};
        ref::pointwise<T, T>(params, x.constView<T>(), std::nullopt, std::nullopt, y.view<T>());
    });
    return b.finish();
}

OpCase pointwiseAddBroadcast(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    CaseBuilder b(ToleranceOp::Pointwise, layout);
    auto& x = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    auto& bias = b.tensor(2, t, {1, s.c, 1, 1}, true);
    b.tensor(3, t, {s.n, s.c, s.h, s.w}, false);
    b.graph.addPointwise("add", PointwiseMode::ADD, 1, 3, 2);
    auto& y = b.expected(3);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::PointwiseParams params{ref::PointwiseMode::ADD, {}, {}, {}, {}, {}, {}, {}};
        ref::pointwise<T, T>(params, x.constView<T>(), bias.constView<T>(), std::nullopt, y.view<T>());
    });
    return b.finish();
}

// "NHWC" for matmul means a column-major B: the layout comes only from strides.
OpCase matmul(DataType t, const Layout& layout, bool full) {
    const int64_t batch = full ? 4 : 2, m = full ? 64 : 5, k = full ? 96 : 7, n = full ? 48 : 3;
    CaseBuilder b(ToleranceOp::Matmul, layout);
    auto& a = b.tensor(1, t, {batch, m, k}, true);
    const std::vector<int64_t> bStrides =
        layout.name == "NHWC" ? std::vector<int64_t>{k * n, 1, k} : ref::packedStrides({batch, k, n});
    b.graph.addTensor(2, "b", t, {batch, k, n}, bStrides);
    auto& bt = b.result.tensors[2] = HostTensor(t, {batch, k, n}, bStrides);
    bt.fillRandom(seedFor(2));
    b.tensor(3, t, {batch, m, n}, false);
    b.graph.addMatmul("matmul", 1, 2, 3);
    auto& c = b.expected(3);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::matmul<T, T>(a.constView<T>(), bt.constView<T>(), c.view<T>());
    });
    return b.finish();
}

OpCase reductionSum(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    CaseBuilder b(ToleranceOp::Reduction, layout);
    auto& x = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    b.tensor(2, DataType::FLOAT, {s.n, s.c, 1, 1}, false);
    b.graph.addReduction("reduce_hw", ReductionMode::ADD, 1, 2);
    auto& y = b.expected(2);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::reduction<T, float>(ref::ReductionMode::ADD, x.constView<T>(), y.view<float>());
    });
    return b.finish();
}

OpCase layernorm(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    CaseBuilder b(ToleranceOp::Layernorm, layout);
    auto& x = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    auto& scale = b.tensor(2, DataType::FLOAT, {1, s.c, s.h, s.w}, true);
    auto& bias = b.tensor(3, DataType::FLOAT, {1, s.c, s.h, s.w}, true);
    b.scalar(4, "epsilon", DataType::FLOAT, 1e-5);
    b.tensor(5, t, {s.n, s.c, s.h, s.w}, false);
    b.tensor(6, DataType::FLOAT, {s.n, 1, 1, 1}, false);
    b.tensor(7, DataType::FLOAT, {s.n, 1, 1, 1}, false);
    b.graph.addLayernorm("layernorm", 1, 2, 3, 4, 5, 6, 7);
    auto& y = b.expected(5);
    auto& mean = b.expected(6);
    auto& invVar = b.expected(7);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::layernormForward<T, float>(x.constView<T>(), scale.constView<float>(), bias.constView<float>(),
                                        static_cast<double>(1e-5f), y.view<T>(), mean.view<float>(),
                                        invVar.view<float>());
    });
    return b.finish();
}

OpCase rmsnorm(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    CaseBuilder b(ToleranceOp::RmsNorm, layout);
    auto& x = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    auto& scale = b.tensor(2, DataType::FLOAT, {1, s.c, 1, 1}, true);
    b.scalar(3, "epsilon", DataType::FLOAT, 1e-5);
    b.tensor(4, t, {s.n, s.c, s.h, s.w}, false);
    b.tensor(5, DataType::FLOAT, {s.n, 1, 1, 1}, false);
    b.graph.addRmsNorm("rmsnorm", 1, 2, 3, 4, std::nullopt, 5);
    auto& y = b.expected(4);
    auto& invRms = b.expected(5);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::rmsnormForward<T, float>(x.constView<T>(), scale.constView<float>(), std::nullopt,
                                      static_cast<double>(1e-5f), y.view<T>(), invRms.view<float>());
    });
    return b.finish();
}

OpCase rmsnormBackward(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    CaseBuilder b(ToleranceOp::RmsNorm, layout);
    auto& dy = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    auto& x = b.tensor(2, t, {s.n, s.c, s.h, s.w}, true);
    auto& scale = b.tensor(3, DataType::FLOAT, {1, s.c, 1, 1}, true);
    auto& invRms = b.tensor(4, DataType::FLOAT, {s.n, 1, 1, 1}, true, 0.5, 2.0);
    b.tensor(5, t, {s.n, s.c, s.h, s.w}, false);
    b.tensor(6, DataType::FLOAT, {1, s.c, 1, 1}, false);
    b.graph.addRmsNormBackward("rmsnorm_backward", 1, 2, 3, 4, 5, 6);
    auto& dx = b.expected(5);
    auto& dscale = b.expected(6);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::rmsnormBackward<T, float>(dy.constView<T>(), x.constView<T>(), scale.constView<float>(),
                                       invRms.constView<float>(), dx.view<T>(), dscale.view<float>(),
                                       std::nullopt);
    });
    return b.finish();
}

OpCase layernormBackward(DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    CaseBuilder b(ToleranceOp::Layernorm, layout);
    auto& dy = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    auto& x = b.tensor(2, t, {s.n, s.c, s.h, s.w}, true);
    auto& scale = b.tensor(3, DataType::FLOAT, {1, s.c, s.h, s.w}, true);
    auto& mean = b.tensor(4, DataType::FLOAT, {s.n, 1, 1, 1}, true);
    auto& invVariance = b.tensor(5, DataType::FLOAT, {s.n, 1, 1, 1}, true, 0.5, 2.0);
    b.tensor(6, t, {s.n, s.c, s.h, s.w}, false);
    b.tensor(7, DataType::FLOAT, {1, s.c, s.h, s.w}, false);
    b.tensor(8, DataType::FLOAT, {1, s.c, s.h, s.w}, false);
    b.graph.addLayernormBackward("layernorm_backward", 1, 2, 3, 4, 5, 6, 7, 8);
    auto& dx = b.expected(6);
    auto& dscale = b.expected(7);
    auto& dbias = b.expected(8);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::layernormBackward<T, float>(dy.constView<T>(), x.constView<T>(), scale.constView<float>(),
                                         mean.constView<float>(), invVariance.constView<float>(),
                                         dx.view<T>(), dscale.view<float>(), dbias.view<float>());
    });
    return b.finish();
}

OpCase pooling(ResampleMode mode, DataType t, const Layout& layout, bool full) {
    const Shape s = shapeFor(full);
    CaseBuilder b(ToleranceOp::Resample, layout);
    auto& x = b.tensor(1, t, {s.n, s.c, s.h, s.w}, true);
    const int64_t outH = (s.h + 2 - 3) / 2 + 1;
    const int64_t outW = (s.w + 2 - 3) / 2 + 1;
    b.tensor(2, t, {s.n, s.c, outH, outW}, false);
    b.graph.addResample("pool", 1, 2, {mode, {1, 1}, {1, 1}, {2, 2}, {3, 3}});
    auto& y = b.expected(2);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::PoolingParams params;
        params.mode = static_cast<ref::ResampleMode>(mode);
        params.prePadding = {1, 1};
        params.postPadding = {1, 1};
        params.stride = {2, 2};
        params.window = {3, 3};
        ref::poolingForward<T>(params, x.constView<T>(), y.view<T>());
    });
    return b.finish();
}

// Attention dims: the layout's stride order is applied to (B, H, S, D), so NHWC puts the heads
// innermost, one more strided case for the reference to follow.
struct AttentionShape {
    int64_t batch, queryHeads, kvHeads, seqQ, seqKv, headDim;
};

AttentionShape attentionShapeFor(bool full) {
    return full ? AttentionShape{2, 8, 2, 40, 56, 32} : AttentionShape{2, 4, 2, 6, 5, 8};
}

// Grouped-query, causal bottom-right, with a broadcast bias and statistics.
OpCase sdpaForward(DataType t, const Layout& layout, bool full) {
    const AttentionShape s = attentionShapeFor(full);
    CaseBuilder b(ToleranceOp::Sdpa, layout);
    auto& q = b.tensor(1, t, {s.batch, s.queryHeads, s.seqQ, s.headDim}, true);
    auto& k = b.tensor(2, t, {s.batch, s.kvHeads, s.seqKv, s.headDim}, true);
    auto& v = b.tensor(3, t, {s.batch, s.kvHeads, s.seqKv, s.headDim}, true);
    auto& bias = b.tensor(4, DataType::FLOAT, {1, s.queryHeads, s.seqQ, s.seqKv}, true);
    b.tensor(5, t, {s.batch, s.queryHeads, s.seqQ, s.headDim}, false);
    b.tensor(6, DataType::FLOAT, {s.batch, s.queryHeads, s.seqQ, 1}, false);
    hipdnn_test_sdk::SdpaOptions options;
    options.scale = 0.5F;
    options.causalBottomRight = true;
    options.bias = 4;
    b.graph.addSdpa("sdpa", 1, 2, 3, 5, 6, options);
    auto& o = b.expected(5);
    auto& stats = b.expected(6);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::AttentionParams params;
        params.scale = 0.5;
        params.causalBottomRight = true;
        ref::sdpaForward<T>(params, q.constView<T>(), k.constView<T>(), v.constView<T>(),
                            bias.constView<float>(), o.view<T>(), stats.view<float>());
    });
    return b.finish();
}

// Grouped-query and causal; the statistics are random, as any input (the same math on both sides).
OpCase sdpaBackward(DataType t, const Layout& layout, bool full) {
    const AttentionShape s = attentionShapeFor(full);
    CaseBuilder b(ToleranceOp::SdpaBackward, layout);
    const std::vector<int64_t> qDims{s.batch, s.queryHeads, s.seqQ, s.headDim};
    const std::vector<int64_t> kvDims{s.batch, s.kvHeads, s.seqKv, s.headDim};
    auto& q = b.tensor(1, t, qDims, true);
    auto& k = b.tensor(2, t, kvDims, true);
    auto& v = b.tensor(3, t, kvDims, true);
    auto& o = b.tensor(4, t, qDims, true);
    auto& dO = b.tensor(5, t, qDims, true);
    auto& stats = b.tensor(6, DataType::FLOAT, {s.batch, s.queryHeads, s.seqQ, 1}, true);
    b.tensor(7, t, qDims, false);
    b.tensor(8, t, kvDims, false);
    b.tensor(9, t, kvDims, false);
    hipdnn_test_sdk::SdpaOptions options;
    options.scale = 0.25F;
    options.causal = true;
    b.graph.addSdpaBackward("sdpa_backward", 1, 2, 3, 4, 5, 6, 7, 8, 9, options);
    auto& dq = b.expected(7);
    auto& dk = b.expected(8);
    auto& dv = b.expected(9);
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::AttentionParams params;
        params.scale = 0.25;
        params.causal = true;
        ref::sdpaBackward<T>(params, q.constView<T>(), k.constView<T>(), v.constView<T>(), o.constView<T>(),
                             dO.constView<T>(), stats.constView<float>(), std::nullopt, dq.view<T>(),
                             dk.view<T>(), dv.view<T>());
    });
    return b.finish();
}

using CaseFactory = std::function<OpCase(DataType, const Layout&, bool)>;

const std::map<std::string, CaseFactory>& caseFactories() {
    using namespace std::placeholders;
    static const std::map<std::string, CaseFactory> factories{
        {"ConvFprop", convFprop},
        {"ConvDgrad", convDgrad},
        {"ConvWgrad", convWgrad},
        {"BatchnormInference", bnInference},
        {"BatchnormInferenceVariance", bnInferenceVariance},
        {"BatchnormTraining", bnTraining},
        {"BatchnormBackward", bnBackward},
        {"PointwiseRelu", std::bind(pointwiseUnary, PointwiseMode::RELU_FWD, _1, _2, _3)},
        {"PointwiseSigmoid", std::bind(pointwiseUnary, PointwiseMode::SIGMOID_FWD, _1, _2, _3)},
        {"PointwiseGelu", std::bind(pointwiseUnary, PointwiseMode::GELU_FWD, _1, _2, _3)},
        {"PointwiseAddBroadcast", pointwiseAddBroadcast},
        {"Matmul", matmul},
        {"ReductionSum", reductionSum},
        {"Layernorm", layernorm},
        {"LayernormBackward", layernormBackward},
        {"RmsNorm", rmsnorm},
        {"RmsNormBackward", rmsnormBackward},
        {"MaxPool", std::bind(pooling, ResampleMode::MAXPOOL, _1, _2, _3)},
        {"AvgPool", std::bind(pooling, ResampleMode::AVGPOOL_INCLUDE_PADDING, _1, _2, _3)},
        {"Sdpa", sdpaForward},
        {"SdpaBackward", sdpaBackward},
    };
    return factories;
}

std::vector<std::string> allOps() {
    std::vector<std::string> names;
    for (const auto& [name, factory] : caseFactories()) {
        names.push_back(name);
    }
    return names;
}

class IntegrationCpuReferenceOp : public ::testing::TestWithParam<OpTestParam> {
protected:
    static void SetUpTestSuite() { session = std::make_unique<CpuReferenceSession>(); }
    static void TearDownTestSuite() { session.reset(); }
    static std::unique_ptr<CpuReferenceSession> session;
};

std::unique_ptr<CpuReferenceSession> IntegrationCpuReferenceOp::session;

TEST_P(IntegrationCpuReferenceOp, MatchesReference) {
    HIPDNN_SCOPED_SEED_TRACE();
    const auto& param = GetParam();
    OpCase problem = caseFactories().at(param.op)(param.dataType, param.layout, param.full);
    ASSERT_EQ(session->run(problem.graph, problem.tensors), "");
    ASSERT_FALSE(problem.expected.empty());
    for (const auto& [uid, expected] : problem.expected) {
        SCOPED_TRACE("output uid " + std::to_string(uid));
        HIPDNN_EXPECT_ALL_CLOSE(expected.erased(), problem.tensors.at(uid).erased(),
                                hipdnn_test_sdk::fixedTolerance(problem.toleranceOp, expected.type()));
    }
}

std::string paramName(const ::testing::TestParamInfo<OpTestParam>& info) {
    return info.param.op + "_" + hipdnn_test_sdk::dataTypeName(info.param.dataType) + "_" +
           info.param.layout.name;
}

std::vector<OpTestParam> params(bool full) {
    std::vector<OpTestParam> result;
    for (const auto& op : allOps()) {
        for (const DataType type : {DataType::FLOAT, DataType::HALF, DataType::BFLOAT16}) {
            for (const Layout& layout : {NCHW, NHWC}) {
                result.push_back({op, type, layout, full});
            }
        }
    }
    return result;
}

INSTANTIATE_TEST_SUITE_P(Smoke, IntegrationCpuReferenceOp, ::testing::ValuesIn(params(false)), paramName);
INSTANTIATE_TEST_SUITE_P(Full, IntegrationCpuReferenceOp, ::testing::ValuesIn(params(true)), paramName);

}  // namespace
}  // namespace cpu_reference_integration
