#include "TuningDb.hpp"

#include <algorithm>
#include <ostream>

#include <hipdnn_backend.h>

#include "Session.hpp"

namespace hipdnn_driver {

namespace {

void check(hipdnnStatus_t status, const std::string& what) {
    if (status != HIPDNN_STATUS_SUCCESS) {
        throw DriverError(backendFailure(what, status));
    }
}

// A two-call text getter: the size first, then the text.
template <typename Getter>
std::string twoCallText(const std::string& what, Getter&& get) {
    size_t size = 0;
    check(get(0, &size, nullptr), what);
    std::string text(size, '\0');
    check(get(size, &size, text.data()), what);
    text.resize(text.empty() ? 0 : size - 1);
    return text;
}

std::string currentPath() {
    return twoCallText("hipdnnGetTuningDatabasePath_ext", [](size_t requested, size_t* size, char* buffer) {
        return hipdnnGetTuningDatabasePath_ext(requested, size, buffer);
    });
}

size_t countLines(const std::string& text) {
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

void show(const std::vector<std::string>& files, std::ostream& out) {
    const char* file = files.empty() ? nullptr : files.front().c_str();
    const std::string source = file == nullptr ? currentPath() : files.front();
    const std::string records = twoCallText(
        "listing the tuning database " + source, [&](size_t requested, size_t* size, char* buffer) {
            return hipdnnGetTuningRecords_ext(file, requested, size, buffer);
        });
    out << "# " << source << ": " << countLines(records) << " record(s)\n" << records;
}

}  // namespace

int runDb(DbAction action, const std::vector<std::string>& files, const CommonOptions& options,
          std::ostream& out) {
    switch (action) {
        case DbAction::Show:
            show(files, out);
            return 0;
        case DbAction::Merge: {
            std::vector<const char*> paths;
            for (const auto& file : files) {
                paths.push_back(file.c_str());
            }
            size_t merged = 0;
            check(hipdnnMergeTuningDatabases_ext(paths.size(), paths.data(), &merged),
                  "merging tuning databases");
            out << "merged " << merged << " record(s) from " << files.size() << " file(s) into "
                << currentPath() << "\n";
            return 0;
        }
        case DbAction::Prune: {
            const Session session(options.device);
            size_t removed = 0;
            check(hipdnnPruneTuningDatabase_ext(session.handle(), &removed), "pruning the tuning database");
            out << "pruned " << removed << " record(s) from " << currentPath()
                << " (HIPDNN_LOG_LEVEL=info logs each with its reason)\n";
            return 0;
        }
        case DbAction::Export: {
            size_t exported = 0;
            check(hipdnnExportTuningDatabase_ext(files.front().c_str(), &exported),
                  "exporting the tuning database to " + files.front());
            out << "exported " << exported << " record(s) of " << currentPath() << " to " << files.front()
                << "\n";
            return 0;
        }
    }
    return 1;
}

}  // namespace hipdnn_driver
