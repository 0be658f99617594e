// Channels-last batch norm training on one GPU as one cooperative kernel.
#include "NormGenerator.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace hipdnn_cuda_kernels::detail {

namespace {

// The persistent training kernel: one block of this many threads per multiprocessor, loading this
// many vectors per thread before it computes; shared memory it leaves unused.
constexpr unsigned kPersistentBlockSize = 512;
constexpr int kPersistentBatch = 8;
constexpr int64_t kPersistentSharedReserve = 1024;
// Iterations of x the persistent kernel holds in registers (four 32-bit registers a vector, of
// the 128 a thread has at 512 threads per multiprocessor), when its vectors are 16 bytes.
constexpr int64_t kPersistentHeld = 12;
constexpr int64_t kPersistentHeldVectorBytes = 16;

}  // namespace

// Channels-last training on this GPU alone runs as one cooperative kernel, when the device
// launches those and a row's vectors fit in one block.
bool NormGenerator::persistentTraining() const {
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
bool NormGenerator::emitPersistentTraining(int width, std::string& reason) {
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
         << ";\nconstexpr hdnn_index kPartials = 2 * kC;\ntypedef hdnn_vec<" << xKind << R"(, kW> hdnn_xvec;
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
         << "extern \"C\" __global__ void __launch_bounds__(kBlock, 1) " << kBatchnormPersistentKernel << "("
         << parameters() << R"() {
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
        )"
         << applied("raw") << R"(
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

}  // namespace hipdnn_cuda_kernels::detail
