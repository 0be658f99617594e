// cEnumValue reads any int a C caller stored in a C enum without loading it as the enum, so the
// sanitized build (UBSan's enum check) runs these with values outside the enum's range.
#include <hipdnn_data_sdk/logging/CallbackTypes.h>
#include <hipdnn_data_sdk/utilities/CEnum.hpp>

#include <gtest/gtest.h>

#include <cstring>

namespace {

using hipdnn_data_sdk::utilities::cEnumValue;

// Takes the argument the way a C API function does; the backend's API tests pass it values
// outside the enum.
int readArgument(hipdnnSeverity_t severity) {
    return cEnumValue(severity);
}

TEST(DataSdkCEnum, ReadsEnumeratorsInConstantExpressions) {
    static_assert(cEnumValue(HIPDNN_SEV_INFO) == 0);
    static_assert(cEnumValue(HIPDNN_SEV_OFF) == 4);
    EXPECT_EQ(readArgument(HIPDNN_SEV_ERROR), 2);
}

TEST(DataSdkCEnum, ReadsValuesOutsideTheEnumsRange) {
    for (const int value : {99, -1, 1 << 20}) {
        hipdnnSeverity_t stored;  // What a C caller may store: any int.
        std::memcpy(&stored, &value, sizeof value);
        EXPECT_EQ(cEnumValue(stored), value);
    }
}

}  // namespace
