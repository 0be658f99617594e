// Batch files: comments, quoting, defaults, and errors that name the line and the flag.
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "BatchFile.hpp"
#include "Problem.hpp"

namespace hipdnn_driver {
namespace {

TEST(BatchFile, SplitsWordsWithQuotesAndComments) {
    EXPECT_EQ(splitWords("conv -n 4  -c 8 # comment"),
              (std::vector<std::string>{"conv", "-n", "4", "-c", "8"}));
    EXPECT_EQ(splitWords("graph 'a b.json' \"#x\""), (std::vector<std::string>{"graph", "a b.json", "#x"}));
    EXPECT_TRUE(splitWords("   # only a comment").empty());
    EXPECT_THROW(splitWords("graph 'open"), UsageError);
}

TEST(BatchFile, ParsesEveryLineWithDefaultsAndOverrides) {
    std::istringstream in("# header\n\nconv -n 2\nmatmul -m 8 --engine CPU_REFERENCE_ENGINE\ngraph g.json\n");
    CommonOptions defaults;
    defaults.engine = "all";
    const auto entries = parseBatch(in, "b.txt", "/data", defaults);
    ASSERT_EQ(entries.size(), 3U);
    EXPECT_EQ(entries[0].line, 3U);
    EXPECT_EQ(std::get<ConvSpec>(entries[0].invocation.problem).n, 2);
    EXPECT_EQ(entries[0].invocation.common.engine, "all");
    EXPECT_EQ(entries[1].line, 4U);
    EXPECT_EQ(entries[1].invocation.common.engine, "CPU_REFERENCE_ENGINE");
    EXPECT_EQ(std::get<GraphSpec>(entries[2].invocation.problem).file, std::filesystem::path("/data/g.json"));
}

TEST(BatchFile, ErrorsNameEveryBadLineAndItsFlag) {
    std::istringstream in("conv -n 1\nconv -c abc\nconv -n 1\npool --bogus 2\ndemo\nlist\n");
    try {
        parseBatch(in, "b.txt", ".", CommonOptions{});
        FAIL() << "no error";
    } catch (const UsageError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("b.txt:2: "), std::string::npos) << message;
        EXPECT_NE(message.find("-c"), std::string::npos) << message;
        EXPECT_NE(message.find("b.txt:4: "), std::string::npos) << message;
        EXPECT_NE(message.find("--bogus"), std::string::npos) << message;
        EXPECT_NE(message.find("b.txt:5: 'demo' is not a problem subcommand"), std::string::npos) << message;
        EXPECT_NE(message.find("b.txt:6: "), std::string::npos) << message;
        EXPECT_EQ(message.find("b.txt:1:"), std::string::npos) << message;
        EXPECT_EQ(message.find("b.txt:3:"), std::string::npos) << message;
    }
}

TEST(BatchFile, EmptyBatchIsAnError) {
    std::istringstream in("# nothing\n\n");
    EXPECT_THROW(parseBatch(in, "b.txt", ".", CommonOptions{}), UsageError);
}

TEST(BatchFile, ResNet50BatchHoldsEveryConvolutionLayerInBothTypes) {
    const auto entries = parseBatchFile(HIPDNN_DRIVER_TEST_DATA "/resnet50_conv.batch", CommonOptions{});
    // 16 layer shapes x fprop, dgrad, wgrad, but conv1's dgrad, in bf16 and fp32.
    ASSERT_EQ(entries.size(), 94U);
    std::map<std::pair<DataType, ConvSpec::Direction>, int> counts;
    for (const auto& entry : entries) {
        SCOPED_TRACE(entry.text);
        const auto& spec = std::get<ConvSpec>(entry.invocation.problem);
        EXPECT_EQ(spec.n, 32);
        EXPECT_EQ(spec.layout, Layout::ChannelsLast);
        EXPECT_EQ(spec.padH, spec.filterH / 2);
        ++counts[{spec.dataType, spec.direction}];
        EXPECT_FALSE(makeProblem(spec).graph.empty());
    }
    for (const DataType type : {DataType::BFLOAT16, DataType::FLOAT}) {
        EXPECT_EQ((counts[{type, ConvSpec::Direction::Fprop}]), 16);
        EXPECT_EQ((counts[{type, ConvSpec::Direction::Dgrad}]), 15);
        EXPECT_EQ((counts[{type, ConvSpec::Direction::Wgrad}]), 16);
    }
}

}  // namespace
}  // namespace hipdnn_driver
