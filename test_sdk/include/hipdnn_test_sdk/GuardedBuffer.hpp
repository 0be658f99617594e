// Host memory with the buffer's last byte just before a PROT_NONE page (and another such page in
// front of the mapping), so that an engine reading or writing past the end faults at once
// instead of corrupting or reading a neighbour silently.
#pragma once

#include <cstddef>

namespace hipdnn_test_sdk {

class GuardedBuffer {
public:
    explicit GuardedBuffer(size_t bytes);
    ~GuardedBuffer();
    GuardedBuffer(GuardedBuffer&& other) noexcept;
    GuardedBuffer& operator=(GuardedBuffer&&) = delete;
    GuardedBuffer(const GuardedBuffer&) = delete;
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;

    void* data() const noexcept { return _data; }
    size_t size() const noexcept { return _bytes; }

    /// From now on a write faults too: inputs are read-only for an engine.
    void makeReadOnly();

private:
    std::byte* _mapping = nullptr;
    size_t _mappingBytes = 0;
    std::byte* _data = nullptr;
    size_t _bytes = 0;
    size_t _pageBytes = 0;
};

}  // namespace hipdnn_test_sdk
