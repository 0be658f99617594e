#include "Timing.hpp"

#include <algorithm>
#include <chrono>

#include "DeviceBuffers.hpp"

#ifdef HIPDNN_DRIVER_WITH_CUDA
#include <cuda_runtime.h>
#endif

namespace hipdnn_driver {

TimingStats summarize(std::vector<double> samplesMs) {
    TimingStats stats;
    if (samplesMs.empty()) {
        return stats;
    }
    std::sort(samplesMs.begin(), samplesMs.end());
    const size_t count = samplesMs.size();
    stats.iterations = static_cast<int>(count);
    stats.minMs = samplesMs.front();
    stats.maxMs = samplesMs.back();
    stats.medianMs =
        count % 2 == 1 ? samplesMs[count / 2] : 0.5 * (samplesMs[count / 2 - 1] + samplesMs[count / 2]);
    return stats;
}

int runsWithinBudget(double firstRunMs, int wanted, double budgetMs) {
    const double each = std::max(firstRunMs, 1e-3);
    return std::max(0, std::min(wanted, static_cast<int>((budgetMs - each) / each)));
}

std::vector<double> timeRuns(bool onGpu, int warmup, int iterations, const std::function<void()>& run) {
    for (int i = 0; i < warmup; ++i) {
        run();
    }
    synchronizeDevice(onGpu);
    std::vector<double> samples;
    samples.reserve(static_cast<size_t>(iterations));
#ifdef HIPDNN_DRIVER_WITH_CUDA
    if (onGpu) {
        // One event pair per run, all recorded before any is read so the GPU is never idle
        // waiting for the host between runs.
        std::vector<cudaEvent_t> events(2 * static_cast<size_t>(iterations));
        for (auto& event : events) {
            cudaEventCreate(&event);
        }
        for (int i = 0; i < iterations; ++i) {
            cudaEventRecord(events[2 * i]);
            run();
            cudaEventRecord(events[2 * i + 1]);
        }
        cudaEventSynchronize(events.back());
        for (int i = 0; i < iterations; ++i) {
            float milliseconds = 0.0F;
            cudaEventElapsedTime(&milliseconds, events[2 * i], events[2 * i + 1]);
            samples.push_back(milliseconds);
        }
        for (auto& event : events) {
            cudaEventDestroy(event);
        }
        return samples;
    }
#endif
    for (int i = 0; i < iterations; ++i) {
        const auto start = std::chrono::steady_clock::now();
        run();
        samples.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return samples;
}

}  // namespace hipdnn_driver
