// Multi-node graphs, the ResNet-50 bottleneck golden case and declined graphs, through the
// backend C API with the cpu_reference plugin.
#include "IntegrationSupport.hpp"

#include <hipdnn_test_sdk/AllCloseAssertions.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/SeedTrace.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace cpu_reference_integration {
namespace {

using hipdnn_flatbuffers_sdk::data_objects::PointwiseMode;
using hipdnn_test_sdk::ConvolutionGeometry;
using hipdnn_test_sdk::GraphBuilder;
using hipdnn_test_sdk::ToleranceOp;

const ref::PointwiseParams addParams{ref::PointwiseMode::ADD, {}, {}, {}, {}, {}, {}, {}};
const ref::PointwiseParams reluParams{ref::PointwiseMode::RELU_FWD, {}, {}, {}, {}, {}, {}, {}};
const ref::PointwiseParams geluParams{ref::PointwiseMode::GELU_FWD, {}, {}, {}, {}, {}, {}, {}};

// A float copy (exact for half and bfloat16) in the same layout.
HostTensor toFloat(const HostTensor& source) {
    HostTensor copy(DataType::FLOAT, source.dims(), source.strides());
    const auto view = source.erased();
    int64_t span = 1;
    for (size_t i = 0; i < source.dims().size(); ++i) {
        span += (source.dims()[i] - 1) * source.strides()[i];
    }
    for (int64_t i = 0; i < span; ++i) {
        hipdnn_test_sdk::writeElement(DataType::FLOAT, copy.data(), i,
                                      hipdnn_test_sdk::readElement(source.type(), view.data, i));
    }
    return copy;
}

struct GraphTestParam {
    DataType dataType;
    Layout layout;
    bool full;
};

// Readable parameter in failure messages instead of gtest's byte dump.
void PrintTo(const GraphTestParam& param, std::ostream* out) {
    *out << hipdnn_test_sdk::dataTypeName(param.dataType) << " " << param.layout.name;
}

class IntegrationCpuReferenceGraph : public ::testing::TestWithParam<GraphTestParam> {
protected:
    static void SetUpTestSuite() { session = std::make_unique<CpuReferenceSession>(); }
    static void TearDownTestSuite() { session.reset(); }

    HostTensor& add(std::map<int64_t, HostTensor>& tensors, GraphBuilder& graph, int64_t uid, DataType type,
                    std::vector<int64_t> dims, bool isVirtual, bool fill) {
        const auto strides = dims.size() == 4 ? ref::stridesForOrder(dims, GetParam().layout.strideOrder4d)
                                              : ref::packedStrides(dims);
        graph.addTensor(uid, tensorName(uid), type, dims, strides, isVirtual);
        if (isVirtual) {
            static HostTensor none;
            return none;
        }
        auto& tensor = tensors[uid] = HostTensor(type, dims, strides);
        if (fill) {
            tensor.fillRandom(hipdnn_test_sdk::globalTestSeed() * 17u + static_cast<uint32_t>(uid));
        }
        return tensor;
    }

    static std::unique_ptr<CpuReferenceSession> session;
};

std::unique_ptr<CpuReferenceSession> IntegrationCpuReferenceGraph::session;

TEST_P(IntegrationCpuReferenceGraph, ConvBiasRelu) {
    HIPDNN_SCOPED_SEED_TRACE();
    const auto [t, layout, full] = GetParam();
    const int64_t n = full ? 4 : 1, c = full ? 32 : 4, h = full ? 28 : 6, k = full ? 64 : 8;
    std::map<int64_t, HostTensor> tensors;
    GraphBuilder graph("conv_bias_relu");
    auto& x = add(tensors, graph, 1, t, {n, c, h, h}, false, true);
    auto& w = add(tensors, graph, 2, t, {k, c, 3, 3}, false, true);
    auto& bias = add(tensors, graph, 3, t, {1, k, 1, 1}, false, true);
    add(tensors, graph, 4, DataType::FLOAT, {n, k, h, h}, true, false);
    add(tensors, graph, 5, DataType::FLOAT, {n, k, h, h}, true, false);
    auto& y = add(tensors, graph, 6, t, {n, k, h, h}, false, false);
    graph.addConvFprop("conv", 1, 2, 4, ConvolutionGeometry{{1, 1}, {1, 1}, {1, 1}, {1, 1}})
        .addPointwise("bias", PointwiseMode::ADD, 4, 5, 3)
        .addPointwise("relu", PointwiseMode::RELU_FWD, 5, 6);
    ASSERT_EQ(session->run(graph.build(), tensors), "");

    // The same chain op by op with float intermediates.
    HostTensor conv(DataType::FLOAT, y.dims(), y.strides()), biased = conv,
                                                             expected(t, y.dims(), y.strides());
    ref::convolutionFprop<float>(toFloat(x).constView<float>(), toFloat(w).constView<float>(),
                                 conv.view<float>(), {{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    ref::pointwise<float, float>(addParams, conv.constView<float>(), toFloat(bias).constView<float>(),
                                 std::nullopt, biased.view<float>());
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::pointwise<float, T>(reluParams, biased.constView<float>(), std::nullopt, std::nullopt,
                                 expected.view<T>());
    });
    HIPDNN_EXPECT_ALL_CLOSE(expected.erased(), y.erased(),
                            hipdnn_test_sdk::fixedTolerance(ToleranceOp::ConvolutionFwd, t));
}

TEST_P(IntegrationCpuReferenceGraph, ConvBatchnormReluResidualAdd) {
    HIPDNN_SCOPED_SEED_TRACE();
    const auto [t, layout, full] = GetParam();
    const int64_t n = full ? 2 : 1, c = full ? 32 : 8, h = full ? 28 : 5;
    const std::vector<int64_t> act{n, c, h, h}, channel{1, c, 1, 1};
    std::map<int64_t, HostTensor> tensors;
    GraphBuilder graph("conv_bn_relu_add");
    auto& x = add(tensors, graph, 1, t, act, false, true);
    auto& w = add(tensors, graph, 2, t, {c, c, 3, 3}, false, true);
    auto& mean = add(tensors, graph, 3, DataType::FLOAT, channel, false, true);
    auto& invVar = add(tensors, graph, 4, DataType::FLOAT, channel, false, true);
    auto& scale = add(tensors, graph, 5, DataType::FLOAT, channel, false, true);
    auto& shift = add(tensors, graph, 6, DataType::FLOAT, channel, false, true);
    for (int64_t uid : {7, 8, 9}) {
        add(tensors, graph, uid, DataType::FLOAT, act, true, false);
    }
    auto& y = add(tensors, graph, 10, t, act, false, false);
    graph.addConvFprop("conv", 1, 2, 7, ConvolutionGeometry{{1, 1}, {1, 1}, {1, 1}, {1, 1}})
        .addBatchnormInference("bn", 7, 3, 4, 5, 6, 8)
        .addPointwise("relu", PointwiseMode::RELU_FWD, 8, 9)
        .addPointwise("residual", PointwiseMode::ADD, 9, 10, 1);
    ASSERT_EQ(session->run(graph.build(), tensors), "");

    HostTensor conv(DataType::FLOAT, y.dims(), y.strides()), normalized = conv, activated = conv,
                                                             expected(t, y.dims(), y.strides());
    const HostTensor xf = toFloat(x);
    ref::convolutionFprop<float>(xf.constView<float>(), toFloat(w).constView<float>(), conv.view<float>(),
                                 {{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    ref::batchnormInference<float, float>(conv.constView<float>(), mean.constView<float>(),
                                          invVar.constView<float>(), scale.constView<float>(),
                                          shift.constView<float>(), normalized.view<float>());
    ref::pointwise<float, float>(reluParams, normalized.constView<float>(), std::nullopt, std::nullopt,
                                 activated.view<float>());
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::pointwise<float, T>(addParams, activated.constView<float>(), xf.constView<float>(), std::nullopt,
                                 expected.view<T>());
    });
    HIPDNN_EXPECT_ALL_CLOSE(expected.erased(), y.erased(),
                            hipdnn_test_sdk::fixedTolerance(ToleranceOp::ConvolutionFwd, t));
}

TEST_P(IntegrationCpuReferenceGraph, MatmulBiasGelu) {
    HIPDNN_SCOPED_SEED_TRACE();
    const auto [t, layout, full] = GetParam();
    const int64_t batch = full ? 4 : 2, m = full ? 128 : 6, k = full ? 256 : 9, n = full ? 64 : 5;
    std::map<int64_t, HostTensor> tensors;
    GraphBuilder graph("matmul_bias_gelu");
    auto& a = add(tensors, graph, 1, t, {batch, m, k}, false, true);
    auto& b = add(tensors, graph, 2, t, {batch, k, n}, false, true);
    auto& bias = add(tensors, graph, 3, t, {1, 1, n}, false, true);
    add(tensors, graph, 4, DataType::FLOAT, {batch, m, n}, true, false);
    add(tensors, graph, 5, DataType::FLOAT, {batch, m, n}, true, false);
    auto& y = add(tensors, graph, 6, t, {batch, m, n}, false, false);
    graph.addMatmul("matmul", 1, 2, 4)
        .addPointwise("bias", PointwiseMode::ADD, 4, 5, 3)
        .addPointwise("gelu", PointwiseMode::GELU_FWD, 5, 6);
    ASSERT_EQ(session->run(graph.build(), tensors), "");

    HostTensor product(DataType::FLOAT, y.dims(), y.strides()), biased = product,
                                                                expected(t, y.dims(), y.strides());
    ref::matmul<float, float>(toFloat(a).constView<float>(), toFloat(b).constView<float>(),
                              product.view<float>());
    ref::pointwise<float, float>(addParams, product.constView<float>(), toFloat(bias).constView<float>(),
                                 std::nullopt, biased.view<float>());
    withElementType(t, [&](auto tag) {
        using T = decltype(tag);
        ref::pointwise<float, T>(geluParams, biased.constView<float>(), std::nullopt, std::nullopt,
                                 expected.view<T>());
    });
    HIPDNN_EXPECT_ALL_CLOSE(expected.erased(), y.erased(),
                            hipdnn_test_sdk::fixedTolerance(ToleranceOp::Matmul, t));
}

std::string graphParamName(const ::testing::TestParamInfo<GraphTestParam>& info) {
    return hipdnn_test_sdk::dataTypeName(info.param.dataType) + "_" + info.param.layout.name;
}

std::vector<GraphTestParam> graphParams(bool full) {
    std::vector<GraphTestParam> result;
    for (const DataType type : {DataType::FLOAT, DataType::HALF, DataType::BFLOAT16}) {
        for (const Layout& layout : {NCHW, NHWC}) {
            result.push_back({type, layout, full});
        }
    }
    return result;
}

INSTANTIATE_TEST_SUITE_P(Smoke, IntegrationCpuReferenceGraph, ::testing::ValuesIn(graphParams(false)),
                         graphParamName);
INSTANTIATE_TEST_SUITE_P(Full, IntegrationCpuReferenceGraph, ::testing::ValuesIn(graphParams(true)),
                         graphParamName);

// The ResNet-50 bottleneck (N=1, 56x56, 256 -> 64 -> 64 -> 256) against the golden result the
// references engineer generated with PyTorch (test_sdk/golden/resnet50_bottleneck).
class IntegrationCpuReferenceResnet : public ::testing::TestWithParam<DataType> {};

TEST_P(IntegrationCpuReferenceResnet, BottleneckMatchesPytorchGolden) {
    const std::filesystem::path directory =
        std::filesystem::path(HIPDNN_GOLDEN_DIR) / "resnet50_bottleneck/n1_56x56_fp32";
    std::ifstream manifestFile(directory / "case.json");
    ASSERT_TRUE(manifestFile) << "missing golden case " << directory;
    const auto manifest = nlohmann::json::parse(manifestFile);

    // uids in the order of case.json; virtual intermediates follow.
    std::map<std::string, int64_t> uidOf;
    std::map<int64_t, HostTensor> tensors;
    GraphBuilder graph("resnet50_bottleneck");
    graph.setComputeDataType(GetParam());
    int64_t nextUid = 1;
    for (const auto& entry : manifest.at("tensors")) {
        const auto name = entry.at("name").get<std::string>();
        const auto dims = entry.at("dims").get<std::vector<int64_t>>();
        const auto strides = entry.at("strides").get<std::vector<int64_t>>();
        const int64_t uid = nextUid++;
        uidOf[name] = uid;
        graph.addTensor(uid, name, DataType::FLOAT, dims, strides);
        auto& tensor = tensors[uid] = HostTensor(DataType::FLOAT, dims, strides);
        if (entry.at("role") == "input") {
            const auto file = directory / entry.at("file").get<std::string>();
            const auto bytes = static_cast<std::streamsize>(std::filesystem::file_size(file));
            std::ifstream data(file, std::ios::binary);
            data.read(static_cast<char*>(tensor.data()), bytes);
            ASSERT_EQ(data.gcount(), bytes) << file;
        }
    }
    const std::vector<int64_t> narrow{1, 64, 56, 56}, wide{1, 256, 56, 56};
    auto addVirtual = [&](const std::string& name, const std::vector<int64_t>& dims) {
        uidOf[name] = nextUid;
        graph.addTensor(nextUid++, name, DataType::FLOAT, dims, {}, true);
        return uidOf[name];
    };
    const ConvolutionGeometry pointwiseConv{{0, 0}, {0, 0}, {1, 1}, {1, 1}};
    const ConvolutionGeometry paddedConv{{1, 1}, {1, 1}, {1, 1}, {1, 1}};
    int64_t input = uidOf.at("x");
    for (int stage = 1; stage <= 3; ++stage) {
        const std::string s = std::to_string(stage);
        const auto& dims = stage == 3 ? wide : narrow;
        const int64_t conv = addVirtual("conv" + s, dims);
        const int64_t bn = addVirtual("bn" + s, dims);
        graph.addConvFprop("conv" + s, input, uidOf.at("w" + s), conv,
                           stage == 2 ? paddedConv : pointwiseConv);
        graph.addBatchnormInference("bn" + s, conv, uidOf.at("bn" + s + "_mean"),
                                    uidOf.at("bn" + s + "_inv_variance"), uidOf.at("bn" + s + "_scale"),
                                    uidOf.at("bn" + s + "_bias"), bn);
        if (stage < 3) {
            const int64_t relu = addVirtual("relu" + s, dims);
            graph.addPointwise("relu" + s, PointwiseMode::RELU_FWD, bn, relu);
            input = relu;
        } else {
            const int64_t residual = addVirtual("residual", dims);
            graph.addPointwise("residual", PointwiseMode::ADD, bn, residual, uidOf.at("x"));
            graph.addPointwise("relu_out", PointwiseMode::RELU_FWD, residual, uidOf.at("y"));
        }
    }
    CpuReferenceSession session;
    ASSERT_EQ(session.run(graph.build(), tensors), "");

    const auto& yEntry = manifest.at("tensors").back();
    HostTensor golden(DataType::FLOAT, yEntry.at("dims").get<std::vector<int64_t>>(),
                      yEntry.at("strides").get<std::vector<int64_t>>());
    std::ifstream goldenFile(directory / yEntry.at("file").get<std::string>(), std::ios::binary);
    goldenFile.read(static_cast<char*>(golden.data()), 4 * 256 * 56 * 56);
    ASSERT_EQ(goldenFile.gcount(), 4 * 256 * 56 * 56);

    // The longest sums have 576 terms (3x3x64); three convolutions feed into each other.
    // README: an fp32 engine matches within about 1e-4 relative.
    hipdnn_test_sdk::Tolerance tolerance = hipdnn_test_sdk::reductionTolerance(
        ToleranceOp::ConvolutionFwd, DataType::FLOAT, GetParam(), 3 * 576, 1.0);
    tolerance.relative = std::max(tolerance.relative, 1e-4);
    HIPDNN_EXPECT_ALL_CLOSE(golden.erased(), tensors.at(uidOf.at("y")).erased(), tolerance);
}

std::string computeName(const ::testing::TestParamInfo<DataType>& info) {
    return "compute_" + hipdnn_test_sdk::dataTypeName(info.param);
}

INSTANTIATE_TEST_SUITE_P(Smoke, IntegrationCpuReferenceResnet, ::testing::Values(DataType::FLOAT),
                         computeName);
INSTANTIATE_TEST_SUITE_P(Full, IntegrationCpuReferenceResnet, ::testing::Values(DataType::DOUBLE),
                         computeName);

TEST(IntegrationCpuReferenceDecline, UnsupportedGraphIsDeclinedWithTheExecutorsReason) {
    CpuReferenceSession session;
    const auto graph = GraphBuilder("double_conv")
                           .addTensor(1, "x", DataType::DOUBLE, {1, 2, 4, 4})
                           .addTensor(2, "w", DataType::DOUBLE, {2, 2, 3, 3})
                           .addTensor(3, "y", DataType::DOUBLE, {1, 2, 2, 2})
                           .addConvFprop("conv", 1, 2, 3, ConvolutionGeometry{{0, 0}, {0, 0}, {1, 1}, {1, 1}})
                           .build();
    const auto [count, declined] = session.heuristics(graph);
    EXPECT_EQ(count, 0);
    EXPECT_NE(declined.find("CPU_REFERENCE_ENGINE\tcpu_reference\tnode 0 'conv' (ConvolutionFwdAttributes): "
                            "unsupported data type combination"),
              std::string::npos)
        << declined;

    std::map<int64_t, HostTensor> tensors;
    EXPECT_NE(session.run(graph, tensors).find("no engine accepted the graph"), std::string::npos);
}

// The operation's contract is the backend's to check, before any engine sees the graph: the
// graph is refused as it is deserialized, with the same message the engines would give.
TEST(IntegrationCpuReferenceDecline, InconsistentShapeIsRejectedNamingTheTensor) {
    CpuReferenceSession session;
    const auto graph =
        GraphBuilder("bad_pool")
            .addTensor(1, "x", DataType::FLOAT, {1, 2, 8, 8})
            .addTensor(2, "y", DataType::FLOAT, {1, 2, 5, 4})
            .addResample(
                "pool", 1, 2,
                {hipdnn_flatbuffers_sdk::data_objects::ResampleMode::MAXPOOL, {0, 0}, {0, 0}, {2, 2}, {2, 2}})
            .build();
    try {
        static_cast<void>(session.heuristics(graph));
        FAIL() << "the backend accepted a pooling output of the wrong size";
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("hipdnnBackendCreateAndDeserializeGraph_ext"), std::string::npos) << message;
        EXPECT_NE(message.find("port y (tensor uid 2 'y') has dims[2] = 5 but the pooling output size is "
                               "(8 + 0 + 0 - 2) / 2 + 1 = 4"),
                  std::string::npos)
            << message;
    }
}

}  // namespace
}  // namespace cpu_reference_integration
