#include "Tune.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <ostream>

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_frontend.hpp>
#include <hipdnn_test_sdk/Seed.hpp>

#include "BatchFile.hpp"
#include "DeviceBuffers.hpp"
#include "Inputs.hpp"
#include "Problem.hpp"
#include "Runner.hpp"
#include "Timing.hpp"

namespace hipdnn_driver {

namespace {

namespace fe = hipdnn_frontend;

struct Timed {
    int64_t index = 0;
    std::string engine;
    double medianMs = 0;
};

std::string describe(const fe::Error& error) {
    return std::string(fe::to_string(error.get_code())) + ": " + error.get_message();
}

// The median of one built plan, with the driver's warm-up and timed runs (CUDA events on a GPU);
// CPU_REFERENCE_ENGINE gets as many runs as fit its budget.
double timePlan(const fe::graph::Graph& graph, int64_t index, const std::string& engine, Session& session,
                Bindings& bindings, const CommonOptions& options) {
    int64_t workspaceBytes = 0;
    if (const auto error = graph.get_workspace_size_plan_at_index(index, workspaceBytes); error.is_bad()) {
        throw std::runtime_error(describe(error));
    }
    DeviceBuffer workspace(session.isGpu(), static_cast<size_t>(workspaceBytes));
    auto execute = [&] {
        const auto error =
            graph.execute_plan_at_index(session.handle(), bindings.variantPack, workspace.data(), index);
        if (error.is_bad()) {
            throw std::runtime_error("execution: " + describe(error));
        }
    };
    if (engine == hipdnn_data_sdk::utilities::CPU_REFERENCE_ENGINE_NAME && !session.isGpu()) {
        std::vector<double> samples = timeRuns(false, 0, 1, execute);
        const int more = runsWithinBudget(samples.front(), options.iterations - 1, kReferenceTimeBudgetMs);
        const auto extra = timeRuns(false, 0, more, execute);
        samples.insert(samples.end(), extra.begin(), extra.end());
        return summarize(samples).medianMs;
    }
    return summarize(timeRuns(session.isGpu(), options.warmup, options.iterations, execute)).medianMs;
}

// Tunes one problem; prints a line per engine and the record. Whether it was recorded.
bool tuneProblem(Session& session, const Problem& problem, const CommonOptions& options, std::ostream& out) {
    out << problem.label << "\n";
    fe::graph::Graph graph;
    fe::Error error = graph.deserialize(session.handle(), problem.graph);
    if (error.is_good()) {
        error = graph.create_execution_plans({fe::HeuristicMode::FALLBACK});
    }
    if (error.is_good()) {
        error = graph.add_knob_variants_ext();
    }
    if (error.is_bad()) {
        out << "    ERROR " << describe(error) << "\n";
        return false;
    }
    for (const auto& declined : graph.get_declined_engines()) {
        out << "    UNIMPLEMENTED " << declined.engine_name << ": " << declined.reason << "\n";
    }
    const hipdnn_flatbuffers_sdk::GraphWrapper wrapper(problem.graph.data(), problem.graph.size());
    const uint32_t seed = options.seed.value_or(hipdnn_test_sdk::globalTestSeed());
    Bindings bindings = bind(session.isGpu(), makeRandomInputs(wrapper, seed), makeOutputs(wrapper));

    std::vector<Timed> timed;
    for (int64_t index = 0; index < graph.get_execution_plan_count(); ++index) {
        std::string engine;
        static_cast<void>(graph.get_plan_name_at_index(index, engine));
        // The engine and the knob settings that set this candidate apart from its default plan.
        std::string label = engine;
        std::vector<fe::KnobSetting> knobs;
        static_cast<void>(graph.get_plan_knobs_at_index_ext(index, knobs));
        for (const auto& knob : knobs) {
            label += " " + knob.id + "=" + fe::to_string(knob.value);
        }
        try {
            error = graph.build_plan_at_index(index);
            if (error.is_bad()) {
                out << "    NOT BUILT " << label << ": " << describe(error) << "\n";
                continue;
            }
            timed.push_back({index, label, timePlan(graph, index, engine, session, bindings, options)});
            out << "    TIMED " << label << " median " << timed.back().medianMs << " ms\n";
        } catch (const std::exception& failure) {
            out << "    ERROR " << label << ": " << failure.what() << "\n";
        }
    }
    if (timed.empty()) {
        out << "    not recorded: no plan ran\n";
        return false;
    }
    std::sort(timed.begin(), timed.end(),
              [](const Timed& a, const Timed& b) { return a.medianMs < b.medianMs; });
    const Timed& fastest = timed.front();
    const double runnerUpMs = timed.size() > 1 ? timed[1].medianMs : 0.0;
    error = graph.record_tuning_result_at_index(fastest.index, fastest.medianMs, runnerUpMs, kTuneToolName);
    if (error.is_bad()) {
        out << "    not recorded: " << describe(error) << "\n";
        return false;
    }
    out << "    RECORDED " << fastest.engine << " median " << fastest.medianMs << " ms";
    if (timed.size() > 1) {
        out << ", runner-up " << timed[1].engine << " " << runnerUpMs << " ms";
    }
    out << "\n";
    return true;
}

}  // namespace

int runTune(Session& session, const std::string& batchFile, const CommonOptions& options, std::ostream& out) {
    const auto entries = parseBatchFile(batchFile, options);
    out << "hipdnn-driver tune: device " << session.deviceDescription() << ", " << entries.size()
        << " problem(s) of " << batchFile << ", warm-up " << options.warmup << ", " << options.iterations
        << " timed runs per plan\n";
    size_t recorded = 0;
    for (const auto& entry : entries) {
        try {
            const Problem problem = makeProblem(entry.invocation.problem);
            recorded += tuneProblem(session, problem, entry.invocation.common, out) ? 1 : 0;
        } catch (const std::exception& error) {
            out << batchFile << ":" << entry.line << ": " << error.what() << "\n";
        }
    }
    out << recorded << " of " << entries.size() << " problem(s) recorded\n";
    return recorded == entries.size() ? 0 : 1;
}

}  // namespace hipdnn_driver
