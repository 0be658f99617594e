#include "Driver.hpp"

#include <iomanip>
#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>

#include <hipdnn_test_sdk/Seed.hpp>

#include "BatchFile.hpp"
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

int runJobs(Session& session, std::vector<Job> jobs, std::vector<Result> preResults,
            const CommonOptions& options, std::ostream& out) {
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
    Progress progress(total, total > 1);
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
    return exitStatus(results);
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

int runInvocation(const Invocation& invocation, std::ostream& out) {
    // The database commands but prune need no handle (and so load no plugin).
    if (invocation.command == Command::Db) {
        return runDb(invocation.dbAction, invocation.dbFiles, invocation.common, out);
    }
    Session session(invocation.common.device);
    std::vector<Job> jobs;
    std::vector<Result> preResults;
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
            for (auto& entry : parseBatchFile(invocation.batchFile, invocation.common)) {
                try {
                    jobs.push_back({makeProblem(entry.invocation.problem), entry.invocation.common});
                } catch (const ProblemError& error) {
                    preResults.push_back(problemError(
                        preResults.size(), entry.text,
                        invocation.batchFile + ":" + std::to_string(entry.line) + ": " + error.what()));
                }
            }
            break;
    }
    return runJobs(session, std::move(jobs), std::move(preResults), options, out);
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
