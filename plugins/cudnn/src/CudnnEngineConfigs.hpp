// cuDNN's engine configurations for an operation graph: heuristics queries, engine knob
// information and engine configurations with chosen knob values.
#pragma once

#include "CudnnDescriptor.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace hipdnn_cudnn_plugin {

struct KnobChoice {
    int64_t type = 0;  // cudnnBackendKnobType_t
    int64_t value = 0;

    auto operator<=>(const KnobChoice&) const = default;
};

/// One configuration returned by cuDNN's heuristics.
struct EngineConfigCandidate {
    int64_t globalIndex = 0;
    bool nondeterministic = false;  // CUDNN_NUMERICAL_NOTE_NONDETERMINISTIC among its notes
    /// TENSOR_CORE or DOWN_CONVERT_INPUTS: with fp32 operands the engine computes in TF32.
    bool reducedPrecisionForFloat = false;
    std::vector<KnobChoice> knobChoices;
    std::shared_ptr<CudnnDescriptor> config;  // the finalized ENGINECFG descriptor
};

struct KnobInfo {
    int64_t type = 0;
    int64_t minimum = 0;
    int64_t maximum = 0;
    int64_t stride = 1;
};

/// The configurations heuristics `mode` ranks for the finalized operation graph, best first.
/// Configurations cuDNN returns but cannot describe are skipped.
std::vector<EngineConfigCandidate> queryHeuristics(const CudnnDescriptor& operationGraph,
                                                   cudnnBackendHeurMode_t mode);

/// Every engine of cuDNN's global index range that supports the graph, with default knobs, in
/// index order (heuristics may leave some out).
std::vector<EngineConfigCandidate> enumerateEngines(const CudnnDescriptor& operationGraph);

/// The tunable knobs of engine `globalIndex` for the operation graph.
std::vector<KnobInfo> queryKnobInfos(const CudnnDescriptor& operationGraph, int64_t globalIndex);

/// A finalized ENGINECFG: engine `globalIndex` with `choices` (throws CudnnError when cuDNN
/// refuses a value).
CudnnDescriptor makeEngineConfig(const CudnnDescriptor& operationGraph, int64_t globalIndex,
                                 const std::vector<KnobChoice>& choices);

/// A finalized VARIANT_PACK binding `pointers[i]` to tensor `uids[i]` (throws CudnnError).
CudnnDescriptor makeVariantPack(const std::vector<int64_t>& uids, const std::vector<void*>& pointers,
                                void* workspace);

/// A finalized execution plan and what execute needs from it.
class CudnnPlan {
public:
    /// Builds the plan for a finalized engine configuration (throws CudnnError).
    CudnnPlan(cudnnHandle_t handle, const CudnnDescriptor& engineConfig);
    /// Rebuilds a plan from cuDNN's JSON representation of it (throws CudnnError).
    CudnnPlan(cudnnHandle_t handle, const std::string& json);

    cudnnBackendDescriptor_t get() const noexcept { return _plan.get(); }
    int64_t workspaceSize() const noexcept { return _workspaceSize; }
    /// CUDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION (throws CudnnError where unsupported).
    std::string json() const;

private:
    void setHandle(cudnnHandle_t handle);
    CudnnDescriptor _plan{CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR};
    int64_t _workspaceSize = 0;
};

}  // namespace hipdnn_cudnn_plugin
