// Upstream hipDNN's entry points for handles: hipdnnBackend(), the object through which
// upstream's frontend reaches the backend C API, and createHipdnnHandle(), a handle that destroys
// itself. Here the backend is linked, so the object forwards straight to the C API.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

#include <hipdnn_backend.h>

#include "Error.hpp"
#include "detail/BackendDescriptor.hpp"

namespace hipdnn_frontend {

namespace detail {

class HipdnnBackend {
public:
    hipdnnStatus_t create(hipdnnHandle_t* handle) { return hipdnnCreate(handle); }
    hipdnnStatus_t destroy(hipdnnHandle_t handle) { return hipdnnDestroy(handle); }
    hipdnnStatus_t setStream(hipdnnHandle_t handle, hipdnnStream_t stream) {
        return hipdnnSetStream(handle, stream);
    }
    hipdnnStatus_t getStream(hipdnnHandle_t handle, hipdnnStream_t* stream) {
        return hipdnnGetStream(handle, stream);
    }
    hipdnnStatus_t setCommunicator(hipdnnHandle_t handle, void* communicator) {
        return hipdnnSetCommunicator_ext(handle, communicator);
    }
    hipdnnStatus_t createCommunicators(size_t count, const hipdnnHandle_t* handles) {
        return hipdnnCreateCommunicators_ext(count, handles);
    }
    const char* getErrorString(hipdnnStatus_t status) { return hipdnnGetErrorString(status); }
    void getLastErrorString(char* message, size_t maxSize) { hipdnnGetLastErrorString(message, maxSize); }
};

/// The process-wide backend object.
inline std::shared_ptr<HipdnnBackend> hipdnnBackend() {
    static const auto instance = std::make_shared<HipdnnBackend>();
    return instance;
}

struct HandleDestroyer {
    void operator()(hipdnnHandle_t* handle) const {
        if (*handle != nullptr) {
            hipdnnDestroy(*handle);
        }
        delete handle;
    }
};

}  // namespace detail

// Older upstream code calls it unqualified after `using namespace hipdnn_frontend`.
using detail::hipdnnBackend;

/// A handle that hipdnnDestroy releases when the pointer goes; `*handle` is the hipdnnHandle_t.
using HipdnnHandlePtr = std::unique_ptr<hipdnnHandle_t, detail::HandleDestroyer>;

/// A handle from hipdnnCreate (HIPDNN_DEVICE picks its device), or a null pointer and the
/// backend's error when creation fails.
inline std::pair<HipdnnHandlePtr, Error> createHipdnnHandle() {
    HipdnnHandlePtr handle(new hipdnnHandle_t(nullptr));
    Error error = detail::checkBackend(hipdnnCreate(handle.get()), "hipdnnCreate");
    if (error.is_bad()) {
        handle.reset();
    }
    return {std::move(handle), std::move(error)};
}

}  // namespace hipdnn_frontend
