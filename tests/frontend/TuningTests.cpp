// The tuning database end to end on the CPU, with the CPU reference and oneDNN engines both
// accepting a matmul: autotune times both, keeps the faster and records it; heuristics then rank
// a recorded engine first for the same computation under other names and uids; a record of
// another plugin version, library versions or device is ignored; HIPDNN_DISABLE_CACHE writes nothing.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>

#include <hipdnn_flatbuffers_sdk/CanonicalGraph.hpp>
#include <nlohmann/json.hpp>

#include "TuningDatabaseTest.hpp"

using namespace hipdnn_frontend_tests;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kSize = 32;

struct Matmul {
    Graph graph;
    TensorPtr a, b, c;
};

// The same computation whatever `prefix` and `firstUid`: names and uids differ, structure not.
Matmul makeMatmul(const std::string& prefix, int64_t firstUid) {
    Matmul matmul{floatGraph(prefix + "matmul"), nullptr, nullptr, nullptr};
    const std::vector<int64_t> dims{1, kSize, kSize};
    matmul.a = matmul.graph.tensor(TensorAttributes()
                                       .set_name(prefix + "a")
                                       .set_uid(firstUid)
                                       .set_dim(dims)
                                       .set_stride(nchwStrides(dims)));
    matmul.b = matmul.graph.tensor(TensorAttributes()
                                       .set_name(prefix + "b")
                                       .set_uid(firstUid + 1)
                                       .set_dim(dims)
                                       .set_stride(nchwStrides(dims)));
    matmul.c = matmul.graph.matmul(matmul.a, matmul.b, fe::graph::MatmulAttributes().set_name(prefix + "mm"));
    matmul.c->set_output(true).set_uid(firstUid + 2);
    return matmul;
}

std::string readText(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

class Tuning : public TuningDatabaseTest {
protected:
    void SetUp() override { startWith({HIPDNN_TEST_CPU_REFERENCE_PLUGIN, HIPDNN_TEST_ONEDNN_PLUGIN}); }

    // The engine heuristics rank first for a fresh matmul.
    std::string firstEngine(const std::string& prefix, int64_t firstUid) {
        Matmul matmul = makeMatmul(prefix, firstUid);
        EXPECT_TRUE(matmul.graph.build_operation_graph(_handle.get()).is_good());
        EXPECT_TRUE(matmul.graph.create_execution_plans().is_good());
        std::string name;
        EXPECT_TRUE(matmul.graph.get_plan_name_at_index(0, name).is_good());
        return name;
    }

    // Autotunes a matmul (with `barred` engines deselected) and checks its output.
    void autotune(Matmul& matmul, const std::vector<std::string>& barred = {}) {
        ASSERT_FE_OK(matmul.graph.build_operation_graph(_handle.get()));
        ASSERT_FE_OK(matmul.graph.create_execution_plans());
        if (!barred.empty()) {
            ASSERT_FE_OK(matmul.graph.deselect_engines(barred));
        }
        std::vector<float> a(kSize * kSize), b(kSize * kSize), c(kSize * kSize, -1.0f);
        for (size_t index = 0; index < a.size(); ++index) {
            a[index] = static_cast<float>(index % 7) - 3.0f;
            b[index] = static_cast<float>(index % 5) - 2.0f;
        }
        std::unordered_map<TensorPtr, void*> pack{
            {matmul.a, a.data()}, {matmul.b, b.data()}, {matmul.c, c.data()}};
        std::unordered_map<int64_t, void*> packByUid;
        for (const auto& [tensor, pointer] : pack) {
            packByUid[tensor->get_uid()] = pointer;
        }
        ASSERT_FE_OK(matmul.graph.autotune(_handle.get(), packByUid, nullptr));
        std::fill(c.begin(), c.end(), -1.0f);
        ASSERT_FE_OK(matmul.graph.execute(_handle.get(), packByUid, nullptr));
        for (int64_t row = 0; row < kSize; ++row) {
            for (int64_t column = 0; column < kSize; ++column) {
                float expected = 0;
                for (int64_t inner = 0; inner < kSize; ++inner) {
                    expected += a[static_cast<size_t>(row * kSize + inner)] *
                                b[static_cast<size_t>(inner * kSize + column)];
                }
                ASSERT_FLOAT_EQ(c[static_cast<size_t>(row * kSize + column)], expected)
                    << row << "," << column;
            }
        }
    }

    void editOnlyRecord(const std::string& field, const std::string& value) {
        nlohmann::json record = onlyRecord();
        record[field] = value;
        replaceOnlyRecord(record);
    }
};

TEST_F(Tuning, AutotuneTimesEveryEngineKeepsTheFastestAndRecordsIt) {
    Matmul matmul = makeMatmul("", 0);
    autotune(matmul);
    ASSERT_EQ(matmul.graph.get_execution_plan_count(), 2);
    std::vector<std::pair<double, std::string>> timed;
    for (int64_t index = 0; index < 2; ++index) {
        double median = 0;
        std::string name;
        ASSERT_FE_OK(matmul.graph.get_autotune_median_ms_at_index(index, median));
        ASSERT_FE_OK(matmul.graph.get_plan_name_at_index(index, name));
        EXPECT_GT(median, 0.0) << name;
        timed.emplace_back(median, name);
    }
    std::sort(timed.begin(), timed.end());
    EXPECT_NE(timed[0].second, timed[1].second);
    std::string kept;
    ASSERT_FE_OK(matmul.graph.get_plan_name(kept));
    EXPECT_EQ(kept, timed[0].second);

    const nlohmann::json record = onlyRecord();
    std::vector<uint8_t> bytes;
    ASSERT_FE_OK(matmul.graph.serialize(bytes));
    EXPECT_EQ(record["graph"], hipdnn_flatbuffers_sdk::canonicalGraphKey(bytes.data(), bytes.size()));
    EXPECT_EQ(record["engine"], kept);
    EXPECT_EQ(record["plugin"], kept == "ONEDNN_ENGINE" ? "onednn" : "cpu_reference");
    EXPECT_DOUBLE_EQ(record["median_ms"].get<double>(), timed[0].first);
    EXPECT_NEAR(record["margin_ms"].get<double>(), timed[1].first - timed[0].first, 1e-9);
    EXPECT_EQ(record["tool"], "autotune");
    EXPECT_EQ(record["device"].get<std::string>().rfind("cpu ", 0), 0u) << record["device"];
    EXPECT_EQ(readText(databaseFile()).find(_cacheDir.string()), std::string::npos);
}

TEST_F(Tuning, HeuristicsRankTheRecordedEngineFirst) {
    // The static order puts the reference engine last; a record makes it first.
    ASSERT_EQ(firstEngine("before_", 0), "ONEDNN_ENGINE");
    Matmul matmul = makeMatmul("", 0);
    autotune(matmul, {"ONEDNN_ENGINE"});
    EXPECT_EQ(onlyRecord()["engine"], "CPU_REFERENCE_ENGINE");
    EXPECT_EQ(onlyRecord()["margin_ms"], 0.0);
    EXPECT_EQ(firstEngine("other_names_", 40), "CPU_REFERENCE_ENGINE");
    // Another process (a new handle here) reads the file.
    createHandle();
    EXPECT_EQ(firstEngine("new_handle_", 7), "CPU_REFERENCE_ENGINE");
}

TEST_F(Tuning, ARecordOfAnotherPluginVersionOrDeviceIsIgnored) {
    Matmul matmul = makeMatmul("", 0);
    autotune(matmul, {"ONEDNN_ENGINE"});
    ASSERT_EQ(firstEngine("trusted_", 0), "CPU_REFERENCE_ENGINE");
    const nlohmann::json original = onlyRecord();
    editOnlyRecord("plugin_version", "0.0.0-another-build");
    EXPECT_EQ(firstEngine("other_version_", 0), "ONEDNN_ENGINE");
    editOnlyRecord("plugin_version", original["plugin_version"]);
    ASSERT_EQ(firstEngine("trusted_again_", 0), "CPU_REFERENCE_ENGINE");
    editOnlyRecord("device", "cpu Another CPU; isa avx512f; threads 128");
    EXPECT_EQ(firstEngine("other_device_", 0), "ONEDNN_ENGINE");
    editOnlyRecord("device", original["device"]);
    ASSERT_EQ(firstEngine("trusted_once_more_", 0), "CPU_REFERENCE_ENGINE");
    // The reference names no libraries; a record measured with some is not its own.
    editOnlyRecord("libraries", "somelib 1.0.0");
    EXPECT_EQ(firstEngine("other_libraries_", 0), "ONEDNN_ENGINE");
}

TEST_F(Tuning, ARecordNamesTheLibrariesItsPluginRanOn) {
    Matmul matmul = makeMatmul("", 0);
    autotune(matmul, {"CPU_REFERENCE_ENGINE"});
    const nlohmann::json record = onlyRecord();
    ASSERT_EQ(record["engine"], "ONEDNN_ENGINE");
    ASSERT_TRUE(record.contains("libraries")) << record.dump();
    EXPECT_EQ(record["libraries"].get<std::string>().rfind("onednn ", 0), 0u) << record["libraries"];
}

// The JSON printer writes an infinite scalar as `inf`, which JSON readers reject: such a graph has
// no canonical key, so the database cannot name it, and heuristics and autotune go on without it.
TEST_F(Tuning, AGraphWithoutACanonicalKeyIsNotLookedUpNorRecorded) {
    Matmul matmul = makeMatmul("", 0);
    autotune(matmul);
    ASSERT_TRUE(fs::exists(databaseFile()));
    Graph graph = floatGraph("scaled_by_infinity");
    auto x = input(graph, "x", {1, 4, 4});
    auto infinity =
        graph.tensor(TensorAttributes(std::numeric_limits<float>::infinity()).set_name("infinity"));
    auto y = graph.pointwise(x, infinity, fe::graph::PointwiseAttributes().set_mode(fe::PointwiseMode::MUL));
    y->set_output(true);
    ASSERT_FE_OK(graph.build_operation_graph(_handle.get()));
    ASSERT_FE_OK(graph.create_execution_plans());
    ASSERT_GE(graph.get_execution_plan_count(), 1);
    std::vector<float> xs(16, 1.0f), ys(16, 0.0f);
    std::unordered_map<int64_t, void*> pack{{x->get_uid(), xs.data()}, {y->get_uid(), ys.data()}};
    ASSERT_FE_OK(graph.autotune(_handle.get(), pack, nullptr));
    ASSERT_FE_OK(graph.execute(_handle.get(), pack, nullptr));
    EXPECT_EQ(ys[0], std::numeric_limits<float>::infinity());
    onlyRecord();  // still the matmul's record alone
}

TEST_F(Tuning, DisableCacheWritesNothing) {
    setenv("HIPDNN_DISABLE_CACHE", "1", 1);
    createHandle();
    Matmul matmul = makeMatmul("", 0);
    autotune(matmul);
    EXPECT_FALSE(fs::exists(databaseFile()));
    unsetenv("HIPDNN_DISABLE_CACHE");
}

}  // namespace
