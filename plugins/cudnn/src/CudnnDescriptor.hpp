// RAII over cudnnBackendDescriptor_t and the error reporting every cuDNN call goes through.
#pragma once

#include "CudnnGraphSpec.hpp"

#include <cudnn_graph.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnn_cudnn_plugin {

/// A failed cuDNN call. The message reads "<call> failed: <STATUS> (<cuDNN's last error>)".
class CudnnError : public std::runtime_error {
public:
    CudnnError(cudnnStatus_t status, const std::string& message)
        : std::runtime_error(message), _status(status) {}
    cudnnStatus_t status() const noexcept { return _status; }

private:
    cudnnStatus_t _status;
};

/// "CUDNN_STATUS_NOT_SUPPORTED (<cuDNN's last error message, when it has one>)".
std::string describeCudnnStatus(cudnnStatus_t status);

/// Throws CudnnError when `status` is not CUDNN_STATUS_SUCCESS.
void checkCudnn(cudnnStatus_t status, const std::string& call);

class CudnnDescriptor {
public:
    explicit CudnnDescriptor(cudnnBackendDescriptorType_t type);
    ~CudnnDescriptor();
    CudnnDescriptor(CudnnDescriptor&& other) noexcept;
    CudnnDescriptor& operator=(CudnnDescriptor&& other) noexcept;
    CudnnDescriptor(const CudnnDescriptor&) = delete;
    CudnnDescriptor& operator=(const CudnnDescriptor&) = delete;

    cudnnBackendDescriptor_t get() const noexcept { return _descriptor; }

    void set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, int64_t count,
             const void* values);
    void set(const Attribute& attribute) {
        set(attribute.name, attribute.type, attribute.count, attribute.bytes.data());
    }
    template <class T>
    void setScalar(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, T value) {
        set(name, type, 1, &value);
    }
    void setDescriptor(cudnnBackendAttributeName_t name, const CudnnDescriptor& descriptor) {
        cudnnBackendDescriptor_t raw = descriptor.get();
        set(name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw);
    }

    /// `what` names the descriptor in the error, e.g. "OPERATIONGRAPH".
    void finalize(const std::string& what);

    /// Reads `count` elements (returns how many cuDNN wrote).
    int64_t get(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, int64_t count,
                void* values) const;
    template <class T>
    T getScalar(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type) const {
        T value{};
        get(name, type, 1, &value);
        return value;
    }
    /// Reads an array of descriptors into new descriptors of `elementType` (at most `maxCount`).
    std::vector<CudnnDescriptor> getDescriptors(cudnnBackendAttributeName_t name,
                                                cudnnBackendDescriptorType_t elementType,
                                                int64_t maxCount) const;

private:
    cudnnBackendDescriptor_t _descriptor = nullptr;
};

}  // namespace hipdnn_cudnn_plugin
