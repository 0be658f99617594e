// Device memory for GPU tests (header-only; needs the CUDA runtime: link CUDA::cudart or
// CUDA::cudart_static). DeviceBuffer owns raw bytes; DeviceTensor<T> mirrors a host
// hipdnn_data_sdk::utilities::Tensor<T> (same dims, strides and storage size) on the device.
// Failures throw DeviceError naming the CUDA call, its error and the size involved.
#pragma once

#include <hipdnn_data_sdk/utilities/Tensor.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hipdnn_test_sdk {

class DeviceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline void checkCuda(cudaError_t error, const std::string& call) {
    if (error != cudaSuccess) {
        throw DeviceError(call + " failed: " + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) +
                          ")");
    }
}

/// Owns `bytes` of device memory (cudaMalloc; none for 0 bytes).
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t bytes) : _bytes(bytes) {
        if (bytes > 0) {
            checkCuda(cudaMalloc(&_data, bytes), "cudaMalloc(" + std::to_string(bytes) + " bytes)");
        }
    }
    ~DeviceBuffer() {
        if (_data != nullptr) {
            cudaFree(_data);
        }
    }
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : _data(std::exchange(other._data, nullptr)), _bytes(std::exchange(other._bytes, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            if (_data != nullptr) {
                cudaFree(_data);
            }
            _data = std::exchange(other._data, nullptr);
            _bytes = std::exchange(other._bytes, 0);
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    void* data() const noexcept { return _data; }
    std::size_t size() const noexcept { return _bytes; }

    /// Synchronous copies of exactly size() bytes.
    void copyFromHost(const void* host) {
        checkCuda(cudaMemcpy(_data, host, _bytes, cudaMemcpyHostToDevice),
                  "cudaMemcpy host->device (" + std::to_string(_bytes) + " bytes)");
    }
    void copyToHost(void* host) const {
        checkCuda(cudaMemcpy(host, _data, _bytes, cudaMemcpyDeviceToHost),
                  "cudaMemcpy device->host (" + std::to_string(_bytes) + " bytes)");
    }
    /// Every byte set to `value` (0xFF fills floats with NaN, a handy sentinel for outputs).
    void fillBytes(int value) {
        checkCuda(cudaMemset(_data, value, _bytes), "cudaMemset(" + std::to_string(_bytes) + " bytes)");
    }

private:
    void* _data = nullptr;
    std::size_t _bytes = 0;
};

/// The device copy of a host Tensor<T>.
template <class T>
class DeviceTensor {
public:
    /// Allocates storage for `host` and copies its contents.
    explicit DeviceTensor(const hipdnn_data_sdk::utilities::Tensor<T>& host)
        : _dims(host.dims()), _strides(host.strides()), _buffer(host.sizeInBytes()) {
        _buffer.copyFromHost(host.data());
    }

    T* data() const noexcept { return static_cast<T*>(_buffer.data()); }
    std::size_t sizeInBytes() const noexcept { return _buffer.size(); }
    const std::vector<int64_t>& dims() const noexcept { return _dims; }
    const std::vector<int64_t>& strides() const noexcept { return _strides; }

    void copyFromHost(const hipdnn_data_sdk::utilities::Tensor<T>& host) {
        requireSameShape(host);
        _buffer.copyFromHost(host.data());
    }
    void copyToHost(hipdnn_data_sdk::utilities::Tensor<T>& host) const {
        requireSameShape(host);
        _buffer.copyToHost(host.data());
    }
    /// A new host tensor with the device contents.
    hipdnn_data_sdk::utilities::Tensor<T> toHost() const {
        hipdnn_data_sdk::utilities::Tensor<T> host(_dims, _strides);
        copyToHost(host);
        return host;
    }

private:
    void requireSameShape(const hipdnn_data_sdk::utilities::Tensor<T>& host) const {
        if (host.dims() != _dims || host.strides() != _strides || host.sizeInBytes() != _buffer.size()) {
            throw DeviceError("host tensor shape or strides differ from the device tensor's");
        }
    }

    std::vector<int64_t> _dims;
    std::vector<int64_t> _strides;
    DeviceBuffer _buffer;
};

}  // namespace hipdnn_test_sdk
