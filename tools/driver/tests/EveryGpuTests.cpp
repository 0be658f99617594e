#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "EveryGpu.hpp"

namespace hipdnn_driver {
namespace {

Result timed(const std::string& problem, const std::string& engine, double medianMs, double flops,
             double bytes) {
    Result result;
    result.problem = problem;
    result.engine = engine;
    result.status = Status::Passed;
    result.timing = TimingStats{};
    result.timing->medianMs = medianMs;
    result.flops = flops;
    result.bytes = bytes;
    return result;
}

TEST(EveryGpuSummary, PerGpuThroughputAndTheirTotal) {
    // 2e12 flops in 10 ms = 200 TFLOP/s; in 20 ms = 100 TFLOP/s.
    const std::vector<std::vector<Result>> byGpu = {{timed("matmul 4096", "CUBLASLT_ENGINE", 10.0, 2e12, 0)},
                                                    {timed("matmul 4096", "CUBLASLT_ENGINE", 20.0, 2e12, 0)}};
    std::ostringstream out;
    printEveryGpuSummary(out, byGpu);
    EXPECT_NE(out.str().find("2 GPUs"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("matmul 4096 CUBLASLT_ENGINE: GPU 0 200.0 TFLOP/s, GPU 1 100.0 TFLOP/s; total "
                             "300.0 TFLOP/s"),
              std::string::npos)
        << out.str();
}

TEST(EveryGpuSummary, BandwidthProblemsAreInGigabytesAndAFailedGpuAddsNothing) {
    Result failed = timed("norm", "CUDA_NORM_ENGINE", 1.0, 0, 4e9);
    failed.status = Status::Failed;
    failed.timing.reset();
    const std::vector<std::vector<Result>> byGpu = {{timed("norm", "CUDA_NORM_ENGINE", 1.0, 0, 4e9)},
                                                    {failed}};
    std::ostringstream out;
    printEveryGpuSummary(out, byGpu);
    EXPECT_NE(out.str().find("norm CUDA_NORM_ENGINE: GPU 0 4000.0 GB/s, GPU 1 FAILED; total 4000.0 GB/s"),
              std::string::npos)
        << out.str();
}

TEST(EveryGpuSummary, RowsWithoutAnyTimingAreLeftOut) {
    Result declined = timed("conv", "X", 1.0, 1e9, 0);
    declined.status = Status::Unimplemented;
    declined.timing.reset();
    std::ostringstream out;
    printEveryGpuSummary(out, {{declined}, {declined}});
    EXPECT_EQ(out.str().find("conv X"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace hipdnn_driver
