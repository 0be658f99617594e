// Runs one generated graph through the CPU reference engine and through every engine of the
// device that accepts it, and compares every output with the test SDK's tolerances.
#pragma once

#include "Execute.hpp"
#include "Problem.hpp"

#include <hipdnn_test_sdk/BackendRun.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

namespace hipdnn_differential {

struct Statistics {
    int64_t generated = 0;
    /// Graphs the backend or the reference engine refused: the generator made an invalid graph.
    int64_t refused = 0;
    int64_t comparisons = 0;
    int64_t disagreements = 0;
    /// An engine that accepted a graph and then failed to plan or execute it.
    int64_t failures = 0;
    std::map<std::string, int64_t> runs;
    std::map<std::string, int64_t> declines;
};

enum class Device { Cpu, Gpu };

/// Thrown by Runner::run when an engine's failure left the process's CUDA context unusable: no
/// later graph of the process can run, so the run stops instead of failing each of them.
class GpuContextLost : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Runner {
public:
    /// `printGraphs`: every graph is printed as JSON before it runs (for `hipdnn-driver graph`).
    Runner(Device device, bool printGraphs);

    /// `reproduce` is the command line that regenerates this graph alone; `random` draws the
    /// input values.
    void run(const Problem& problem, Random& random, const std::string& reproduce, Statistics& statistics);

private:
    hipdnn_test_sdk::BackendHandle _cpu;
    std::optional<hipdnn_test_sdk::BackendHandle> _gpu;
    Executor _execute;
    bool _printGraphs;
};

}  // namespace hipdnn_differential
