// The ELF check that runs before a plugin is dlopen()ed: a complete shared object passes; every
// truncation and every corrupt header field is rejected with a message naming the problem and
// the value. The image under test is the backend library itself.
#include <elf.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <vector>

#include "platform/ElfImage.hpp"

namespace {

namespace fs = std::filesystem;
using hipdnn_backend::platform::elfFileProblem;
using hipdnn_backend::platform::elfImageProblem;
using ::testing::HasSubstr;

std::vector<uint8_t> readFile(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class ElfImage : public ::testing::Test {
protected:
    void SetUp() override {
        _image = readFile(HIPDNN_TEST_SHARED_OBJECT);
        ASSERT_GT(_image.size(), sizeof(Elf64_Ehdr));
    }

    Elf64_Ehdr& header() { return *reinterpret_cast<Elf64_Ehdr*>(_image.data()); }
    Elf64_Phdr& programHeader(size_t index) {
        return reinterpret_cast<Elf64_Phdr*>(_image.data() + header().e_phoff)[index];
    }
    std::vector<size_t> loadSegments() {
        std::vector<size_t> indices;
        for (size_t index = 0; index < header().e_phnum; ++index) {
            if (programHeader(index).p_type == PT_LOAD) {
                indices.push_back(index);
            }
        }
        return indices;
    }
    std::string problem() { return elfImageProblem(_image).value_or(""); }

    std::vector<uint8_t> _image;
};

TEST_F(ElfImage, ACompleteSharedObjectPasses) {
    EXPECT_EQ(elfImageProblem(_image), std::nullopt);
    EXPECT_EQ(elfFileProblem(HIPDNN_TEST_SHARED_OBJECT), std::nullopt);
}

TEST_F(ElfImage, EveryTruncationIsRejected) {
    const uint64_t size = _image.size();
    std::set<uint64_t> lengths = {0, 1, 4, 16, 63, 64, 4096, size / 2, size - 1};
    const uint64_t tableEnd = header().e_phoff + uint64_t{header().e_phnum} * header().e_phentsize;
    lengths.insert({tableEnd - 1, tableEnd});
    for (size_t index : loadSegments()) {
        const Elf64_Phdr& segment = programHeader(index);
        lengths.insert({segment.p_offset + 1, segment.p_offset + segment.p_filesz - 1});
    }
    for (uint64_t length = 0; length < size; length += 4093) {
        lengths.insert(length);
    }
    for (uint64_t length : lengths) {
        if (length >= size) {
            continue;
        }
        const auto found = elfImageProblem(std::span<const uint8_t>(_image.data(), length));
        ASSERT_TRUE(found.has_value()) << "a " << length << "-byte prefix of " << size << " bytes passes";
        EXPECT_THAT(*found, HasSubstr(std::to_string(length) + " bytes")) << length;
    }
}

TEST_F(ElfImage, TruncationsNameWhatLiesOutsideTheFile) {
    EXPECT_THAT(*elfImageProblem(std::span<const uint8_t>(_image.data(), 63)),
                HasSubstr("shorter than an ELF header (64 bytes)"));
    const uint64_t tableEnd = header().e_phoff + uint64_t{header().e_phnum} * header().e_phentsize;
    EXPECT_THAT(*elfImageProblem(std::span<const uint8_t>(_image.data(), tableEnd - 1)),
                HasSubstr("program header table"));
    const Elf64_Phdr& last = programHeader(loadSegments().back());
    const uint64_t cut = last.p_offset + last.p_filesz - 1;
    if (cut > tableEnd) {
        EXPECT_THAT(*elfImageProblem(std::span<const uint8_t>(_image.data(), cut)),
                    HasSubstr("PT_LOAD segment " + std::to_string(loadSegments().back())));
    }
    const uint64_t sectionsEnd = header().e_shoff + uint64_t{header().e_shnum} * header().e_shentsize;
    ASSERT_EQ(sectionsEnd, _image.size()) << "the section header table ends the file";
    EXPECT_THAT(*elfImageProblem(std::span<const uint8_t>(_image.data(), sectionsEnd - 1)),
                HasSubstr("section header table"));
}

TEST_F(ElfImage, CorruptIdentificationIsRejected) {
    _image[EI_MAG1] = 'X';
    EXPECT_THAT(problem(), HasSubstr("not an ELF file"));
    SetUp();
    _image[EI_CLASS] = ELFCLASS32;
    EXPECT_THAT(problem(), HasSubstr("ELF class 1"));
    SetUp();
    _image[EI_DATA] = ELFDATA2MSB;
    EXPECT_THAT(problem(), HasSubstr("byte order 2"));
    SetUp();
    _image[EI_VERSION] = 7;
    EXPECT_THAT(problem(), HasSubstr("ELF version 7"));
}

TEST_F(ElfImage, CorruptHeaderFieldsAreRejected) {
    header().e_machine = EM_ARM;
    EXPECT_THAT(problem(), HasSubstr("machine 40"));
    SetUp();
    header().e_type = ET_EXEC;
    EXPECT_THAT(problem(), HasSubstr("type 2"));
    SetUp();
    header().e_type = ET_REL;
    EXPECT_THAT(problem(), HasSubstr("type 1"));
    SetUp();
    header().e_phentsize = 32;
    EXPECT_THAT(problem(), HasSubstr("program header entry size 32"));
    SetUp();
    header().e_phnum = 0;
    EXPECT_THAT(problem(), HasSubstr("no program headers"));
    SetUp();
    header().e_phoff = _image.size();
    EXPECT_THAT(problem(), HasSubstr("program header table"));
    SetUp();
    header().e_phoff = std::numeric_limits<uint64_t>::max() - 8;  // offset + size overflows
    EXPECT_THAT(problem(), HasSubstr("program header table"));
    SetUp();
    header().e_shoff = _image.size() - 1;
    EXPECT_THAT(problem(), HasSubstr("section header table"));
    SetUp();
    header().e_shnum = 0xffff;
    EXPECT_THAT(problem(), HasSubstr("section header table"));
    SetUp();
    header().e_shentsize = 12;
    EXPECT_THAT(problem(), HasSubstr("section header entry size 12"));
}

TEST_F(ElfImage, CorruptLoadSegmentsAreRejected) {
    const size_t first = loadSegments().front();
    programHeader(first).p_offset = std::numeric_limits<uint64_t>::max() - 4;
    EXPECT_THAT(problem(), HasSubstr("PT_LOAD segment " + std::to_string(first)));
    SetUp();
    programHeader(first).p_filesz = _image.size() + 1;
    EXPECT_THAT(problem(), HasSubstr("PT_LOAD segment " + std::to_string(first)));
    SetUp();
    for (size_t index : loadSegments()) {
        programHeader(index).p_type = PT_NULL;
    }
    EXPECT_THAT(problem(), HasSubstr("no PT_LOAD segment"));
}

TEST_F(ElfImage, FilesAreCheckedTheSameWay) {
    const fs::path directory = fs::path(HIPDNN_TEST_SCRATCH_DIR) / "files";
    fs::remove_all(directory);
    fs::create_directories(directory);
    const fs::path truncated = directory / "libtruncated.so";
    std::ofstream(truncated, std::ios::binary).write(reinterpret_cast<const char*>(_image.data()), 4096);
    EXPECT_THAT(elfFileProblem(truncated).value_or(""), HasSubstr("4096 bytes"));
    EXPECT_THAT(elfFileProblem(directory / "missing.so").value_or(""), HasSubstr("cannot open"));
    std::ofstream(directory / "empty.so", std::ios::binary).flush();
    EXPECT_THAT(elfFileProblem(directory / "empty.so").value_or(""), HasSubstr("0 bytes"));
}

}  // namespace
