// Typed, checked views of the (type, count, array) triples of hipdnnBackend{Set,Get}Attribute.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/HipdnnException.hpp"
#include "hipdnn_backend.h"

namespace hipdnn_backend::descriptors {

class Descriptor;

// The most elements one hipdnnBackendSetAttribute call may pass. Counts are checked against it
// before the array is read or anything is allocated.
constexpr int64_t kMaxAttributeElements = int64_t{1} << 20;

struct AttributeInput {
    hipdnnBackendAttributeName_t name;
    hipdnnBackendAttributeType_t type;
    int64_t count;
    const void* elements;

    // BAD_PARAM naming the attribute and the count when it is negative or above
    // kMaxAttributeElements. Runs before any setter sees the input.
    void requireSaneCount() const;
    // BAD_PARAM unless the caller passed `expected`.
    void requireType(hipdnnBackendAttributeType_t expected) const;
    // BAD_PARAM unless exactly `expected` elements were passed.
    void requireCount(int64_t expected) const;

    // All elements as T (type checked; null array with count > 0 -> BAD_PARAM_NULL_POINTER).
    template <class T>
    std::span<const T> values(hipdnnBackendAttributeType_t expected) const {
        requireType(expected);
        requireElements();
        return {static_cast<const T*>(elements), static_cast<size_t>(count)};
    }
    // Exactly one element as T.
    template <class T>
    T single(hipdnnBackendAttributeType_t expected) const {
        requireType(expected);
        requireCount(1);
        requireElements();
        T value;
        std::memcpy(&value, elements, sizeof(T));
        return value;
    }
    // CHAR elements as a string; trailing NULs are not part of it.
    std::string text() const;
    // BACKEND_DESCRIPTOR elements, each a live descriptor of `expectedType` (finalized when
    // `requireFinalized`); a wrong type is BAD_PARAM naming expected and actual types.
    std::vector<std::shared_ptr<Descriptor>> descriptors(hipdnnBackendDescriptorType_t expectedType,
                                                         bool requireFinalized) const;
    std::shared_ptr<Descriptor> descriptor(hipdnnBackendDescriptorType_t expectedType,
                                           bool requireFinalized) const;

private:
    void requireElements() const;
};

struct AttributeOutput {
    hipdnnBackendAttributeName_t name;
    hipdnnBackendAttributeType_t type;
    int64_t requested;
    int64_t* count;
    void* elements;

    void requireType(hipdnnBackendAttributeType_t expected) const;

    // Two-call pattern: requested == 0 writes only *count (the total); otherwise copies
    // min(requested, total) elements and sets *count to the number copied.
    template <class T>
    void write(hipdnnBackendAttributeType_t expected, std::span<const T> values) const {
        requireType(expected);
        const auto total = static_cast<int64_t>(values.size());
        if (requested == 0) {
            *count = total;
            return;
        }
        requireElements();
        const int64_t copied = std::min(requested, total);
        // An empty attribute's span may hold a null pointer, which memcpy must not get.
        if (copied > 0) {
            std::memcpy(elements, values.data(), static_cast<size_t>(copied) * sizeof(T));
        }
        *count = copied;
    }
    template <class T>
    void writeSingle(hipdnnBackendAttributeType_t expected, const T& value) const {
        write<T>(expected, std::span<const T>(&value, 1));
    }
    // CHAR: the total counts the terminating NUL; a shorter buffer gets a truncated,
    // NUL-terminated copy.
    void writeText(std::string_view text) const;
    // BACKEND_DESCRIPTOR elements the caller created, as many as will be filled:
    // min(requested, available). Each must be a live descriptor of `expectedType`; the elements
    // past those are not read.
    std::vector<std::shared_ptr<Descriptor>> callerDescriptors(hipdnnBackendDescriptorType_t expectedType,
                                                               size_t available) const;

private:
    void requireElements() const;
};

}  // namespace hipdnn_backend::descriptors
