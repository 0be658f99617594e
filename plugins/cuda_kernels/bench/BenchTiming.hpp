// How the cuda_kernels benchmarks time GPU work: a warm-up, then the median over repeats of
// CUDA-event-timed batches, per call.
#pragma once

#include <hipdnn_test_sdk/DeviceTensor.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

namespace cuda_kernels_bench {

inline constexpr int kWarmup = 10;
inline constexpr int kRepeats = 15;
inline constexpr int kBatch = 20;

/// Median milliseconds of one `step` (which queues its work on the current device's legacy
/// default stream).
template <class Step>
double medianMs(const Step& step) {
    using hipdnn_test_sdk::checkCuda;
    for (int i = 0; i < kWarmup; ++i) {
        step();
    }
    cudaEvent_t begin = nullptr;
    cudaEvent_t end = nullptr;
    checkCuda(cudaEventCreate(&begin), "cudaEventCreate");
    checkCuda(cudaEventCreate(&end), "cudaEventCreate");
    std::vector<double> times;
    for (int repeat = 0; repeat < kRepeats; ++repeat) {
        checkCuda(cudaEventRecord(begin), "cudaEventRecord");
        for (int i = 0; i < kBatch; ++i) {
            step();
        }
        checkCuda(cudaEventRecord(end), "cudaEventRecord");
        checkCuda(cudaEventSynchronize(end), "cudaEventSynchronize");
        float ms = 0;
        checkCuda(cudaEventElapsedTime(&ms, begin, end), "cudaEventElapsedTime");
        times.push_back(ms / kBatch);
    }
    cudaEventDestroy(begin);
    cudaEventDestroy(end);
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

}  // namespace cuda_kernels_bench
