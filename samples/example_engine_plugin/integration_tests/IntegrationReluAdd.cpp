// End to end through the installed backend: the same graph runs on CPU_REFERENCE_ENGINE and on
// EXAMPLE_RELU_ADD_ENGINE, and the outputs must agree within the test SDK's pointwise tolerance.
// Smoke cases use the smallest shapes that cover each feature; Full cases add larger shapes.
#include "BackendSession.hpp"
#include "ExampleEngineName.hpp"

#include <hipdnn_data_sdk/utilities/Tensor.hpp>
#include <hipdnn_test_sdk/AllCloseAssertions.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/Seed.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using example_plugin::CpuHandle;
using hipdnn_data_sdk::utilities::Tensor;
using hipdnn_data_sdk::utilities::TensorLayout;
using hipdnn_test_sdk::GraphBuilder;

const int64_t kCpuReferenceEngineId = hipdnn_data_sdk::utilities::engineNameToId("CPU_REFERENCE_ENGINE");

constexpr int64_t kX = 1;
constexpr int64_t kB = 2;
constexpr int64_t kSum = 3;
constexpr int64_t kY = 4;

enum class GraphKind { Relu, Add, AddRelu };

struct ReluAddCase {
    GraphKind kind;
    std::vector<int64_t> dims;   // x and y (4-D)
    std::vector<int64_t> bDims;  // the ADD operand that broadcasts to dims
    bool channelsLastInput;      // x in NHWC, y in NCHW
};

std::ostream& operator<<(std::ostream& out, const ReluAddCase& value) {
    const char* kinds[] = {"relu", "add", "add_relu"};
    out << kinds[static_cast<int>(value.kind)] << (value.channelsLastInput ? "_nhwc" : "_nchw");
    for (int64_t dim : value.dims) {
        out << '_' << dim;
    }
    return out;
}

std::vector<int64_t> stridesFor(const std::vector<int64_t>& dims, const TensorLayout& layout) {
    return hipdnn_data_sdk::utilities::generatePackedStrides(dims, layout.strideOrder);
}

std::vector<uint8_t> buildGraph(const ReluAddCase& param) {
    const TensorLayout& inputLayout = param.channelsLastInput ? TensorLayout::NHWC : TensorLayout::NCHW;
    GraphBuilder builder("relu_add");
    builder.addTensor(kX, "x", fb::DataType::FLOAT, param.dims, stridesFor(param.dims, inputLayout))
        .addTensor(kY, "y", fb::DataType::FLOAT, param.dims, stridesFor(param.dims, TensorLayout::NCHW));
    if (param.kind == GraphKind::Relu) {
        builder.addPointwise("relu", fb::PointwiseMode::RELU_FWD, kX, kY);
        return builder.build();
    }
    builder.addTensor(kB, "b", fb::DataType::FLOAT, param.bDims, stridesFor(param.bDims, TensorLayout::NCHW));
    if (param.kind == GraphKind::Add) {
        builder.addPointwise("add", fb::PointwiseMode::ADD, kX, kY, kB);
    } else {
        builder.addTensor(kSum, "sum", fb::DataType::FLOAT, param.dims, {}, true)
            .addPointwise("add", fb::PointwiseMode::ADD, kX, kSum, kB)
            .addPointwise("relu", fb::PointwiseMode::RELU_FWD, kSum, kY);
    }
    return builder.build();
}

class ReluAddThroughBackend : public ::testing::TestWithParam<ReluAddCase> {
public:
    // Exactly two plugins: this build's example and the installed CPU reference (ABSOLUTE mode
    // ignores the default folder, which may hold an installed copy of the example).
    static void SetUpTestSuite() {
        example_plugin::setEnginePluginPaths({EXAMPLE_PLUGIN_FILE, EXAMPLE_CPU_REFERENCE_PLUGIN_FILE},
                                             HIPDNN_PLUGIN_LOADING_ABSOLUTE);
        handle = std::make_unique<CpuHandle>();
    }
    static void TearDownTestSuite() { handle.reset(); }

protected:
    static inline std::unique_ptr<CpuHandle> handle;
};

TEST_P(ReluAddThroughBackend, MatchesTheCpuReferenceEngine) {
    const ReluAddCase& param = GetParam();
    const std::vector<uint8_t> graph = buildGraph(param);
    const uint32_t seed = hipdnn_test_sdk::globalTestSeed();

    Tensor<float> x(param.dims, param.channelsLastInput ? TensorLayout::NHWC : TensorLayout::NCHW);
    Tensor<float> b(param.kind == GraphKind::Relu ? std::vector<int64_t>{1, 1, 1, 1} : param.bDims,
                    TensorLayout::NCHW);
    Tensor<float> expected(param.dims, TensorLayout::NCHW);
    Tensor<float> actual(param.dims, TensorLayout::NCHW);
    x.fillRandom(-2.0, 2.0, seed);
    b.fillRandom(-1.0, 1.0, seed + 1);
    expected.fillSentinel();
    actual.fillSentinel();

    std::map<int64_t, void*> referenceBuffers = {{kX, x.data()}, {kY, expected.data()}};
    std::map<int64_t, void*> exampleBuffers = {{kX, x.data()}, {kY, actual.data()}};
    if (param.kind != GraphKind::Relu) {
        referenceBuffers.emplace(kB, b.data());
        exampleBuffers.emplace(kB, b.data());
    }
    handle->execute(graph, kCpuReferenceEngineId, referenceBuffers);
    handle->execute(graph, example_plugin::EXAMPLE_RELU_ADD_ENGINE_ID, exampleBuffers);

    HIPDNN_EXPECT_ALL_CLOSE(
        hipdnn_test_sdk::viewOf(expected, fb::DataType::FLOAT),
        hipdnn_test_sdk::viewOf(actual, fb::DataType::FLOAT),
        hipdnn_test_sdk::fixedTolerance(hipdnn_test_sdk::ToleranceOp::Pointwise, fb::DataType::FLOAT));
}

INSTANTIATE_TEST_SUITE_P(Smoke, ReluAddThroughBackend,
                         ::testing::Values(ReluAddCase{GraphKind::Relu, {1, 2, 3, 3}, {}, false},
                                           ReluAddCase{GraphKind::Relu, {1, 2, 3, 3}, {}, true},
                                           ReluAddCase{GraphKind::Add, {2, 3, 2, 2}, {1, 3, 1, 1}, false},
                                           ReluAddCase{GraphKind::Add, {2, 3, 2, 2}, {2, 3, 2, 2}, true},
                                           ReluAddCase{
                                               GraphKind::AddRelu, {2, 3, 2, 2}, {1, 3, 1, 1}, true}));

INSTANTIATE_TEST_SUITE_P(
    Full, ReluAddThroughBackend,
    ::testing::Values(ReluAddCase{GraphKind::Relu, {8, 32, 16, 16}, {}, true},
                      ReluAddCase{GraphKind::Add, {4, 64, 14, 14}, {1, 64, 1, 1}, true},
                      ReluAddCase{GraphKind::Add, {4, 16, 14, 14}, {4, 1, 14, 14}, false},
                      ReluAddCase{GraphKind::AddRelu, {8, 32, 16, 16}, {1, 32, 1, 1}, true}));

TEST_F(ReluAddThroughBackend, LoadsExactlyTheTwoPluginsItNamed) {
    std::vector<std::string> loaded = handle->loadedPluginPaths();
    std::vector<std::string> named = {std::filesystem::canonical(EXAMPLE_PLUGIN_FILE).string(),
                                      std::filesystem::canonical(EXAMPLE_CPU_REFERENCE_PLUGIN_FILE).string()};
    std::sort(loaded.begin(), loaded.end());
    std::sort(named.begin(), named.end());
    EXPECT_EQ(loaded, named);
    EXPECT_TRUE(handle->hasEngine("EXAMPLE_RELU_ADD_ENGINE"));
}

TEST_F(ReluAddThroughBackend, ADeclinedGraphReachesTheUserWithTheNodeNamed) {
    const std::vector<uint8_t> graph = GraphBuilder("mul")
                                           .addTensor(kX, "x", fb::DataType::FLOAT, {4})
                                           .addTensor(kB, "b", fb::DataType::FLOAT, {4})
                                           .addTensor(kY, "y", fb::DataType::FLOAT, {4})
                                           .addPointwise("scale", fb::PointwiseMode::MUL, kX, kY, kB)
                                           .build();
    const std::string reasons = handle->declineReasons(graph);
    EXPECT_NE(reasons.find("EXAMPLE_RELU_ADD_ENGINE\texample_relu_add_plugin\tnode 0 'scale'"),
              std::string::npos)
        << reasons;
}

}  // namespace
