// Scratch memory for Graph::execute, with upstream hipDNN's interface. Like the data SDK's
// tensors it lives on the host, where a handle bound to the CPU expects it; a handle bound to a
// GPU needs device memory (hipdnn_test_sdk::DeviceBuffer).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>

namespace hipdnn_data_sdk::utilities {

class Workspace {
public:
    /// `bytes` of zeroed memory aligned for any element type; none (get() == nullptr) for 0.
    explicit Workspace(size_t bytes) : bytes_(bytes) {
        if (bytes > 0) {
            data_.reset(static_cast<std::byte*>(::operator new(bytes, alignment)));
            std::fill_n(data_.get(), bytes, std::byte{0});
        }
    }

    /// The memory, writable through a const Workspace as upstream's is (execute takes void*).
    void* get() const { return data_.get(); }
    size_t size() const { return bytes_; }

private:
    static constexpr std::align_val_t alignment{64};

    struct AlignedDelete {
        void operator()(std::byte* pointer) const { ::operator delete(pointer, alignment); }
    };

    size_t bytes_ = 0;
    std::unique_ptr<std::byte, AlignedDelete> data_;
};

}  // namespace hipdnn_data_sdk::utilities
