// Runs a graph through the backend C API twice — on a GPU handle with one of this plugin's
// engines named explicitly (device buffers) and on a CPU handle (CPU_REFERENCE_ENGINE) — and
// compares every output with the test SDK's tolerance for the operation and its data type.
#pragma once

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cuda_kernels_integration {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_test_sdk::GraphBuilder;

struct RunOptions {
    /// Input value ranges by uid; default [-1, 1]. Values are seeded from HIPDNN_GLOBAL_TEST_SEED.
    std::map<int64_t, std::pair<double, double>> ranges;
    /// Input values by uid, one per stored element in storage order, replacing the random ones
    /// (sequence lengths, a dropout seed, the forward results a backward graph reads).
    std::map<int64_t, std::vector<double>> values;
    /// Device pointers one element past an allocation's start, so that 16-byte vector accesses
    /// are impossible and the engine must run its scalar kernel.
    bool misalign = false;
    int64_t engineId = hipdnn_data_sdk::utilities::CUDA_POINTWISE_ENGINE_ID;
    hipdnn_test_sdk::ToleranceOp tolerance = hipdnn_test_sdk::ToleranceOp::Pointwise;
    /// Terms of the longest reduction behind an output (a norm's row or channel); > 0 widens the
    /// tolerance for it (reductionTolerance), 0 keeps the fixed one.
    int64_t reductionTerms = 0;
    /// Replaces the tolerance `tolerance` and `reductionTerms` give, where set.
    std::optional<hipdnn_test_sdk::Tolerance> bounds;
    /// Knob settings of the engine configuration (knob id -> value); the others keep their defaults.
    std::map<std::string, int64_t> knobs;
    /// Where set, a failure to build the plan is stored here (and nothing runs) instead of failing.
    std::string* planError = nullptr;
    /// After the run, the plan is serialized, rebuilt from its bytes and run again on the same
    /// inputs: it must ask for the same workspace, and every output must be bit-identical to the
    /// first run's.
    bool roundTripSerialization = false;
    /// The graph the CPU reference runs, where it differs from the engine's only by inputs the
    /// reference does not take (peer_stats); null: the engine's graph.
    const GraphBuilder* referenceGraph = nullptr;
    /// Attaches a one-GPU NCCL communicator (hipdnnCreateCommunicators_ext) to the GPU handle
    /// before the plan is built; it stays attached for the tests after.
    bool communicator = false;
};

/// The kernel cache directory of this process: a fresh temporary directory, set as
/// HIPDNN_CACHE_DIR (with HIPDNN_DISABLE_CACHE unset) before the plugin first reads them and
/// removed at exit, so that the tests neither use nor fill the user's cache.
const std::filesystem::path& kernelCacheDirectory();

/// Makes this plugin and the CPU reference the backend's plugins (once per process), for tests that
/// create their own handles.
void useThisPluginAndTheReference();

/// Every tensor in memory of `builder` after the CPU reference ran it, by uid: the inputs
/// expectMatchesReference makes from `options` and the outputs, one value per stored element.
std::map<int64_t, std::vector<double>> referenceTensors(const GraphBuilder& builder,
                                                        const RunOptions& options = {});

/// Fails the current test when an output differs from the CPU reference beyond tolerance, or when
/// the engine fails to plan or run the graph.
void expectMatchesReference(const GraphBuilder& builder, const RunOptions& options = {});

}  // namespace cuda_kernels_integration
