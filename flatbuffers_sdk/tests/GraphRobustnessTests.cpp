// Malformed buffers must be rejected with GraphError, never crash: every truncation of a valid
// graph and thousands of seeded random corruptions. (A libFuzzer target covers this further.)

#include "TestGraphs.hpp"
#include "hipdnn_flatbuffers_sdk/Builders.hpp"
#include "hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp"
#include "hipdnn_flatbuffers_sdk/GraphJson.hpp"
#include "hipdnn_flatbuffers_sdk/GraphWrapper.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace hipdnn_flatbuffers_sdk::test {
namespace {

// Reads everything a consumer of an accepted graph would read.
void walkGraph(const GraphWrapper& graph) {
    for (size_t i = 0; i < graph.nodeCount(); ++i) {
        for (const auto& port : graph.node(i).ports()) {
            const auto& tensor = graph.tensor(port.uid);
            ASSERT_NE(tensor.dims(), nullptr);
            ASSERT_EQ(tensor.dims()->size(), tensor.strides()->size());
        }
    }
    EXPECT_FALSE(graphToJson(graph.data(), graph.size()).empty());
}

enum class Outcome { Accepted, Rejected };

// Printing needs only the FlatBuffers verifier, so it also runs on graphs that break the
// contract (unknown union types, bad enum values); it must print or throw GraphError.
void printOrReject(const std::vector<uint8_t>& bytes) {
    try {
        EXPECT_FALSE(graphToJson(bytes.data(), bytes.size()).empty());
    } catch (const GraphError& e) {
        EXPECT_NE(std::string(e.what()), "");
    }
}

Outcome construct(const std::vector<uint8_t>& bytes) {
    printOrReject(bytes);
    std::string error;
    const auto graph = GraphWrapper::tryCreate(bytes.data(), bytes.size(), error);
    if (!graph) {
        EXPECT_FALSE(error.empty());
        return Outcome::Rejected;
    }
    walkGraph(*graph);
    return Outcome::Accepted;
}

TEST(GraphRobustness, EveryTruncationIsRejected) {
    const auto bytes = convAddReluGraph().build();
    const std::string json = graphToJson(bytes.data(), bytes.size());
    // The builder pads the buffer's end (the first object it wrote) to 8 bytes; dropping only
    // padding leaves the same graph.
    const size_t lastPaddingStart = bytes.size() - 8;
    for (size_t length = 0; length < bytes.size(); ++length) {
        const std::vector<uint8_t> truncated(bytes.begin(),
                                             bytes.begin() + static_cast<std::ptrdiff_t>(length));
        std::string error;
        const auto graph = GraphWrapper::tryCreate(truncated.data(), truncated.size(), error);
        if (length < lastPaddingStart) {
            EXPECT_FALSE(graph.has_value()) << "length " << length;
            EXPECT_THROW(graphToJson(truncated.data(), truncated.size()), GraphError) << "length " << length;
        } else if (graph) {
            EXPECT_EQ(graphToJson(graph->data(), graph->size()), json) << "length " << length;
        }
    }
}

TEST(GraphRobustness, RandomByteCorruptionsAreAcceptedOrRejectedCleanly) {
    const auto original = convAddReluGraph().build();
    std::mt19937_64 random(0x5eed'f1a7'b0ffULL);
    std::uniform_int_distribution<size_t> position(0, original.size() - 1);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_int_distribution<int> flipCount(1, 4);
    constexpr int kMutations = 5000;
    int rejected = 0;
    for (int mutation = 0; mutation < kMutations; ++mutation) {
        auto corrupted = original;
        for (int flips = flipCount(random); flips > 0; --flips) {
            corrupted[position(random)] = static_cast<uint8_t>(byte(random));
        }
        rejected += construct(corrupted) == Outcome::Rejected;
    }
    // Most corruptions hit offsets, dims or uids and must be caught; some (names, padding
    // bytes) are harmless.
    EXPECT_GT(rejected, kMutations / 4);
}

TEST(GraphRobustness, RandomBuffersAreRejected) {
    std::mt19937_64 random(42);
    std::uniform_int_distribution<int> byte(0, 255);
    for (size_t length = 1; length < 512; ++length) {
        std::vector<uint8_t> noise(length);
        for (auto& value : noise) {
            value = static_cast<uint8_t>(byte(random));
        }
        EXPECT_EQ(construct(noise), Outcome::Rejected) << "length " << length;
    }
}

TEST(GraphRobustness, EngineConfigCorruptionsAreAcceptedOrRejectedCleanly) {
    const auto original = makeEngineConfig(
        77, {{"plugin.tile", int64_t{8}}, {"plugin.ratio", 0.5}, {"plugin.algo", std::string("direct")}});
    std::mt19937_64 random(7);
    std::uniform_int_distribution<size_t> position(0, original.size() - 1);
    std::uniform_int_distribution<int> byte(0, 255);
    for (int mutation = 0; mutation < 3000; ++mutation) {
        auto corrupted = original;
        corrupted[position(random)] = static_cast<uint8_t>(byte(random));
        try {
            EXPECT_FALSE(tableToJson(corrupted.data(), corrupted.size(), "EngineConfig").empty());
        } catch (const FlatbufferError&) {
        }
        std::optional<EngineConfigWrapper> config;
        try {
            config.emplace(corrupted.data(), corrupted.size());
        } catch (const EngineConfigError&) {
            continue;
        }
        // Each accepted knob reads back through exactly one of the typed lookups.
        for (const auto& id : config->knobIds()) {
            int readable = 0;
            const auto count = [&](auto lookup) {
                try {
                    readable += lookup().has_value();
                } catch (const EngineConfigError&) {
                }
            };
            count([&] { return config->intKnob(id); });
            count([&] { return config->floatKnob(id); });
            count([&] { return config->stringKnob(id); });
            EXPECT_EQ(readable, 1) << id;
        }
    }
}

TEST(GraphRobustness, UnalignedInputIsCopiedAndVerified) {
    const auto bytes = convAddReluGraph().build();
    std::vector<uint8_t> shifted(bytes.size() + 1);
    std::copy(bytes.begin(), bytes.end(), shifted.begin() + 1);
    const GraphWrapper graph(shifted.data() + 1, bytes.size());
    EXPECT_EQ(graph.nodeCount(), 3u);
}

}  // namespace
}  // namespace hipdnn_flatbuffers_sdk::test
