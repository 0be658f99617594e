// CUDA C++ source of CUDA_NORM_ENGINE's kernels for one NormProgram, for NVRTC. Row norms (layer
// norm, RMS norm) run one kernel: a group of threads per row keeps the row in registers, reduces
// it and writes y. RMS and layer norm backward run the same row pass over dy and x, writing dx and
// per-block column sums of the dscale and dbias terms into the workspace, then a kernel that
// sums those per column. Batch norm inference runs one streaming kernel with the per-channel
// coefficients in registers or shared memory; training and backward add a statistics pass
// (per-block partial sums into the workspace) and a per-channel finalize before the same
// streaming kernel; synchronized batch norm (peer_stats) splits the finalize around a sum of the
// per-channel moments across GPUs. Training's streaming pass walks x backwards, so that the part of x the
// statistics pass left in L2 is read from there. Channels-last training on one GPU runs all three
// passes in one cooperative kernel instead, keeping part of x in shared memory between them.
// Pooling runs one kernel of a thread per output element.
#pragma once

#include "../DeviceInfo.hpp"
#include "NormProgram.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

inline constexpr const char* kRowNormKernel = "hipdnn_row_norm";
inline constexpr const char* kRowNormBackwardKernel = "hipdnn_row_norm_bwd";
inline constexpr const char* kRowNormFinalizeKernel = "hipdnn_row_norm_finalize";
inline constexpr const char* kBatchnormApplyKernel = "hipdnn_bn_apply";
inline constexpr const char* kBatchnormStatsKernel = "hipdnn_bn_stats";
inline constexpr const char* kBatchnormFinalizeKernel = "hipdnn_bn_finalize";
inline constexpr const char* kBatchnormMomentsKernel = "hipdnn_bn_moments";
inline constexpr const char* kBatchnormPersistentKernel = "hipdnn_bn_train_persistent";
inline constexpr const char* kPoolingKernel = "hipdnn_pool";
inline constexpr unsigned kNormBlockSize = 256;

/// How a launch's grid is sized at run time.
enum class NormGrid {
    Fixed,     // gridSize blocks
    Resident,  // a grid-stride kernel: gridSize blocks at most, no more than are resident at once
    PerPart,   // the statistics pass: gridSize blocks per part (NormSource::maxParts at most)
};

/// One launch: a kernel of the source, its grid and block. Every kernel takes the operands'
/// pointers, then the workspace and the number of statistics parts.
struct NormLaunch {
    std::string kernel;
    unsigned gridSize = 1;
    unsigned blockSize = kNormBlockSize;
    NormGrid grid = NormGrid::Fixed;
    unsigned sharedBytes = 0;  // dynamic shared memory per block
    bool cooperative = false;  // every block resident at once (the kernel has grid-wide barriers)
};

/// Bytes of the workspace.
struct NormWorkspaceRange {
    size_t offsetBytes = 0;
    size_t bytes = 0;
};

/// A sum across the GPUs of the handle's communicator, in place, between two launches: the
/// synchronized batch norm's per-channel counts and sums.
struct NormAllReduce {
    size_t afterLaunches = 0;  // runs once this many launches are queued
    size_t offsetBytes = 0;    // into the workspace
    size_t doubles = 0;
};

struct NormSource {
    std::string source;
    std::vector<std::string> kernelNames;
    std::vector<NormLaunch> launches;  // in order, all with the same arguments
    std::optional<NormAllReduce> allReduce;
    std::optional<NormWorkspaceRange> zeroed;  // set to zero before the first launch
    size_t workspaceBytes = 0;
    unsigned maxParts = 0;  // statistics parts the workspace holds
    int vectorWidth = 1;
    /// Operands accessed `vectorWidth` elements at a time: their pointers must be aligned to
    /// that many elements (else the width-1 source runs).
    std::vector<std::string> vectorOperands;
};

/// How channels-last batch norm training runs (CUDA_NORM_ENGINE's knob cuda_norm.bn_training_kernel).
/// Keeping x in shared memory saves reading it again, but leaves the L1 cache less room for loads
/// in flight; which wins depends on the GPU.
enum class TrainingKernel {
    KeepAll,       // one cooperative kernel keeping as much of x in registers and shared memory as fits
    KeepHalf,      // one cooperative kernel keeping x in at most half the shared memory
    KeepNone,      // one cooperative kernel reading x twice
    ThreeKernels,  // statistics, finalize and streaming kernels
};

struct NormOptions {
    TrainingKernel trainingKernel = TrainingKernel::KeepAll;
};

/// The source for `device`, or nullopt with `reason` naming what it cannot generate. `scalar`
/// generates vectors of one element, for pointers that are not aligned to wider ones.
std::optional<NormSource> generateNormSource(const NormProgram& program, const DeviceInfo& device,
                                             bool scalar, std::string& reason,
                                             const NormOptions& options = {});

}  // namespace hipdnn_cuda_kernels
