// Shared pieces of the hipdnn._hipdnn extension: the exception that becomes hipdnn.Error, data
// type conversion from Python objects, and the binding functions each source file defines.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <hipdnn_backend.h>
#include <hipdnn_frontend/Error.hpp>
#include <hipdnn_frontend/Types.hpp>
#include <hipdnn_frontend/attributes/TensorAttributes.hpp>

namespace hipdnn_python {

namespace nb = nanobind;

// Raised as hipdnn.Error: `status` is the frontend's error code or the backend's status name.
class BackendError : public std::runtime_error {
public:
    BackendError(std::string status, const std::string& message)
        : std::runtime_error(status + ": " + message), status_(std::move(status)), message_(message) {}
    [[nodiscard]] const std::string& status() const { return status_; }
    [[nodiscard]] const std::string& message() const { return message_; }

private:
    std::string status_;
    std::string message_;
};

// Throws BackendError for a bad frontend Error.
void throwIfBad(const hipdnn_frontend::Error& error);
// Throws BackendError with the backend's status name and last-error string for a failed call.
void throwIfBad(hipdnnStatus_t status, const std::string& what);
[[noreturn]] void throwInvalidValue(const std::string& message);

// A hipdnn.data_type, a NumPy or torch dtype (or anything numpy.dtype accepts), or a name such
// as "float32" / "half".
hipdnn_frontend::DataType toDataType(nb::handle object);

struct Device {
    hipdnnDeviceType_ext_t type = HIPDNN_DEVICE_TYPE_CPU_EXT;
    int ordinal = 0;
};

// Owns one backend handle, bound to one device, until close() or destruction.
class Handle {
public:
    // "cpu", "gpu" (GPU 0) or "gpu:N"; none: the backend's choice (GPU 0 when one is usable, else
    // the CPU; HIPDNN_DEVICE overrides).
    explicit Handle(const std::optional<std::string>& device);
    ~Handle();
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;

    // The backend handle; BackendError once closed.
    [[nodiscard]] hipdnnHandle_t get() const;
    [[nodiscard]] const Device& device() const { return device_; }
    [[nodiscard]] bool closed() const { return handle_ == nullptr; }
    void close();

    // The stream GPU plans run on; the backend is told only when it changes.
    void setStream(uintptr_t stream);
    // Runs GPU plans on torch's current stream of this handle's GPU, when torch is installed
    // (looked up once per handle: execute calls this every time).
    void followTorchStream();

private:
    hipdnnHandle_t handle_ = nullptr;
    Device device_;
    std::optional<uintptr_t> stream_;
    bool torchLookedUp_ = false;
    // torch's current raw stream of a device ordinal, as an integer; none without torch.
    nb::object torchCurrentStream_;
};

// `value` as a writable DLPack array, false when it is none (or read-only). torch tensors go
// through torch.utils.dlpack.to_dlpack: their __dlpack__ builds stream objects on every call
// (several microseconds per CUDA tensor) to order the producer's stream before the consumer's,
// where execute already runs on torch's current stream.
bool importArray(nb::handle value, nb::ndarray<>& array);

// The DataType of a DLPack element type, NOT_SET when hipdnn has none.
hipdnn_frontend::DataType dataTypeOf(const nb::dlpack::dtype& dtype);
// The data pointer of `array` once its dtype, dims, strides and device match `tensor` (named in the
// BackendError otherwise).
void* checkedData(const hipdnn_frontend::graph::TensorAttributes& tensor, const nb::ndarray<>& array,
                  const Device& device);

void bindHandle(nb::module_& module);
void bindGraph(nb::module_& module);

}  // namespace hipdnn_python
