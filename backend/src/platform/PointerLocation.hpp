// Where a pointer of a variant pack lives, as the CUDA driver sees it, and whether a GPU handle's
// plugins may use it: memory allocated on another GPU is refused before any plugin sees it.
#pragma once

#include <optional>
#include <string>

namespace hipdnn_backend::platform {

struct PointerLocation {
    enum class Kind {
        Unknown,  // not memory CUDA knows: pageable host memory, or no driver
        Host,     // page-locked host memory (cudaHostAlloc, cudaHostRegister)
        Device,   // memory of the GPU `deviceOrdinal`
        Managed,  // unified memory, migrated to whichever device touches it
    };
    Kind kind = Kind::Unknown;
    int deviceOrdinal = -1;
};

// The driver's answer for `pointer` (cuPointerGetAttributes); Unknown when there is no driver.
[[nodiscard]] PointerLocation locatePointer(const void* pointer) noexcept;

// Why a handle on GPU `handleOrdinal` cannot use memory at `location`, e.g. "is memory of GPU 1;
// the handle is bound to GPU 0"; nullopt when it can (its own device's memory, managed or host
// memory, or memory the driver does not know).
[[nodiscard]] std::optional<std::string> foreignDeviceProblem(const PointerLocation& location,
                                                              int handleOrdinal);

}  // namespace hipdnn_backend::platform
