// The storage of a data SDK Tensor, with upstream hipDNN's host/device interface. The data SDK
// keeps one host copy: deviceData() is that copy, which is where a handle bound to the CPU
// reads and writes, so the mark*Modified calls have nothing to migrate. For a handle bound to a
// GPU, copy the host data to device memory (hipdnn_test_sdk::DeviceTensor).
#pragma once

#include <cstddef>
#include <vector>

namespace hipdnn_data_sdk::utilities {

template <class T>
class MigratableMemory {
public:
    MigratableMemory() = default;
    explicit MigratableMemory(size_t count) : data_(count) {}

    T* hostData() { return data_.data(); }
    const T* hostData() const { return data_.data(); }
    T* deviceData() { return data_.data(); }
    const T* deviceData() const { return data_.data(); }

    /// Number of elements.
    size_t count() const { return data_.size(); }

    // Upstream marks which copy is current before reading the other; with a single copy both
    // are always current.
    void markHostModified() {}
    void markDeviceModified() {}

private:
    std::vector<T> data_;
};

/// Upstream's name for the interface Tensor::memory() returns.
template <class T>
using MigratableMemoryBase = MigratableMemory<T>;

}  // namespace hipdnn_data_sdk::utilities
