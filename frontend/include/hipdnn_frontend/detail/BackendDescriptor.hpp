// Thin RAII and error plumbing over the backend descriptor C API.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <hipdnn_backend.h>

#include "../Error.hpp"

namespace hipdnn_frontend::detail {

// A backend failure as an Error carrying the status name and the backend's last-error message.
inline Error backendError(hipdnnStatus_t status, std::string_view what) {
    char message[HIPDNN_ERROR_STRING_MAX_LENGTH] = {};
    hipdnnGetLastErrorString(message, sizeof(message));
    std::string text = std::string(what) + " failed with " + hipdnnGetErrorString(status);
    if (message[0] != '\0') {
        text += ": ";
        text += message;
    }
    return {ErrorCode::HIPDNN_BACKEND_ERROR, text};
}

inline Error checkBackend(hipdnnStatus_t status, std::string_view what) {
    return status == HIPDNN_STATUS_SUCCESS ? Error{} : backendError(status, what);
}

inline bool boundToCpu(hipdnnHandle_t handle) {
    hipdnnDeviceType_ext_t type = HIPDNN_DEVICE_TYPE_GPU_EXT;
    int ordinal = 0;
    return hipdnnGetDevice_ext(handle, &type, &ordinal) == HIPDNN_STATUS_SUCCESS &&
           type == HIPDNN_DEVICE_TYPE_CPU_EXT;
}

// Shared ownership: the operation graph outlives every engine config and plan built from it.
using DescriptorPtr = std::shared_ptr<hipdnnBackendDescriptor>;

inline Error createDescriptor(hipdnnBackendDescriptorType_t type, DescriptorPtr& descriptor) {
    hipdnnBackendDescriptor_t raw = nullptr;
    HIPDNN_CHECK_FRONTEND_ERROR(
        checkBackend(hipdnnBackendCreateDescriptor(type, &raw), "hipdnnBackendCreateDescriptor"));
    descriptor = DescriptorPtr(raw, [](hipdnnBackendDescriptor_t d) { hipdnnBackendDestroyDescriptor(d); });
    return {};
}

inline DescriptorPtr adoptDescriptor(hipdnnBackendDescriptor_t raw) {
    return DescriptorPtr(raw, [](hipdnnBackendDescriptor_t d) { hipdnnBackendDestroyDescriptor(d); });
}

template <typename T>
Error setAttribute(const DescriptorPtr& descriptor, hipdnnBackendAttributeName_t name,
                   hipdnnBackendAttributeType_t type, int64_t count, const T* values, std::string_view what) {
    return checkBackend(hipdnnBackendSetAttribute(descriptor.get(), name, type, count, values), what);
}

inline Error setDescriptorAttribute(const DescriptorPtr& descriptor, hipdnnBackendAttributeName_t name,
                                    const DescriptorPtr& value, std::string_view what) {
    hipdnnBackendDescriptor_t raw = value.get();
    return setAttribute(descriptor, name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw, what);
}

inline Error finalize(const DescriptorPtr& descriptor, std::string_view what) {
    return checkBackend(hipdnnBackendFinalize(descriptor.get()), what);
}

inline Error getInt64(const DescriptorPtr& descriptor, hipdnnBackendAttributeName_t name, int64_t& value,
                      std::string_view what) {
    int64_t count = 0;
    return checkBackend(
        hipdnnBackendGetAttribute(descriptor.get(), name, HIPDNN_TYPE_INT64, 1, &count, &value), what);
}

// A CHAR attribute through the two-call pattern; the terminating NUL is dropped.
inline Error getString(const DescriptorPtr& descriptor, hipdnnBackendAttributeName_t name, std::string& value,
                       std::string_view what) {
    int64_t count = 0;
    HIPDNN_CHECK_FRONTEND_ERROR(checkBackend(
        hipdnnBackendGetAttribute(descriptor.get(), name, HIPDNN_TYPE_CHAR, 0, &count, nullptr), what));
    std::vector<char> buffer(static_cast<size_t>(count) + 1, '\0');
    if (count > 0) {
        HIPDNN_CHECK_FRONTEND_ERROR(checkBackend(
            hipdnnBackendGetAttribute(descriptor.get(), name, HIPDNN_TYPE_CHAR, count, &count, buffer.data()),
            what));
    }
    value.assign(buffer.data());
    return {};
}

// A BACKEND_DESCRIPTOR array attribute: the caller pre-creates descriptors of `elementType` that
// the backend fills (cuDNN's convention).
inline Error getDescriptors(const DescriptorPtr& descriptor, hipdnnBackendAttributeName_t name,
                            hipdnnBackendDescriptorType_t elementType, std::vector<DescriptorPtr>& values,
                            std::string_view what) {
    int64_t count = 0;
    HIPDNN_CHECK_FRONTEND_ERROR(checkBackend(
        hipdnnBackendGetAttribute(descriptor.get(), name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr),
        what));
    values.clear();
    if (count == 0) {
        return {};
    }
    std::vector<hipdnnBackendDescriptor_t> raw(static_cast<size_t>(count));
    for (auto& element : raw) {
        DescriptorPtr created;
        HIPDNN_CHECK_FRONTEND_ERROR(createDescriptor(elementType, created));
        element = created.get();
        values.push_back(std::move(created));
    }
    HIPDNN_CHECK_FRONTEND_ERROR(
        checkBackend(hipdnnBackendGetAttribute(descriptor.get(), name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, count,
                                               &count, raw.data()),
                     what));
    values.resize(static_cast<size_t>(count));
    return {};
}

}  // namespace hipdnn_frontend::detail
