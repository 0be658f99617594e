// Checks that a file is a complete ELF shared object for this machine before dlopen maps it.
// dlopen maps a truncated file's segments past its end and the first touch of a missing page
// raises SIGBUS inside the loader, so a half-installed plugin would kill the process instead of
// being skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>

namespace hipdnn_backend::platform {

// Copies `size` bytes at `offset` of the image into `out`; false when they cannot be read.
// Called only for ranges already checked to lie inside the image.
using ElfReader = std::function<bool(uint64_t offset, void* out, size_t size)>;

// What makes an image of `fileSize` bytes unloadable, or nullopt when it is loadable: the ELF
// header (magic, 64-bit class, little-endian, this machine, type ET_DYN), the program header
// table, every PT_LOAD segment's file range and the section header table (when present) must
// lie inside the file.
std::optional<std::string> elfImageProblem(uint64_t fileSize, const ElfReader& read);
// The same for an image held in memory.
std::optional<std::string> elfImageProblem(std::span<const uint8_t> image);
// The same for a file; a file that cannot be opened or read is a problem too.
std::optional<std::string> elfFileProblem(const std::filesystem::path& file);

}  // namespace hipdnn_backend::platform
