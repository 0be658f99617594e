// CUDA C++ source of the one kernel that runs a PointwiseProgram, for NVRTC. The source needs no
// header: half and bfloat16 travel as unsigned short and convert with inline PTX.
#pragma once

#include "PointwiseProgram.hpp"

#include <optional>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels {

inline constexpr const char* kPointwiseScalarKernel = "hipdnn_pointwise_scalar";
inline constexpr const char* kPointwiseVectorKernel = "hipdnn_pointwise_vector";
inline constexpr unsigned kPointwiseBlockSize = 256;

struct PointwiseSource {
    std::string source;
    /// Elements per thread and iteration of the vector kernel (16-byte accesses of the widest
    /// type); 0 when the program is not contiguous and only the scalar kernel exists.
    int vectorWidth = 0;
    std::vector<std::string> kernelNames;
};

/// The source for sm_<computeCapability>, or nullopt with `reason` naming a mode it cannot generate.
std::optional<PointwiseSource> generatePointwiseSource(const PointwiseProgram& program, int computeCapability,
                                                       std::string& reason);

}  // namespace hipdnn_cuda_kernels
