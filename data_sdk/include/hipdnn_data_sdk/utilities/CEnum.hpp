// Reading the C enums of the hipDNN C APIs from C++ without undefined behaviour.
//
// C lets a caller pass any int where a function declares a C enum. C++ gives an enum without a
// fixed underlying type only the values of the smallest bit-field that holds its enumerators, and
// loading any other value as the enum is undefined behaviour (UBSan's enum check stops the
// program there). Code that receives a C enum from outside (an API argument, an element of a
// caller's array, a plugin's return value) therefore reads it as an int with cEnumValue,
// validates that int, and converts back to the enum only a value it has checked.
#pragma once

#include <cstring>
#include <type_traits>

namespace hipdnn_data_sdk::utilities {

/// The int that `value` holds, read from its bytes rather than loaded as the enum.
template <class Enum>
constexpr int cEnumValue(const Enum& value) noexcept {
    static_assert(std::is_enum_v<Enum> && sizeof(Enum) == sizeof(int), "cEnumValue reads int-sized C enums");
    if (std::is_constant_evaluated()) {
        return static_cast<int>(value);
    }
    int raw = 0;
    std::memcpy(&raw, &value, sizeof raw);
    return raw;
}

}  // namespace hipdnn_data_sdk::utilities
