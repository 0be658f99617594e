// The tuning database: the TuningRecords of one file, <cache dir>/tuning.jsonl, one JSON object
// per line, indexed in memory by TuningRecord::key().
//
// Contract:
// - Reading: the file is parsed on first use and again whenever its identity (inode, size,
//   modification time) changes; a lookup between changes costs one stat() and a hash lookup.
// - Writing: under an advisory lock on <file>.lock (flock), the file is re-read, edited and written
//   to a temporary file in the same directory that is renamed over it. Readers never see a partial
//   file and concurrent writers (threads or processes) lose no record.
// - A line that does not parse (corruption, a truncated write by another program) is reported
//   through the warning sink once per file version, naming the file and the line, and the file is
//   rebuilt from its valid records. Nothing throws out of a load.
#pragma once

#include <sys/types.h>

#include <ctime>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tuning/TuningRecord.hpp"

namespace hipdnn_backend::tuning {

// The valid records of a database's text, the last of each key winning, in order of first
// appearance; `problems` gets one message per bad line naming `fileName` and the line number.
struct ParsedDatabase {
    std::vector<TuningRecord> records;
    std::vector<std::string> problems;
};
[[nodiscard]] ParsedDatabase parseDatabase(std::string_view text, const std::string& fileName);

// Merges `incoming` into `records`: a record of a new key is appended; of a key already present,
// the one with the smaller median stays. A record taken from `incoming` without provenance gets
// `provenance` (e.g. the name of the database it came from). Returns how many records of
// `incoming` were taken.
size_t mergeRecords(std::vector<TuningRecord>& records, const std::vector<TuningRecord>& incoming,
                    const std::string& provenance);

// A loaded plugin, as a record names the plugin that measured it.
struct PluginIdentity {
    std::string name;
    std::string version;
    std::string libraries;  // EnginePlugin::libraryVersions
};

// Why `record` is not to be trusted with `plugin`, the loaded plugin it would run on (null: none),
// or "" when it is: the plugin has another name or version, or runs on other library versions.
[[nodiscard]] std::string distrustReason(const TuningRecord& record, const PluginIdentity* plugin);

// Drops the records nothing loaded can use: those whose plugin is not among `loaded` with the
// version and the library versions that measured it, and those of the same kind of device as
// `deviceFingerprint` (its first word, "cpu" or "gpu") measured under another fingerprint (empty:
// no record is judged by its device). Returns one line per dropped record saying why.
std::vector<std::string> pruneRecords(std::vector<TuningRecord>& records,
                                      const std::string& deviceFingerprint,
                                      const std::vector<PluginIdentity>& loaded);

// "<file> line <n>: <why>", with "(and <k> more bad lines)" when there are more.
[[nodiscard]] std::string summarizeProblems(const std::vector<std::string>& problems);

// The records of a database file that must exist and be wholly valid (a file to list or merge):
// throws std::invalid_argument naming the file when it is missing, not a regular file or unreadable,
// and naming the file and the line when a line is malformed.
[[nodiscard]] std::vector<TuningRecord> readDatabaseFile(const std::filesystem::path& file);
// Writes `records` as a database file: to a temporary file in the same directory, flushed, then
// renamed over `file`. Throws std::runtime_error naming the file and the failing call.
void writeDatabaseFile(const std::filesystem::path& file, const std::vector<TuningRecord>& records);

class TuningDatabase {
public:
    using WarningSink = std::function<void(const std::string&)>;

    TuningDatabase(std::filesystem::path file, WarningSink warn);

    const std::filesystem::path& file() const noexcept { return _file; }

    // The record stored for the graph and device, if any (matching plugin versions is the
    // caller's business: only it knows the loaded plugins).
    [[nodiscard]] std::optional<TuningRecord> find(const std::string& graphKey, const std::string& device);
    // Whether the file holds no valid record (or does not exist): lets callers skip computing a key.
    [[nodiscard]] bool empty();
    // Every valid record, in file order.
    [[nodiscard]] std::vector<TuningRecord> records();

    // Inserts `record`, replacing the record of the same key. Throws std::runtime_error naming
    // the file and the failing call.
    void store(const TuningRecord& record);
    // Replaces the file's records by what `edit` makes of them, under the lock. Returns the bad
    // lines the file held (dropped by the rewrite), as parseDatabase reports them.
    std::vector<std::string> rewrite(const std::function<void(std::vector<TuningRecord>&)>& edit);

private:
    struct FileIdentity {
        ino_t inode = 0;
        off_t size = -1;
        timespec modified{};
        bool operator==(const FileIdentity& other) const;
    };

    std::optional<FileIdentity> identity() const;
    // Reloads when the file changed; reports and rebuilds a corrupt file. Holds _mutex.
    void refreshLocked();
    void indexLocked(std::vector<TuningRecord> records, std::optional<FileIdentity> identity);
    std::vector<std::string> rewriteLocked(const std::function<void(std::vector<TuningRecord>&)>& edit);

    std::filesystem::path _file;
    WarningSink _warn;
    std::mutex _mutex;
    bool _loaded = false;
    std::optional<FileIdentity> _identity;
    std::vector<TuningRecord> _records;
    std::unordered_map<std::string, size_t> _index;
};

}  // namespace hipdnn_backend::tuning
