// Timing of repeated executions: CUDA events around each run on the GPU (the handle's default
// stream), the steady clock on the CPU (CPU engines execute synchronously).
#pragma once

#include <functional>
#include <vector>

namespace hipdnn_driver {

struct TimingStats {
    int iterations = 0;
    double medianMs = 0.0;
    double minMs = 0.0;
    double maxMs = 0.0;
};

TimingStats summarize(std::vector<double> samplesMs);

// How many more runs, up to `wanted`, fit in `budgetMs` after a first run that took `firstRunMs`
// (a slow engine such as CPU_REFERENCE_ENGINE is timed within a budget).
int runsWithinBudget(double firstRunMs, int wanted, double budgetMs);

// Runs `run` `warmup` times untimed, then `iterations` times timed; one sample per run, in ms.
std::vector<double> timeRuns(bool onGpu, int warmup, int iterations, const std::function<void()>& run);

}  // namespace hipdnn_driver
