// Reading whole files with bounds: only regular files (never a device such as /dev/zero, a FIFO
// or a directory, which would be read without end), and never more bytes than the caller
// allows, checked with the file's size before anything is read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace hipdnn_test_sdk {

/// The largest graph (JSON or binary), golden-data manifest or batch file read whole: 1 GiB.
inline constexpr std::uintmax_t kMaxGraphFileBytes = std::uintmax_t{1} << 30;

/// The bytes of regular file `file`, which may hold at most `maxBytes` bytes. `what` names the
/// kind of file in messages ("graph file"). Throws std::runtime_error whose message starts with
/// the path and says what is wrong: missing, not a regular file (and what it is), its size and
/// the limit, or a read that ended early.
std::vector<uint8_t> readRegularFile(const std::filesystem::path& file, std::uintmax_t maxBytes,
                                     std::string_view what);

/// Like readRegularFile, but the file must hold exactly `expectedBytes` bytes (a tensor file).
std::vector<uint8_t> readRegularFileOfSize(const std::filesystem::path& file, std::uintmax_t expectedBytes,
                                           std::string_view what);

/// Throws as readRegularFile would, without reading: for callers that stream the file.
void checkRegularFile(const std::filesystem::path& file, std::uintmax_t maxBytes, std::string_view what);

}  // namespace hipdnn_test_sdk
