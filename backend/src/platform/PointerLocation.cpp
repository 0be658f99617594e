#include "platform/PointerLocation.hpp"

#include <array>
#include <cstdint>

#include "platform/CudaDriver.hpp"

namespace hipdnn_backend::platform {

namespace {

// CUpointer_attribute and CUmemorytype values of cuda.h.
constexpr int kAttributeMemoryType = 2;
constexpr int kAttributeIsManaged = 8;
constexpr int kAttributeDeviceOrdinal = 9;
constexpr unsigned kMemoryTypeHost = 1;
constexpr unsigned kMemoryTypeDevice = 2;

}  // namespace

PointerLocation locatePointer(const void* pointer) noexcept {
    try {
        const CudaDriverApi& api = CudaDriverApi::instance();
        unsigned memoryType = 0;
        // The driver writes a bool here; a zeroed word reads the same on either byte it writes.
        unsigned isManaged = 0;
        int deviceOrdinal = -1;
        std::array<int, 3> attributes{kAttributeMemoryType, kAttributeIsManaged, kAttributeDeviceOrdinal};
        std::array<void*, 3> values{&memoryType, &isManaged, &deviceOrdinal};
        // Unlike the singular call, this one answers zeros, not an error, for memory CUDA does not know.
        if (api.pointerGetAttributes(
                static_cast<unsigned>(attributes.size()), attributes.data(), values.data(),
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(pointer))) != 0) {
            return {};
        }
        if (isManaged != 0) {
            return {PointerLocation::Kind::Managed, deviceOrdinal};
        }
        if (memoryType == kMemoryTypeDevice) {
            return {PointerLocation::Kind::Device, deviceOrdinal};
        }
        if (memoryType == kMemoryTypeHost) {
            return {PointerLocation::Kind::Host, deviceOrdinal};
        }
        return {};
    } catch (const CudaDriverError&) {
        return {};
    }
}

std::optional<std::string> foreignDeviceProblem(const PointerLocation& location, int handleOrdinal) {
    if (location.kind != PointerLocation::Kind::Device || location.deviceOrdinal == handleOrdinal) {
        return std::nullopt;
    }
    return "is memory of GPU " + std::to_string(location.deviceOrdinal) + "; the handle is bound to GPU " +
           std::to_string(handleOrdinal);
}

}  // namespace hipdnn_backend::platform
