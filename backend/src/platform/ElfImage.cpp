#include "platform/ElfImage.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

namespace hipdnn_backend::platform {

namespace {

#if defined(__x86_64__)
constexpr uint16_t kMachine = EM_X86_64;
constexpr const char* kMachineName = "x86-64";
#elif defined(__aarch64__)
constexpr uint16_t kMachine = EM_AARCH64;
constexpr const char* kMachineName = "AArch64";
#else
#error "ElfImage.cpp knows the ELF machine of x86-64 and AArch64 only"
#endif

// [offset, offset + size) inside a file of fileSize bytes, without overflowing.
bool inside(uint64_t offset, uint64_t size, uint64_t fileSize) {
    return offset <= fileSize && size <= fileSize - offset;
}

std::string range(uint64_t offset, uint64_t size) {
    if (size > UINT64_MAX - offset) {
        return fmt::format("[{:#x}, {:#x} + {:#x})", offset, offset, size);
    }
    return fmt::format("[{:#x}, {:#x})", offset, offset + size);
}

std::string outside(const std::string& what, uint64_t offset, uint64_t size, uint64_t fileSize) {
    return fmt::format("{} needs file bytes {} but the file is {} bytes (truncated?)", what,
                       range(offset, size), fileSize);
}

std::optional<std::string> headerProblem(const Elf64_Ehdr& header) {
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
        return "not an ELF file (bad magic bytes)";
    }
    if (header.e_ident[EI_CLASS] != ELFCLASS64) {
        return fmt::format("ELF class {}, expected {} (64-bit)", header.e_ident[EI_CLASS], ELFCLASS64);
    }
    if (header.e_ident[EI_DATA] != ELFDATA2LSB) {
        return fmt::format("ELF byte order {}, expected {} (little-endian)", header.e_ident[EI_DATA],
                           ELFDATA2LSB);
    }
    if (header.e_ident[EI_VERSION] != EV_CURRENT) {
        return fmt::format("ELF version {}, expected {}", header.e_ident[EI_VERSION], EV_CURRENT);
    }
    if (header.e_machine != kMachine) {
        return fmt::format("ELF machine {}, expected {} ({})", header.e_machine, kMachine, kMachineName);
    }
    if (header.e_type != ET_DYN) {
        return fmt::format("ELF type {}, expected {} (ET_DYN, a shared object)", header.e_type, ET_DYN);
    }
    if (header.e_phentsize != sizeof(Elf64_Phdr)) {
        return fmt::format("program header entry size {}, expected {}", header.e_phentsize,
                           sizeof(Elf64_Phdr));
    }
    if (header.e_phnum == 0) {
        return std::string("no program headers");
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> elfImageProblem(uint64_t fileSize, const ElfReader& read) {
    Elf64_Ehdr header;
    if (fileSize < sizeof(header)) {
        return fmt::format("the file is {} bytes, shorter than an ELF header ({} bytes)", fileSize,
                           sizeof(header));
    }
    if (!read(0, &header, sizeof(header))) {
        return std::string("cannot read the ELF header");
    }
    if (auto problem = headerProblem(header)) {
        return problem;
    }

    const uint64_t tableSize = uint64_t{header.e_phnum} * sizeof(Elf64_Phdr);
    if (!inside(header.e_phoff, tableSize, fileSize)) {
        return outside("the program header table", header.e_phoff, tableSize, fileSize);
    }
    std::vector<Elf64_Phdr> segments(header.e_phnum);
    if (!read(header.e_phoff, segments.data(), tableSize)) {
        return std::string("cannot read the program header table");
    }
    bool loadable = false;
    for (size_t index = 0; index < segments.size(); ++index) {
        const Elf64_Phdr& segment = segments[index];
        if (segment.p_type != PT_LOAD) {
            continue;
        }
        loadable = true;
        if (!inside(segment.p_offset, segment.p_filesz, fileSize)) {
            return outside(fmt::format("PT_LOAD segment {}", index), segment.p_offset, segment.p_filesz,
                           fileSize);
        }
    }
    if (!loadable) {
        return std::string("no PT_LOAD segment");
    }

    if (header.e_shoff != 0 || header.e_shnum != 0) {
        if (header.e_shentsize != sizeof(Elf64_Shdr)) {
            return fmt::format("section header entry size {}, expected {}", header.e_shentsize,
                               sizeof(Elf64_Shdr));
        }
        // e_shnum 0 with a table present means the count is in section 0 (extended numbering):
        // at least that header must be there.
        const uint64_t sections = header.e_shnum != 0 ? header.e_shnum : 1;
        const uint64_t sectionTableSize = sections * sizeof(Elf64_Shdr);
        if (!inside(header.e_shoff, sectionTableSize, fileSize)) {
            return outside("the section header table", header.e_shoff, sectionTableSize, fileSize);
        }
    }
    return std::nullopt;
}

std::optional<std::string> elfImageProblem(std::span<const uint8_t> image) {
    return elfImageProblem(image.size(), [image](uint64_t offset, void* out, size_t size) {
        std::memcpy(out, image.data() + offset, size);
        return true;
    });
}

std::optional<std::string> elfFileProblem(const std::filesystem::path& file) {
    const int descriptor = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) {
        return fmt::format("cannot open the file: {}", std::strerror(errno));
    }
    std::optional<std::string> problem;
    struct stat status {};
    if (::fstat(descriptor, &status) != 0) {
        problem = fmt::format("cannot stat the file: {}", std::strerror(errno));
    } else {
        problem = elfImageProblem(
            static_cast<uint64_t>(status.st_size), [descriptor](uint64_t offset, void* out, size_t size) {
                auto* bytes = static_cast<char*>(out);
                while (size > 0) {
                    const ssize_t got = ::pread(descriptor, bytes, size, static_cast<off_t>(offset));
                    if (got < 0 && errno == EINTR) {
                        continue;
                    }
                    if (got <= 0) {
                        return false;
                    }
                    bytes += got;
                    offset += static_cast<uint64_t>(got);
                    size -= static_cast<size_t>(got);
                }
                return true;
            });
    }
    ::close(descriptor);
    return problem;
}

}  // namespace hipdnn_backend::platform
