// The usage pattern of a plugin author: HIPDNN_REGISTER_ENGINE in an anonymous namespace, only
// NAME_ID used (or nothing at all). The variables then have internal linkage, and this file is
// built with the project's warning flags plus the compilers' unused-const-variable checks
// (CMakeLists.txt), so an unused NAME_NAME or NAME_ID breaks the build with g++ and clang alike.
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <gtest/gtest.h>

#include <cstdint>

namespace {

namespace utilities = hipdnn_data_sdk::utilities;

HIPDNN_REGISTER_ENGINE(ANONYMOUS_NAMESPACE_ID_ONLY_ENGINE)
HIPDNN_REGISTER_ENGINE(ANONYMOUS_NAMESPACE_SPELLED_ID_ONLY_ENGINE, "test.anonymous-namespace/id-only")
HIPDNN_REGISTER_ENGINE(ANONYMOUS_NAMESPACE_NOTHING_USED_ENGINE)

TEST(DataSdkEngineNames, AnonymousNamespaceRegistrationUsingOnlyTheId) {
    static_assert(ANONYMOUS_NAMESPACE_ID_ONLY_ENGINE_ID ==
                  utilities::engineNameToId("ANONYMOUS_NAMESPACE_ID_ONLY_ENGINE"));
    EXPECT_EQ(utilities::getEngineNameFromId(ANONYMOUS_NAMESPACE_ID_ONLY_ENGINE_ID),
              "ANONYMOUS_NAMESPACE_ID_ONLY_ENGINE");
    EXPECT_EQ(utilities::getEngineNameFromId(ANONYMOUS_NAMESPACE_SPELLED_ID_ONLY_ENGINE_ID),
              "test.anonymous-namespace/id-only");
    // Registered although none of its variables is used.
    EXPECT_TRUE(utilities::isEngineNameRegistered("ANONYMOUS_NAMESPACE_NOTHING_USED_ENGINE"));
}

}  // namespace
