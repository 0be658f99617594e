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

/// Conversions every generated kernel may use (hdnn_h2f, hdnn_f2b, ...) and the vector accesses
/// hdnn_load<K, W, H> / hdnn_store<K, W, H> of W elements of kind K (0 float, 1 half, 2 bfloat16)
/// at an element offset that is a multiple of W, with cache hint H (an AccessHint, default 0);
/// hdnn_read_vec / hdnn_write_vec move the same elements as stored, in an hdnn_vec<K, W>.
std::string kernelPrelude(int computeCapability);

/// The cache hint H of a global access in hdnn_load / hdnn_store.
enum class AccessHint {
    Normal = 0,
    /// Evict first: data the kernel touches once, kept from pushing out of L2 what it reads again.
    Streaming = 1,
};

/// The kind K of `type` in hdnn_load / hdnn_store.
int elementKind(ElementType type);

/// A device function `name(hdnn_index e, float (&r)[width], p...)` that runs `program` on the
/// `width` elements at element offset `e` of one shared dense layout: its one inRegister operand
/// is r, every other operand a pointer parameter in operand order (single elements read at 0).
/// Its outputs are stored with `storeHint`. Needs kernelPrelude and an hdnn_index typedef before it.
std::optional<std::string> generatePointwiseFragment(const PointwiseProgram& program, const std::string& name,
                                                     int width, std::string& reason,
                                                     AccessHint storeHint = AccessHint::Normal);

}  // namespace hipdnn_cuda_kernels
