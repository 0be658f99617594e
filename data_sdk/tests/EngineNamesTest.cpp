#include "EngineNamesTestRegistrations.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace utilities = hipdnn_data_sdk::utilities;
using ::testing::HasSubstr;

template <class Exception, class Action>
std::string messageOf(Action&& action) {
    try {
        action();
    } catch (const Exception& error) {
        return error.what();
    }
    ADD_FAILURE() << "no exception thrown";
    return {};
}

TEST(DataSdkEngineNames, Fnv1aKnownVectors) {
    static_assert(utilities::fnv1aHash("") == 0xcbf29ce484222325);
    static_assert(utilities::fnv1aHash("a") == 0xaf63dc4c8601ec8c);
    EXPECT_EQ(utilities::fnv1aHash("foobar"), 0x85944171f73967e8u);
    EXPECT_EQ(utilities::fnv1aHash(std::string_view("a\0b", 3)),
              utilities::fnv1aHash(std::string("a\0b", 3)));
    EXPECT_NE(utilities::fnv1aHash(std::string_view("a\0b", 3)), utilities::fnv1aHash("ab"));
    // Bytes above 0x7f hash as unsigned values.
    EXPECT_EQ(utilities::fnv1aHash("\xff"), (0xcbf29ce484222325u ^ 0xffu) * 0x100000001b3u);
}

TEST(DataSdkEngineNames, IdIsTheHashAsInt64AndZeroForEmpty) {
    static_assert(utilities::engineNameToId("") == 0);
    EXPECT_EQ(utilities::engineNameToId("a"), static_cast<int64_t>(0xaf63dc4c8601ec8cu));
    EXPECT_LT(utilities::engineNameToId("a"), 0);
    EXPECT_EQ(utilities::engineNameToId("CUDNN_ENGINE"),
              static_cast<int64_t>(utilities::fnv1aHash("CUDNN_ENGINE")));
}

TEST(DataSdkEngineNames, ShippedEnginesAreRegisteredWithHashIds) {
    const std::vector<std::pair<std::string, int64_t>> shipped = {
        {utilities::CPU_REFERENCE_ENGINE_NAME, utilities::CPU_REFERENCE_ENGINE_ID},
        {utilities::ONEDNN_ENGINE_NAME, utilities::ONEDNN_ENGINE_ID},
        {utilities::CUDNN_ENGINE_NAME, utilities::CUDNN_ENGINE_ID},
        {utilities::CUDNN_ENGINE_DETERMINISTIC_NAME, utilities::CUDNN_ENGINE_DETERMINISTIC_ID},
        {utilities::CUDA_POINTWISE_ENGINE_NAME, utilities::CUDA_POINTWISE_ENGINE_ID},
        {utilities::CUDA_NORM_ENGINE_NAME, utilities::CUDA_NORM_ENGINE_ID},
        {utilities::CUBLASLT_ENGINE_NAME, utilities::CUBLASLT_ENGINE_ID},
        {utilities::CUDA_SDPA_ENGINE_NAME, utilities::CUDA_SDPA_ENGINE_ID},
        {utilities::CUDA_GRAPH_ENGINE_NAME, utilities::CUDA_GRAPH_ENGINE_ID},
    };
    const std::set<std::string> expectedNames = {
        "CPU_REFERENCE_ENGINE",  "ONEDNN_ENGINE",    "CUDNN_ENGINE",    "CUDNN_ENGINE_DETERMINISTIC",
        "CUDA_POINTWISE_ENGINE", "CUDA_NORM_ENGINE", "CUBLASLT_ENGINE", "CUDA_SDPA_ENGINE",
        "CUDA_GRAPH_ENGINE"};
    std::set<std::string> names;
    for (const auto& [name, id] : shipped) {
        names.insert(name);
        EXPECT_EQ(id, utilities::engineNameToId(name)) << name;
        EXPECT_TRUE(utilities::isEngineNameRegistered(name)) << name;
        EXPECT_EQ(utilities::getEngineNameFromId(id), name);
        EXPECT_EQ(utilities::getEngineIdToNameMap().at(id), name);
    }
    EXPECT_EQ(names, expectedNames);
    static_assert(utilities::CUDNN_ENGINE_ID == utilities::engineNameToId("CUDNN_ENGINE"),
                  "ids are constexpr");
}

TEST(DataSdkEngineNames, MacroRegistersOnceAcrossTranslationUnits) {
    EXPECT_STREQ(TEST_SHARED_HEADER_ENGINE_NAME, "TEST_SHARED_HEADER_ENGINE");
    EXPECT_EQ(TEST_SHARED_HEADER_ENGINE_ID, utilities::engineNameToId("TEST_SHARED_HEADER_ENGINE"));
    EXPECT_EQ(sharedHeaderRegistrarSeenBySecondUnit(), &TEST_SHARED_HEADER_ENGINE_REGISTRAR)
        << "one registrar object";
    EXPECT_STREQ(TEST_SPELLED_ENGINE_NAME, "test.spelled-engine/v2");
    EXPECT_EQ(TEST_SPELLED_ENGINE_ID, utilities::engineNameToId("test.spelled-engine/v2"));

    const std::set<std::string> all = utilities::getAllEngineNames();
    EXPECT_EQ(all.count("TEST_SHARED_HEADER_ENGINE"), 1u);
    EXPECT_EQ(all.count("test.spelled-engine/v2"), 1u);
    EXPECT_EQ(all.count("TEST_SPELLED_ENGINE"), 0u) << "the string replaces the identifier";
    EXPECT_GE(all.size(), 9u);
    EXPECT_FALSE(utilities::isEngineNameRegistered("NOT_AN_ENGINE"));
}

TEST(DataSdkEngineNames, RegisteringANameTwiceThrowsNamingItAndItsId) {
    const std::size_t before = utilities::getAllEngineNames().size();
    const std::string message =
        messageOf<std::logic_error>([] { utilities::registerEngineName("CUDNN_ENGINE"); });
    EXPECT_THAT(message, HasSubstr("'CUDNN_ENGINE'"));
    EXPECT_THAT(message, HasSubstr(utilities::formatEngineIdHex(utilities::CUDNN_ENGINE_ID)));
    EXPECT_THROW(utilities::EngineRegistrar{"ONEDNN_ENGINE"}, std::logic_error);
    EXPECT_EQ(utilities::getAllEngineNames().size(), before);
}

TEST(DataSdkEngineNames, CollidingIdsThrowNamingBothNames) {
    // Name length as id forces collisions that FNV-1a makes impractical to find.
    utilities::EngineNameRegistry registry(
        [](std::string_view name) { return static_cast<int64_t>(name.size()); });
    registry.add("ABC");
    const std::string message = messageOf<std::logic_error>([&] { registry.add("XYZ"); });
    EXPECT_THAT(message, HasSubstr("'XYZ'"));
    EXPECT_THAT(message, HasSubstr("'ABC'"));
    EXPECT_THAT(message, HasSubstr("0x0000000000000003"));
    EXPECT_TRUE(registry.contains("ABC"));
    EXPECT_FALSE(registry.contains("XYZ"));
    EXPECT_EQ(registry.nameOf(3), "ABC");
    EXPECT_EQ(registry.names(), (std::set<std::string>{"ABC"}));
}

TEST(DataSdkEngineNames, EmptyNameIsRejected) {
    utilities::EngineNameRegistry registry;
    EXPECT_THROW(registry.add(""), std::invalid_argument);
    EXPECT_TRUE(registry.names().empty());
}

TEST(DataSdkEngineNames, ConcurrentRegistrationKeepsEveryName) {
    utilities::EngineNameRegistry registry;
    std::vector<std::thread> threads;
    for (int thread = 0; thread < 4; ++thread) {
        threads.emplace_back([&registry, thread] {
            for (int i = 0; i < 100; ++i) {
                registry.add("ENGINE_" + std::to_string(thread) + "_" + std::to_string(i));
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(registry.names().size(), 400u);
    EXPECT_EQ(registry.idToName().size(), 400u);
    EXPECT_EQ(registry.nameOf(utilities::engineNameToId("ENGINE_3_99")), "ENGINE_3_99");
}

TEST(DataSdkEngineNames, UnknownIdLookups) {
    EXPECT_EQ(utilities::tryGetEngineNameFromId(12345), std::nullopt);
    EXPECT_EQ(utilities::tryGetEngineNameFromId(utilities::CUBLASLT_ENGINE_ID), "CUBLASLT_ENGINE");
    EXPECT_THAT(messageOf<std::out_of_range>([] { utilities::getEngineNameFromId(12345); }),
                HasSubstr("0x0000000000003039"));
}

TEST(DataSdkEngineNames, FormatsIdsAsSixteenUpperCaseHexDigits) {
    EXPECT_EQ(utilities::formatEngineIdHex(0), "0x0000000000000000");
    EXPECT_EQ(utilities::formatEngineIdHex(0x1a2b), "0x0000000000001A2B");
    EXPECT_EQ(utilities::formatEngineIdHex(-1), "0xFFFFFFFFFFFFFFFF");
    EXPECT_EQ(utilities::formatEngineIdHex(utilities::engineNameToId("a")), "0xAF63DC4C8601EC8C");
    EXPECT_EQ(utilities::formatEngineIdHex(std::numeric_limits<int64_t>::min()), "0x8000000000000000");
}

}  // namespace
