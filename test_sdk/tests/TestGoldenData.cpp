#include <hipdnn_test_sdk/GoldenData.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

namespace {

using namespace hipdnn_test_sdk;
using hipdnn_flatbuffers_sdk::data_objects::DataType;
using hipdnn_flatbuffers_sdk::data_objects::PointwiseMode;
namespace fs = std::filesystem;

class TestGoldenData : public ::testing::Test {
protected:
    void SetUp() override {
        directory =
            fs::temp_directory_path() /
            ("hipdnn_golden_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(directory);
    }
    void TearDown() override { fs::remove_all(directory); }

    static GoldenCase sampleCase() {
        GoldenCase goldenCase;
        goldenCase.graph = GraphBuilder("golden_relu")
                               .addTensor(10, "x", DataType::HALF, {2, 2}, {1, 2})
                               .addTensor(11, "y", DataType::FLOAT, {2, 2})
                               .addPointwise("relu", PointwiseMode::RELU_FWD, 10, 11)
                               .build();
        goldenCase.tensors.push_back(
            {10, "x", DataType::HALF, {2, 2}, {1, 2}, std::vector<uint8_t>(8, 0x3c)});
        std::vector<uint8_t> y(16);
        const float values[4] = {1.0f, -2.0f, 3.5f, 0.0f};
        std::memcpy(y.data(), values, sizeof(values));
        goldenCase.tensors.push_back({11, "y", DataType::FLOAT, {2, 2}, {2, 1}, y});
        return goldenCase;
    }

    fs::path directory;
};

TEST_F(TestGoldenData, RoundTripsGraphAndTensors) {
    const GoldenCase original = sampleCase();
    saveGoldenCase(directory, original);
    EXPECT_TRUE(fs::exists(directory / "graph.json"));
    EXPECT_TRUE(fs::exists(directory / "manifest.json"));
    EXPECT_TRUE(fs::exists(directory / "tensor_10.bin"));

    const GoldenCase loaded = loadGoldenCase(directory);
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(loaded.graph.data(), loaded.graph.size());
    EXPECT_EQ(graph.graph().name()->str(), "golden_relu");
    EXPECT_EQ(graph.nodeCount(), 1u);
    ASSERT_EQ(loaded.tensors.size(), 2u);
    const auto& x = loaded.tensor(10);
    EXPECT_EQ(x.name, "x");
    EXPECT_EQ(x.dataType, DataType::HALF);
    EXPECT_EQ(x.strides, (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(loaded.tensor(11).bytes, original.tensors[1].bytes);
    EXPECT_THROW(loaded.tensor(99), std::out_of_range);
}

TEST_F(TestGoldenData, RejectsTruncatedTensorFilesAndWrongByteCounts) {
    GoldenCase wrong = sampleCase();
    wrong.tensors[0].bytes.resize(6);
    EXPECT_THROW(saveGoldenCase(directory, wrong), std::invalid_argument);

    saveGoldenCase(directory, sampleCase());
    std::ofstream(directory / "tensor_11.bin", std::ios::binary | std::ios::trunc).write("abc", 3);
    try {
        loadGoldenCase(directory);
        FAIL() << "a truncated tensor file was accepted";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("tensor_11.bin has 3 bytes"), std::string::npos)
            << error.what();
    }
}

TEST_F(TestGoldenData, MissingManifestIsNamed) {
    try {
        loadGoldenCase(directory);
        FAIL() << "a missing manifest was accepted";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("manifest.json"), std::string::npos) << error.what();
    }
}

}  // namespace
