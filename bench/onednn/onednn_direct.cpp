// oneDNN called directly (no hipdnn stack) on the benchmark problems: ResNet-50 conv layers at
// N=4, plain and fused with bias + ReLU, and matmuls, fp32 NHWC. One line per problem and variant:
//   onednn_direct          reorders + convolution (the work a hipdnn execute does)
//   onednn_direct_cached   convolution only, its inputs already in oneDNN's layouts
// Usage: onednn_direct [runs=30] [warmup=5]
#include "BenchProblems.hpp"

#include <cstdlib>

int main(int argc, char** argv) {
    using namespace onednn_bench;
    const int runs = argc > 1 ? std::atoi(argv[1]) : 30;
    const int warmup = argc > 2 ? std::atoi(argv[2]) : 5;
    const dnnl::engine engine(dnnl::engine::kind::cpu, 0);

    for (const ConvProblem& p : allConvProblems()) {
        const auto x = randomBuffer(static_cast<size_t>(p.n * p.c * p.h * p.w), 1);
        const auto w = randomBuffer(static_cast<size_t>(p.k * p.c * p.r * p.r), 2);
        const auto bias = randomBuffer(static_cast<size_t>(p.k), 3);
        Floats y(static_cast<size_t>(p.n * p.k * p.outH() * p.outW()));
        DirectConv conv(engine, p, x.data(), w.data(), bias.data(), y.data());
        printLine(p.name(), "onednn_direct", medianMs([&] { conv.run(); }, warmup, runs), p.flops());
        printLine(p.name(), "onednn_direct_cached", medianMs([&] { conv.runComputeOnly(); }, warmup, runs),
                  p.flops());
    }
    for (const MatmulProblem& p : matmulProblems()) {
        const auto a = randomBuffer(static_cast<size_t>(p.m * p.k), 1);
        const auto b = randomBuffer(static_cast<size_t>(p.k * p.n), 2);
        Floats c(static_cast<size_t>(p.m * p.n));
        DirectMatmul matmul(engine, p, a.data(), b.data(), c.data());
        printLine(p.name(), "onednn_direct", medianMs([&] { matmul.run(); }, warmup, runs), p.flops());
    }
    return 0;
}
