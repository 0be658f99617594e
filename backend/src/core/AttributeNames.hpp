// Printable names of descriptor types, attribute names and attribute types for messages.
#pragma once

#include <string>

#include "HipdnnBackendAttributeName.h"
#include "HipdnnBackendAttributeType.h"
#include "HipdnnBackendDescriptorType.h"

namespace hipdnn_backend {

// "HIPDNN_BACKEND_ENGINE_DESCRIPTOR"; unknown values print as "<unknown descriptor type N>".
std::string descriptorTypeName(hipdnnBackendDescriptorType_t type);
std::string attributeName(hipdnnBackendAttributeName_t name);
std::string attributeTypeName(hipdnnBackendAttributeType_t type);

}  // namespace hipdnn_backend
