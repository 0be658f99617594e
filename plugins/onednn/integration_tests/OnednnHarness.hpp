// Runs serialized graphs through the onednn plugin's exported C API and through the test SDK's
// CPU graph executor, and compares every output.
#pragma once

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace onednn_test {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_test_sdk::GraphBuilder;

/// Packed strides of `dims` in NCHW-style (channels second) or channels-last order, any rank >= 3.
std::vector<int64_t> layoutStrides(const std::vector<int64_t>& dims, bool channelsLast);

/// What the plugin said about a graph.
struct Applicability {
    bool applicable = false;
    std::string reasons;  // the last-error text: one "<engine>: <reason>" line per decliner
};

/// The plugin's answer as it is: status, engine ids and the last-error text.
struct RawApplicability {
    hipdnnPluginStatus_t status = HIPDNN_PLUGIN_STATUS_SUCCESS;
    std::vector<int64_t> engineIds;
    std::string message;
};

/// The plugin loaded with dlopen, one plugin handle for the whole test program.
class OnednnPlugin {
public:
    static OnednnPlugin& instance();

    Applicability applicability(const std::vector<uint8_t>& graph);

    /// hipdnnEnginePluginGetApplicableEngineIds for graphs that may be refused outright.
    RawApplicability rawApplicability(const std::vector<uint8_t>& graph);

    /// Builds an execution context and runs it once over `buffers` (uid -> host pointer).
    /// Fails the current test (and returns false) on any plugin error.
    bool execute(const std::vector<uint8_t>& graph, const std::map<int64_t, void*>& buffers);

private:
    OnednnPlugin();
    void* _library = nullptr;
    void* _handle = nullptr;
    // Resolved once at load: the C API of the plugin.
    std::string lastError() const;
    decltype(&hipdnnPluginGetLastErrorString) _lastError = nullptr;
    decltype(&hipdnnEnginePluginGetApplicableEngineIds) _applicable = nullptr;
    decltype(&hipdnnEnginePluginCreateExecutionContext) _createContext = nullptr;
    decltype(&hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext) _workspaceSize = nullptr;
    decltype(&hipdnnEnginePluginExecuteOpGraph) _execute = nullptr;
    decltype(&hipdnnEnginePluginDestroyExecutionContext) _destroyContext = nullptr;
};

/// Whether oneDNN runs bf16 primitives on this CPU (AVX-512 BF16 or AMX; oneDNN 2.6 has no
/// bf16 implementations elsewhere).
bool cpuHasBf16();

/// Pointwise parameter sets (the test SDK's options with one family of fields set).
hipdnn_test_sdk::PointwiseOptions reluClip(float lower, float upper);
hipdnn_test_sdk::PointwiseOptions leakyRelu(float slope);
hipdnn_test_sdk::PointwiseOptions swish(float beta);
hipdnn_test_sdk::PointwiseOptions elu(float alpha);

/// Input value ranges per uid (default [-1, 1]).
using Ranges = std::map<int64_t, std::pair<float, float>>;

/// Random inputs from HIPDNN_GLOBAL_TEST_SEED, the graph run through both engines, every output
/// compared with the tolerance of `op`, widened for sums of `reductionTerms` products of inputs in
/// [-1, 1] when that is longer than the fixed table allows for. Fails the current test on any
/// mismatch.
void expectMatchesReference(const GraphBuilder& builder, hipdnn_test_sdk::ToleranceOp op,
                            const Ranges& ranges = {}, int64_t reductionTerms = 0);

/// The same with the tolerance given (e.g. attentionTolerance).
void expectMatchesReference(const GraphBuilder& builder, const hipdnn_test_sdk::Tolerance& tolerance,
                            const Ranges& ranges = {});

}  // namespace onednn_test
