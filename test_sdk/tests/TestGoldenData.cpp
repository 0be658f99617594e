#include <hipdnn_test_sdk/FileReading.hpp>
#include <hipdnn_test_sdk/GoldenData.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

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

// The message of the std::runtime_error that `load` throws; fails the test if none.
template <class Load>
std::string runtimeErrorOf(Load&& load) {
    try {
        load();
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    ADD_FAILURE() << "no std::runtime_error was thrown";
    return {};
}

std::string readText(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void replaceInFile(const fs::path& file, const std::string& from, const std::string& to) {
    std::string text = readText(file);
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from << " is not in " << file;
    text.replace(at, from.size(), to);
    std::ofstream(file, std::ios::trunc) << text;
}

// A manifest naming /dev/zero (or a directory) would be read without end; it is refused before
// anything is read.
TEST_F(TestGoldenData, TensorAndGraphFilesMustBeRegularFiles) {
    saveGoldenCase(directory, sampleCase());
    replaceInFile(directory / "manifest.json", "\"tensor_11.bin\"", "\"/dev/zero\"");
    const std::string device = runtimeErrorOf([&] { loadGoldenCase(directory); });
    EXPECT_NE(device.find(
                  "/dev/zero: the tensor file of uid 11 is a character device; only regular files are read"),
              std::string::npos)
        << device;

    replaceInFile(directory / "manifest.json", "\"/dev/zero\"", "\".\"");
    const std::string folder = runtimeErrorOf([&] { loadGoldenCase(directory); });
    EXPECT_NE(folder.find("the tensor file of uid 11 is a directory"), std::string::npos) << folder;

    replaceInFile(directory / "manifest.json", "\"graph.json\"", "\"/dev/urandom\"");
    const std::string graph = runtimeErrorOf([&] { loadGoldenCase(directory); });
    EXPECT_NE(graph.find("/dev/urandom: the graph file is a character device"), std::string::npos) << graph;
}

TEST_F(TestGoldenData, TensorFilesMustHoldExactlyTheirTensor) {
    saveGoldenCase(directory, sampleCase());
    std::ofstream(directory / "tensor_11.bin", std::ios::binary | std::ios::trunc) << std::string(17, 'x');
    const std::string longer = runtimeErrorOf([&] { loadGoldenCase(directory); });
    EXPECT_NE(longer.find("tensor_11.bin has 17 bytes but tensor uid 11 needs 16"), std::string::npos)
        << longer;
}

TEST_F(TestGoldenData, ManifestDimsThatOverflowAreRejected) {
    saveGoldenCase(directory, sampleCase());
    replaceInFile(directory / "manifest.json", "\"strides\": [\n        2,\n        1\n      ]",
                  "\"strides\": [\n        4611686018427387904,\n        1\n      ]");
    const std::string error = runtimeErrorOf([&] { loadGoldenCase(directory); });
    EXPECT_NE(error.find("tensor uid 11 is too large: its size in bytes overflows int64"), std::string::npos)
        << error;
}

class TestFileReading : public TestGoldenData {};

TEST_F(TestFileReading, ReadsRegularFilesUpToTheLimitOnly) {
    fs::create_directories(directory);
    const fs::path file = directory / "ten.bin";
    std::ofstream(file, std::ios::binary) << "0123456789";
    EXPECT_EQ(readRegularFile(file, 10, "graph file").size(), 10u);
    EXPECT_EQ(readRegularFileOfSize(file, 10, "tensor file").size(), 10u);
    const std::string large = runtimeErrorOf([&] { readRegularFile(file, 9, "graph file"); });
    EXPECT_NE(large.find(file.string() + ": the graph file holds 10 bytes, more than the limit of 9 bytes"),
              std::string::npos)
        << large;
    const std::string wrongSize = runtimeErrorOf([&] { readRegularFileOfSize(file, 12, "tensor file"); });
    EXPECT_NE(wrongSize.find("the tensor file holds 10 bytes but must hold exactly 12 bytes"),
              std::string::npos)
        << wrongSize;
    const std::string missing =
        runtimeErrorOf([&] { readRegularFile(directory / "absent", 9, "graph file"); });
    EXPECT_NE(missing.find("absent: cannot open the graph file: no such file"), std::string::npos) << missing;
    const std::string zero =
        runtimeErrorOf([&] { readRegularFile("/dev/zero", kMaxGraphFileBytes, "graph file"); });
    EXPECT_NE(zero.find("/dev/zero: the graph file is a character device"), std::string::npos) << zero;
    EXPECT_EQ(kMaxGraphFileBytes, 1ULL << 30);
}

}  // namespace
