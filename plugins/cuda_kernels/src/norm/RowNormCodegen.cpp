// Layer norm and RMS norm: the forward row kernel, and backward's row pass and column finalize.
#include "NormGenerator.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace hipdnn_cuda_kernels::detail {

namespace {

// Rows of at most this many vectors per thread stay in registers.
constexpr int64_t kMaxVectorsPerThread = 16;
constexpr int kMaxThreadsPerRow = 1024;
// Row norm backward keeps x, dy and scale and the dscale and dbias sums of a thread's columns in
// registers: about this many elements of each per thread, and at most twice as many.
constexpr int kBackwardElementsPerThread = 16;
constexpr int kMaxBackwardElementsPerThread = 32;

}  // namespace

// The widest vector that divides a row.
int NormGenerator::rowWidth() const {
    int width = widestVector();
    while (_program.columns % width != 0) {
        width /= 2;
    }
    return width;
}

// Vectors of `width`; threads double until each holds at most `targetPerThread` vectors. False
// for rows that need more than `maxPerThread` per thread.
bool NormGenerator::rowShape(int width, int64_t targetPerThread, int64_t maxPerThread, RowShape& shape,
                             std::string& reason) const {
    const int64_t columns = _program.columns;
    shape.width = width;
    shape.vectors = columns / width;
    shape.threads = 32;
    while (shape.threads < kMaxThreadsPerRow && shape.threads * targetPerThread < shape.vectors) {
        shape.threads *= 2;
    }
    shape.perThread = (shape.vectors + shape.threads - 1) / shape.threads;
    if (shape.perThread > maxPerThread) {
        return decline(reason, "rows of " + std::to_string(columns) + " elements are longer than the " +
                                   std::to_string(maxPerThread * kMaxThreadsPerRow * shape.width) +
                                   " the engine keeps in registers");
    }
    shape.rowsPerBlock = std::max(1, static_cast<int>(kNormBlockSize) / shape.threads);
    return true;
}

// The row constants and hdnn_row_total, the sum over the kT threads of one row (consecutive
// lanes), returned to all of them.
void NormGenerator::emitRowCommon(const RowShape& shape) {
    _out << "constexpr hdnn_index kRows = " << _program.rows
         << ";\nconstexpr hdnn_index kCols = " << _program.columns
         << ";\nconstexpr hdnn_index kVecs = " << shape.vectors << ";\nconstexpr int kW = " << shape.width
         << ";\nconstexpr int kT = " << shape.threads << ";\nconstexpr int kR = " << shape.rowsPerBlock
         << ";\nconstexpr int kV = " << shape.perThread
         << ";\nconstexpr int kWarps = kT > 32 ? kT / 32 : 1;\n";
    _out << R"(__device__ __forceinline__ float hdnn_row_total(float v, float* partial) {
#pragma unroll
    for (int o = (kT < 32 ? kT : 32) / 2; o > 0; o /= 2) { v += __shfl_xor_sync(0xffffffffu, v, o); }
    if constexpr (kT > 32) {
        __syncthreads();
        if (threadIdx.x % 32 == 0) { partial[(threadIdx.x % kT) / 32] = v; }
        __syncthreads();
        v = 0.0f;
#pragma unroll
        for (int w = 0; w < kWarps; ++w) { v += partial[w]; }
    }
    return v;
}
)";
}

// Declares `array`[kV][kW] and loads this thread's vectors of operand `name` in row `row`
// into it (zeros past the row's end or for an inactive row), each line after `indent`.
std::string NormGenerator::rowLoad(const char* name, const char* array, const std::string& indent) const {
    const std::string a = array;
    return indent + "float " + a + "[kV][kW];\n#pragma unroll\n" + indent +
           "for (int k = 0; k < kV; ++k) {\n" + indent + "    const hdnn_index vi = lane + k * kT;\n" +
           indent + "    if (active && vi < kVecs) {\n" + indent + "        hdnn_load<" +
           kind(_program.operand(name)->type) + ", kW>(" + name + ", row * kCols + vi * kW, " + a +
           "[k]);\n" + indent + "    } else {\n#pragma unroll\n" + indent +
           "        for (int l = 0; l < kW; ++l) { " + a + "[k][l] = 0.0f; }\n" + indent + "    }\n" +
           indent + "}\n";
}

bool NormGenerator::rowNorm(std::string& reason) {
    RowShape shape;
    if (!rowShape(rowWidth(), 4, kMaxVectorsPerThread, shape, reason)) {
        return false;
    }
    const bool layernorm = _program.kind == NormKind::Layernorm;
    const char* statistic = layernorm ? "inv_variance" : "inv_rms";
    emitRowCommon(shape);
    bool ok = true;
    const std::string delivery = emitDelivery(shape.width, reason, ok);
    if (!ok) {
        return false;
    }
    _out << header(kRowNormKernel, static_cast<unsigned>(shape.threads * shape.rowsPerBlock))
         << R"(    __shared__ float hdnn_partial[kR][kWarps];
    const int lane = threadIdx.x % kT;
    const int slot = threadIdx.x / kT;
    const hdnn_index row = (hdnn_index)blockIdx.x * kR + slot;
    const bool active = row < kRows;
)" << rowLoad("x", "v", "    ");
    const std::string epsilon = scalar(_program.epsilon);
    if (layernorm) {
        _out << R"(    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kV; ++k) {
#pragma unroll
        for (int l = 0; l < kW; ++l) { sum += v[k][l]; }
    }
    const float hdnn_mu = hdnn_row_total(sum, hdnn_partial[slot]) / (float)kCols;
    float squares = 0.0f;
#pragma unroll
    for (int k = 0; k < kV; ++k) {
        if (lane + k * kT < kVecs) {
#pragma unroll
            for (int l = 0; l < kW; ++l) { const float d = v[k][l] - hdnn_mu; squares += d * d; }
        }
    }
)";
    } else {
        _out << R"(    const float hdnn_mu = 0.0f;
    float squares = 0.0f;
#pragma unroll
    for (int k = 0; k < kV; ++k) {
#pragma unroll
        for (int l = 0; l < kW; ++l) { squares += v[k][l] * v[k][l]; }
    }
)";
    }
    _out << "    const float hdnn_inv = 1.0f / sqrtf(hdnn_row_total(squares, hdnn_partial[slot]) / "
            "(float)kCols + "
         << epsilon << ");\n";
    _out << R"(#pragma unroll
    for (int k = 0; k < kV; ++k) {
        const hdnn_index vi = lane + k * kT;
        if (!active || vi >= kVecs) { continue; }
        const hdnn_index e = row * kCols + vi * kW;
        float s[kW];
        hdnn_load<)"
         << kind(_program.operand("scale")->type) << ", kW>(scale, vi * kW, s);\n        float b[kW];\n";
    if (has("bias")) {
        _out << "        hdnn_load<" << kind(_program.operand("bias")->type) << ", kW>(bias, vi * kW, b);\n";
    } else {
        _out << "#pragma unroll\n        for (int l = 0; l < kW; ++l) { b[l] = 0.0f; }\n";
    }
    _out << R"(        float out[kW];
#pragma unroll
        for (int l = 0; l < kW; ++l) { out[l] = (v[k][l] - hdnn_mu) * hdnn_inv * s[l] + b[l]; }
        )"
         << delivery << "\n    }\n";
    if (layernorm && has("mean")) {
        _out << "    if (active && lane == 0) { mean[row * " << _program.operand("mean")->stride
             << "] = hdnn_from_float<" << kind(_program.operand("mean")->type) << ">(hdnn_mu); }\n";
    }
    if (has(statistic)) {
        const NormOperand* stat = _program.operand(statistic);
        _out << "    if (active && lane == 0) { " << statistic << "[row * " << stat->stride
             << "] = hdnn_from_float<" << kind(stat->type) << ">(hdnn_inv); }\n";
    }
    _out << "}\n";
    _result.kernelNames = {kRowNormKernel};
    _result.vectorWidth = shape.width;
    _result.launches.push_back(
        {kRowNormKernel, static_cast<unsigned>((_program.rows + shape.rowsPerBlock - 1) / shape.rowsPerBlock),
         static_cast<unsigned>(shape.threads * shape.rowsPerBlock), NormGrid::Fixed});
    return true;
}

// One pass over the rows with a block per part of the grid (as many as are resident): each
// row of x and dy is read once into registers, reduced (RMS norm: for dy · scale · x; layer
// norm: for dy · scale and dy · scale · (x - mean)), and dx written;
// the thread's columns are the same in every row, so their dscale and dbias terms add up in
// registers, and each block leaves one partial row of each in the workspace. A second kernel
// sums the parts per column.
bool NormGenerator::rowNormBackward(std::string& reason) {
    RowShape shape;
    const int width = rowWidth();
    if (!rowShape(width, kBackwardElementsPerThread / width, kMaxBackwardElementsPerThread / width, shape,
                  reason)) {
        return false;
    }
    const bool dbias = has("dbias");
    emitRowCommon(shape);
    // Slots combine pairwise through shared memory (kR is a power of two), so the order of the
    // sums is fixed.
    _out << R"(__device__ __forceinline__ void hdnn_write_part(float (&part)[kV][kW], float* out) {
    __shared__ float hdnn_upper[kR > 1 ? kR / 2 * kCols : 1];
    const int lane = threadIdx.x % kT;
    const int slot = threadIdx.x / kT;
#pragma unroll
    for (int half = kR / 2; half > 0; half /= 2) {
        __syncthreads();
        if (slot >= half && slot < 2 * half) {
#pragma unroll
            for (int k = 0; k < kV; ++k) {
                const hdnn_index vi = lane + k * kT;
                if (vi < kVecs) {
#pragma unroll
                    for (int l = 0; l < kW; ++l) { hdnn_upper[(slot - half) * kCols + vi * kW + l] = part[k][l]; }
                }
            }
        }
        __syncthreads();
        if (slot < half) {
#pragma unroll
            for (int k = 0; k < kV; ++k) {
                const hdnn_index vi = lane + k * kT;
                if (vi < kVecs) {
#pragma unroll
                    for (int l = 0; l < kW; ++l) { part[k][l] += hdnn_upper[slot * kCols + vi * kW + l]; }
                }
            }
        }
    }
    if (slot != 0) { return; }
#pragma unroll
    for (int k = 0; k < kV; ++k) {
        const hdnn_index vi = lane + k * kT;
        if (vi < kVecs) {
#pragma unroll
            for (int l = 0; l < kW; ++l) { out[vi * kW + l] = part[k][l]; }
        }
    }
}
)";
    _out << header(kRowNormBackwardKernel, static_cast<unsigned>(shape.threads * shape.rowsPerBlock))
         << R"(    __shared__ float hdnn_partial[kR][kWarps];
    const int lane = threadIdx.x % kT;
    const int slot = threadIdx.x / kT;
    // The scale of this thread's columns, and their dscale (and dbias) terms summed over its rows.
    float s[kV][kW], hdnn_dscale[kV][kW];
)" << (dbias ? "    float hdnn_dbias[kV][kW];\n" : "")
         << R"(#pragma unroll
    for (int k = 0; k < kV; ++k) {
        const hdnn_index vi = lane + k * kT;
        if (vi < kVecs) {
            hdnn_load<)"
         << kind(_program.operand("scale")->type) << R"(, kW>(scale, vi * kW, s[k]);
        } else {
#pragma unroll
            for (int l = 0; l < kW; ++l) { s[k][l] = 0.0f; }
        }
#pragma unroll
        for (int l = 0; l < kW; ++l) { hdnn_dscale[k][l] = 0.0f;)"
         << (dbias ? " hdnn_dbias[k][l] = 0.0f;" : "") << R"( }
    }
    for (hdnn_index first = (hdnn_index)blockIdx.x * kR; first < kRows; first += (hdnn_index)gridDim.x * kR) {
        const hdnn_index row = first + slot;
        const bool active = row < kRows;
)" << rowLoad("x", "v", "        ")
         << rowLoad("dy", "g", "        ") << rowBackwardCorrection() << R"(#pragma unroll
        for (int k = 0; k < kV; ++k) {
            const hdnn_index vi = lane + k * kT;
            if (!active || vi >= kVecs) { continue; }
            float out[kW];
#pragma unroll
            for (int l = 0; l < kW; ++l) {
)" << rowBackwardElement()
         << (dbias ? "\n                hdnn_dbias[k][l] += g[k][l];" : "") << R"(
            }
            hdnn_store<)"
         << kind(_program.yType) << R"(, kW>(y, row * kCols + vi * kW, out);
        }
    }
    hdnn_write_part(hdnn_dscale, hdnn_ws + (hdnn_index)blockIdx.x * kCols);
)"
         << (dbias ? "    hdnn_write_part(hdnn_dbias, hdnn_ws + (hdnn_index)(gridDim.x + blockIdx.x) * "
                     "kCols);\n"
                   : "")
         << "}\n";
    emitRowFinalize(dbias);
    _result.vectorWidth = shape.width;
    _result.maxParts = static_cast<unsigned>(std::clamp<int64_t>(
        (_program.rows + shape.rowsPerBlock - 1) / shape.rowsPerBlock, 1,
        static_cast<int64_t>(std::max(1, _device.multiprocessorCount)) * kMaxStatsBlocksPerMultiprocessor));
    _result.workspaceBytes = static_cast<size_t>(dbias ? 2 : 1) * _result.maxParts *
                             static_cast<size_t>(_program.columns) * sizeof(float);
    _result.kernelNames = {kRowNormBackwardKernel, kRowNormFinalizeKernel};
    _result.launches.push_back({kRowNormBackwardKernel, 1,
                                static_cast<unsigned>(shape.threads * shape.rowsPerBlock),
                                NormGrid::PerPart});
    _result.launches.push_back({kRowNormFinalizeKernel, static_cast<unsigned>((_program.columns + 31) / 32),
                                kNormBlockSize, NormGrid::Fixed});
    return true;
}

// The row's statistics (r: inv_rms or inv_variance) and the row reductions dx needs, from this
// thread's x (v), dy (g) and scale (s); zeros past the row's end add nothing.
std::string NormGenerator::rowBackwardCorrection() const {
    if (_program.kind == NormKind::RmsNormBackward) {
        return "        const float r = active ? " +
               read("inv_rms", "row * " + std::to_string(_program.operand("inv_rms")->stride)) +
               R"( : 0.0f;
        float projection = 0.0f;
#pragma unroll
        for (int k = 0; k < kV; ++k) {
#pragma unroll
            for (int l = 0; l < kW; ++l) { projection += g[k][l] * s[k][l] * v[k][l]; }
        }
        const float hdnn_correction = r * r * hdnn_row_total(projection, hdnn_partial[slot]) / (float)kCols;
)";
    }
    // Layer norm: dx = r * (g s - mean(g s) - xhat * mean(g s xhat)), xhat = (x - mu) r.
    return "        const float r = active ? " +
           read("inv_variance", "row * " + std::to_string(_program.operand("inv_variance")->stride)) +
           " : 0.0f;\n        const float mu = active ? " +
           read("mean", "row * " + std::to_string(_program.operand("mean")->stride)) + R"( : 0.0f;
        float gradient = 0.0f, projection = 0.0f;
#pragma unroll
        for (int k = 0; k < kV; ++k) {
#pragma unroll
            for (int l = 0; l < kW; ++l) {
                const float gs = g[k][l] * s[k][l];
                gradient += gs;
                projection += gs * (v[k][l] - mu);
            }
        }
        const float hdnn_gradient_mean = hdnn_row_total(gradient, hdnn_partial[slot]) / (float)kCols;
        const float hdnn_projection_mean = r * hdnn_row_total(projection, hdnn_partial[slot]) / (float)kCols;
)";
}

// dx's element l of vector k and its dscale term.
std::string NormGenerator::rowBackwardElement() const {
    if (_program.kind == NormKind::RmsNormBackward) {
        return R"(                out[l] = r * (g[k][l] * s[k][l] - v[k][l] * hdnn_correction);
                hdnn_dscale[k][l] += g[k][l] * v[k][l] * r;)";
    }
    return R"(                const float xhat = (v[k][l] - mu) * r;
                out[l] = r * (g[k][l] * s[k][l] - hdnn_gradient_mean - xhat * hdnn_projection_mean);
                hdnn_dscale[k][l] += g[k][l] * xhat;)";
}

// A block per 32 columns: its warps sum every eighth part of their column, then warp 0 adds
// the warps' sums and writes dscale (and dbias).
void NormGenerator::emitRowFinalize(bool dbias) {
    _out << "constexpr int kFinalizeWarps = " << kNormBlockSize / 32 << ";\n"
         << header(kRowNormFinalizeKernel, kNormBlockSize)
         << R"(    __shared__ float hdnn_sums[2][kFinalizeWarps][32];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const hdnn_index c = (hdnn_index)blockIdx.x * 32 + lane;
    float ds = 0.0f, db = 0.0f;
    if (c < kCols) {
#pragma unroll 4
        for (unsigned p = (unsigned)warp; p < hdnn_parts; p += kFinalizeWarps) {
            ds += hdnn_ws[(hdnn_index)p * kCols + c];)"
         << (dbias ? "\n            db += hdnn_ws[(hdnn_index)(hdnn_parts + p) * kCols + c];" : "") << R"(
        }
    }
    hdnn_sums[0][warp][lane] = ds;
    hdnn_sums[1][warp][lane] = db;
    __syncthreads();
    if (warp != 0 || c >= kCols) { return; }
    ds = 0.0f;
    db = 0.0f;
#pragma unroll
    for (int w = 0; w < kFinalizeWarps; ++w) { ds += hdnn_sums[0][w][lane]; db += hdnn_sums[1][w][lane]; }
    dscale[c] = hdnn_from_float<)"
         << kind(_program.operand("dscale")->type) << ">(ds);\n";
    if (dbias) {
        _out << "    dbias[c] = hdnn_from_float<" << kind(_program.operand("dbias")->type) << ">(db);\n";
    }
    _out << "}\n";
}

}  // namespace hipdnn_cuda_kernels::detail
