#include "Runner.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <ostream>
#include <sstream>
#include <unordered_map>

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_frontend.hpp>
#include <hipdnn_test_sdk/Seed.hpp>

#include "Ceilings.hpp"
#include "DeviceBuffers.hpp"
#include "Dump.hpp"
#include "GraphMetrics.hpp"
#include "Inputs.hpp"
#include "Timing.hpp"
#include "Validation.hpp"

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;
using hipdnn_flatbuffers_sdk::GraphWrapper;

namespace {

const std::string kReferenceEngine = hipdnn_data_sdk::utilities::CPU_REFERENCE_ENGINE_NAME;

// A plan that could not be built; `declined` when the engine does not take the graph.
struct PlanFailure {
    bool declined = false;
    std::string message;
};

// A failure while running a built plan.
struct RunFailure {
    std::string message;
};

std::string describe(const fe::Error& error) {
    return std::string(fe::to_string(error.get_code())) + ": " + error.get_message();
}

std::vector<fe::KnobSetting> parseKnobs(const std::vector<std::string>& knobs) {
    std::vector<fe::KnobSetting> settings;
    for (const auto& knob : knobs) {
        const auto equals = knob.find('=');
        fe::KnobSetting setting{knob.substr(0, equals), int64_t{0}};
        const std::string value = knob.substr(equals + 1);
        // The knob's published type decides; a value that reads fully as an integer or a number is
        // given as one, anything else as a string.
        size_t used = 0;
        try {
            const int64_t number = std::stoll(value, &used);
            if (used == value.size()) {
                setting.value = number;
                settings.push_back(setting);
                continue;
            }
            const double real = std::stod(value, &used);
            if (used == value.size()) {
                setting.value = real;
                settings.push_back(setting);
                continue;
            }
        } catch (const std::exception&) {
            // not a number: a string value
        }
        setting.value = value;
        settings.push_back(setting);
    }
    return settings;
}

// Whether a knob lets the engine round fp32 operands to TF32 (cuDNN's cudnn.allow_tf32=1): the
// floor of fp32 math is then the TF32 peak.
bool allowsTf32(const std::vector<std::string>& knobs) {
    return std::any_of(knobs.begin(), knobs.end(), [](const std::string& knob) {
        const auto equals = knob.find('=');
        return equals != std::string::npos && knob.substr(0, equals).ends_with("allow_tf32") &&
               knob.substr(equals + 1) == "1";
    });
}

// The plan of `engine` with `knobs`; with no engine named, the heuristics' first choice (with the
// knob settings of its tuning record, when the database has one).
std::unique_ptr<fe::graph::Graph> buildPlan(hipdnnHandle_t handle, const std::vector<uint8_t>& bytes,
                                            const std::string& engine,
                                            const std::vector<std::string>& knobs) {
    auto graph = std::make_unique<fe::graph::Graph>();
    fe::Error error = graph->deserialize(handle, bytes);
    if (error.is_bad()) {
        throw PlanFailure{false, "graph: " + describe(error)};
    }
    error = engine.empty() ? graph->create_execution_plans({fe::HeuristicMode::FALLBACK})
                           : graph->create_execution_plan_ext(engine, parseKnobs(knobs));
    if (error.is_good()) {
        error = graph->check_support();
    }
    if (error.is_good()) {
        error = graph->build_plans();
    }
    if (error.is_bad()) {
        throw PlanFailure{error.get_code() == fe::ErrorCode::GRAPH_NOT_SUPPORTED, describe(error)};
    }
    return graph;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

struct ReferenceRun {
    std::vector<HostTensor> outputs;
    double milliseconds = 0.0;
};

// One execution on CPU_REFERENCE_ENGINE on the CPU handle; the error text when it cannot run.
std::optional<ReferenceRun> runReference(hipdnnHandle_t cpuHandle, const std::vector<uint8_t>& bytes,
                                         const std::vector<HostTensor>& inputs,
                                         const std::vector<HostTensor>& emptyOutputs, std::string& error) {
    try {
        auto graph = buildPlan(cpuHandle, bytes, kReferenceEngine, {});
        Bindings bindings = bind(false, inputs, emptyOutputs);
        DeviceBuffer workspace(false, static_cast<size_t>(graph->get_workspace_size()));
        const auto start = std::chrono::steady_clock::now();
        const fe::Error status = graph->execute(cpuHandle, bindings.variantPack, workspace.data());
        const double elapsed = millisecondsSince(start);
        if (status.is_bad()) {
            error = "execution: " + describe(status);
            return std::nullopt;
        }
        return ReferenceRun{download(bindings, emptyOutputs), elapsed};
    } catch (const PlanFailure& failure) {
        error = failure.message;
    } catch (const std::exception& failure) {
        error = failure.what();
    }
    return std::nullopt;
}

bool wantsCorrectness(RunMode mode) {
    return mode != RunMode::Performance;
}

bool wantsPerformance(RunMode mode) {
    return mode != RunMode::Correctness;
}

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    std::istringstream stream(text);
    for (std::string item; std::getline(stream, item, ',');) {
        if (!item.empty()) {
            items.push_back(item);
        }
    }
    return items;
}

}  // namespace

Runner::Runner(Session& session, std::ostream& out) : session_(session), out_(out) {}

std::string Runner::reproducer(const Job& job, const std::string& engine) {
    std::string command = "hipdnn-driver";
    for (const auto& word : job.problem.commandWords) {
        command += " " + (word.find_first_of(" \t\"'") == std::string::npos ? word : "'" + word + "'");
    }
    const auto& options = job.options;
    command += " --engine " + engine;
    if (!options.device.empty()) {
        command += " --device " + options.device;
    }
    if (options.seed) {
        command += " --seed " + std::to_string(*options.seed);
    }
    if (options.run != RunMode::Both) {
        command += options.run == RunMode::Correctness ? " --run correctness" : " --run performance";
    }
    for (const auto& knob : options.knobs) {
        command += " --knob " + knob;
    }
    return command;
}

JobPlan Runner::plan(size_t index, Job job) {
    JobPlan plan;
    plan.index = index;
    plan.job = std::move(job);
    const auto& options = plan.job.options;
    auto notRun = [&](const std::string& engine, Status status, const std::string& message) {
        Result result;
        result.problemIndex = index;
        result.problem = plan.job.problem.label;
        result.engine = engine;
        result.status = status;
        result.message = message;
        result.command = reproducer(plan.job, engine);
        plan.notRun.push_back(result);
    };

    // The heuristics say which engines apply (ranked) and why the others declined.
    fe::graph::Graph probe;
    fe::Error error = probe.deserialize(session_.handle(), plan.job.problem.graph);
    if (error.is_bad()) {
        notRun("-", Status::Error, "graph: " + describe(error));
        return plan;
    }
    error = probe.create_execution_plans({fe::HeuristicMode::FALLBACK});
    std::vector<std::string> applicable;
    for (int64_t i = 0; error.is_good() && i < probe.get_execution_plan_count(); ++i) {
        std::string name;
        if (probe.get_plan_name_at_index(i, name).is_good()) {
            applicable.push_back(name);
        }
    }
    const auto& declined = probe.get_declined_engines();
    auto declineReason = [&](const std::string& engine) -> std::optional<std::string> {
        for (const auto& entry : declined) {
            if (entry.engine_name == engine) {
                return entry.reason;
            }
        }
        return std::nullopt;
    };

    if (options.engine.empty()) {
        if (!applicable.empty()) {
            plan.engines.push_back(applicable.front());
            plan.heuristicsChoice = true;
        } else {
            notRun("-", Status::Unimplemented,
                   "no engine of " + session_.deviceDescription() + " takes the graph:\n" +
                       fe::detail::formatDeclinedEngines(declined));
        }
    } else if (options.engine == "all") {
        plan.engines = applicable;
        for (const auto& entry : declined) {
            notRun(entry.engine_name, Status::Unimplemented, entry.reason);
        }
        if (applicable.empty() && declined.empty()) {
            notRun("-", Status::Unimplemented, "no engine is loaded for " + session_.deviceDescription());
        }
    } else {
        for (const auto& engine : splitList(options.engine)) {
            if (std::find(applicable.begin(), applicable.end(), engine) != applicable.end()) {
                plan.engines.push_back(engine);
            } else if (const auto reason = declineReason(engine)) {
                notRun(engine, Status::Unimplemented, *reason);
            } else {
                notRun(engine, Status::Error,
                       "no engine named " + engine + " is loaded for " + session_.deviceDescription() +
                           " (hipdnn-driver list shows the engines)");
            }
        }
    }
    return plan;
}

std::vector<Result> Runner::run(const JobPlan& plan, Progress& progress, size_t& position, size_t total) {
    const Job& job = plan.job;
    const auto& options = job.options;
    const bool onGpu = session_.isGpu();
    std::vector<Result> results;
    auto emit = [&](Result result) {
        progress.clear();
        printResultLine(out_, result, ++position, total, options.verbose);
        out_.flush();
        results.push_back(std::move(result));
    };
    if (plan.engines.empty()) {
        for (const auto& result : plan.notRun) {
            emit(result);
        }
        return results;
    }

    const GraphWrapper graph(job.problem.graph.data(), job.problem.graph.size());
    const double flops = graphFlops(graph);
    const auto flopsByMath = graphFlopsByMath(graph, allowsTf32(options.knobs));
    const double bytes = graphBytes(graph);
    const uint32_t seed = options.seed.value_or(hipdnn_test_sdk::globalTestSeed());
    std::vector<HostTensor> inputs;
    try {
        inputs =
            job.problem.inputsDir ? readInputs(graph, *job.problem.inputsDir) : makeRandomInputs(graph, seed);
    } catch (const std::exception& error) {
        Result result;
        result.problemIndex = plan.index;
        result.problem = job.problem.label;
        result.engine = "-";
        result.message = std::string("inputs: ") + error.what();
        result.command = reproducer(job, "all");
        emit(result);
        return results;
    }
    const std::vector<HostTensor> emptyOutputs = makeOutputs(graph);
    const std::optional<Ceilings> ceilings =
        wantsPerformance(options.run) ? std::optional<Ceilings>(session_.ceilings()) : std::nullopt;

    std::optional<ReferenceRun> reference;
    std::string referenceError;
    if (wantsCorrectness(options.run)) {
        progress.start(position + 1, job.problem.label + " on " + kReferenceEngine + " (reference)");
        reference =
            runReference(session_.referenceHandle(), job.problem.graph, inputs, emptyOutputs, referenceError);
    }

    for (const auto& engine : plan.engines) {
        progress.start(position + 1, job.problem.label + " on " + engine);
        Result result;
        result.problemIndex = plan.index;
        result.problem = job.problem.label;
        result.engine = engine;
        result.flops = flops;
        result.bytes = bytes;
        result.command = reproducer(job, engine);
        // On a CPU device the reference's own run is the validation run.
        const bool isReference = engine == kReferenceEngine && !onGpu;
        try {
            const bool heuristicsChoice = plan.heuristicsChoice && options.knobs.empty();
            auto built = buildPlan(session_.handle(), job.problem.graph, heuristicsChoice ? "" : engine,
                                   options.knobs);
            Bindings bindings = bind(onGpu, inputs, emptyOutputs);
            DeviceBuffer workspace(onGpu, static_cast<size_t>(built->get_workspace_size()));
            auto execute = [&] {
                const fe::Error status =
                    built->execute(session_.handle(), bindings.variantPack, workspace.data());
                if (status.is_bad()) {
                    throw RunFailure{"execution: " + describe(status)};
                }
            };
            std::vector<double> samples;
            std::optional<std::vector<HostTensor>> produced;
            if (wantsCorrectness(options.run)) {
                if (isReference && reference) {
                    produced = reference->outputs;
                    samples.push_back(reference->milliseconds);
                } else {
                    const auto start = std::chrono::steady_clock::now();
                    execute();
                    produced = download(bindings, emptyOutputs);
                    samples.push_back(millisecondsSince(start));
                }
                if (!reference) {
                    result.status = Status::Error;
                    result.message = "cannot validate: " + kReferenceEngine + " failed: " + referenceError;
                } else {
                    const ValidationResult validation = validateOutputs(graph, reference->outputs, *produced);
                    result.maxAbsError = validation.maxAbsError;
                    result.status = validation.passed ? Status::Passed : Status::Failed;
                    result.message = validation.failure + validation.toleranceDescription;
                }
            }
            if (wantsPerformance(options.run)) {
                if (isReference) {
                    // Bounded: the validation run (or one run) first, then as many more as fit the budget.
                    if (samples.empty()) {
                        const auto start = std::chrono::steady_clock::now();
                        execute();
                        samples.push_back(millisecondsSince(start));
                    }
                    const int more =
                        runsWithinBudget(samples.front(), options.iterations - 1, kReferenceTimeBudgetMs);
                    if (more > 0) {
                        const auto extra = timeRuns(false, 0, more, execute);
                        samples.insert(samples.end(), extra.begin(), extra.end());
                    }
                } else {
                    samples = timeRuns(onGpu, options.warmup, options.iterations, execute);
                }
                result.timing = summarize(samples);
                result.floorMs = floorMilliseconds(*ceilings, flopsByMath, bytes);
                if (!wantsCorrectness(options.run)) {
                    result.status = Status::Timed;
                }
            }
            if (!options.dumpDir.empty()) {
                if (!produced) {
                    produced = download(bindings, emptyOutputs);
                }
                dumpCase(dumpDirectory(options.dumpDir, plan.index, job.problem.label, engine),
                         job.problem.graph, inputs, *produced);
            }
        } catch (const PlanFailure& failure) {
            result.status = failure.declined ? Status::Unimplemented : Status::Error;
            result.message = failure.message;
        } catch (const RunFailure& failure) {
            result.status = Status::Error;
            result.message = failure.message;
        } catch (const std::exception& failure) {
            result.status = Status::Error;
            result.message = failure.what();
        }
        emit(std::move(result));
    }
    for (const auto& result : plan.notRun) {
        emit(result);
    }

    // Speed-up over the reference: its own timing when it was among the engines, else the
    // validation run's time.
    std::optional<double> referenceMs;
    for (const auto& result : results) {
        if (result.engine == kReferenceEngine && result.timing) {
            referenceMs = result.timing->medianMs;
        }
    }
    if (!referenceMs && reference) {
        referenceMs = reference->milliseconds;
    }
    for (auto& result : results) {
        if (referenceMs && result.timing && result.timing->medianMs > 0.0) {
            result.speedupOverReference = *referenceMs / result.timing->medianMs;
        }
    }
    return results;
}

}  // namespace hipdnn_driver
