#include "CudaKernelsHandle.hpp"

#include "graph/Cudnn.hpp"

#include <hipdnn_plugin_sdk/PluginError.hpp>

namespace hipdnn_cuda_kernels {

CudaKernelsHandle::~CudaKernelsHandle() {
    if (_cudnn != nullptr) {
        std::string reason;
        Cudnn::instance(reason)->api().destroy(_cudnn);
    }
}

cudnnHandle_t CudaKernelsHandle::cudnn(std::string& reason) {
    const std::lock_guard lock(_cudnnMutex);
    if (!_cudnnTried) {
        _cudnnTried = true;
        const Cudnn* library = Cudnn::instance(_cudnnError);
        if (library != nullptr) {
            cudnnHandle_t created = nullptr;
            cudnnStatus_t status = library->api().create(&created);
            if (status == CUDNN_STATUS_SUCCESS) {
                status = library->api().setStream(created, static_cast<cudaStream_t>(stream()));
                if (status == CUDNN_STATUS_SUCCESS) {
                    _cudnn = created;
                } else {
                    _cudnnError = "cudnnSetStream failed: " + library->describe(status);
                    library->api().destroy(created);
                }
            } else {
                _cudnnError = "cudnnCreate failed: " + library->describe(status);
            }
        }
    }
    if (_cudnn == nullptr) {
        reason = _cudnnError;
    }
    return _cudnn;
}

void CudaKernelsHandle::setStream(hipdnnPluginStream_t stream) {
    const std::lock_guard lock(_cudnnMutex);
    if (_cudnn != nullptr) {
        std::string reason;
        const Cudnn& library = *Cudnn::instance(reason);
        const cudnnStatus_t status = library.api().setStream(_cudnn, static_cast<cudaStream_t>(stream));
        if (status != CUDNN_STATUS_SUCCESS) {
            throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                                 "cudnnSetStream failed: " + library.describe(status));
        }
    }
    PluginHandleBase::setStream(stream);
}

}  // namespace hipdnn_cuda_kernels
