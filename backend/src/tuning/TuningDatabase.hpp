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
// `provenance` (e.g. the name of the database it came from).
void mergeRecords(std::vector<TuningRecord>& records, const std::vector<TuningRecord>& incoming,
                  const std::string& provenance);

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
    // Replaces the file's records by what `edit` makes of them, under the lock.
    void rewrite(const std::function<void(std::vector<TuningRecord>&)>& edit);

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
    // Writes `records` to a temporary file and renames it over the database (lock held).
    void replaceFile(const std::vector<TuningRecord>& records) const;
    void rewriteLocked(const std::function<void(std::vector<TuningRecord>&)>& edit);

    std::filesystem::path _file;
    WarningSink _warn;
    std::mutex _mutex;
    bool _loaded = false;
    std::optional<FileIdentity> _identity;
    std::vector<TuningRecord> _records;
    std::unordered_map<std::string, size_t> _index;
};

}  // namespace hipdnn_backend::tuning
