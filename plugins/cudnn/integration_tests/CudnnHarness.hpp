// Runs a graph through the backend C API twice — on a GPU handle (the cuDNN plugin, device
// buffers) and on a CPU handle (CPU_REFERENCE_ENGINE) — and compares every output with the test
// SDK's tolerances. Engine-configuration tests (knobs, serialization) drive the plugin's own C
// API, loaded from the same file the backend loads.
#pragma once

#include <hipdnn_backend.h>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudnn_integration {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_test_sdk::GraphBuilder;

/// Packed strides of `dims` (rank >= 3) channels-first (NC...) or channels-last (N...C).
std::vector<int64_t> layoutStrides(const std::vector<int64_t>& dims, bool channelsLast);

/// Host bytes of one tensor of any element type.
struct HostTensor {
    fb::DataType type = fb::DataType::FLOAT;
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
    std::vector<std::byte> bytes;
};

/// Host tensors of every non-virtual, non-scalar tensor of a graph: inputs uniform random in
/// their range (default [-1, 1], seeded from HIPDNN_GLOBAL_TEST_SEED), outputs zero.
using Ranges = std::map<int64_t, std::pair<double, double>>;
std::map<int64_t, HostTensor> makeHostTensors(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                              const Ranges& ranges = {});

struct RunOptions {
    /// Run on this GPU engine (CUDNN_ENGINE when unset: the first ranked cuDNN configuration).
    std::optional<int64_t> engineId;
    Ranges ranges;
    /// cuDNN may have no engine for the graph (e.g. pointwise-only graphs in some layouts): then
    /// the test asserts that both cuDNN engines declined with cuDNN's reason instead.
    bool mayBeDeclined = false;
    /// Terms each output element sums (conv: C*R*S, K*R*S or N*P*Q; matmul: K): the tolerance
    /// widens with the length of the reduction (test SDK's reductionTolerance; inputs in [-1, 1]).
    int64_t reductionTerms = 0;
    /// Replaces the tolerance of `op` for every output (attention's, which widens with its
    /// sequence lengths).
    std::optional<hipdnn_test_sdk::Tolerance> tolerance;
};

/// The backend handles: one GPU handle and one CPU handle, with only the cuDNN and CPU
/// reference plugins loaded.
class Backend {
public:
    static Backend& instance();
    hipdnnHandle_t gpu() const { return _gpu; }
    hipdnnHandle_t cpu() const { return _cpu; }

    /// Plans the graph on `handle` (the first ranked engine: a preferred engine travels in the
    /// graph) and executes it on `pointers` (uid -> buffer on the handle's device). Returns "" or
    /// the failing call and the backend's last error. GPU runs are synchronised before returning.
    std::string run(hipdnnHandle_t handle, const std::vector<uint8_t>& graph,
                    const std::map<int64_t, void*>& pointers, bool onDevice);

    /// The engines the heuristics rank for the graph on the GPU handle, and the declined engines'
    /// reasons ("<engine>\t<plugin>\t<reason>\n" lines).
    std::pair<std::vector<int64_t>, std::string> gpuHeuristics(const std::vector<uint8_t>& graph);

private:
    Backend();
    hipdnnHandle_t _gpu = nullptr;
    hipdnnHandle_t _cpu = nullptr;
};

/// Outputs of the graph computed on the GPU (cuDNN) and the CPU reference, compared with the
/// tolerance of `op` for each output's data type. Fails the current test on any mismatch.
void expectMatchesReference(const GraphBuilder& builder, hipdnn_test_sdk::ToleranceOp op,
                            const RunOptions& options = {});

/// expectMatchesReference on given host tensors (every non-virtual tensor of the graph), for
/// inputs that must be consistent with each other.
void expectMatchesReferenceOn(const GraphBuilder& builder, std::map<int64_t, HostTensor> tensors,
                              hipdnn_test_sdk::ToleranceOp op, const RunOptions& options = {});

/// Reference outputs (CPU) for host tensors; used by the plugin-API tests.
void runReference(const std::vector<uint8_t>& graph, std::map<int64_t, HostTensor>& tensors);

/// Runs `graph` through the cuDNN plugin's C API with `tensors` copied to the device, outputs
/// copied back. Fails the current test on any plugin error.
struct PluginRun {
    std::vector<int64_t> knobIds;                           // from the engine details
    std::vector<std::pair<std::string, int64_t>> intKnobs;  // settings for the configuration
    std::vector<std::pair<std::string, std::string>> stringKnobs;
    /// When set, a failing CreateExecutionContext stores the plugin's error here (and nothing
    /// runs) instead of failing the test.
    std::string* createError = nullptr;
    bool roundTripSerialization = false;  // run a context rebuilt from its bytes
    /// When set: after the first execute, two more on the same buffers (the plugin replays the
    /// plan as a CUDA graph from the second), then these tensors are uploaded over the same
    /// buffers (outputs included) and one last execute runs; `tensors` receives its outputs.
    const std::map<int64_t, HostTensor>* replayInputs = nullptr;
};
void runThroughPlugin(const std::vector<uint8_t>& graph, std::map<int64_t, HostTensor>& tensors,
                      const PluginRun& run);

/// The cuDNN plugin's engine details knobs for the graph: (id, int default, int valid values).
struct KnobSummary {
    std::string id;
    std::vector<int64_t> validValues;
};
std::vector<KnobSummary> pluginKnobs(const std::vector<uint8_t>& graph, int64_t engineId);

/// Compares every output of the graph (tolerance of `op`).
void expectOutputsClose(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                        const std::map<int64_t, HostTensor>& expected,
                        const std::map<int64_t, HostTensor>& actual, hipdnn_test_sdk::ToleranceOp op,
                        int64_t reductionTerms = 0,
                        const std::optional<hipdnn_test_sdk::Tolerance>& tolerance = std::nullopt);

}  // namespace cudnn_integration
