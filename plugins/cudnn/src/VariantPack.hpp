// What a plan binds at execute — user device tensors, workspace-resident tensors, pass-by-value
// scalars — and the variant-pack arrays built from it, shared by the execution context and the
// plan benchmark so both lay out the workspace the same way.
#pragma once

#include "CudnnDescriptor.hpp"
#include "CudnnGraphSpec.hpp"

#include <cstdint>
#include <vector>

namespace hipdnn_cudnn_plugin {

// Uids named cudnnUid are CudnnGraphSpec::cudnnUid's, what the variant pack gives cuDNN; `uid`
// is the graph's, what the caller's buffers are looked up by.

/// A user tensor in device memory.
struct DeviceTensor {
    int64_t uid = 0;
    int64_t cudnnUid = 0;
};

/// A pass-by-value scalar as cuDNN reads it from host memory: FLOAT or INT32, four bytes.
struct HostScalar {
    int64_t cudnnUid = 0;
    cudnnDataType_t type = CUDNN_DATA_FLOAT;
    double value = 0;

    /// The four bytes cuDNN reads.
    uint32_t bits() const;
};

/// A tensor the graph needs that lives in the workspace at `offset` bytes.
struct WorkspaceTensor {
    int64_t cudnnUid = 0;
    int64_t offset = 0;
};

/// A device output execute sets to zero before cuDNN runs: `bytes` from its data pointer.
struct ZeroedOutput {
    int64_t uid = 0;
    int64_t bytes = 0;
};

/// The tensors a plan reads and writes.
struct PlanBindings {
    std::vector<DeviceTensor> deviceTensors;
    std::vector<WorkspaceTensor> workspaceTensors;
    std::vector<HostScalar> scalars;
    std::vector<ZeroedOutput> zeroedOutputs;
    /// Bytes of the workspace the workspace-resident tensors take before cuDNN's plan workspace.
    int64_t internalWorkspaceBytes = 0;

    /// The non-virtual tensors the spec's operations use, in uid order.
    static PlanBindings fromSpec(const CudnnGraphSpec& spec);
};

/// The variant pack's uid and pointer arrays for one PlanBindings: device tensors first, then the
/// workspace-resident tensors, then the scalars (pointing at values this object owns).
class VariantPackArrays {
public:
    explicit VariantPackArrays(const PlanBindings& bindings);
    VariantPackArrays(const VariantPackArrays&) = delete;
    VariantPackArrays& operator=(const VariantPackArrays&) = delete;

    /// Binds device tensor `index` (the bindings' deviceTensors order); true when it changed.
    bool setDevice(size_t index, void* pointer);
    /// Binds the whole workspace: the resident tensors sit at its start, cuDNN's part after them;
    /// true when it changed.
    bool setWorkspace(void* workspace);

    CudnnDescriptor makePack() const;

    /// The arrays makePack passes to cuDNN (for tests and diagnostics).
    const std::vector<int64_t>& uids() const noexcept { return _uids; }
    const std::vector<void*>& pointers() const noexcept { return _pointers; }

private:
    std::vector<int64_t> _uids;
    std::vector<void*> _pointers;
    std::vector<uint32_t> _scalarBits;
    std::vector<int64_t> _workspaceOffsets;
    int64_t _internalWorkspaceBytes = 0;
    size_t _deviceCount = 0;
    void* _workspace = nullptr;
    bool _workspaceSet = false;
};

}  // namespace hipdnn_cudnn_plugin
