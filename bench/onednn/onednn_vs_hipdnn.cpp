// The benchmark problems through the whole hipdnn stack (backend C API -> plugin loader ->
// ONEDNN_ENGINE) and through oneDNN directly, timed in interleaved pairs so that both see the same
// machine state. Prints each side's median, the ratio direct/hipdnn (1.0 = no overhead; the goal
// is >= 0.98) and the largest difference between the two outputs.
// Usage: onednn_vs_hipdnn [runs=30] [warmup=5]   (HIPDNN_PLUGIN_DIR as usual; the default finds
// the plugins next to libhipdnn_backend.so)
#include "BenchProblems.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_test_sdk/BackendRun.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <cmath>
#include <cstdlib>
#include <map>

namespace {

using namespace onednn_bench;
namespace fb = hipdnn_flatbuffers_sdk::data_objects;

/// ONEDNN_ENGINE's plan for one graph (named by id, no heuristics), its workspace and a variant
/// pack built once: run() is one hipdnnBackendExecute, the call a framework repeats.
class HipdnnPlan {
public:
    HipdnnPlan(hipdnnHandle_t handle, const std::vector<uint8_t>& graph,
               const std::map<int64_t, void*>& pointers)
        : _plan(hipdnn_test_sdk::BackendGraph(handle, graph), hipdnn_data_sdk::utilities::ONEDNN_ENGINE_ID),
          _workspace(static_cast<size_t>(_plan.workspaceSize()) / sizeof(float) + 1),
          _pack(pointers, _workspace.data()) {}

    void run() const { _plan.execute(_pack); }

private:
    hipdnn_test_sdk::BackendPlan _plan;
    Floats _workspace;
    hipdnn_test_sdk::BackendVariantPack _pack;
};

std::vector<int64_t> nhwcStrides(int64_t n, int64_t c, int64_t h, int64_t w) {
    (void)n;
    return {h * w * c, 1, w * c, c};
}

std::vector<uint8_t> convGraph(const ConvProblem& p) {
    const auto F32 = fb::DataType::FLOAT;
    const std::vector<int64_t> x{p.n, p.c, p.h, p.w}, w{p.k, p.c, p.r, p.r}, y{p.n, p.k, p.outH(), p.outW()};
    const hipdnn_test_sdk::ConvolutionGeometry geometry{
        {p.pad(), p.pad()}, {p.pad(), p.pad()}, {p.stride, p.stride}, {1, 1}};
    hipdnn_test_sdk::GraphBuilder builder(p.name());
    builder.addTensor(1, "x", F32, x, nhwcStrides(p.n, p.c, p.h, p.w))
        .addTensor(2, "w", F32, w, nhwcStrides(p.k, p.c, p.r, p.r))
        .addTensor(3, "y", F32, y, nhwcStrides(y[0], y[1], y[2], y[3]), p.biasRelu);
    builder.addConvFprop("conv", 1, 2, 3, geometry);
    if (p.biasRelu) {
        builder.addTensor(4, "bias", F32, {1, p.k, 1, 1}, {p.k, 1, p.k, p.k})
            .addTensor(5, "biased", F32, y, nhwcStrides(y[0], y[1], y[2], y[3]), true)
            .addTensor(6, "out", F32, y, nhwcStrides(y[0], y[1], y[2], y[3]))
            .addPointwise("bias", fb::PointwiseMode::ADD, 3, 5, 4)
            .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 5, 6);
    }
    return builder.build();
}

float maxAbsDifference(const Floats& a, const Floats& b) {
    float worst = 0.0F;
    for (size_t i = 0; i < a.size(); ++i) {
        worst = std::max(worst, std::fabs(a[i] - b[i]));
    }
    return worst;
}

double median(std::vector<double> values) {
    std::nth_element(values.begin(), values.begin() + static_cast<long>(values.size() / 2), values.end());
    return values[values.size() / 2];
}

/// Times direct and hipdnn in pairs, swapping which goes first each pair so that neither always
/// inherits the other's cache state; prints both medians and the median of the pairs' ratios
/// direct/hipdnn (1.0 = the stack adds nothing).
void compare(const std::string& problem, double flops, const std::function<void()>& direct,
             const std::function<void()>& hipdnn, int warmup, int runs, float difference) {
    for (int i = 0; i < warmup; ++i) {
        direct();
        hipdnn();
    }
    std::vector<double> directMs, hipdnnMs, ratios;
    for (int i = 0; i < runs; ++i) {
        if (i % 2 == 0) {
            directMs.push_back(medianMs(direct, 0, 1));
            hipdnnMs.push_back(medianMs(hipdnn, 0, 1));
        } else {
            hipdnnMs.push_back(medianMs(hipdnn, 0, 1));
            directMs.push_back(medianMs(direct, 0, 1));
        }
        ratios.push_back(directMs.back() / hipdnnMs.back());
    }
    printLine(problem, "onednn_direct", median(directMs), flops);
    printLine(problem, "hipdnn_onednn_engine", median(hipdnnMs), flops);
    std::printf("%-48s ratio direct/hipdnn=%.3f (median of %d pairs)  max|diff|=%.3g\n", problem.c_str(),
                median(ratios), runs, difference);
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::atoi(argv[1]) : 30;
    const int warmup = argc > 2 ? std::atoi(argv[2]) : 5;
    try {
        const hipdnn_test_sdk::BackendHandle handle(HIPDNN_DEVICE_TYPE_CPU_EXT);
        const dnnl::engine engine(dnnl::engine::kind::cpu, 0);

        for (const ConvProblem& p : allConvProblems()) {
            const auto x = randomBuffer(static_cast<size_t>(p.n * p.c * p.h * p.w), 1);
            const auto w = randomBuffer(static_cast<size_t>(p.k * p.c * p.r * p.r), 2);
            const auto bias = randomBuffer(static_cast<size_t>(p.k), 3);
            const size_t outCount = static_cast<size_t>(p.n * p.k * p.outH() * p.outW());
            Floats yDirect(outCount), yHipdnn(outCount);
            DirectConv direct(engine, p, x.data(), w.data(), bias.data(), yDirect.data());
            std::map<int64_t, void*> pointers{{1, const_cast<float*>(x.data())},
                                              {2, const_cast<float*>(w.data())},
                                              {p.biasRelu ? 6 : 3, yHipdnn.data()}};
            if (p.biasRelu) {
                pointers[4] = const_cast<float*>(bias.data());
            }
            const HipdnnPlan plan(handle.get(), convGraph(p), pointers);
            direct.run();
            plan.run();
            compare(
                p.name(), p.flops(), [&] { direct.run(); }, [&] { plan.run(); }, warmup, runs,
                maxAbsDifference(yDirect, yHipdnn));
        }
        for (const MatmulProblem& p : matmulProblems()) {
            const auto a = randomBuffer(static_cast<size_t>(p.m * p.k), 1);
            const auto b = randomBuffer(static_cast<size_t>(p.k * p.n), 2);
            Floats cDirect(static_cast<size_t>(p.m * p.n)), cHipdnn(cDirect.size());
            DirectMatmul direct(engine, p, a.data(), b.data(), cDirect.data());
            const auto graph = hipdnn_test_sdk::GraphBuilder(p.name())
                                   .addTensor(1, "a", fb::DataType::FLOAT, {p.m, p.k})
                                   .addTensor(2, "b", fb::DataType::FLOAT, {p.k, p.n})
                                   .addTensor(3, "c", fb::DataType::FLOAT, {p.m, p.n})
                                   .addMatmul("mm", 1, 2, 3)
                                   .build();
            const HipdnnPlan plan(
                handle.get(), graph,
                {{1, const_cast<float*>(a.data())}, {2, const_cast<float*>(b.data())}, {3, cHipdnn.data()}});
            direct.run();
            plan.run();
            compare(
                p.name(), p.flops(), [&] { direct.run(); }, [&] { plan.run(); }, warmup, runs,
                maxAbsDifference(cDirect, cHipdnn));
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "onednn_vs_hipdnn: %s\n", error.what());
        return 1;
    }
    return 0;
}
