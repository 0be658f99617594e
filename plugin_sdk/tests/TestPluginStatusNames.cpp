#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using hipdnn_plugin_sdk::pluginStatusName;

// The name is the enumerator's own spelling.
#define EXPECT_NAMED_AS_SPELLED(status) EXPECT_STREQ(pluginStatusName(status), #status)

TEST(PluginStatusNameTest, EveryStatusIsNamedAsItsEnumerator) {
    EXPECT_NAMED_AS_SPELLED(HIPDNN_PLUGIN_STATUS_SUCCESS);
    EXPECT_NAMED_AS_SPELLED(HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    EXPECT_NAMED_AS_SPELLED(HIPDNN_PLUGIN_STATUS_INVALID_VALUE);
    EXPECT_NAMED_AS_SPELLED(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR);
    EXPECT_NAMED_AS_SPELLED(HIPDNN_PLUGIN_STATUS_ALLOC_FAILED);
    EXPECT_NAMED_AS_SPELLED(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    EXPECT_NAMED_AS_SPELLED(HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED);
}

// The statuses are numbered 0 .. NOT_INITIALIZED without gaps; every one of them has a name of
// its own. (A new enumerator without a case in pluginStatusName fails to compile: -Wswitch is an
// error in this project.)
TEST(PluginStatusNameTest, EveryValueOfTheEnumHasADistinctName) {
    std::set<std::string> names;
    for (int value = HIPDNN_PLUGIN_STATUS_SUCCESS; value <= HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED; ++value) {
        const std::string name = pluginStatusName(static_cast<hipdnnPluginStatus_t>(value));
        EXPECT_EQ(name.rfind("HIPDNN_PLUGIN_STATUS_", 0), 0U) << value << ": " << name;
        EXPECT_NE(name, "HIPDNN_PLUGIN_STATUS_UNKNOWN") << value;
        names.insert(name);
    }
    EXPECT_EQ(names.size(), static_cast<size_t>(HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED) + 1);
}

// A plugin may return a value that is no enumerator (one built against a newer API, or a bug).
// The value just past the last enumerator is still within the enum's range of values, so the
// cast is well defined. If this fails, a status was added: name it in the test above.
TEST(PluginStatusNameTest, AValueThatIsNoEnumeratorIsNamedUnknown) {
    const auto unknown = static_cast<hipdnnPluginStatus_t>(HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED + 1);
    EXPECT_STREQ(pluginStatusName(unknown), "HIPDNN_PLUGIN_STATUS_UNKNOWN");
}

}  // namespace
