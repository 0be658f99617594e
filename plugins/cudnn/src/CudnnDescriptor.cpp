#include "CudnnDescriptor.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace hipdnn_cudnn_plugin {

std::string describeCudnnStatus(cudnnStatus_t status) {
    std::string text = cudnnGetErrorString(status);
    // cuDNN 9 keeps a per-thread message with the reason (for example which attribute was bad).
    std::array<char, 1024> detail{};
    cudnnGetLastErrorString(detail.data(), detail.size());
    if (detail[0] != '\0') {
        text += " (" + std::string(detail.data()) + ")";
    }
    return text;
}

void checkCudnn(cudnnStatus_t status, const std::string& call) {
    if (status != CUDNN_STATUS_SUCCESS) {
        throw CudnnError(status, call + " failed: " + describeCudnnStatus(status));
    }
}

CudnnDescriptor::CudnnDescriptor(cudnnBackendDescriptorType_t type) {
    checkCudnn(cudnnBackendCreateDescriptor(type, &_descriptor),
               "cudnnBackendCreateDescriptor(type " + std::to_string(static_cast<int>(type)) + ")");
}

CudnnDescriptor::~CudnnDescriptor() {
    if (_descriptor != nullptr) {
        cudnnBackendDestroyDescriptor(_descriptor);
    }
}

CudnnDescriptor::CudnnDescriptor(CudnnDescriptor&& other) noexcept
    : _descriptor(std::exchange(other._descriptor, nullptr)) {}

CudnnDescriptor& CudnnDescriptor::operator=(CudnnDescriptor&& other) noexcept {
    if (this != &other) {
        if (_descriptor != nullptr) {
            cudnnBackendDestroyDescriptor(_descriptor);
        }
        _descriptor = std::exchange(other._descriptor, nullptr);
    }
    return *this;
}

void CudnnDescriptor::set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, int64_t count,
                          const void* values) {
    checkCudnn(cudnnBackendSetAttribute(_descriptor, name, type, count, values),
               "cudnnBackendSetAttribute(attribute " + std::to_string(static_cast<int>(name)) + ")");
}

void CudnnDescriptor::finalize(const std::string& what) {
    checkCudnn(cudnnBackendFinalize(_descriptor), "cudnnBackendFinalize(" + what + ")");
}

int64_t CudnnDescriptor::get(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type,
                             int64_t count, void* values) const {
    int64_t written = 0;
    checkCudnn(cudnnBackendGetAttribute(_descriptor, name, type, count, &written, values),
               "cudnnBackendGetAttribute(attribute " + std::to_string(static_cast<int>(name)) + ")");
    return written;
}

std::vector<CudnnDescriptor> CudnnDescriptor::getDescriptors(cudnnBackendAttributeName_t name,
                                                             cudnnBackendDescriptorType_t elementType,
                                                             int64_t maxCount) const {
    std::vector<CudnnDescriptor> descriptors;
    std::vector<cudnnBackendDescriptor_t> raw;
    for (int64_t i = 0; i < maxCount; ++i) {
        raw.push_back(descriptors.emplace_back(elementType).get());
    }
    const int64_t written = get(name, CUDNN_TYPE_BACKEND_DESCRIPTOR, maxCount, raw.data());
    descriptors.erase(descriptors.begin() + std::min(written, maxCount), descriptors.end());
    return descriptors;
}

}  // namespace hipdnn_cudnn_plugin
