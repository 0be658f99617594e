#include "NormCodegen.hpp"

#include "../pointwise/PointwiseCodegen.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <sstream>

namespace hipdnn_cuda_kernels {

namespace {

constexpr const char* kEpilogueFunction = "hdnn_epilogue";
// Rows of at most this many vectors per thread stay in registers.
constexpr int64_t kMaxVectorsPerThread = 16;
constexpr int kMaxThreadsPerRow = 1024;
// Row norm backward keeps x, dy and scale and the dscale and dbias sums of a thread's columns in
// registers: about this many elements of each per thread, and at most twice as many.
constexpr int kBackwardElementsPerThread = 16;
constexpr int kMaxBackwardElementsPerThread = 32;
// Channels whose coefficients (mean, scale, bias: three floats each) fit in static shared memory.
constexpr int64_t kMaxSharedChannels = 2048;
// At most this many statistics blocks per multiprocessor (the workspace holds their partial sums);
// at run time as many as are resident at once, so the pass is one wave.
constexpr int kMaxStatsBlocksPerMultiprocessor = 8;
// Loads each statistics thread issues before it accumulates them, and vectors each streaming
// thread loads before it computes.
constexpr int kStatsBatch = 4;
constexpr int kApplyUnroll = 2;
// Threads per block of the synchronized finalize: one per channel.
constexpr unsigned kSynchronizedFinalizeBlock = 128;
// The persistent training kernel: one block of this many threads per multiprocessor, loading this
// many vectors per thread before it computes; shared memory it leaves unused.
constexpr unsigned kPersistentBlockSize = 512;
constexpr int kPersistentBatch = 8;
constexpr int64_t kPersistentSharedReserve = 1024;
// Iterations of x the persistent kernel holds in registers (four 32-bit registers a vector, of
// the 128 a thread has at 512 threads per multiprocessor), when its vectors are 16 bytes.
constexpr int64_t kPersistentHeld = 12;
constexpr int64_t kPersistentHeldVectorBytes = 16;

std::string floatLiteral(double value) {
    char text[32];
    std::snprintf(text, sizeof(text), "__int_as_float(0x%08x)",
                  std::bit_cast<uint32_t>(static_cast<float>(value)));
    return text;
}

std::string storage(ElementType type) {
    return type == ElementType::Float ? "float" : "unsigned short";
}

std::string kind(ElementType type) {
    return std::to_string(elementKind(type));
}

class NormGenerator {
public:
    NormGenerator(const NormProgram& program, const DeviceInfo& device, bool scalar,
                  const NormOptions& options)
        : _program(program), _device(device), _scalar(scalar), _options(options) {}

    std::optional<NormSource> run(std::string& reason) {
        const bool pooling = _program.kind == NormKind::Pooling;
        _out << "// hipDNN "
             << (pooling                                        ? "pooling"
                 : _program.kind == NormKind::RmsNormBackward   ? "RMS norm backward"
                 : _program.kind == NormKind::LayernormBackward ? "layer norm backward"
                 : _program.isRowNorm()                         ? "row norm"
                                                                : "batch norm")
             << " kernels, " << _program.elementCount << " elements\n"
             << kernelPrelude(_device.computeCapability) << "typedef "
             << (indexLimit() < (int64_t{1} << 31) ? "unsigned int" : "unsigned long long")
             << " hdnn_index;\n";
        const bool generated = pooling                        ? poolingForward(reason)
                               : _program.isRowNormBackward() ? rowNormBackward(reason)
                               : _program.isRowNorm()         ? rowNorm(reason)
                                                              : batchnorm(reason);
        if (!generated) {
            return std::nullopt;
        }
        _result.source = _out.str();
        _result.vectorOperands = vectorOperands();
        return std::move(_result);
    }

private:
    static bool decline(std::string& reason, std::string why) {
        reason = std::move(why);
        return false;
    }

    // One past the largest element offset or index the kernels compute.
    int64_t indexLimit() const {
        if (_program.isRowNormBackward()) {
            // The workspace's partial rows: at most one of dscale and one of dbias per row of x.
            return 2 * _program.elementCount;
        }
        if (!_program.pooling) {
            return _program.elementCount;
        }
        int64_t xLimit = 1;
        for (size_t d = 0; d < _program.pooling->xDims.size(); ++d) {
            xLimit += (_program.pooling->xDims[d] - 1) * _program.pooling->xStrides[d];
        }
        return std::max(_program.elementCount, xLimit);
    }

    // The widest element of the tensors read and written per element sets the vector width; a
    // virtual y (an epilogue's register operand) is not in memory and does not count.
    int widestVector() const { return _scalar ? 1 : static_cast<int>(16 / widestElement()); }

    size_t widestElement() const {
        size_t widest = elementSize(_program.operand("x")->type);
        if (_program.storesY) {
            widest = std::max(widest, elementSize(_program.yType));
        }
        if (const NormOperand* dy = _program.operand("dy")) {
            widest = std::max(widest, elementSize(dy->type));
        }
        if (_program.epilogue) {
            for (const MemoryOperand& operand : _program.epilogue->operands) {
                if (!operand.isSingleElement && !operand.inRegister) {
                    widest = std::max(widest, elementSize(operand.type));
                }
            }
        }
        return widest;
    }

    std::string parameters() const {
        std::string text;
        for (const NormOperand& operand : _program.operands) {
            text += std::string(operand.isOutput ? "" : "const ") + storage(operand.type) +
                    "* __restrict__ " + operand.name + ", ";
        }
        return text + "float* __restrict__ hdnn_ws, unsigned hdnn_parts";
    }

    std::string header(const char* name, unsigned blockSize) const {
        return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(blockSize) + ") " + name +
               "(" + parameters() + ") {\n";
    }

    bool has(const char* name) const { return _program.operand(name) != nullptr; }

    // The float value of one-element operand `name`'s element `index`.
    std::string read(const char* name, const std::string& index) const {
        const NormOperand* operand = _program.operand(name);
        return "hdnn_to_float<" + kind(operand->type) + ">(" + name + "[" + index + "])";
    }

    std::string scalar(const NormScalar& value) const {
        if (value.constant) {
            return floatLiteral(*value.constant);
        }
        return read(value.operand->c_str(), "0");
    }

    // Emits the epilogue fragment (when there is one) and returns the statements that deliver
    // `out[kW]` at element offset `e`: y's store, then the epilogue on y's value; every store
    // with `storeHint`.
    std::string emitDelivery(int width, std::string& reason, bool& ok,
                             AccessHint storeHint = AccessHint::Normal) {
        std::string delivery;
        if (_program.storesY) {
            delivery += "hdnn_store<" + kind(_program.yType) + ", kW, " +
                        std::to_string(static_cast<int>(storeHint)) + ">(y, e, out); ";
        }
        if (!_program.epilogue) {
            return delivery;
        }
        const auto fragment =
            generatePointwiseFragment(*_program.epilogue, kEpilogueFunction, width, reason, storeHint);
        if (!fragment) {
            ok = false;
            return {};
        }
        _out << *fragment;
        if (_program.yType != ElementType::Float) {
            // y as the graph declares it: the epilogue reads the rounded value.
            delivery += "for (int l = 0; l < kW; ++l) { out[l] = hdnn_to_float<" + kind(_program.yType) +
                        ">(hdnn_from_float<" + kind(_program.yType) + ">(out[l])); } ";
        }
        delivery += std::string(kEpilogueFunction) + "(e, out";
        for (const std::string& argument : _program.epilogueArguments) {
            delivery += ", " + argument;
        }
        return delivery + ");";
    }

    // A row of x as a group of `threads` (a power of two from 32 to 1024) holding `perThread`
    // vectors of `width` elements each, `rowsPerBlock` groups to a block.
    struct RowShape {
        int width = 1;
        int64_t vectors = 0;
        int threads = 32;
        int64_t perThread = 0;
        int rowsPerBlock = 1;
    };

    // The widest vector that divides a row.
    int rowWidth() const {
        int width = widestVector();
        while (_program.columns % width != 0) {
            width /= 2;
        }
        return width;
    }

    // Vectors of `width`; threads double until each holds at most `targetPerThread` vectors. False
    // for rows that need more than `maxPerThread` per thread.
    bool rowShape(int width, int64_t targetPerThread, int64_t maxPerThread, RowShape& shape,
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
    void emitRowCommon(const RowShape& shape) {
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
    std::string rowLoad(const char* name, const char* array, const std::string& indent) const {
        const std::string a = array;
        return indent + "float " + a + "[kV][kW];\n#pragma unroll\n" + indent +
               "for (int k = 0; k < kV; ++k) {\n" + indent + "    const hdnn_index vi = lane + k * kT;\n" +
               indent + "    if (active && vi < kVecs) {\n" + indent + "        hdnn_load<" +
               kind(_program.operand(name)->type) + ", kW>(" + name + ", row * kCols + vi * kW, " + a +
               "[k]);\n" + indent + "    } else {\n#pragma unroll\n" + indent +
               "        for (int l = 0; l < kW; ++l) { " + a + "[k][l] = 0.0f; }\n" + indent + "    }\n" +
               indent + "}\n";
    }

    bool rowNorm(std::string& reason) {
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
            _out << "        hdnn_load<" << kind(_program.operand("bias")->type)
                 << ", kW>(bias, vi * kW, b);\n";
        } else {
            _out << "#pragma unroll\n        for (int l = 0; l < kW; ++l) { b[l] = 0.0f; }\n";
        }
        _out << R"(        float out[kW];
#pragma unroll
        for (int l = 0; l < kW; ++l) { out[l] = (v[k][l] - hdnn_mu) * hdnn_inv * s[l] + b[l]; }
        )" << delivery
             << "\n    }\n";
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
            {kRowNormKernel,
             static_cast<unsigned>((_program.rows + shape.rowsPerBlock - 1) / shape.rowsPerBlock),
             static_cast<unsigned>(shape.threads * shape.rowsPerBlock), NormGrid::Fixed});
        return true;
    }

    // One pass over the rows with a block per part of the grid (as many as are resident): each
    // row of x and dy is read once into registers, reduced (RMS norm: for dy · scale · x; layer
    // norm: for dy · scale and dy · scale · (x - mean)), and dx written;
    // the thread's columns are the same in every row, so their dscale and dbias terms add up in
    // registers, and each block leaves one partial row of each in the workspace. A second kernel
    // sums the parts per column.
    bool rowNormBackward(std::string& reason) {
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
        _result.maxParts = static_cast<unsigned>(
            std::clamp<int64_t>((_program.rows + shape.rowsPerBlock - 1) / shape.rowsPerBlock, 1,
                                static_cast<int64_t>(std::max(1, _device.multiprocessorCount)) *
                                    kMaxStatsBlocksPerMultiprocessor));
        _result.workspaceBytes = static_cast<size_t>(dbias ? 2 : 1) * _result.maxParts *
                                 static_cast<size_t>(_program.columns) * sizeof(float);
        _result.kernelNames = {kRowNormBackwardKernel, kRowNormFinalizeKernel};
        _result.launches.push_back({kRowNormBackwardKernel, 1,
                                    static_cast<unsigned>(shape.threads * shape.rowsPerBlock),
                                    NormGrid::PerPart});
        _result.launches.push_back({kRowNormFinalizeKernel,
                                    static_cast<unsigned>((_program.columns + 31) / 32), kNormBlockSize,
                                    NormGrid::Fixed});
        return true;
    }

    // The row's statistics (r: inv_rms or inv_variance) and the row reductions dx needs, from this
    // thread's x (v), dy (g) and scale (s); zeros past the row's end add nothing.
    std::string rowBackwardCorrection() const {
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
    std::string rowBackwardElement() const {
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
    void emitRowFinalize(bool dbias) {
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

    // One thread per output element (grid-stride) walks its window over x through x's strides, in
    // the CPU reference's order (first spatial dim outermost), so that sums round alike. y is
    // dense: output e's coordinate along dim d is (e / stride_d) % extent_d.
    bool poolingForward(std::string& reason) {
        const PoolingWindow& pooling = *_program.pooling;
        const size_t rank = pooling.xDims.size();
        const size_t spatial = rank - 2;
        const bool max = pooling.mode == PoolingMode::Max;
        _result.vectorWidth = 1;
        _out << "constexpr hdnn_index kTotal = " << _program.elementCount << ";\nconstexpr int kW = 1;\n";
        bool ok = true;
        const std::string delivery = emitDelivery(1, reason, ok);
        if (!ok) {
            return false;
        }
        _out << header(kPoolingKernel, kNormBlockSize)
             << R"(    const hdnn_index step = (hdnn_index)gridDim.x * blockDim.x;
    for (hdnn_index e = (hdnn_index)blockIdx.x * blockDim.x + threadIdx.x; e < kTotal; e += step) {
)";
        for (size_t d = 0; d < rank; ++d) {
            _out << "        const hdnn_index o" << d << " = ";
            if (pooling.yDims[d] == 1) {
                _out << "0;\n";
            } else {
                _out << "(e / " << pooling.yStrides[d] << ") % " << pooling.yDims[d] << ";\n";
            }
        }
        const bool edge = max && pooling.padding == PoolingPadding::Edge;
        const bool includePadding = pooling.mode == PoolingMode::AverageIncludePadding;
        _out << "        const hdnn_index image = o0 * " << pooling.xStrides[0] << " + o1 * "
             << pooling.xStrides[1] << ";\n";
        if (max) {
            _out << "        float best = -__int_as_float(0x7f800000);\n";
        } else {
            _out << "        float sum = 0.0f;\n        int " << (includePadding ? "padded" : "inside")
                 << " = 0;\n";
        }
        std::string indent = "        ";
        std::string offset = "image";
        std::string allInside;
        std::string allInPaddedExtent;
        for (size_t d = 0; d < spatial; ++d) {
            const std::string k = std::to_string(d);
            const int64_t extent = pooling.xDims[d + 2];
            _out << indent << "for (int w" << k << " = 0; w" << k << " < " << pooling.window[d] << "; ++w"
                 << k << ") {\n";
            indent += "    ";
            _out << indent << (edge ? "" : "const ") << "long long i" << k << " = (long long)o" << d + 2
                 << " * " << pooling.stride[d] << " + w" << k << " - " << pooling.prePadding[d] << ";\n";
            if (edge) {
                _out << indent << "i" << k << " = i" << k << " < 0 ? 0 : (i" << k << " >= " << extent << " ? "
                     << extent - 1 << " : i" << k << ");\n";
            } else {
                _out << indent << "const bool in" << k << " = i" << k << " >= 0 && i" << k << " < " << extent
                     << ";\n";
                allInside += (d > 0 ? " && in" : "in") + k;
            }
            if (includePadding) {
                _out << indent << "const bool pe" << k << " = i" << k << " < "
                     << extent + pooling.postPadding[d] << ";\n";
                allInPaddedExtent += (d > 0 ? " && pe" : "pe") + k;
            }
            offset += " + (hdnn_index)i" + k + " * " + std::to_string(pooling.xStrides[d + 2]);
        }
        const std::string load =
            "hdnn_to_float<" + kind(_program.operand("x")->type) + ">(x[" + offset + "])";
        if (!max) {
            // Including padding, the divisor counts the positions inside x and its padding;
            // excluding it, those inside x.
            _out << indent << "if (" << allInside << ") { sum += " << load << ";"
                 << (includePadding ? "" : " ++inside;") << " }\n";
            if (includePadding) {
                _out << indent << "padded += (" << allInPaddedExtent << ") ? 1 : 0;\n";
            }
        } else if (edge) {
            _out << indent << "const float v = " << load << ";\n"
                 << indent << "if (v > best) { best = v; }\n";
        } else if (pooling.padding == PoolingPadding::Zero) {
            _out << indent << "const float v = (" << allInside << ") ? " << load << " : 0.0f;\n"
                 << indent << "if (v > best) { best = v; }\n";
        } else {
            _out << indent << "if (" << allInside << ") { const float v = " << load
                 << "; if (v > best) { best = v; } }\n";
        }
        for (size_t d = 0; d < spatial; ++d) {
            indent.resize(indent.size() - 4);
            _out << indent << "}\n";
        }
        const char* value = max ? "best" : includePadding ? "sum / (float)padded" : "sum / (float)inside";
        _out << "        float out[kW] = {" << value << "};\n        " << delivery << "\n    }\n}\n";
        _result.kernelNames = {kPoolingKernel};
        _result.launches.push_back(
            {kPoolingKernel,
             static_cast<unsigned>(std::min<int64_t>(
                 (_program.elementCount + kNormBlockSize - 1) / kNormBlockSize, int64_t{1} << 30)),
             kNormBlockSize, NormGrid::Resident});
        return true;
    }

    // The vector width of the batch norm kernels: a vector never spans two channels' segments
    // (channel stride a multiple of the width) or holds consecutive channels (channels last).
    int batchnormWidth() const {
        int width = widestVector();
        while (width > 1) {
            const bool channelsLast = _program.channelStride == 1 && _program.channels % width == 0;
            const bool segments = _program.channelStride % width == 0;
            if (channelsLast || segments) {
                break;
            }
            width /= 2;
        }
        return width;
    }

    std::string perChannel(const char* name, const char* fallback) const {
        if (!has(name)) {
            return fallback;
        }
        return read(name, "c * " + std::to_string(_program.operand(name)->stride));
    }

    bool batchnorm(std::string& reason) {
        const int64_t channels = _program.channels;
        if (channels > kMaxSharedChannels) {
            return decline(reason, "batch norm over " + std::to_string(channels) +
                                       " channels; the engine keeps at most " +
                                       std::to_string(kMaxSharedChannels) +
                                       " channels' coefficients on chip");
        }
        const int width = batchnormWidth();
        _result.vectorWidth = width;
        _out << "constexpr hdnn_index kTotal = " << _program.elementCount
             << ";\nconstexpr int kC = " << channels
             << ";\nconstexpr hdnn_index kChanStride = " << _program.channelStride
             << ";\nconstexpr int kW = " << width << ";\nconstexpr int kNormBlockSize = " << kNormBlockSize
             << ";\n";
        if (persistentTraining()) {
            return emitPersistentTraining(width, reason);
        }
        // Workspace: two per-channel coefficients, three per-channel doubles when the statistics are
        // synchronized, then the parts' two sums per channel.
        const int64_t momentFloats = _program.isSynchronized() ? 6 * channels : 0;
        if (_program.hasStatisticsPass()) {
            _out << "constexpr hdnn_index kMoments = 2 * kC;\nconstexpr hdnn_index kPartials = "
                 << 2 * channels + momentFloats << ";\n";
            if (!emitStatistics(width, reason)) {
                return false;
            }
            if (_program.isSynchronized()) {
                emitSynchronizedFinalize(_program.elementCount / channels);
            } else {
                emitFinalize(_program.elementCount / channels);
            }
        }
        bool ok = true;
        const std::string delivery = emitDelivery(width, reason, ok);
        if (!ok) {
            return false;
        }
        emitApply(_program.channelStride == 1, delivery);
        _result.launches.push_back(
            {kBatchnormApplyKernel,
             static_cast<unsigned>(std::min<int64_t>(
                 (_program.elementCount / width + kNormBlockSize - 1) / kNormBlockSize, int64_t{1} << 30)),
             kNormBlockSize, NormGrid::Resident});
        _result.kernelNames.push_back(kBatchnormApplyKernel);
        if (_program.hasStatisticsPass()) {
            _result.workspaceBytes =
                (static_cast<size_t>(2 * _result.maxParts + 2) * static_cast<size_t>(channels) +
                 static_cast<size_t>(momentFloats)) *
                sizeof(float);
        }
        return true;
    }

    bool backward() const { return _program.kind == NormKind::BatchnormBackward; }

    // Channels-last training on this GPU alone runs as one cooperative kernel, when the device
    // launches those and a row's vectors fit in one block.
    bool persistentTraining() const {
        return _options.trainingKernel != TrainingKernel::ThreeKernels &&
               _program.kind == NormKind::BatchnormTraining && !_program.isSynchronized() &&
               _program.channelStride == 1 && _device.cooperativeLaunch &&
               _program.channels / batchnormWidth() <= static_cast<int64_t>(kPersistentBlockSize);
    }

    // One block per multiprocessor, each over a contiguous range of rows (channels-last: a row is
    // one position's kC channels), the whole grid resident (a cooperative launch). The statistics
    // pass keeps the block's first iterations of x, as stored, in registers and then in shared
    // memory; two grid-wide barriers separate it from a finalize of a few channels per block and
    // from the apply pass, which walks the rest of x backwards (the last rows read are still in L2)
    // and then the kept rows. The kept rows are read with an evict-first hint, as are x's last
    // reads and y's stores, so that L2 holds the rows read twice.
    bool emitPersistentTraining(int width, std::string& reason) {
        bool ok = true;
        const std::string delivery = emitDelivery(width, reason, ok, AccessHint::Streaming);
        if (!ok) {
            return false;
        }
        const int64_t channels = _program.channels;
        const int64_t groups = channels / width;
        const int64_t rowsPerIteration = kPersistentBlockSize / groups;
        const int64_t rows = _program.elementCount / channels;
        const int64_t blocks = std::max(1, _device.multiprocessorCount);
        const int64_t rowsPerBlock = (rows + blocks - 1) / blocks;
        const int64_t iterations = (rowsPerBlock + rowsPerIteration - 1) / rowsPerIteration;
        const int64_t staticShared =
            rowsPerIteration * channels * static_cast<int64_t>(sizeof(float)) + 64 * sizeof(double);
        const int64_t vectorBytes = width * static_cast<int64_t>(elementSize(_program.operand("x")->type));
        const int64_t iterationBytes = static_cast<int64_t>(kPersistentBlockSize) * vectorBytes;
        const bool keepAll = _options.trainingKernel == TrainingKernel::KeepAll;
        const int64_t held = keepAll && vectorBytes == kPersistentHeldVectorBytes
                                 ? std::min<int64_t>(kPersistentHeld, iterations)
                                 : 0;
        int64_t keptBytes = _device.sharedMemoryPerBlockOptin - staticShared - kPersistentSharedReserve;
        if (_options.trainingKernel == TrainingKernel::KeepHalf) {
            keptBytes = std::min<int64_t>(keptBytes, _device.sharedMemoryPerBlockOptin / 2);
        } else if (_options.trainingKernel == TrainingKernel::KeepNone) {
            keptBytes = 0;
        }
        const int64_t kept = std::clamp<int64_t>(keptBytes / iterationBytes, 0, iterations - held);
        const std::string xKind = kind(_program.operand("x")->type);
        // One vector of x as stored, `source`, into the sums or through the apply formula.
        const auto accumulated = [&](const std::string& source) {
            return "{ float f[kW]; hdnn_unpack(" + source +
                   ", f);\n#pragma unroll\n for (int l = 0; l < kW; ++l) " +
                   accumulate("f[l]", "", "ref[l]", "s[l]", "q[l]") + " }";
        };
        const auto applied = [&](const std::string& source) {
            return "{ const hdnn_index e = row * kC + group * kW; float v[1][kW]; hdnn_unpack(" + source +
                   ", v[0]); const int u = 0; float out[kW];\n#pragma unroll\n for (int l = 0; l < kW; ++l) "
                   "{ out[l] = " +
                   applyFormula("l") + "; }\n " + delivery + " }";
        };
        _out << "constexpr int kG = " << groups << ";\nconstexpr int kRB = " << rowsPerIteration
             << ";\nconstexpr hdnn_index kRows = " << rows
             << ";\nconstexpr hdnn_index kRowsPerBlock = " << rowsPerBlock
             << ";\nconstexpr int kIterations = " << iterations << ";\nconstexpr int kHeld = " << held
             << ";\nconstexpr int kKept = " << kept << ";\nconstexpr unsigned kBlocks = " << blocks
             << ";\nconstexpr int kBatch = " << kPersistentBatch
             << ";\nconstexpr int kBlock = " << kPersistentBlockSize
             << ";\nconstexpr hdnn_index kPartials = 2 * kC;\ntypedef hdnn_vec<" << xKind
             << R"(, kW> hdnn_xvec;
// Every block arrives, then waits for all kBlocks * round arrivals; the counter starts at 0.
__device__ __forceinline__ void hdnn_grid_barrier(unsigned* counter, unsigned round) {
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(counter, 1u);
        while (*(volatile unsigned*)counter < round * kBlocks) { }
        __threadfence();
    }
    __syncthreads();
}
)"
             << "extern \"C\" __global__ void __launch_bounds__(kBlock, 1) " << kBatchnormPersistentKernel
             << "(" << parameters() << R"() {
    extern __shared__ __align__(16) unsigned char hdnn_dynamic[];
    typename hdnn_storage<)"
             << xKind << R"(>::type* const hdnn_kept = (typename hdnn_storage<)" << xKind
             << R"(>::type*)hdnn_dynamic;
    __shared__ float hdnn_rows[kRB * kC];
    __shared__ double hdnn_warps[64];
    unsigned* const hdnn_counter = (unsigned*)(hdnn_ws + kPartials + 2 * (hdnn_index)kBlocks * kC);
    const int group = threadIdx.x % kG;
    const int r = threadIdx.x / kG;
    const bool active = r < kRB;
    const hdnn_index first = (hdnn_index)blockIdx.x * kRowsPerBlock;
    const hdnn_index end = first + kRowsPerBlock < kRows ? first + kRowsPerBlock : kRows;
    float s[kW], q[kW], ref[kW];
#pragma unroll
    for (int l = 0; l < kW; ++l) { s[l] = 0.0f; q[l] = 0.0f; ref[l] = )"
             << reference("group * kW + l") << R"(; }
    hdnn_xvec hdnn_held[kHeld > 0 ? kHeld : 1];
    if (active) {
        // Iterations held in registers: indices known at compile time.
#pragma unroll
        for (int i = 0; i < kHeld; ++i) {
            const hdnn_index row = first + (hdnn_index)i * kRB + r;
            if (row < end) { hdnn_read_vec<)"
             << xKind << R"(, kW, 1>(x, row * kC + group * kW, hdnn_held[i]); }
        }
#pragma unroll
        for (int i = 0; i < kHeld; ++i) {
            const hdnn_index row = first + (hdnn_index)i * kRB + r;
            if (row < end) )"
             << accumulated("hdnn_held[i]") << R"(
        }
        for (int i0 = kHeld; i0 < kIterations; i0 += kBatch) {
            hdnn_xvec raw[kBatch];
#pragma unroll
            for (int u = 0; u < kBatch; ++u) {
                const int i = i0 + u;
                const hdnn_index row = first + (hdnn_index)i * kRB + r;
                if (i >= kIterations || row >= end) { continue; }
                if (i < kHeld + kKept) {
                    hdnn_read_vec<)"
             << xKind << R"(, kW, 1>(x, row * kC + group * kW, raw[u]);
                } else {
                    hdnn_read_vec<)"
             << xKind << R"(, kW>(x, row * kC + group * kW, raw[u]);
                }
            }
#pragma unroll
            for (int u = 0; u < kBatch; ++u) {
                const int i = i0 + u;
                const hdnn_index row = first + (hdnn_index)i * kRB + r;
                if (i >= kIterations || row >= end) { continue; }
                if (i < kHeld + kKept) { hdnn_write_vec<)"
             << xKind << R"(, kW>(hdnn_kept, ((i - kHeld) * kBlock + threadIdx.x) * kW, raw[u]); }
                )"
             << accumulated("raw[u]") << R"(
            }
        }
    }
    // This block's two sums per channel, summed over its rows in a fixed order.
    for (int pass = 0; pass < 2; ++pass) {
        if (active) {
#pragma unroll
            for (int l = 0; l < kW; ++l) { hdnn_rows[r * kC + group * kW + l] = pass == 0 ? s[l] : q[l]; }
        }
        __syncthreads();
        for (int c = threadIdx.x; c < kC; c += blockDim.x) {
            float sum = 0.0f;
            for (int k = 0; k < kRB; ++k) { sum += hdnn_rows[k * kC + c]; }
            hdnn_ws[kPartials + (hdnn_index)(pass * kBlocks + blockIdx.x) * kC + c] = sum;
        }
        __syncthreads();
    }
    hdnn_grid_barrier(hdnn_counter, 1);
    // Each block finalizes channels blockIdx.x, blockIdx.x + kBlocks, ... from every block's sums,
    // in double and in a fixed order. __ldcg reads them from L2, where the other blocks wrote them.
    for (int c = blockIdx.x; c < kC; c += kBlocks) {
        double s = 0.0, q = 0.0;
        for (unsigned p = threadIdx.x; p < kBlocks; p += blockDim.x) {
            s += __ldcg(&hdnn_ws[kPartials + (hdnn_index)p * kC + c]);
            q += __ldcg(&hdnn_ws[kPartials + (hdnn_index)(kBlocks + p) * kC + c]);
        }
#pragma unroll
        for (int o = 16; o > 0; o /= 2) { s += __shfl_xor_sync(0xffffffffu, s, o); q += __shfl_xor_sync(0xffffffffu, q, o); }
        if (threadIdx.x % 32 == 0) { hdnn_warps[threadIdx.x / 32] = s; hdnn_warps[32 + threadIdx.x / 32] = q; }
        __syncthreads();
        if (threadIdx.x == 0) {
            s = 0.0;
            q = 0.0;
            for (int w = 0; w < kBlock / 32; ++w) { s += hdnn_warps[w]; q += hdnn_warps[32 + w]; }
            const double n = )"
             << rows << ".0;\n";
        emitFinalizeFromSums(reference("c"), bessel(rows));
        _out << R"(        }
        __syncthreads();
    }
    hdnn_grid_barrier(hdnn_counter, 2);
    if (!active) { return; }
    float hdnn_mean[kW], hdnn_gain[kW], hdnn_shift[kW];
#pragma unroll
    for (int l = 0; l < kW; ++l) {
        const int c = group * kW + l;
        hdnn_mean[l] = __ldcg(&hdnn_ws[c]);
        hdnn_gain[l] = __ldcg(&hdnn_ws[kC + c]) * )"
             << perChannel("scale", "1.0f") << R"(;
        hdnn_shift[l] = )"
             << perChannel("bias", "0.0f") << R"(;
    }
    // The rows not kept, last first; then those in shared memory and those in registers.
    for (int i0 = kIterations - 1; i0 >= kHeld + kKept; i0 -= kBatch) {
        hdnn_xvec raw[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
            const hdnn_index row = first + (hdnn_index)(i0 - u) * kRB + r;
            if (i0 - u >= kHeld + kKept && row < end) { hdnn_read_vec<)"
             << xKind << R"(, kW, 1>(x, row * kC + group * kW, raw[u]); }
        }
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
            const hdnn_index row = first + (hdnn_index)(i0 - u) * kRB + r;
            if (i0 - u < kHeld + kKept || row >= end) { continue; }
            )"
             << applied("raw[u]") << R"(
        }
    }
    for (int i = kHeld; i < kHeld + kKept; ++i) {
        const hdnn_index row = first + (hdnn_index)i * kRB + r;
        if (row >= end) { break; }
        hdnn_xvec raw;
        hdnn_read_vec<)"
             << xKind << R"(, kW>(hdnn_kept, ((i - kHeld) * kBlock + threadIdx.x) * kW, raw);
        )" << applied("raw")
             << R"(
    }
#pragma unroll
    for (int i = 0; i < kHeld; ++i) {
        const hdnn_index row = first + (hdnn_index)i * kRB + r;
        if (row < end) )"
             << applied("hdnn_held[i]") << R"(
    }
}
)";
        _result.kernelNames.push_back(kBatchnormPersistentKernel);
        _result.launches.push_back({kBatchnormPersistentKernel, static_cast<unsigned>(blocks),
                                    kPersistentBlockSize, NormGrid::Fixed,
                                    static_cast<unsigned>(kept * iterationBytes), true});
        _result.maxParts = static_cast<unsigned>(blocks);
        const size_t counterOffset =
            static_cast<size_t>(2 + 2 * blocks) * static_cast<size_t>(channels) * sizeof(float);
        _result.zeroed = NormWorkspaceRange{counterOffset, sizeof(unsigned)};
        _result.workspaceBytes = counterOffset + sizeof(unsigned);
        return true;
    }

    // The statistics pass sums two values per channel and part. Training: x - shift and its
    // square, the shift being the channel's first element (so the variance does not cancel for
    // large means). Backward: dy, and dy * (x - mean) with the saved mean. `ref` names the
    // per-lane shift or mean, `v` x and `g` dy.
    std::string accumulate(const std::string& v, const std::string& g, const std::string& ref,
                           const std::string& s, const std::string& q) const {
        if (backward()) {
            return "{ const float d = " + v + " - " + ref + "; " + s + " += " + g + "; " + q + " += " + g +
                   " * d; }";
        }
        return "{ const float d = " + v + " - " + ref + "; " + s + " += d; " + q + " += d * d; }";
    }

    // Loads vector `u` of x (and dy) at element offset `offset`, or sets it to contribute nothing.
    std::string loadOrNeutral(const std::string& offset, const std::string& ref,
                              const std::string& inRange) const {
        const std::string xKind = kind(_program.operand("x")->type);
        std::string text = "if (" + inRange + ") { hdnn_load<" + xKind + ", kW>(x, " + offset + ", v[u]);";
        if (backward()) {
            text += " hdnn_load<" + kind(_program.operand("dy")->type) + ", kW>(dy, " + offset + ", g[u]);";
        }
        text +=
            " } else {\n#pragma unroll\n                    for (int l = 0; l < kW; ++l) { v[u][l] = " + ref +
            ";" + (backward() ? " g[u][l] = 0.0f;" : "") + " }\n                }";
        return text;
    }

    // The per-channel value the statistics are taken around, for channel expression `c`.
    std::string reference(const std::string& c) const {
        if (backward()) {
            return read("mean", "(" + c + ") * " + std::to_string(_program.operand("mean")->stride));
        }
        return "hdnn_to_float<" + kind(_program.operand("x")->type) + ">(x[(hdnn_index)(" + c +
               ") * kChanStride])";
    }

    // The number of parts (hdnn_parts) is chosen at run time from the kernel's occupancy, up to
    // maxParts. False when the layout is not one the pass reads.
    bool emitStatistics(int width, std::string& reason) {
        const int64_t channels = _program.channels;
        const int64_t maxParts =
            static_cast<int64_t>(std::max(1, _device.multiprocessorCount)) * kMaxStatsBlocksPerMultiprocessor;
        const char* gradients = backward() ? "float g[kBatch][kW];\n" : "";
        if (_program.channelStride == 1) {
            const int64_t groups = channels / width;
            if (groups > kNormBlockSize) {
                return decline(reason, "channels-last batch norm over " + std::to_string(channels) +
                                           " channels: more than " + std::to_string(kNormBlockSize * width) +
                                           " are not supported");
            }
            const int64_t rowsPerIteration = kNormBlockSize / groups;
            const int64_t rows = _program.elementCount / channels;
            _result.maxParts = static_cast<unsigned>(
                std::max<int64_t>(1, std::min(maxParts, (rows + rowsPerIteration - 1) / rowsPerIteration)));
            _out << "constexpr int kBatch = " << kStatsBatch << ";\nconstexpr int kG = " << groups
                 << ";\nconstexpr int kRB = " << rowsPerIteration
                 << ";\nconstexpr hdnn_index kStatRows = " << rows << ";\n"
                 << header(kBatchnormStatsKernel, kNormBlockSize) << R"(    __shared__ float hdnn_s[kRB * kC];
    __shared__ float hdnn_q[kRB * kC];
    const int group = threadIdx.x % kG;
    const int r = threadIdx.x / kG;
    float s[kW], q[kW], ref[kW];
#pragma unroll
    for (int l = 0; l < kW; ++l) { s[l] = 0.0f; q[l] = 0.0f; ref[l] = )"
                 << reference("group * kW + l") << R"(; }
    if (r < kRB) {
        const hdnn_index rowStride = (hdnn_index)gridDim.x * kRB;
        for (hdnn_index first = (hdnn_index)blockIdx.x * kRB + r; first < kStatRows; first += kBatch * rowStride) {
            // kBatch loads in flight before any arithmetic; rows past the end contribute nothing.
            float v[kBatch][kW];
            )" << gradients
                 << R"(#pragma unroll
            for (int u = 0; u < kBatch; ++u) {
                const hdnn_index row = first + u * rowStride;
                )"
                 << loadOrNeutral("row * kC + group * kW", "ref[l]", "row < kStatRows") << R"(
            }
#pragma unroll
            for (int u = 0; u < kBatch; ++u) {
#pragma unroll
                for (int l = 0; l < kW; ++l) )"
                 << accumulate("v[u][l]", "g[u][l]", "ref[l]", "s[l]", "q[l]") << R"(
            }
        }
#pragma unroll
        for (int l = 0; l < kW; ++l) { hdnn_s[r * kC + group * kW + l] = s[l]; hdnn_q[r * kC + group * kW + l] = q[l]; }
    }
    __syncthreads();
    for (int c = threadIdx.x; c < kC; c += blockDim.x) {
        float sum = 0.0f, second = 0.0f;
        for (int k = 0; k < kRB; ++k) { sum += hdnn_s[k * kC + c]; second += hdnn_q[k * kC + c]; }
        hdnn_ws[kPartials + (hdnn_index)blockIdx.x * kC + c] = sum;
        hdnn_ws[kPartials + (hdnn_index)(gridDim.x + blockIdx.x) * kC + c] = second;
    }
}
)";
            _result.kernelNames.push_back(kBatchnormStatsKernel);
            _result.launches.push_back({kBatchnormStatsKernel, 1, kNormBlockSize, NormGrid::PerPart});
            return true;
        }
        // Channel segments: element (outer, c, inner) at outer * kC * kChanStride + c * kChanStride + inner.
        const int64_t perChannelVectors = _program.elementCount / channels / width;
        _result.maxParts = static_cast<unsigned>(
            std::max<int64_t>(1, std::min((maxParts + channels - 1) / channels,
                                          (perChannelVectors + kNormBlockSize - 1) / kNormBlockSize)));
        _out << "constexpr int kBatch = " << kStatsBatch
             << ";\nconstexpr hdnn_index kSegmentVectors = " << _program.channelStride / width
             << ";\nconstexpr hdnn_index kChannelVectors = " << perChannelVectors << ";\n"
             << header(kBatchnormStatsKernel, kNormBlockSize)
             << R"(    __shared__ float hdnn_s[kNormBlockSize / 32];
    __shared__ float hdnn_q[kNormBlockSize / 32];
    const int c = blockIdx.x % kC;
    const unsigned part = blockIdx.x / kC;
    const float ref = )"
             << reference("c") << R"(;
    float s = 0.0f, q = 0.0f;
    const hdnn_index step = (hdnn_index)hdnn_parts * blockDim.x;
    for (hdnn_index first = (hdnn_index)part * blockDim.x + threadIdx.x; first < kChannelVectors; first += kBatch * step) {
        float v[kBatch][kW];
        )" << gradients
             << R"(#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
            const hdnn_index j = first + u * step;
            )"
             << loadOrNeutral("((j / kSegmentVectors) * kC + c) * kChanStride + (j % kSegmentVectors) * kW",
                              "ref", "j < kChannelVectors")
             << R"(
        }
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
#pragma unroll
            for (int l = 0; l < kW; ++l) )"
             << accumulate("v[u][l]", "g[u][l]", "ref", "s", "q") << R"(
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o /= 2) { s += __shfl_xor_sync(0xffffffffu, s, o); q += __shfl_xor_sync(0xffffffffu, q, o); }
    if (threadIdx.x % 32 == 0) { hdnn_s[threadIdx.x / 32] = s; hdnn_q[threadIdx.x / 32] = q; }
    __syncthreads();
    if (threadIdx.x == 0) {
        float sum = 0.0f, second = 0.0f;
        for (int w = 0; w < kNormBlockSize / 32; ++w) { sum += hdnn_s[w]; second += hdnn_q[w]; }
        hdnn_ws[kPartials + (hdnn_index)part * kC + c] = sum;
        hdnn_ws[kPartials + (hdnn_index)(hdnn_parts + part) * kC + c] = second;
    }
}
)";
        _result.kernelNames.push_back(kBatchnormStatsKernel);
        _result.launches.push_back(
            {kBatchnormStatsKernel, static_cast<unsigned>(channels), kNormBlockSize, NormGrid::PerPart});
        return true;
    }

    // One block per channel: its threads sum the channel's parts in double into s and q, which
    // thread 0 holds afterwards (the other threads return).
    std::string sumParts() const {
        return R"(    __shared__ double hdnn_s[kNormBlockSize / 32];
    __shared__ double hdnn_q[kNormBlockSize / 32];
    const int c = blockIdx.x;
    double s = 0.0, q = 0.0;
    for (unsigned p = threadIdx.x; p < hdnn_parts; p += blockDim.x) { s += hdnn_ws[kPartials + (hdnn_index)p * kC + c]; q += hdnn_ws[kPartials + (hdnn_index)(hdnn_parts + p) * kC + c]; }
#pragma unroll
    for (int o = 16; o > 0; o /= 2) { s += __shfl_xor_sync(0xffffffffu, s, o); q += __shfl_xor_sync(0xffffffffu, q, o); }
    if (threadIdx.x % 32 == 0) { hdnn_s[threadIdx.x / 32] = s; hdnn_q[threadIdx.x / 32] = q; }
    __syncthreads();
    if (threadIdx.x != 0) { return; }
    s = 0.0;
    q = 0.0;
    for (int w = 0; w < kNormBlockSize / 32; ++w) { s += hdnn_s[w]; q += hdnn_q[w]; }
)";
    }

    // This GPU's statistics: thread 0 of each channel's block finalizes from its parts.
    void emitFinalize(int64_t perChannelCount) {
        _out << header(kBatchnormFinalizeKernel, kNormBlockSize) << sumParts()
             << "    const double n = " << perChannelCount << ".0;\n";
        emitFinalizeFromSums(reference("c"), bessel(perChannelCount));
        _out << "}\n";
        _result.kernelNames.push_back(kBatchnormFinalizeKernel);
        _result.launches.push_back({kBatchnormFinalizeKernel, static_cast<unsigned>(_program.channels),
                                    kNormBlockSize, NormGrid::Fixed});
    }

    // The group's statistics. A moments kernel writes this GPU's count and two sums per channel as
    // doubles (training: Σx and Σx², taken back from around the local shift, which differs between
    // GPUs; backward: Σdy and Σdy·(x - mean) around the saved, already common, mean); the engine
    // sums them across the communicator in place; then one thread per channel finalizes from the
    // totals. Doubles keep Σx² - n·mean² from cancelling the variance away.
    void emitSynchronizedFinalize(int64_t perChannelCount) {
        _out << header(kBatchnormMomentsKernel, kNormBlockSize) << sumParts()
             << "    double* hdnn_moments = (double*)(hdnn_ws + kMoments);\n    const double n = "
             << perChannelCount << ".0;\n    hdnn_moments[c] = n;\n";
        if (backward()) {
            _out << "    hdnn_moments[kC + c] = s;\n    hdnn_moments[2 * kC + c] = q;\n";
        } else {
            _out << "    const double shift = (double)" << reference("c") << R"(;
    hdnn_moments[kC + c] = s + n * shift;
    hdnn_moments[2 * kC + c] = q + shift * (2.0 * s + n * shift);
)";
        }
        _out << "}\n";
        _result.kernelNames.push_back(kBatchnormMomentsKernel);
        _result.launches.push_back({kBatchnormMomentsKernel, static_cast<unsigned>(_program.channels),
                                    kNormBlockSize, NormGrid::Fixed});
        _result.allReduce =
            NormAllReduce{_result.launches.size(), 2 * static_cast<size_t>(_program.channels) * sizeof(float),
                          3 * static_cast<size_t>(_program.channels)};
        _out << header(kBatchnormFinalizeKernel, kSynchronizedFinalizeBlock)
             << R"(    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= kC) { return; }
    const double* hdnn_moments = (const double*)(hdnn_ws + kMoments);
    const double n = hdnn_moments[c];
    const double s = hdnn_moments[kC + c];
    const double q = hdnn_moments[2 * kC + c];
)";
        emitFinalizeFromSums("0.0", "(n > 1.0 ? (float)(n / (n - 1.0)) : 1.0f)");
        _out << "}\n";
        _result.kernelNames.push_back(kBatchnormFinalizeKernel);
        _result.launches.push_back(
            {kBatchnormFinalizeKernel,
             static_cast<unsigned>((_program.channels + kSynchronizedFinalizeBlock - 1) /
                                   kSynchronizedFinalizeBlock),
             kSynchronizedFinalizeBlock, NormGrid::Fixed});
    }

    // Bessel's correction of the running variance; one element per channel has no spread to correct.
    static std::string bessel(int64_t perChannelCount) {
        return floatLiteral(perChannelCount > 1 ? static_cast<double>(perChannelCount) /
                                                      static_cast<double>(perChannelCount - 1)
                                                : 1.0);
    }

    // From a channel's count n and sums s and q (taken around `shift`), the channel's outputs and
    // the two coefficients the apply pass reads (ws[c], ws[kC + c]).
    void emitFinalizeFromSums(const std::string& shift, const std::string& besselFactor) {
        if (backward()) {
            const std::string inv = perChannel("inv_variance", "1.0f");
            _out << "    const float hdnn_inv = " << inv << ";\n"
                 << "    const float hdnn_dscale = (float)(q * (double)hdnn_inv);\n"
                 << "    hdnn_ws[c] = (float)(s / n);\n    hdnn_ws[kC + c] = (float)(q * (double)hdnn_inv / "
                    "n);\n";
            writePerChannel("dbias", "(float)s");
            writePerChannel("dscale", "hdnn_dscale");
        } else {
            _out << R"(    const double shifted = s / n;
    double hdnn_var = q / n - shifted * shifted;
    if (hdnn_var < 0.0) { hdnn_var = 0.0; }
    const float hdnn_mu = (float)((double))"
                 << shift << R"( + shifted);
    const float hdnn_inv = 1.0f / sqrtf((float)hdnn_var + )"
                 << scalar(_program.epsilon) << R"();
    hdnn_ws[c] = hdnn_mu;
    hdnn_ws[kC + c] = hdnn_inv;
)";
            writePerChannel("mean", "hdnn_mu");
            writePerChannel("inv_variance", "hdnn_inv");
            if (has("next_running_mean")) {
                _out << "    const float hdnn_momentum = " << scalar(_program.momentum) << ";\n";
                writePerChannel("next_running_mean", "(1.0f - hdnn_momentum) * " +
                                                         perChannel("prev_running_mean", "0.0f") +
                                                         " + hdnn_momentum * hdnn_mu");
                writePerChannel("next_running_variance",
                                "(1.0f - hdnn_momentum) * " + perChannel("prev_running_variance", "0.0f") +
                                    " + hdnn_momentum * (float)hdnn_var * " + besselFactor);
            }
        }
    }

    void writePerChannel(const char* name, const std::string& value) {
        if (const NormOperand* operand = _program.operand(name)) {
            _out << "    " << name << "[c * " << operand->stride << "] = hdnn_from_float<"
                 << kind(operand->type) << ">(" << value << ");\n";
        }
    }

    // A per-channel coefficient of the apply kernel: its name and its value for channel c.
    struct Coefficient {
        std::string name;
        std::string value;
    };

    // Forward: y = (x - mean) * gain + shift, gain = inv_std * scale, shift = bias. Backward:
    // dx = gain * (dy - mean_dy - (x - mean) * slope), slope = inv_std * mean(dy * xhat).
    std::vector<Coefficient> applyCoefficients() const {
        if (backward()) {
            const std::string inv = perChannel("inv_variance", "1.0f");
            return {{"mean", perChannel("mean", "0.0f")},
                    {"gain", inv + " * " + perChannel("scale", "1.0f")},
                    {"mean_dy", "hdnn_ws[c]"},
                    {"slope", inv + " * hdnn_ws[kC + c]"}};
        }
        std::string inv;
        if (_program.kind == NormKind::BatchnormTraining) {
            inv = "hdnn_ws[kC + c]";
        } else if (_program.kind == NormKind::BatchnormInferenceVariance) {
            inv = "1.0f / sqrtf(" + perChannel("variance", "1.0f") + " + " + scalar(_program.epsilon) + ")";
        } else {
            inv = perChannel("inv_variance", "1.0f");
        }
        const std::string mean =
            _program.kind == NormKind::BatchnormTraining ? "hdnn_ws[c]" : perChannel("mean", "0.0f");
        return {{"mean", mean},
                {"gain", inv + " * " + perChannel("scale", "1.0f")},
                {"shift", perChannel("bias", "0.0f")}};
    }

    // The output of lane l from x (v[u][l]), dy (g[u][l]) and coefficients at index `k` of the
    // arrays named `prefix` and the coefficient's name.
    std::string applyFormula(const std::string& k, const std::string& prefix = "hdnn_") const {
        const auto at = [&](const char* name) { return prefix + name + "[" + k + "]"; };
        if (backward()) {
            return at("gain") + " * (g[u][l] - " + at("mean_dy") + " - (v[u][l] - " + at("mean") + ") * " +
                   at("slope") + ")";
        }
        return "(v[u][l] - " + at("mean") + ") * " + at("gain") + " + " + at("shift");
    }

    // The coefficients sit in shared memory (registers per thread would cost occupancy, and with
    // it the loads in flight). The training pass walks x backwards, so that what the statistics
    // pass left in L2 is read there.
    void emitApply(bool channelsLast, const std::string& delivery) {
        const bool reverse = _program.kind == NormKind::BatchnormTraining;
        const char* index = reverse ? "vectors - 1 - vi" : "vi";
        const std::vector<Coefficient> coefficients = applyCoefficients();
        _out << header(kBatchnormApplyKernel, kNormBlockSize)
             << "    constexpr hdnn_index vectors = kTotal / kW;\n";
        for (const Coefficient& coefficient : coefficients) {
            _out << "    __shared__ __align__(16) float hdnn_" << coefficient.name << "[kC];\n";
        }
        _out << "    for (int c = threadIdx.x; c < kC; c += blockDim.x) {\n";
        for (const Coefficient& coefficient : coefficients) {
            _out << "        hdnn_" << coefficient.name << "[c] = " << coefficient.value << ";\n";
        }
        _out << "    }\n    __syncthreads();\n    constexpr int kUnroll = " << kApplyUnroll << R"(;
    const hdnn_index stride = (hdnn_index)gridDim.x * blockDim.x;
    for (hdnn_index base = (hdnn_index)blockIdx.x * blockDim.x + threadIdx.x; base < vectors; base += kUnroll * stride) {
        float v[kUnroll][kW];
)" << (backward() ? "        float g[kUnroll][kW];\n" : "")
             << R"(#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const hdnn_index vi = base + u * stride;
            if (vi < vectors) {
                hdnn_load<)"
             << kind(_program.operand("x")->type) << ", kW>(x, (" << index << ") * kW, v[u]);\n";
        if (backward()) {
            _out << "                hdnn_load<" << kind(_program.operand("dy")->type) << ", kW>(dy, ("
                 << index << ") * kW, g[u]);\n";
        }
        _out << R"(            }
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const hdnn_index vi = base + u * stride;
            if (vi >= vectors) { break; }
            const hdnn_index e = ()"
             << index << R"() * kW;
            float out[kW];
)";
        if (channelsLast) {
            // A vector's kW channels are consecutive: each coefficient is one vector load from
            // shared memory (scalar loads of channels kW apart would conflict on the banks).
            _out << "            const int c0 = (int)(e % kC);\n";
            for (const Coefficient& coefficient : coefficients) {
                _out << "            float hdnn_c_" << coefficient.name
                     << "[kW];\n            hdnn_load<0, kW>(hdnn_" << coefficient.name << ", c0, hdnn_c_"
                     << coefficient.name << ");\n";
            }
            _out << "#pragma unroll\n            for (int l = 0; l < kW; ++l) { out[l] = "
                 << applyFormula("l", "hdnn_c_") << "; }\n";
        } else {
            _out << "            const int c = (int)((e / kChanStride) % kC);\n#pragma unroll\n            "
                    "for (int l = "
                    "0; l < kW; ++l) { out[l] = "
                 << applyFormula("c") << "; }\n";
        }
        _out << "            " << delivery << "\n        }\n    }\n}\n";
    }

    // x, y and the epilogue's tensors move a vector at a time, and a row norm's scale and bias;
    // pooling moves single elements.
    std::vector<std::string> vectorOperands() const {
        if (_program.kind == NormKind::Pooling) {
            return {};
        }
        std::vector<std::string> names = {"x"};
        if (has("dy")) {
            names.emplace_back("dy");
        }
        if (_program.storesY) {
            names.emplace_back("y");
        }
        if (_program.isRowNorm()) {
            names.emplace_back("scale");
            if (has("bias")) {
                names.emplace_back("bias");
            }
        }
        if (_program.epilogue) {
            for (const MemoryOperand& operand : _program.epilogue->operands) {
                if (!operand.inRegister && !operand.isSingleElement) {
                    const auto found =
                        std::find_if(_program.operands.begin(), _program.operands.end(),
                                     [&](const NormOperand& o) { return o.uid == operand.uid; });
                    names.push_back(found->name);
                }
            }
        }
        return names;
    }

    const NormProgram& _program;
    const DeviceInfo& _device;
    bool _scalar;
    NormOptions _options;
    std::ostringstream _out;
    NormSource _result;
};

}  // namespace

std::optional<NormSource> generateNormSource(const NormProgram& program, const DeviceInfo& device,
                                             bool scalar, std::string& reason, const NormOptions& options) {
    return NormGenerator(program, device, scalar, options).run(reason);
}

}  // namespace hipdnn_cuda_kernels
