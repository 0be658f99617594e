// The cache directory: the environment's order of precedence and HIPDNN_DISABLE_CACHE.
#include <hipdnn_data_sdk/utilities/CacheDirectory.hpp>

#include <gtest/gtest.h>

namespace {

using hipdnn_data_sdk::utilities::cacheDirectoryFrom;
namespace fs = std::filesystem;

TEST(CacheDirectory, FollowsTheEnvironmentsOrder) {
    EXPECT_EQ(cacheDirectoryFrom("/c", "/x", "/h", nullptr), fs::path("/c"));
    EXPECT_EQ(cacheDirectoryFrom("", "/x", "/h", nullptr), fs::path("/x/hipdnn"));
    EXPECT_EQ(cacheDirectoryFrom(nullptr, "", "/h", nullptr), fs::path("/h/.cache/hipdnn"));
    EXPECT_EQ(cacheDirectoryFrom(nullptr, nullptr, "/h", nullptr), fs::path("/h/.cache/hipdnn"));
    EXPECT_EQ(cacheDirectoryFrom(nullptr, nullptr, nullptr, nullptr), std::nullopt);
}

TEST(CacheDirectory, DisableCacheTurnsTheDiskOff) {
    EXPECT_EQ(cacheDirectoryFrom("/c", "/x", "/h", "1"), std::nullopt);
    EXPECT_EQ(cacheDirectoryFrom("/c", "/x", "/h", "0"), fs::path("/c"));
    EXPECT_EQ(cacheDirectoryFrom("/c", "/x", "/h", ""), fs::path("/c"));
}

}  // namespace
