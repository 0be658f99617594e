#include "descriptors/AttributeAccess.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/AttributeNames.hpp"
#include "descriptors/DescriptorRegistry.hpp"

namespace hipdnn_backend::descriptors {

namespace {

void checkType(hipdnnBackendAttributeName_t name, hipdnnBackendAttributeType_t actual,
               hipdnnBackendAttributeType_t expected) {
    if (actual != expected) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              fmt::format("Attribute {} takes type {}, got {}", attributeName(name),
                                          attributeTypeName(expected), attributeTypeName(actual)));
    }
}

std::vector<std::shared_ptr<Descriptor>> lookupAll(hipdnnBackendAttributeName_t name, const void* elements,
                                                   int64_t count, hipdnnBackendDescriptorType_t expectedType,
                                                   bool requireFinalized) {
    const auto* handles = static_cast<const hipdnnBackendDescriptor_t*>(elements);
    std::vector<std::shared_ptr<Descriptor>> result;
    result.reserve(static_cast<size_t>(count));
    for (int64_t index = 0; index < count; ++index) {
        std::shared_ptr<Descriptor> descriptor = lookupDescriptor(handles[index]);
        const std::string role = fmt::format("Element {} of attribute {}", index, attributeName(name));
        requireDescriptorType(*descriptor, expectedType, role.c_str());
        if (requireFinalized && !descriptor->isFinalized()) {
            throw HipdnnException(
                HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
                fmt::format("{} ({}) must be finalized first", role, descriptorTypeName(expectedType)));
        }
        result.push_back(std::move(descriptor));
    }
    return result;
}

}  // namespace

void AttributeInput::requireSaneCount() const {
    if (count < 0) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            fmt::format("Attribute {}: element count {} is negative", attributeName(name), count));
    }
    if (count > kMaxAttributeElements) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              fmt::format("Attribute {}: element count {} exceeds the limit of {}",
                                          attributeName(name), count, kMaxAttributeElements));
    }
}

void AttributeInput::requireType(hipdnnBackendAttributeType_t expected) const {
    checkType(name, type, expected);
}

void AttributeInput::requireCount(int64_t expected) const {
    if (count != expected) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, fmt::format("Attribute {} takes {} element(s), got {}",
                                                                   attributeName(name), expected, count));
    }
}

void AttributeInput::requireElements() const {
    if (count > 0 && elements == nullptr) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
            fmt::format("Attribute {}: array of {} element(s) is null", attributeName(name), count));
    }
}

std::string AttributeInput::text() const {
    std::span<const char> characters = values<char>(HIPDNN_TYPE_CHAR);
    std::string result(characters.begin(), characters.end());
    while (!result.empty() && result.back() == '\0') {
        result.pop_back();
    }
    return result;
}

std::vector<std::shared_ptr<Descriptor>> AttributeInput::descriptors(
    hipdnnBackendDescriptorType_t expectedType, bool requireFinalized) const {
    requireType(HIPDNN_TYPE_BACKEND_DESCRIPTOR);
    requireElements();
    return lookupAll(name, elements, count, expectedType, requireFinalized);
}

std::shared_ptr<Descriptor> AttributeInput::descriptor(hipdnnBackendDescriptorType_t expectedType,
                                                       bool requireFinalized) const {
    requireType(HIPDNN_TYPE_BACKEND_DESCRIPTOR);
    requireCount(1);
    return descriptors(expectedType, requireFinalized).front();
}

void AttributeOutput::requireType(hipdnnBackendAttributeType_t expected) const {
    checkType(name, type, expected);
}

void AttributeOutput::requireElements() const {
    if (requested < 0) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            fmt::format("Attribute {}: negative requested count {}", attributeName(name), requested));
    }
    if (requested > 0 && elements == nullptr) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                              fmt::format("Attribute {}: output array is null", attributeName(name)));
    }
}

void AttributeOutput::writeText(std::string_view text) const {
    requireType(HIPDNN_TYPE_CHAR);
    const auto total = static_cast<int64_t>(text.size() + 1);
    if (requested == 0) {
        *count = total;
        return;
    }
    requireElements();
    const int64_t copied = std::min(requested, total);
    auto* out = static_cast<char*>(elements);
    std::memcpy(out, text.data(), static_cast<size_t>(copied - 1));
    out[copied - 1] = '\0';
    *count = copied;
}

std::vector<std::shared_ptr<Descriptor>> AttributeOutput::callerDescriptors(
    hipdnnBackendDescriptorType_t expectedType, size_t available) const {
    requireType(HIPDNN_TYPE_BACKEND_DESCRIPTOR);
    requireElements();
    const auto filled = static_cast<int64_t>(std::min<uint64_t>(static_cast<uint64_t>(requested), available));
    return lookupAll(name, elements, filled, expectedType, /*requireFinalized=*/false);
}

}  // namespace hipdnn_backend::descriptors
