#include "tuning/TuningDatabase.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace hipdnn_backend::tuning {

namespace {

std::runtime_error systemError(const std::string& what, const std::filesystem::path& file) {
    return std::runtime_error("tuning database: " + what + " " + file.string() +
                              " failed: " + std::strerror(errno));
}

// The file's text; empty when it does not exist or cannot be read (a missing database is empty).
std::string readText(const std::filesystem::path& file) {
    std::string text;
    const int descriptor = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) {
        return text;
    }
    char buffer[65536];
    ssize_t count = 0;
    while ((count = ::read(descriptor, buffer, sizeof(buffer))) != 0) {
        if (count < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        text.append(buffer, static_cast<size_t>(count));
    }
    ::close(descriptor);
    return text;
}

void writeAll(int descriptor, const std::string& text, const std::filesystem::path& file) {
    size_t written = 0;
    while (written < text.size()) {
        const ssize_t count = ::write(descriptor, text.data() + written, text.size() - written);
        if (count < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw systemError("writing", file);
        }
        written += static_cast<size_t>(count);
    }
}

// Holds an exclusive flock on <database>.lock for its lifetime.
class FileLock {
public:
    explicit FileLock(const std::filesystem::path& database) {
        std::filesystem::path lockFile = database;
        lockFile += ".lock";
        _descriptor = ::open(lockFile.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (_descriptor < 0) {
            throw systemError("opening the lock file", lockFile);
        }
        while (::flock(_descriptor, LOCK_EX) != 0) {
            if (errno != EINTR) {
                const auto error = systemError("locking", lockFile);
                ::close(_descriptor);
                throw error;
            }
        }
    }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock() { ::close(_descriptor); }  // closing releases the lock

private:
    int _descriptor = -1;
};

}  // namespace

ParsedDatabase parseDatabase(std::string_view text, const std::string& fileName) {
    ParsedDatabase parsed;
    std::unordered_map<std::string, size_t> positions;
    size_t lineNumber = 0;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++lineNumber;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
            continue;
        }
        try {
            TuningRecord record = fromJsonLine(line);
            const auto [position, inserted] = positions.emplace(record.key(), parsed.records.size());
            if (inserted) {
                parsed.records.push_back(std::move(record));
            } else {
                parsed.records[position->second] = std::move(record);
            }
        } catch (const std::exception& error) {
            parsed.problems.push_back(fileName + " line " + std::to_string(lineNumber) + ": " + error.what());
        }
    }
    return parsed;
}

size_t mergeRecords(std::vector<TuningRecord>& records, const std::vector<TuningRecord>& incoming,
                    const std::string& provenance) {
    size_t taken = 0;
    std::unordered_map<std::string, size_t> positions;
    for (size_t position = 0; position < records.size(); ++position) {
        positions.emplace(records[position].key(), position);
    }
    for (TuningRecord record : incoming) {
        if (record.provenance.empty()) {
            record.provenance = provenance;
        }
        const auto [position, inserted] = positions.emplace(record.key(), records.size());
        if (inserted) {
            records.push_back(std::move(record));
            ++taken;
        } else if (record.medianMs < records[position->second].medianMs) {
            records[position->second] = std::move(record);
            ++taken;
        }
    }
    return taken;
}

std::string distrustReason(const TuningRecord& record, const PluginIdentity* plugin) {
    if (plugin == nullptr || plugin->name != record.plugin || plugin->version != record.pluginVersion) {
        return "plugin " + record.plugin + " " + record.pluginVersion + " is not loaded";
    }
    if (plugin->libraries != record.libraries) {
        return "measured with libraries \"" + record.libraries + "\", the plugin now runs on \"" +
               plugin->libraries + "\"";
    }
    return {};
}

std::vector<std::string> pruneRecords(std::vector<TuningRecord>& records,
                                      const std::string& deviceFingerprint,
                                      const std::vector<PluginIdentity>& loaded) {
    const auto kindOf = [](const std::string& fingerprint) {
        return fingerprint.substr(0, fingerprint.find(' '));
    };
    const std::string deviceKind = kindOf(deviceFingerprint);
    std::vector<std::string> dropped;
    std::erase_if(records, [&](const TuningRecord& record) {
        const std::string what =
            "graph " + record.graphKey + " on " + record.device + " (" + record.engine + ")";
        const auto plugin = std::find_if(loaded.begin(), loaded.end(), [&](const PluginIdentity& identity) {
            return identity.name == record.plugin && identity.version == record.pluginVersion;
        });
        if (const std::string reason = distrustReason(record, plugin == loaded.end() ? nullptr : &*plugin);
            !reason.empty()) {
            dropped.push_back(what + ": " + reason);
            return true;
        }
        if (!deviceFingerprint.empty() && kindOf(record.device) == deviceKind &&
            record.device != deviceFingerprint) {
            dropped.push_back(what + ": measured on another device than this one (" + deviceFingerprint +
                              ")");
            return true;
        }
        return false;
    });
    return dropped;
}

std::string summarizeProblems(const std::vector<std::string>& problems) {
    if (problems.empty()) {
        return {};
    }
    std::string summary = problems.front();
    if (problems.size() > 1) {
        summary += " (and " + std::to_string(problems.size() - 1) + " more bad lines)";
    }
    return summary;
}

std::vector<TuningRecord> readDatabaseFile(const std::filesystem::path& file) {
    std::error_code error;
    const auto status = std::filesystem::status(file, error);
    if (!std::filesystem::exists(status)) {
        throw std::invalid_argument("tuning database " + file.string() + " does not exist");
    }
    if (!std::filesystem::is_regular_file(status)) {
        throw std::invalid_argument("tuning database " + file.string() + " is not a regular file");
    }
    if (::access(file.c_str(), R_OK) != 0) {
        throw std::invalid_argument("tuning database " + file.string() +
                                    " cannot be read: " + std::strerror(errno));
    }
    ParsedDatabase parsed = parseDatabase(readText(file), file.string());
    if (!parsed.problems.empty()) {
        throw std::invalid_argument("tuning database " + summarizeProblems(parsed.problems));
    }
    return std::move(parsed.records);
}

void writeDatabaseFile(const std::filesystem::path& file, const std::vector<TuningRecord>& records) {
    static std::atomic<unsigned> counter{0};
    std::filesystem::path temporary = file;
    temporary += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    std::string text;
    for (const auto& record : records) {
        text += toJsonLine(record);
        text += '\n';
    }
    const int descriptor = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (descriptor < 0) {
        throw systemError("creating", temporary);
    }
    try {
        writeAll(descriptor, text, temporary);
        if (::fsync(descriptor) != 0) {
            throw systemError("flushing", temporary);
        }
    } catch (...) {
        ::close(descriptor);
        ::unlink(temporary.c_str());
        throw;
    }
    ::close(descriptor);
    if (::rename(temporary.c_str(), file.c_str()) != 0) {
        const auto failure = systemError("renaming " + temporary.string() + " to", file);
        ::unlink(temporary.c_str());
        throw failure;
    }
}

bool TuningDatabase::FileIdentity::operator==(const FileIdentity& other) const {
    return inode == other.inode && size == other.size && modified.tv_sec == other.modified.tv_sec &&
           modified.tv_nsec == other.modified.tv_nsec;
}

TuningDatabase::TuningDatabase(std::filesystem::path file, WarningSink warn)
    : _file(std::move(file)), _warn(std::move(warn)) {}

std::optional<TuningDatabase::FileIdentity> TuningDatabase::identity() const {
    struct stat status {};
    if (::stat(_file.c_str(), &status) != 0) {
        return std::nullopt;
    }
    return FileIdentity{status.st_ino, status.st_size, status.st_mtim};
}

std::optional<TuningRecord> TuningDatabase::find(const std::string& graphKey, const std::string& device) {
    const std::lock_guard lock(_mutex);
    refreshLocked();
    const auto found = _index.find(graphKey + '\t' + device);
    if (found == _index.end()) {
        return std::nullopt;
    }
    return _records[found->second];
}

bool TuningDatabase::empty() {
    const std::lock_guard lock(_mutex);
    refreshLocked();
    return _records.empty();
}

std::vector<TuningRecord> TuningDatabase::records() {
    const std::lock_guard lock(_mutex);
    refreshLocked();
    return _records;
}

void TuningDatabase::store(const TuningRecord& record) {
    rewrite([&](std::vector<TuningRecord>& records) {
        for (auto& existing : records) {
            if (existing.key() == record.key()) {
                existing = record;
                return;
            }
        }
        records.push_back(record);
    });
}

std::vector<std::string> TuningDatabase::rewrite(
    const std::function<void(std::vector<TuningRecord>&)>& edit) {
    const std::lock_guard lock(_mutex);
    return rewriteLocked(edit);
}

void TuningDatabase::refreshLocked() {
    const auto current = identity();
    if (_loaded && current == _identity) {
        return;
    }
    ParsedDatabase parsed = parseDatabase(current ? readText(_file) : std::string(), _file.string());
    if (parsed.problems.empty()) {
        indexLocked(std::move(parsed.records), current);
        return;
    }
    std::string message = "tuning database " + summarizeProblems(parsed.problems);
    message += "; rebuilding the file from its " + std::to_string(parsed.records.size()) + " valid records";
    _warn(message);
    try {
        (void)rewriteLocked(nullptr);
    } catch (const std::exception& error) {
        _warn(std::string(error.what()) + "; using the valid records in memory only");
        indexLocked(std::move(parsed.records), current);
    }
}

void TuningDatabase::indexLocked(std::vector<TuningRecord> records, std::optional<FileIdentity> identity) {
    _records = std::move(records);
    _index.clear();
    for (size_t position = 0; position < _records.size(); ++position) {
        _index[_records[position].key()] = position;
    }
    _identity = identity;
    _loaded = true;
}

std::vector<std::string> TuningDatabase::rewriteLocked(
    const std::function<void(std::vector<TuningRecord>&)>& edit) {
    std::error_code error;
    std::filesystem::create_directories(_file.parent_path(), error);
    if (error) {
        throw std::runtime_error("tuning database: creating the directory " + _file.parent_path().string() +
                                 " failed: " + error.message());
    }
    const FileLock lock(_file);
    // Another process may have written since this one last read: edit what is on disk now. Bad
    // lines were reported when they were first read; rewriting drops them.
    ParsedDatabase parsed = parseDatabase(readText(_file), _file.string());
    if (edit) {
        edit(parsed.records);
    }
    writeDatabaseFile(_file, parsed.records);
    indexLocked(std::move(parsed.records), identity());
    return std::move(parsed.problems);
}

}  // namespace hipdnn_backend::tuning
