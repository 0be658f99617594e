// Runs problems: picks the engines, builds one plan per engine through the frontend, validates
// against CPU_REFERENCE_ENGINE on a CPU handle and times.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "Options.hpp"
#include "Problem.hpp"
#include "Progress.hpp"
#include "Report.hpp"
#include "Session.hpp"

namespace hipdnn_driver {

// One problem with the options it runs under (batch lines may override the command line's).
struct Job {
    Problem problem;
    CommonOptions options;
    // Left out, with a note naming the declining engines' reasons, when no engine takes it.
    bool optional = false;
};

// The engines a job runs on, decided before anything runs so that progress knows the total.
struct JobPlan {
    size_t index = 0;
    Job job;
    std::vector<std::string> engines;  // to run, in order
    bool heuristicsChoice = false;     // engines is the heuristics' first choice alone
    std::vector<Result> notRun;        // declined (UNIMPLEMENTED) or unknown (ERROR) engines
};

// On CPU_REFERENCE_ENGINE, performance mode stops adding timed runs once their total would pass
// this budget (the validation run counts as the first sample): the reference is exact and slow.
constexpr double kReferenceTimeBudgetMs = 2000.0;

class Runner {
public:
    Runner(Session& session, std::ostream& out);

    JobPlan plan(size_t index, Job job);
    // Runs the plan; prints each result as it completes and returns them (not-run ones included).
    std::vector<Result> run(const JobPlan& plan, Progress& progress, size_t& position, size_t total);

    // The reproducer: "hipdnn-driver <problem words> --engine NAME [--device ..] [--seed ..] ...".
    static std::string reproducer(const Job& job, const std::string& engine);

private:
    Session& session_;
    std::ostream& out_;
};

}  // namespace hipdnn_driver
