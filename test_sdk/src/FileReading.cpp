#include <hipdnn_test_sdk/FileReading.hpp>

#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace hipdnn_test_sdk {

namespace fs = std::filesystem;

namespace {

std::string kindOf(fs::file_type type) {
    switch (type) {
        case fs::file_type::directory:
            return "a directory";
        case fs::file_type::character:
            return "a character device";
        case fs::file_type::block:
            return "a block device";
        case fs::file_type::fifo:
            return "a FIFO";
        case fs::file_type::socket:
            return "a socket";
        default:
            return "not a regular file";
    }
}

std::string describeBytes(std::uintmax_t bytes) {
    std::string text = std::to_string(bytes) + " bytes";
    if (bytes >= (std::uintmax_t{1} << 30) && bytes % (std::uintmax_t{1} << 30) == 0) {
        text += " (" + std::to_string(bytes >> 30) + " GiB)";
    } else if (bytes >= (std::uintmax_t{1} << 20) && bytes % (std::uintmax_t{1} << 20) == 0) {
        text += " (" + std::to_string(bytes >> 20) + " MiB)";
    }
    return text;
}

// The size of `file` once it is known to be a regular file.
std::uintmax_t regularFileSize(const fs::path& file, std::string_view what) {
    std::error_code error;
    const fs::file_status status = fs::status(file, error);
    if (status.type() == fs::file_type::not_found) {
        throw std::runtime_error(file.string() + ": cannot open the " + std::string(what) + ": no such file");
    }
    if (error) {
        throw std::runtime_error(file.string() + ": cannot open the " + std::string(what) + ": " +
                                 error.message());
    }
    if (status.type() != fs::file_type::regular) {
        throw std::runtime_error(file.string() + ": the " + std::string(what) + " is " +
                                 kindOf(status.type()) + "; only regular files are read");
    }
    const std::uintmax_t size = fs::file_size(file, error);
    if (error) {
        throw std::runtime_error(file.string() + ": cannot read the size of the " + std::string(what) + ": " +
                                 error.message());
    }
    return size;
}

std::vector<uint8_t> readExactly(const fs::path& file, std::uintmax_t size, std::string_view what) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw std::runtime_error(file.string() + ": cannot open the " + std::string(what));
    }
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
    if (static_cast<std::uintmax_t>(in.gcount()) != size) {
        throw std::runtime_error(file.string() + ": the " + std::string(what) + " ended after " +
                                 std::to_string(in.gcount()) + " of its " + std::to_string(size) +
                                 " bytes (changed while being read)");
    }
    return bytes;
}

// The size of regular file `file`, at most `maxBytes`.
std::uintmax_t boundedSize(const fs::path& file, std::uintmax_t maxBytes, std::string_view what) {
    const std::uintmax_t size = regularFileSize(file, what);
    if (size > maxBytes) {
        throw std::runtime_error(file.string() + ": the " + std::string(what) + " holds " +
                                 describeBytes(size) + ", more than the limit of " + describeBytes(maxBytes));
    }
    return size;
}

}  // namespace

void checkRegularFile(const fs::path& file, std::uintmax_t maxBytes, std::string_view what) {
    static_cast<void>(boundedSize(file, maxBytes, what));
}

std::vector<uint8_t> readRegularFile(const fs::path& file, std::uintmax_t maxBytes, std::string_view what) {
    return readExactly(file, boundedSize(file, maxBytes, what), what);
}

std::vector<uint8_t> readRegularFileOfSize(const fs::path& file, std::uintmax_t expectedBytes,
                                           std::string_view what) {
    const std::uintmax_t size = regularFileSize(file, what);
    if (size != expectedBytes) {
        throw std::runtime_error(file.string() + ": the " + std::string(what) + " holds " +
                                 describeBytes(size) + " but must hold exactly " +
                                 describeBytes(expectedBytes));
    }
    return readExactly(file, size, what);
}

}  // namespace hipdnn_test_sdk
