#include "Driver.hpp"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <hipdnn_test_sdk/Seed.hpp>

#include "BatchFile.hpp"
#include "EveryGpu.hpp"
#include "List.hpp"
#include "Options.hpp"
#include "Runner.hpp"
#include "SupportTable.hpp"
#include "Tune.hpp"
#include "TuningDb.hpp"
#include "demo/Demo.hpp"

namespace hipdnn_driver {

namespace {

const char* runModeName(RunMode mode) {
    switch (mode) {
        case RunMode::Correctness:
            return "correctness";
        case RunMode::Performance:
            return "performance";
        case RunMode::Both:
            break;
    }
    return "correctness + performance";
}

void printHeader(Session& session, const CommonOptions& options, std::ostream& out) {
    out << "hipdnn-driver: device " << session.deviceDescription() << ", mode " << runModeName(options.run)
        << ", seed " << options.seed.value_or(hipdnn_test_sdk::globalTestSeed()) << "\n";
    if (options.run != RunMode::Correctness) {
        const Ceilings& ceilings = session.ceilings();
        out << std::setprecision(4);
        for (const auto& [kind, peak] : ceilings.peaks) {
            out << "  peak " << mathKindName(kind) << " " << peak.flops / 1e12 << " TFLOP/s (" << peak.method
                << ")\n";
        }
        if (!ceilings.bandwidths.empty()) {
            out << "  memory bandwidth";
            const char* separator = " ";
            for (const auto& sample : ceilings.bandwidths) {
                out << separator << sample.bytesPerSecond / 1e9 << " GB/s within "
                    << sample.workingSetBytes / (1 << 20) << " MiB";
                separator = ", ";
            }
            out << " (" << ceilings.bandwidthMethod << ")\n";
        }
        out << "  floor = max(sum of flops / peak of their math, bytes / bandwidth of their working set); "
               "math without a peak of its own runs at the fp32 peak; timing: warm-up "
            << options.warmup << ", " << options.iterations << " timed runs ("
            << (session.isGpu() ? "CUDA events" : "steady clock") << "; CPU_REFERENCE_ENGINE: at most "
            << kReferenceTimeBudgetMs / 1000.0 << " s of runs)\n";
        out << std::setprecision(6);
    }
    out << "\n";
}

int exitStatus(const std::vector<Result>& results) {
    std::map<size_t, bool> problemRan;
    bool failed = false;
    for (const auto& result : results) {
        failed = failed || result.status == Status::Failed || result.status == Status::Error;
        problemRan[result.problemIndex] = problemRan[result.problemIndex] ||
                                          result.status == Status::Passed || result.status == Status::Timed;
    }
    for (const auto& [index, ran] : problemRan) {
        failed = failed || !ran;
    }
    return failed ? 1 : 0;
}

// Plans and runs the jobs, printing each result as it comes, then the table; writes the CSV and
// JSON files asked for. `showProgress`: the progress bar on a terminal's stderr.
std::vector<Result> runJobs(Session& session, std::vector<Job> jobs, std::vector<Result> preResults,
                            const CommonOptions& options, std::ostream& out, bool showProgress) {
    printHeader(session, options, out);
    Runner runner(session, out);
    std::vector<JobPlan> plans;
    size_t total = preResults.size();
    for (auto& job : jobs) {
        const size_t index = plans.size() + preResults.size();
        JobPlan plan = runner.plan(index, std::move(job));
        if (plan.job.optional && plan.engines.empty()) {
            out << "not run on " << session.deviceDescription()
                << " (no engine takes it): " << plan.job.problem.label << "\n";
            for (const auto& result : plan.notRun) {
                out << "    " << result.engine << ": " << result.message << "\n";
            }
            continue;
        }
        total += plan.engines.size() + plan.notRun.size();
        plans.push_back(std::move(plan));
    }
    Progress progress(total, showProgress && total > 1);
    size_t position = 0;
    std::vector<Result> results;
    for (auto& result : preResults) {
        printResultLine(out, result, ++position, total, options.verbose);
        results.push_back(result);
    }
    for (const auto& plan : plans) {
        auto planResults = runner.run(plan, progress, position, total);
        results.insert(results.end(), planResults.begin(), planResults.end());
    }
    progress.clear();
    printTable(out, results);
    out << "\n" << summaryLine(results) << "\n";
    if (!options.csvPath.empty()) {
        writeCsv(options.csvPath, results);
    }
    if (!options.jsonPath.empty()) {
        writeJson(options.jsonPath, results);
    }
    return results;
}

// A problem that could not be built, reported like any other result.
Result problemError(size_t index, const std::string& words, const std::string& message) {
    Result result;
    result.problemIndex = index;
    result.problem = words;
    result.engine = "-";
    result.status = Status::Error;
    result.message = message;
    result.command = "hipdnn-driver " + words;
    return result;
}

std::string joinWords(const std::vector<std::string>& words) {
    std::string text;
    for (const auto& word : words) {
        text += (text.empty() ? "" : " ") + word;
    }
    return text;
}

// The jobs of a demo, problem or batch command (`options.engine` set to "all" for the demo unless
// the user chose); problems that cannot be built become ERROR results in `preResults`.
std::vector<Job> collectJobs(const Invocation& invocation, const Session& session, CommonOptions& options,
                             std::vector<Result>& preResults) {
    std::vector<Job> jobs;
    switch (invocation.command) {
        case Command::Demo:
            // Every applicable engine unless the user chose.
            if (options.engine.empty()) {
                options.engine = "all";
            }
            for (auto& demo : demoProblems({session.isGpu(), cpuHasBf16Math()},
                                           std::get<DemoCaseSpec>(invocation.problem))) {
                jobs.push_back({std::move(demo.problem), options, demo.optional});
            }
            break;
        case Command::Problem:
            try {
                jobs.push_back({makeProblem(invocation.problem), options});
            } catch (const ProblemError& error) {
                preResults.push_back(
                    problemError(0, joinWords(commandWordsFor(invocation.problem)), error.what()));
            }
            break;
        case Command::Batch:
            for (auto& entry : parseBatchFile(invocation.batchFile, options)) {
                try {
                    jobs.push_back({makeProblem(entry.invocation.problem), entry.invocation.common});
                } catch (const ProblemError& error) {
                    preResults.push_back(problemError(
                        preResults.size(), entry.text,
                        invocation.batchFile + ":" + std::to_string(entry.line) + ": " + error.what()));
                }
            }
            break;
        default:
            throw std::logic_error("collectJobs: the command runs no problems");
    }
    return jobs;
}

// A CSV or JSON path made per GPU: "results.csv" -> "results.gpu1.csv".
std::string perGpuPath(const std::string& path, int ordinal) {
    if (path.empty()) {
        return path;
    }
    const std::filesystem::path original(path);
    std::filesystem::path changed = original;
    changed.replace_extension(".gpu" + std::to_string(ordinal) + original.extension().string());
    return changed.string();
}

// --device gpu:all: every GPU runs the command's jobs from its own thread and handle, all at once;
// each GPU's report in turn, then the per-GPU and total throughput.
int runOnEveryGpu(const Invocation& invocation, std::ostream& out) {
    if (invocation.command != Command::Demo && invocation.command != Command::Problem &&
        invocation.command != Command::Batch) {
        throw UsageError(
            "--device gpu:all runs problems, batch files and the demo; this command takes one device");
    }
    const int gpus = Session::gpuCount();
    if (gpus <= 0) {
        throw DriverError("--device gpu:all: no usable CUDA device");
    }
    std::vector<std::ostringstream> reports(static_cast<size_t>(gpus));
    std::vector<std::vector<Result>> results(static_cast<size_t>(gpus));
    std::vector<std::string> failures(static_cast<size_t>(gpus));
    std::vector<std::thread> threads;
    for (int gpu = 0; gpu < gpus; ++gpu) {
        threads.emplace_back([&, gpu] {
            const auto index = static_cast<size_t>(gpu);
            try {
                CommonOptions options = invocation.common;
                options.device = "gpu:" + std::to_string(gpu);
                options.csvPath = perGpuPath(options.csvPath, gpu);
                options.jsonPath = perGpuPath(options.jsonPath, gpu);
                Session session(options.device);
                std::vector<Result> preResults;
                std::vector<Job> jobs = collectJobs(invocation, session, options, preResults);
                results[index] =
                    runJobs(session, std::move(jobs), std::move(preResults), options, reports[index], false);
            } catch (const std::exception& error) {
                failures[index] = error.what();
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    int status = 0;
    for (size_t gpu = 0; gpu < reports.size(); ++gpu) {
        out << "=== GPU " << gpu << " ===\n" << reports[gpu].str();
        if (!failures[gpu].empty()) {
            out << "hipdnn-driver: GPU " << gpu << ": " << failures[gpu] << "\n";
            status = 1;
        } else {
            status = std::max(status, exitStatus(results[gpu]));
        }
    }
    printEveryGpuSummary(out, results);
    return status;
}

int runInvocation(const Invocation& invocation, std::ostream& out) {
    // The database commands but prune need no handle (and so load no plugin).
    if (invocation.command == Command::Db) {
        return runDb(invocation.dbAction, invocation.dbFiles, invocation.common, out);
    }
    if (invocation.common.device == kEveryGpu) {
        return runOnEveryGpu(invocation, out);
    }
    Session session(invocation.common.device);
    CommonOptions options = invocation.common;
    switch (invocation.command) {
        case Command::List:
            printList(session, out);
            return 0;
        case Command::Tune:
            return runTune(session, invocation.batchFile, invocation.common, out);
        case Command::Db:
            throw std::logic_error("the db commands run before a session is created");
        case Command::SupportTable: {
            std::vector<Session*> sessions{&session};
            std::unique_ptr<Session> gpu;
#ifdef HIPDNN_DRIVER_WITH_CUDA
            // Without --device, ask the GPU too when one is usable.
            if (invocation.common.device.empty() && !session.isGpu()) {
                try {
                    gpu = std::make_unique<Session>("gpu");
                    sessions.push_back(gpu.get());
                } catch (const DriverError&) {
                    // No usable GPU: the CPU engines only.
                }
            }
#endif
            printSupportTable(sessions, "hipdnn-driver support-table", out);
            return 0;
        }
        case Command::Demo:
        case Command::Problem:
        case Command::Batch:
            break;
    }
    std::vector<Result> preResults;
    std::vector<Job> jobs = collectJobs(invocation, session, options, preResults);
    return exitStatus(runJobs(session, std::move(jobs), std::move(preResults), options, out, true));
}

}  // namespace

int runDriver(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const ParseOutcome outcome = parseCommandLine(args, out, err);
    if (!outcome.invocation) {
        return outcome.exitCode;
    }
    try {
        return runInvocation(*outcome.invocation, out);
    } catch (const UsageError& error) {
        err << "hipdnn-driver: error: " << error.what() << "\n";
        return 2;
    } catch (const std::exception& error) {
        err << "hipdnn-driver: " << error.what() << "\n";
        return 1;
    }
}

}  // namespace hipdnn_driver
