#include "AttentionCodegen.hpp"

#include "../pointwise/PointwiseCodegen.hpp"
#include "../pointwise/PointwiseProgram.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace hipdnn_cuda_kernels {

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

// Every operand name a kernel may refer to; those the program lacks are null pointers whose
// accessors are never reached (their branches are discarded by if constexpr).
constexpr const char* kOperandNames[] = {"q",     "k",         "v",          "o",    "stats",
                                         "bias",  "dO",        "dq",         "dk",   "dv",
                                         "scale", "seq_len_q", "seq_len_kv", "seed", "offset"};

// Element access through an operand's strides.
constexpr const char* kAccess = R"(
#define HDNN_INF __int_as_float(0x7f800000)
constexpr long long GROUP = HQ / HK;
template <class O> __device__ __forceinline__ float hdnn_ld(const void* p, long long b, long long h, long long s, long long d) {
    typedef typename hdnn_storage<O::kind>::type E;
    return hdnn_to_float<O::kind>(static_cast<const E*>(p)[b * O::sb + h * O::sh + s * O::ss + d * O::sd]);
}
template <class O> __device__ __forceinline__ void hdnn_st(void* p, long long b, long long h, long long s, long long d, float v) {
    typedef typename hdnn_storage<O::kind>::type E;
    static_cast<E*>(p)[b * O::sb + h * O::sh + s * O::ss + d * O::sd] = hdnn_from_float<O::kind>(v);
}
// Element b (b * the batch stride) of an INT32 (kind 3) or INT64 (kind 4) operand.
template <class O> __device__ __forceinline__ long long hdnn_ldi(const void* p, long long b) {
    if constexpr (O::kind == 4) { return static_cast<const long long*>(p)[b * O::sb]; }
    else { return static_cast<const int*>(p)[b * O::sb]; }
}
)";

// What every kernel shares after the scalars: the valid lengths and visible key range of a query
// row, the bias and the dropout hash (the CPU reference's dropoutUniform).
constexpr const char* kMasks = R"(
__device__ __forceinline__ long long hdnn_clamp(long long x, long long lo, long long hi) { return x < lo ? lo : (x > hi ? hi : x); }
// Valid query and key counts of batch b; lengths outside [0, S] are clamped, so that no access leaves the tensors.
__device__ __forceinline__ void hdnn_lengths(const void* pq, const void* pkv, long long b, long long& validQ, long long& validKv) {
    validQ = SQ;
    validKv = SKV;
    if constexpr (PADDING) {
        validQ = hdnn_clamp(hdnn_seq_len_q(pq, b), 0, SQ);
        validKv = hdnn_clamp(hdnn_seq_len_kv(pkv, b), 0, SKV);
    }
}
// Query i sees keys [0, end): none when it is padding, fewer under the causal mask.
__device__ __forceinline__ long long hdnn_visible_end(long long i, long long validQ, long long validKv) {
    if (i >= validQ) { return 0; }
    if constexpr (!CAUSAL) { return validKv; }
    const long long shift = BOTTOM_RIGHT ? validKv - validQ : 0;
    return hdnn_clamp(i + shift + 1, 0, validKv);
}
__device__ __forceinline__ float hdnn_bias(const void* p, long long b, long long h, long long i, long long j) {
    if constexpr (HAS_BIAS) { return hdnn_ld<op_bias>(p, b, h, i, j); }
    return 0.0f;
}
// 0 for a dropped weight, 1 / (1 - p) for a kept one; index is (b, h, i, j)'s row-major position in (B, HQ, SQ, SKV).
__device__ __forceinline__ float hdnn_keep(unsigned long long seed, unsigned long long offset, long long b, long long h, long long i, long long j) {
    const unsigned long long index = (unsigned long long)(((b * HQ + h) * SQ + i) * SKV + j);
    unsigned long long x = seed + 0x9E3779B97F4A7C15ULL * (offset + index + 1ULL);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return (x >> 11) < DROP_THRESHOLD ? 0.0f : DROP_SCALE;
}
)";

constexpr const char* kForward = R"(
extern "C" __global__ void __launch_bounds__(NT) hipdnn_sdpa_forward(HDNN_PARAMS) {
    HDNN_BIND
    __shared__ float qs[TILE][D + 1];
    __shared__ float ks[TILE][D + 1];
    __shared__ float vs[TILE][DV + 1];
    __shared__ float ps[TILE][TILE + 1];
    __shared__ float rowMax[TILE], rowSum[TILE], rowAlpha[TILE];
    __shared__ long long rowEnd[TILE];
    const int tid = threadIdx.x;
    constexpr long long tiles = (SQ + TILE - 1) / TILE;
    const long long i0 = (blockIdx.x % tiles) * TILE;
    const long long h = (blockIdx.x / tiles) % HQ;
    const long long b = blockIdx.x / (tiles * HQ);
    const long long hk = h / GROUP;
    const float scale = hdnn_scale(p_scale);
    const unsigned long long seed = hdnn_seed(p_seed), offset = hdnn_offset(p_offset);
    long long validQ, validKv;
    hdnn_lengths(p_seq_len_q, p_seq_len_kv, b, validQ, validKv);
    if (tid < TILE) {
        rowEnd[tid] = hdnn_visible_end(i0 + tid, validQ, validKv);
        rowMax[tid] = -HDNN_INF;
        rowSum[tid] = 0.0f;
    }
    for (int e = tid; e < TILE * D; e += NT) {
        const int r = e / D, d = e % D;
        qs[r][d] = i0 + r < SQ ? hdnn_ld<op_q>(p_q, b, h, i0 + r, d) : 0.0f;
    }
    __syncthreads();
    long long keyEnd = 0;
    for (int r = 0; r < TILE; ++r) { keyEnd = rowEnd[r] > keyEnd ? rowEnd[r] : keyEnd; }
    constexpr int ACC = (TILE * DV + NT - 1) / NT;
    float acc[ACC];
#pragma unroll
    for (int k = 0; k < ACC; ++k) { acc[k] = 0.0f; }
    for (long long j0 = 0; j0 < keyEnd; j0 += TILE) {
        for (int e = tid; e < TILE * D; e += NT) {
            const int c = e / D, d = e % D;
            ks[c][d] = j0 + c < SKV ? hdnn_ld<op_k>(p_k, b, hk, j0 + c, d) : 0.0f;
        }
        for (int e = tid; e < TILE * DV; e += NT) {
            const int c = e / DV, d = e % DV;
            vs[c][d] = j0 + c < SKV ? hdnn_ld<op_v>(p_v, b, hk, j0 + c, d) : 0.0f;
        }
        __syncthreads();
        for (int e = tid; e < TILE * TILE; e += NT) {
            const int r = e / TILE, c = e % TILE;
            float s = -HDNN_INF;
            if (j0 + c < rowEnd[r]) {
                float dot = 0.0f;
#pragma unroll 8
                for (int d = 0; d < D; ++d) { dot = fmaf(qs[r][d], ks[c][d], dot); }
                s = scale * dot + hdnn_bias(p_bias, b, h, i0 + r, j0 + c);
            }
            ps[r][c] = s;
        }
        __syncthreads();
        if (tid < TILE) {
            const int r = tid;
            const float previous = rowMax[r];
            float m = previous;
            for (int c = 0; c < TILE; ++c) { m = fmaxf(m, ps[r][c]); }
            float alpha = 1.0f, sum = rowSum[r];
            if (m == -HDNN_INF) {
                for (int c = 0; c < TILE; ++c) { ps[r][c] = 0.0f; }
            } else {
                alpha = expf(previous - m);
                sum *= alpha;
                for (int c = 0; c < TILE; ++c) {
                    float p = expf(ps[r][c] - m);
                    sum += p;
                    if constexpr (DROPOUT) { p *= hdnn_keep(seed, offset, b, h, i0 + r, j0 + c); }
                    ps[r][c] = p;
                }
            }
            rowMax[r] = m;
            rowSum[r] = sum;
            rowAlpha[r] = alpha;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < ACC; ++k) {
            const int e = tid + k * NT;
            if (e < TILE * DV) {
                const int r = e / DV, d = e % DV;
                float a = acc[k] * rowAlpha[r];
#pragma unroll 8
                for (int c = 0; c < TILE; ++c) { a = fmaf(ps[r][c], vs[c][d], a); }
                acc[k] = a;
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int k = 0; k < ACC; ++k) {
        const int e = tid + k * NT;
        if (e < TILE * DV) {
            const int r = e / DV, d = e % DV;
            if (i0 + r < SQ) {
                hdnn_st<op_o>(p_o, b, h, i0 + r, d, rowMax[r] == -HDNN_INF ? 0.0f : acc[k] / rowSum[r]);
            }
        }
    }
    if constexpr (HAS_STATS) {
        if (tid < TILE && i0 + tid < SQ) {
            const float m = rowMax[tid];
            hdnn_st<op_stats>(p_stats, b, h, i0 + tid, 0, m == -HDNN_INF ? HDNN_INF : m + logf(rowSum[tid]));
        }
    }
}
)";

constexpr const char* kBackward = R"(
extern "C" __global__ void __launch_bounds__(NT) hipdnn_sdpa_delta(HDNN_PARAMS) {
    HDNN_BIND
    const long long row = (long long)blockIdx.x * NT + threadIdx.x;
    if (row >= B * HQ * SQ) { return; }
    const long long i = row % SQ, h = (row / SQ) % HQ, b = row / (SQ * HQ);
    float sum = 0.0f;
    for (int d = 0; d < DV; ++d) { sum = fmaf(hdnn_ld<op_dO>(p_dO, b, h, i, d), hdnn_ld<op_o>(p_o, b, h, i, d), sum); }
    static_cast<float*>(hdnn_ws)[row] = sum;
}

// Row r's statistics of query row i of head h: its log-sum-exp, delta and visible end (0 when
// the forward pass saw no key: stats +inf).
__device__ __forceinline__ void hdnn_row(const void* p_stats, const float* delta, long long b, long long h, long long i,
                                         long long validQ, long long validKv, float& lse, float& rowDelta, long long& end) {
    lse = i < SQ ? hdnn_ld<op_stats>(p_stats, b, h, i, 0) : HDNN_INF;
    rowDelta = i < SQ ? delta[(b * HQ + h) * SQ + i] : 0.0f;
    end = lse == HDNN_INF ? 0 : hdnn_visible_end(i, validQ, validKv);
}

extern "C" __global__ void __launch_bounds__(NT) hipdnn_sdpa_dq(HDNN_PARAMS) {
    HDNN_BIND
    __shared__ float qs[TILE][D + 1];
    __shared__ float gs[TILE][DV + 1];
    __shared__ float ks[TILE][D + 1];
    __shared__ float vs[TILE][DV + 1];
    __shared__ float ds[TILE][TILE + 1];
    __shared__ float rowLse[TILE], rowDelta[TILE];
    __shared__ long long rowEnd[TILE];
    const int tid = threadIdx.x;
    constexpr long long tiles = (SQ + TILE - 1) / TILE;
    const long long i0 = (blockIdx.x % tiles) * TILE;
    const long long h = (blockIdx.x / tiles) % HQ;
    const long long b = blockIdx.x / (tiles * HQ);
    const long long hk = h / GROUP;
    const float scale = hdnn_scale(p_scale);
    const unsigned long long seed = hdnn_seed(p_seed), offset = hdnn_offset(p_offset);
    long long validQ, validKv;
    hdnn_lengths(p_seq_len_q, p_seq_len_kv, b, validQ, validKv);
    if (tid < TILE) {
        hdnn_row(p_stats, static_cast<const float*>(hdnn_ws), b, h, i0 + tid, validQ, validKv, rowLse[tid],
                 rowDelta[tid], rowEnd[tid]);
    }
    for (int e = tid; e < TILE * D; e += NT) {
        const int r = e / D, d = e % D;
        qs[r][d] = i0 + r < SQ ? hdnn_ld<op_q>(p_q, b, h, i0 + r, d) : 0.0f;
    }
    for (int e = tid; e < TILE * DV; e += NT) {
        const int r = e / DV, d = e % DV;
        gs[r][d] = i0 + r < SQ ? hdnn_ld<op_dO>(p_dO, b, h, i0 + r, d) : 0.0f;
    }
    __syncthreads();
    long long keyEnd = 0;
    for (int r = 0; r < TILE; ++r) { keyEnd = rowEnd[r] > keyEnd ? rowEnd[r] : keyEnd; }
    constexpr int ACC = (TILE * D + NT - 1) / NT;
    float acc[ACC];
#pragma unroll
    for (int k = 0; k < ACC; ++k) { acc[k] = 0.0f; }
    for (long long j0 = 0; j0 < keyEnd; j0 += TILE) {
        for (int e = tid; e < TILE * D; e += NT) {
            const int c = e / D, d = e % D;
            ks[c][d] = j0 + c < SKV ? hdnn_ld<op_k>(p_k, b, hk, j0 + c, d) : 0.0f;
        }
        for (int e = tid; e < TILE * DV; e += NT) {
            const int c = e / DV, d = e % DV;
            vs[c][d] = j0 + c < SKV ? hdnn_ld<op_v>(p_v, b, hk, j0 + c, d) : 0.0f;
        }
        __syncthreads();
        for (int e = tid; e < TILE * TILE; e += NT) {
            const int r = e / TILE, c = e % TILE;
            float grad = 0.0f;
            if (j0 + c < rowEnd[r]) {
                float dot = 0.0f, dp = 0.0f;
#pragma unroll 8
                for (int d = 0; d < D; ++d) { dot = fmaf(qs[r][d], ks[c][d], dot); }
#pragma unroll 8
                for (int d = 0; d < DV; ++d) { dp = fmaf(gs[r][d], vs[c][d], dp); }
                if constexpr (DROPOUT) { dp *= hdnn_keep(seed, offset, b, h, i0 + r, j0 + c); }
                const float p = expf(scale * dot + hdnn_bias(p_bias, b, h, i0 + r, j0 + c) - rowLse[r]);
                grad = p * (dp - rowDelta[r]);
            }
            ds[r][c] = grad;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < ACC; ++k) {
            const int e = tid + k * NT;
            if (e < TILE * D) {
                const int r = e / D, d = e % D;
                float a = acc[k];
#pragma unroll 8
                for (int c = 0; c < TILE; ++c) { a = fmaf(ds[r][c], ks[c][d], a); }
                acc[k] = a;
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int k = 0; k < ACC; ++k) {
        const int e = tid + k * NT;
        if (e < TILE * D) {
            const int r = e / D, d = e % D;
            if (i0 + r < SQ) { hdnn_st<op_dq>(p_dq, b, h, i0 + r, d, scale * acc[k]); }
        }
    }
}

extern "C" __global__ void __launch_bounds__(NT) hipdnn_sdpa_dkv(HDNN_PARAMS) {
    HDNN_BIND
    __shared__ float ks[TILE][D + 1];
    __shared__ float vs[TILE][DV + 1];
    __shared__ float qs[TILE][D + 1];
    __shared__ float gs[TILE][DV + 1];
    __shared__ float ps[TILE][TILE + 1];
    __shared__ float ds[TILE][TILE + 1];
    __shared__ float rowLse[TILE], rowDelta[TILE];
    __shared__ long long rowEnd[TILE];
    const int tid = threadIdx.x;
    constexpr long long tiles = (SKV + TILE - 1) / TILE;
    const long long j0 = (blockIdx.x % tiles) * TILE;
    const long long hk = (blockIdx.x / tiles) % HK;
    const long long b = blockIdx.x / (tiles * HK);
    const float scale = hdnn_scale(p_scale);
    const unsigned long long seed = hdnn_seed(p_seed), offset = hdnn_offset(p_offset);
    long long validQ, validKv;
    hdnn_lengths(p_seq_len_q, p_seq_len_kv, b, validQ, validKv);
    for (int e = tid; e < TILE * D; e += NT) {
        const int c = e / D, d = e % D;
        ks[c][d] = j0 + c < SKV ? hdnn_ld<op_k>(p_k, b, hk, j0 + c, d) : 0.0f;
    }
    for (int e = tid; e < TILE * DV; e += NT) {
        const int c = e / DV, d = e % DV;
        vs[c][d] = j0 + c < SKV ? hdnn_ld<op_v>(p_v, b, hk, j0 + c, d) : 0.0f;
    }
    constexpr int ACCK = (TILE * D + NT - 1) / NT;
    constexpr int ACCV = (TILE * DV + NT - 1) / NT;
    float accK[ACCK], accV[ACCV];
#pragma unroll
    for (int k = 0; k < ACCK; ++k) { accK[k] = 0.0f; }
#pragma unroll
    for (int k = 0; k < ACCV; ++k) { accV[k] = 0.0f; }
    for (long long g = 0; g < GROUP; ++g) {
        const long long h = hk * GROUP + g;
        for (long long i0 = 0; i0 < validQ; i0 += TILE) {
            __syncthreads();
            if (tid < TILE) {
                hdnn_row(p_stats, static_cast<const float*>(hdnn_ws), b, h, i0 + tid, validQ, validKv, rowLse[tid],
                         rowDelta[tid], rowEnd[tid]);
            }
            __syncthreads();
            long long reach = 0;
            for (int r = 0; r < TILE; ++r) { reach = rowEnd[r] > reach ? rowEnd[r] : reach; }
            if (reach <= j0) { continue; }
            for (int e = tid; e < TILE * D; e += NT) {
                const int r = e / D, d = e % D;
                qs[r][d] = i0 + r < SQ ? hdnn_ld<op_q>(p_q, b, h, i0 + r, d) : 0.0f;
            }
            for (int e = tid; e < TILE * DV; e += NT) {
                const int r = e / DV, d = e % DV;
                gs[r][d] = i0 + r < SQ ? hdnn_ld<op_dO>(p_dO, b, h, i0 + r, d) : 0.0f;
            }
            __syncthreads();
            for (int e = tid; e < TILE * TILE; e += NT) {
                const int r = e / TILE, c = e % TILE;
                float weight = 0.0f, grad = 0.0f;
                if (j0 + c < rowEnd[r]) {
                    float dot = 0.0f, dp = 0.0f;
#pragma unroll 8
                    for (int d = 0; d < D; ++d) { dot = fmaf(qs[r][d], ks[c][d], dot); }
#pragma unroll 8
                    for (int d = 0; d < DV; ++d) { dp = fmaf(gs[r][d], vs[c][d], dp); }
                    float keep = 1.0f;
                    if constexpr (DROPOUT) { keep = hdnn_keep(seed, offset, b, h, i0 + r, j0 + c); }
                    const float p = expf(scale * dot + hdnn_bias(p_bias, b, h, i0 + r, j0 + c) - rowLse[r]);
                    weight = p * keep;
                    grad = p * (dp * keep - rowDelta[r]);
                }
                ps[r][c] = weight;
                ds[r][c] = grad;
            }
            __syncthreads();
#pragma unroll
            for (int k = 0; k < ACCV; ++k) {
                const int e = tid + k * NT;
                if (e < TILE * DV) {
                    const int c = e / DV, d = e % DV;
                    float a = accV[k];
#pragma unroll 8
                    for (int r = 0; r < TILE; ++r) { a = fmaf(ps[r][c], gs[r][d], a); }
                    accV[k] = a;
                }
            }
#pragma unroll
            for (int k = 0; k < ACCK; ++k) {
                const int e = tid + k * NT;
                if (e < TILE * D) {
                    const int c = e / D, d = e % D;
                    float a = accK[k];
#pragma unroll 8
                    for (int r = 0; r < TILE; ++r) { a = fmaf(ds[r][c], qs[r][d], a); }
                    accK[k] = a;
                }
            }
        }
    }
#pragma unroll
    for (int k = 0; k < ACCK; ++k) {
        const int e = tid + k * NT;
        if (e < TILE * D) {
            const int c = e / D, d = e % D;
            if (j0 + c < SKV) { hdnn_st<op_dk>(p_dk, b, hk, j0 + c, d, scale * accK[k]); }
        }
    }
#pragma unroll
    for (int k = 0; k < ACCV; ++k) {
        const int e = tid + k * NT;
        if (e < TILE * DV) {
            const int c = e / DV, d = e % DV;
            if (j0 + c < SKV) { hdnn_st<op_dv>(p_dv, b, hk, j0 + c, d, accV[k]); }
        }
    }
}
)";

// Kinds of hdnn_storage (0 float, 1 half, 2 bfloat16) and of hdnn_ldi (3 INT32, 4 INT64).
int operandKind(fb::DataType type) {
    if (const auto element = elementTypeOf(type)) {
        return elementKind(*element);
    }
    return type == fb::DataType::INT64 ? 4 : 3;
}

std::string floatLiteral(double value) {
    char text[64];
    std::snprintf(text, sizeof(text), "%a", static_cast<double>(static_cast<float>(value)));
    return std::string("(float)") + text;
}

class Generator {
public:
    Generator(const AttentionProgram& program, int computeCapability)
        : _program(program),
          _computeCapability(computeCapability),
          _tile(attentionTile(program.headDim, program.valueDim)) {}

    std::optional<AttentionSource> run(std::string& reason) {
        AttentionSource result;
        result.tile = _tile;
        const AttentionProgram& p = _program;
        const int64_t queryTiles = ceilDiv(p.seqQ, _tile);
        const int64_t rows = p.batch * p.queryHeads * p.seqQ;
        const bool forward = p.direction == AttentionDirection::Forward;
        std::vector<std::pair<std::string, int64_t>> launches;
        if (forward) {
            launches = {{kSdpaForwardKernel, p.batch * p.queryHeads * queryTiles}};
        } else {
            launches = {{kSdpaDeltaKernel, ceilDiv(rows, kSdpaBlockSize)},
                        {kSdpaDqKernel, p.batch * p.queryHeads * queryTiles},
                        {kSdpaDkvKernel, p.batch * p.kvHeads * ceilDiv(p.seqKv, _tile)}};
            result.workspaceBytes = static_cast<size_t>(rows) * sizeof(float);
        }
        for (const auto& [kernel, blocks] : launches) {
            if (blocks > std::numeric_limits<int32_t>::max()) {
                reason = std::string(kernel) + " would need " + std::to_string(blocks) +
                         " blocks; CUDA_SDPA_ENGINE launches at most 2^31 - 1";
                return std::nullopt;
            }
            result.kernelNames.push_back(kernel);
            result.launches.push_back({kernel, static_cast<unsigned>(blocks)});
        }
        std::ostringstream source;
        source << kernelPrelude(_computeCapability) << constants() << operands() << kAccess << scalars()
               << kMasks << (forward ? kForward : kBackward);
        result.source = source.str();
        return result;
    }

private:
    static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

    std::string constants() const {
        const AttentionProgram& p = _program;
        const bool dropout = p.dropoutProbability > 0;
        std::ostringstream text;
        text << "constexpr long long B = " << p.batch << ", HQ = " << p.queryHeads << ", HK = " << p.kvHeads
             << ", SQ = " << p.seqQ << ", SKV = " << p.seqKv << ";\n"
             << "constexpr int D = " << p.headDim << ", DV = " << p.valueDim << ", TILE = " << _tile
             << ", NT = " << kSdpaBlockSize << ";\n"
             << "constexpr bool HAS_BIAS = " << (p.operand("bias") != nullptr ? "true" : "false")
             << ", HAS_STATS = " << (p.operand("stats") != nullptr ? "true" : "false")
             << ", CAUSAL = " << (p.causal ? "true" : "false")
             << ", BOTTOM_RIGHT = " << (p.bottomRight ? "true" : "false")
             << ", PADDING = " << (p.seqLenQ ? "true" : "false")
             << ", DROPOUT = " << (dropout ? "true" : "false") << ";\n"
             << "constexpr unsigned long long DROP_THRESHOLD = "
             << (dropout ? dropoutThreshold(p.dropoutProbability) : 0) << "ULL;\n"
             << "constexpr float DROP_SCALE = "
             << floatLiteral(dropout ? 1.0 / (1.0 - p.dropoutProbability) : 1.0) << ";\n";
        return text.str();
    }

    // An op_<name> struct (kind and strides) per operand name, the kernels' parameter list and the
    // binding of each name to its parameter (null where the program has no such operand).
    std::string operands() const {
        std::ostringstream text;
        std::ostringstream bind;
        for (const char* name : kOperandNames) {
            const AttentionOperand* operand = _program.operand(name);
            const auto& s = operand != nullptr ? operand->strides : std::array<int64_t, 4>{};
            text << "struct op_" << name
                 << " { static constexpr int kind = " << (operand != nullptr ? operandKind(operand->type) : 0)
                 << "; static constexpr long long sb = " << s[0] << ", sh = " << s[1] << ", ss = " << s[2]
                 << ", sd = " << s[3] << "; };\n";
            if (operand == nullptr) {
                bind << "void* const p_" << name << " = nullptr; ";
            }
        }
        text << "#define HDNN_PARAMS ";
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            text << "void* p_" << _program.operands[k].name << ", ";
            bind << "(void)p_" << _program.operands[k].name << "; ";
        }
        text << "void* hdnn_ws\n#define HDNN_BIND " << bind.str() << "(void)hdnn_ws;\n";
        return text.str();
    }

    // hdnn_scale, hdnn_seq_len_q / _kv, hdnn_seed, hdnn_offset: constants or loads.
    std::string scalars() const {
        const AttentionProgram& p = _program;
        std::ostringstream text;
        text << "__device__ __forceinline__ float hdnn_scale(const void* p) { (void)p; return "
             << (p.scale.constant ? floatLiteral(*p.scale.constant) : "hdnn_ld<op_scale>(p, 0, 0, 0, 0)")
             << "; }\n";
        const auto integer = [&](const char* function, const std::optional<AttentionScalar>& scalar,
                                 const char* operand, const char* absent, const char* type) {
            text << "__device__ __forceinline__ " << type << " " << function
                 << "(const void* p, long long b) { (void)p; (void)b; return (" << type << ")";
            if (!scalar) {
                text << absent;
            } else if (scalar->integer) {
                text << "(" << *scalar->integer << "LL)";
            } else {
                text << "hdnn_ldi<op_" << operand << ">(p, b)";
            }
            text << "; }\n";
        };
        // Lengths are per batch; a seed or offset is one element (b = 0).
        integer("hdnn_seq_len_q", p.seqLenQ, "seq_len_q", "SQ", "long long");
        integer("hdnn_seq_len_kv", p.seqLenKv, "seq_len_kv", "SKV", "long long");
        integer("hdnn_seed_at", p.seed, "seed", "0", "unsigned long long");
        integer("hdnn_offset_at", p.offset, "offset", "0", "unsigned long long");
        text << "__device__ __forceinline__ unsigned long long hdnn_seed(const void* p) { return "
                "hdnn_seed_at(p, 0); }\n"
             << "__device__ __forceinline__ unsigned long long hdnn_offset(const void* p) { return "
                "hdnn_offset_at(p, 0); }\n";
        return text.str();
    }

    const AttentionProgram& _program;
    int _computeCapability;
    int _tile;
};

}  // namespace

int attentionTile(int64_t headDim, int64_t valueDim) {
    const int64_t widest = std::max<int64_t>(headDim, valueDim);
    int tile = 32;
    while (tile > 4 && tile * widest > 2048) {
        tile /= 2;
    }
    return tile;
}

uint64_t dropoutThreshold(double probability) {
    // Top 53 bits u are dropped when u * 2^-53 < p, that is u < p * 2^53 (exact: a power-of-two
    // scaling), that is u < ceil(p * 2^53) for an integer u.
    return static_cast<uint64_t>(std::ceil(probability * 0x1.0p53));
}

std::optional<AttentionSource> generateAttentionSource(const AttentionProgram& program, int computeCapability,
                                                       std::string& reason) {
    return Generator(program, computeCapability).run(reason);
}

}  // namespace hipdnn_cuda_kernels
