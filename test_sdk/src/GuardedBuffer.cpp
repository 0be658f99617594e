#include <hipdnn_test_sdk/GuardedBuffer.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace hipdnn_test_sdk {

namespace {

[[noreturn]] void throwSystemError(const std::string& call, size_t bytes) {
    throw std::runtime_error(call + " (" + std::to_string(bytes) + " bytes) failed: " + std::strerror(errno));
}

}  // namespace

GuardedBuffer::GuardedBuffer(size_t bytes)
    : _bytes(bytes), _pageBytes(static_cast<size_t>(sysconf(_SC_PAGESIZE))) {
    // [guard page][data pages, the buffer flush with their end][guard page]
    const size_t dataPages = bytes == 0 ? 1 : (bytes + _pageBytes - 1) / _pageBytes;
    _mappingBytes = (dataPages + 2) * _pageBytes;
    void* mapping = mmap(nullptr, _mappingBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) {
        throwSystemError("mmap", _mappingBytes);
    }
    _mapping = static_cast<std::byte*>(mapping);
    std::byte* trailingGuard = _mapping + (dataPages + 1) * _pageBytes;
    if (mprotect(_mapping, _pageBytes, PROT_NONE) != 0 ||
        mprotect(trailingGuard, _pageBytes, PROT_NONE) != 0) {
        munmap(_mapping, _mappingBytes);
        throwSystemError("mprotect", _pageBytes);
    }
    _data = trailingGuard - bytes;
}

GuardedBuffer::~GuardedBuffer() {
    if (_mapping != nullptr) {
        munmap(_mapping, _mappingBytes);
    }
}

GuardedBuffer::GuardedBuffer(GuardedBuffer&& other) noexcept
    : _mapping(std::exchange(other._mapping, nullptr)),
      _mappingBytes(std::exchange(other._mappingBytes, 0)),
      _data(std::exchange(other._data, nullptr)),
      _bytes(std::exchange(other._bytes, 0)),
      _pageBytes(other._pageBytes) {}

void GuardedBuffer::makeReadOnly() {
    std::byte* firstDataPage = _mapping + _pageBytes;
    const size_t dataBytes = _mappingBytes - 2 * _pageBytes;
    if (mprotect(firstDataPage, dataBytes, PROT_READ) != 0) {
        throwSystemError("mprotect", dataBytes);
    }
}

}  // namespace hipdnn_test_sdk
