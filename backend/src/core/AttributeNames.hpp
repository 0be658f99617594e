// Printable names of descriptor types, attribute names and attribute types for messages.
#pragma once

#include <string>

#include "HipdnnBackendAttributeName.h"
#include "HipdnnBackendAttributeType.h"
#include "HipdnnBackendDescriptorType.h"

namespace hipdnn_backend {

// "HIPDNN_BACKEND_ENGINE_DESCRIPTOR"; unknown values print as "<unknown descriptor type N>". They
// take ints: a C caller may pass any value where the API declares an enum, and such a value is
// read as an int (hipdnn_data_sdk/utilities/CEnum.hpp) until it is known to be an enumerator.
std::string descriptorTypeName(int type);
std::string attributeName(int name);
std::string attributeTypeName(int type);

// Whether the value is an enumerator of hipdnnBackendDescriptorType_t, hipdnnBackendAttributeName_t
// or hipdnnBackendAttributeType_t.
bool isDescriptorType(int type) noexcept;
bool isAttributeName(int name) noexcept;
bool isAttributeType(int type) noexcept;

}  // namespace hipdnn_backend
