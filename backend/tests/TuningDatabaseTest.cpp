// The tuning database file: records round-trip; lookups are by graph and device; a change made by
// another database object (another process) is seen; a file truncated at every byte offset loads
// its complete records, is reported naming the file and the line, and is rebuilt; eight processes
// storing at once lose and corrupt no record.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tuning/DeviceFingerprint.hpp"
#include "tuning/TuningDatabase.hpp"

namespace {

namespace fs = std::filesystem;
using hipdnn_backend::tuning::cpuFingerprintFrom;
using hipdnn_backend::tuning::fromJsonLine;
using hipdnn_backend::tuning::gpuFingerprintFrom;
using hipdnn_backend::tuning::mergeRecords;
using hipdnn_backend::tuning::parseDatabase;
using hipdnn_backend::tuning::PluginIdentity;
using hipdnn_backend::tuning::pruneRecords;
using hipdnn_backend::tuning::readDatabaseFile;
using hipdnn_backend::tuning::toJsonLine;
using hipdnn_backend::tuning::TuningDatabase;
using hipdnn_backend::tuning::TuningRecord;
using hipdnn_backend::tuning::writeDatabaseFile;
using ::testing::HasSubstr;
using ::testing::Not;

TuningRecord makeRecord(const std::string& graphKey, const std::string& engine = "ONEDNN_ENGINE") {
    TuningRecord record;
    record.graphKey = graphKey;
    record.device = "cpu Test CPU; isa avx2; threads 2";
    record.plugin = "onednn";
    record.pluginVersion = "1.2.3";
    record.engine = engine;
    record.knobs = {{"tile", int64_t{64}}, {"alpha", 0.5}, {"algorithm", std::string("winograd")}};
    record.medianMs = 0.125;
    record.marginMs = 0.03125;
    record.date = "2026-12-02T01:00:00Z";
    record.tool = "autotune";
    return record;
}

void expectSameRecord(const TuningRecord& actual, const TuningRecord& expected) {
    EXPECT_EQ(actual.graphKey, expected.graphKey);
    EXPECT_EQ(actual.device, expected.device);
    EXPECT_EQ(actual.plugin, expected.plugin);
    EXPECT_EQ(actual.pluginVersion, expected.pluginVersion);
    EXPECT_EQ(actual.libraries, expected.libraries);
    EXPECT_EQ(actual.engine, expected.engine);
    ASSERT_EQ(actual.knobs.size(), expected.knobs.size());
    for (const auto& knob : expected.knobs) {
        const auto found = std::find_if(actual.knobs.begin(), actual.knobs.end(),
                                        [&](const auto& other) { return other.knobId == knob.knobId; });
        ASSERT_NE(found, actual.knobs.end()) << knob.knobId;
        EXPECT_EQ(found->value, knob.value) << knob.knobId;
    }
    EXPECT_DOUBLE_EQ(actual.medianMs, expected.medianMs);
    EXPECT_DOUBLE_EQ(actual.marginMs, expected.marginMs);
    EXPECT_EQ(actual.date, expected.date);
    EXPECT_EQ(actual.tool, expected.tool);
    EXPECT_EQ(actual.provenance, expected.provenance);
}

std::string readText(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeText(const fs::path& file, const std::string& text) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

class TuningDatabaseFile : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        _directory = fs::path(HIPDNN_TEST_SCRATCH_DIR) / "tuning" / test->name();
        fs::remove_all(_directory);
        fs::create_directories(_directory);
        _file = _directory / "tuning.jsonl";
    }

    TuningDatabase open() {
        return TuningDatabase(_file, [this](const std::string& message) { _warnings.push_back(message); });
    }

    fs::path _directory;
    fs::path _file;
    std::vector<std::string> _warnings;
};

TEST(TuningRecord, RoundTripsThroughItsJsonLine) {
    TuningRecord record = makeRecord("00112233aabbccdd");
    record.provenance = "merged from b.jsonl";
    record.libraries = "onednn 2.6.3";
    const std::string line = toJsonLine(record);
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_THAT(line, HasSubstr("\"engine\":\"ONEDNN_ENGINE\""));
    EXPECT_THAT(line, HasSubstr("\"libraries\":\"onednn 2.6.3\""));
    expectSameRecord(fromJsonLine(line), record);
}

TEST(TuningRecord, ARecordWithoutLibrariesHasNoSuchFieldAndReadsBackWithNone) {
    const TuningRecord record = makeRecord("00112233aabbccdd");
    const std::string line = toJsonLine(record);
    EXPECT_THAT(line, Not(HasSubstr("libraries")));
    EXPECT_EQ(fromJsonLine(line).libraries, "");
    std::string wrongType = line;
    wrongType.replace(wrongType.find("\"knobs\""), 7, "\"libraries\":7,\"knobs\"");
    try {
        (void)fromJsonLine(wrongType);
        FAIL() << "accepted " << wrongType;
    } catch (const std::invalid_argument& error) {
        EXPECT_THAT(error.what(), HasSubstr("\"libraries\" is not a string"));
    }
}

TEST(TuningRecord, ALineMissingAFieldNamesIt) {
    std::string line = toJsonLine(makeRecord("00112233aabbccdd"));
    line.replace(line.find("\"median_ms\""), 11, "\"median_xx\"");
    try {
        (void)fromJsonLine(line);
        FAIL() << "accepted " << line;
    } catch (const std::invalid_argument& error) {
        EXPECT_THAT(error.what(), HasSubstr("median_ms"));
    }
    EXPECT_THROW((void)fromJsonLine("[1, 2]"), std::invalid_argument);
    EXPECT_THROW((void)fromJsonLine("{\"graph\": "), std::invalid_argument);
}

TEST_F(TuningDatabaseFile, StoredRecordsAreFoundByAnotherDatabaseOfTheFile) {
    const TuningRecord first = makeRecord("1111111111111111");
    const TuningRecord second = makeRecord("2222222222222222", "CPU_REFERENCE_ENGINE");
    {
        TuningDatabase database = open();
        EXPECT_TRUE(database.empty());
        EXPECT_FALSE(database.find(first.graphKey, first.device));
        database.store(first);
        EXPECT_FALSE(database.empty());
        database.store(second);
    }
    TuningDatabase reader = open();
    const auto found = reader.find(first.graphKey, first.device);
    ASSERT_TRUE(found);
    expectSameRecord(*found, first);
    ASSERT_TRUE(reader.find(second.graphKey, second.device));
    EXPECT_EQ(reader.find(second.graphKey, second.device)->engine, "CPU_REFERENCE_ENGINE");
    // Another device's measurement is not this device's.
    EXPECT_FALSE(reader.find(first.graphKey, "cpu Other CPU; isa avx512f; threads 64"));
    EXPECT_TRUE(_warnings.empty());
    // Human-readable, one record a line, no absolute path.
    const std::string text = readText(_file);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
    EXPECT_EQ(text.find(_directory.string()), std::string::npos);
}

TEST_F(TuningDatabaseFile, StoringTheSameGraphAndDeviceReplacesTheRecord) {
    TuningDatabase database = open();
    database.store(makeRecord("1111111111111111", "ONEDNN_ENGINE"));
    database.store(makeRecord("1111111111111111", "CPU_REFERENCE_ENGINE"));
    EXPECT_EQ(database.records().size(), 1u);
    EXPECT_EQ(database.find("1111111111111111", makeRecord("").device)->engine, "CPU_REFERENCE_ENGINE");
}

TEST_F(TuningDatabaseFile, SeesWhatAnotherProcessWrote) {
    TuningDatabase reader = open();
    EXPECT_FALSE(reader.find("3333333333333333", makeRecord("").device));
    TuningDatabase writer = open();
    writer.store(makeRecord("3333333333333333"));
    EXPECT_TRUE(reader.find("3333333333333333", makeRecord("").device));
}

TEST_F(TuningDatabaseFile, ACorruptLineIsReportedOnceAndTheFileRebuilt) {
    const std::string good = toJsonLine(makeRecord("1111111111111111")) + "\n";
    const std::string other = toJsonLine(makeRecord("2222222222222222")) + "\n";
    writeText(_file, good + "{not json\n" + other);
    TuningDatabase database = open();
    EXPECT_EQ(database.records().size(), 2u);
    EXPECT_EQ(database.records().size(), 2u);
    ASSERT_EQ(_warnings.size(), 1u);
    EXPECT_THAT(_warnings[0], HasSubstr(_file.string() + " line 2"));
    EXPECT_EQ(readText(_file), good + other);
}

TEST_F(TuningDatabaseFile, ATruncatedFileIsSurvivedAtEveryByteOffset) {
    std::vector<TuningRecord> originals;
    std::string full;
    std::vector<size_t> recordEnds;  // offset just past each record's closing brace
    for (const char* key : {"1111111111111111", "2222222222222222", "3333333333333333"}) {
        originals.push_back(makeRecord(key));
        full += toJsonLine(originals.back());
        recordEnds.push_back(full.size());
        full += '\n';
    }
    for (size_t offset = 0; offset <= full.size(); ++offset) {
        SCOPED_TRACE("truncated at byte " + std::to_string(offset));
        writeText(_file, full.substr(0, offset));
        _warnings.clear();
        TuningDatabase database = open();
        const auto records = database.records();
        const size_t complete = static_cast<size_t>(
            std::count_if(recordEnds.begin(), recordEnds.end(), [&](size_t end) { return end <= offset; }));
        ASSERT_EQ(records.size(), complete);
        for (size_t index = 0; index < complete; ++index) {
            EXPECT_EQ(records[index].graphKey, originals[index].graphKey);
        }
        // The last line of the prefix is partial unless the cut fell right after a record or a newline.
        const bool partialLine = offset > 0 && full[offset - 1] != '\n' &&
                                 std::find(recordEnds.begin(), recordEnds.end(), offset) == recordEnds.end();
        if (partialLine) {
            ASSERT_EQ(_warnings.size(), 1u);
            const auto line =
                std::count(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(offset), '\n') + 1;
            EXPECT_THAT(_warnings[0], HasSubstr(_file.string() + " line " + std::to_string(line)));
            const auto rebuilt = parseDatabase(readText(_file), _file.string());
            EXPECT_TRUE(rebuilt.problems.empty());
            EXPECT_EQ(rebuilt.records.size(), complete);
        } else {
            EXPECT_TRUE(_warnings.empty());
        }
    }
}

TEST_F(TuningDatabaseFile, EightProcessesStoringAtOnceLoseNoRecord) {
    constexpr int processes = 8;
    constexpr int recordsEach = 20;
    std::vector<pid_t> children;
    for (int process = 0; process < processes; ++process) {
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            int status = 0;
            try {
                TuningDatabase database(_file, [&](const std::string&) { status = 2; });
                for (int index = 0; index < recordsEach; ++index) {
                    database.store(makeRecord("p" + std::to_string(process) + "r" + std::to_string(index)));
                }
            } catch (...) {
                status = 1;
            }
            _exit(status);
        }
        children.push_back(child);
    }
    for (const pid_t child : children) {
        int status = 0;
        ASSERT_EQ(waitpid(child, &status, 0), child);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
    }
    const auto parsed = parseDatabase(readText(_file), _file.string());
    EXPECT_TRUE(parsed.problems.empty());
    std::set<std::string> keys;
    for (const auto& record : parsed.records) {
        keys.insert(record.graphKey);
    }
    EXPECT_EQ(keys.size(), static_cast<size_t>(processes * recordsEach));
    EXPECT_EQ(parsed.records.size(), static_cast<size_t>(processes * recordsEach));
    for (const auto& entry : fs::directory_iterator(_directory)) {
        EXPECT_THAT(entry.path().filename().string(), ::testing::Not(HasSubstr(".tmp.")));
    }
}

TEST(TuningRecords, MergeKeepsTheFasterRecordPerKeyWithItsProvenance) {
    std::vector<TuningRecord> records = {makeRecord("1111111111111111"), makeRecord("2222222222222222")};
    records[0].medianMs = 1.0;
    records[1].medianMs = 1.0;
    std::vector<TuningRecord> incoming = {makeRecord("1111111111111111", "CPU_REFERENCE_ENGINE"),
                                          makeRecord("2222222222222222", "CPU_REFERENCE_ENGINE"),
                                          makeRecord("3333333333333333")};
    incoming[0].medianMs = 0.5;  // faster: replaces
    incoming[1].medianMs = 2.0;  // slower: ignored
    EXPECT_EQ(mergeRecords(records, incoming, "other.jsonl"), 2u);
    ASSERT_EQ(records.size(), 3u);
    EXPECT_EQ(records[0].engine, "CPU_REFERENCE_ENGINE");
    EXPECT_EQ(records[0].provenance, "other.jsonl");
    EXPECT_EQ(records[1].engine, "ONEDNN_ENGINE");
    EXPECT_EQ(records[1].provenance, "");
    EXPECT_EQ(records[2].graphKey, "3333333333333333");
    EXPECT_EQ(records[2].provenance, "other.jsonl");
}

TEST(TuningRecords, PruneDropsRecordsOfPluginsLibrariesOrDevicesNotPresentAndSaysWhy) {
    const std::string thisCpu = "cpu Test CPU; isa avx2; threads 2";
    std::vector<TuningRecord> records;
    for (const char* key : {"1111111111111111", "2222222222222222", "3333333333333333", "4444444444444444",
                            "5555555555555555"}) {
        records.push_back(makeRecord(key));
    }
    records[1].pluginVersion = "1.2.2";                          // an older build of the plugin
    records[2].device = "cpu Other CPU; isa avx2; threads 2";    // another machine
    records[3].device = "gpu NVIDIA H200; sm 9.0; driver 13.0";  // another kind of device: kept
    records[4].libraries = "onednn 2.5.0";                       // the plugin now runs on another build
    const std::vector<PluginIdentity> loaded = {{"cpu_reference", "0.1.0", ""}, {"onednn", "1.2.3", ""}};
    const auto dropped = pruneRecords(records, thisCpu, loaded);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].graphKey, "1111111111111111");
    EXPECT_EQ(records[1].graphKey, "4444444444444444");
    ASSERT_EQ(dropped.size(), 3u);
    EXPECT_THAT(dropped[0], HasSubstr("graph 2222222222222222"));
    EXPECT_THAT(dropped[0], HasSubstr("plugin onednn 1.2.2 is not loaded"));
    EXPECT_THAT(dropped[1], HasSubstr("graph 3333333333333333"));
    EXPECT_THAT(dropped[1], HasSubstr("another device than this one (" + thisCpu + ")"));
    EXPECT_THAT(dropped[2], HasSubstr("graph 5555555555555555"));
    EXPECT_THAT(dropped[2],
                HasSubstr("measured with libraries \"onednn 2.5.0\", the plugin now runs on \"\""));

    // A GPU handle judges GPU records by its GPU and leaves CPU records alone.
    std::vector<TuningRecord> mixed = {makeRecord("6666666666666666"), makeRecord("7777777777777777")};
    mixed[0].device = "gpu NVIDIA A100; sm 8.0; driver 12.4";
    mixed[1].device = "cpu Other CPU; isa avx2; threads 2";
    const auto droppedOnGpu = pruneRecords(mixed, "gpu NVIDIA H200; sm 9.0; driver 13.0", loaded);
    ASSERT_EQ(droppedOnGpu.size(), 1u);
    EXPECT_THAT(droppedOnGpu[0], HasSubstr("graph 6666666666666666"));
    ASSERT_EQ(mixed.size(), 1u);
    EXPECT_EQ(mixed[0].graphKey, "7777777777777777");

    std::vector<TuningRecord> unjudged = {makeRecord("8888888888888888")};
    unjudged[0].device = "cpu Other CPU; isa avx2; threads 2";
    EXPECT_TRUE(pruneRecords(unjudged, "", {PluginIdentity{"onednn", "1.2.3", ""}}).empty());
    EXPECT_TRUE(pruneRecords(unjudged, "", {}).size() == 1 && unjudged.empty());
}

TEST_F(TuningDatabaseFile, ANamedFileIsReadWholeOrRefusedNamingTheFileAndLine) {
    const std::vector<TuningRecord> written = {makeRecord("1111111111111111"),
                                               makeRecord("2222222222222222")};
    writeDatabaseFile(_file, written);
    const auto read = readDatabaseFile(_file);
    ASSERT_EQ(read.size(), 2u);
    expectSameRecord(read[1], written[1]);

    const auto refusal = [](const fs::path& file) {
        try {
            static_cast<void>(readDatabaseFile(file));
        } catch (const std::invalid_argument& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    EXPECT_THAT(refusal(_directory / "missing.jsonl"), HasSubstr("missing.jsonl does not exist"));
    EXPECT_THAT(refusal(_directory), HasSubstr("is not a regular file"));
    writeText(_file, toJsonLine(written[0]) + "\n{\"graph\":1}\nnot json\n");
    EXPECT_THAT(refusal(_file), HasSubstr(_file.string() + " line 2: "));
    EXPECT_THAT(refusal(_file), HasSubstr("(and 1 more bad lines)"));
}

TEST_F(TuningDatabaseFile, RewriteReportsTheBadLinesItDropped) {
    const std::string good = toJsonLine(makeRecord("1111111111111111")) + "\n";
    writeText(_file, good + "{truncated\n");
    TuningDatabase database(_file, [](const std::string&) {});
    const auto dropped = database.rewrite(nullptr);
    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_THAT(dropped[0], HasSubstr(_file.string() + " line 2"));
    EXPECT_EQ(readText(_file), good);
}

TEST(DeviceFingerprint, NamesTheModelTheExtensionsAndTheThreads) {
    const std::string cpuinfo =
        "processor\t: 0\nmodel name\t: Test CPU @ 2.0GHz\nflags\t\t: fpu sse avx2 avx512f avx512bw amx_tile\n"
        "model name\t: second socket\n";
    EXPECT_EQ(cpuFingerprintFrom(cpuinfo, 16),
              "cpu Test CPU @ 2.0GHz; isa avx2+avx512f+amx_tile; threads 16");
    EXPECT_EQ(cpuFingerprintFrom("", 1), "cpu unknown; isa baseline; threads 1");
}

TEST(DeviceFingerprint, NamesTheGpuItsComputeCapabilityAndTheDriversCudaVersion) {
    EXPECT_EQ(gpuFingerprintFrom({"NVIDIA H200", 9, 0, 13000}), "gpu NVIDIA H200; sm 9.0; driver 13.0");
    EXPECT_EQ(gpuFingerprintFrom({"NVIDIA GeForce RTX 4090", 8, 9, 12040}),
              "gpu NVIDIA GeForce RTX 4090; sm 8.9; driver 12.4");
    EXPECT_EQ(gpuFingerprintFrom({"", 7, 5, 11080}), "gpu unknown; sm 7.5; driver 11.8");
}

}  // namespace
