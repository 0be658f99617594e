#include "SdpaPlan.hpp"

#include "MemoryDesc.hpp"
#include "SdpaKernels.hpp"

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_flatbuffers_sdk/PassByValue.hpp>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <type_traits>
#include <vector>

namespace hipdnn_onednn {

using hipdnn_flatbuffers_sdk::GraphWrapper;
using md = dnnl::memory::desc;
using dt = dnnl::memory::data_type;
namespace kernels = sdpa_kernels;

namespace {

// Flash-attention layout: the work is split into tasks (one query tile of one head, or one whole
// head for the backward pass) that OpenMP threads take dynamically; each task runs its matmuls
// on its own thread (oneDNN runs a primitive single-threaded inside a parallel region) over
// tiles that stay in that core's L2: 128 queries × 512 keys of fp32 scores.
constexpr int64_t kQueryTile = 128;
constexpr int64_t kKeyTile = 512;
constexpr int64_t kKeyGranule = 128;

constexpr float kNegativeInfinity = -std::numeric_limits<float>::infinity();

// Element strides of a (B, H, S, D) tensor.
struct Layout {
    int64_t b = 0;
    int64_t h = 0;
    int64_t s = 0;
    int64_t d = 0;
};

Layout layoutOf(const fb::TensorAttributes& tensor) {
    const auto strides = stridesOf(tensor);
    const auto dims = dimsOf(tensor);
    // A dim of extent 1 never moves: 0 makes a broadcast bias read the same element.
    const auto stride = [&](size_t d) { return dims[d] == 1 ? 0 : strides[d]; };
    return {stride(0), stride(1), stride(2), stride(3)};
}

// One matmul with its descriptors; its memory objects live per thread (TileMemory).
struct Matmul {
    dnnl::matmul primitive;
    md src, weights, dst;
    size_t scratchpadBytes = 0;
};

// The two forward matmuls of one tile shape (queries × keys): S = Q Kᵀ and O += P V.
struct TileMatmuls {
    Matmul scores, values;
};

// The five backward matmuls of one tile shape: S = Q Kᵀ, dP = dO Vᵀ, dV += Pᵀ dO, dK += dSᵀ Q,
// dQ += dS K (dS already carries the scale).
struct GradientMatmuls {
    Matmul scores, valueGradientIn, valueGradient, keyGradient, queryGradient;
};

// Everything one execute needs; shared by the threads (read only during execute).
struct Attention {
    dnnl::engine engine;
    int64_t batch = 0, heads = 0, kvHeads = 0, group = 0, seqQ = 0, seqKv = 0, dim = 0, valueDim = 0;
    int64_t queryTile = 0, keyTile = 0;
    int threads = 1;
    bool bf16 = false;
    int64_t qUid = 0, kUid = 0, vUid = 0, oUid = 0;
    std::optional<int64_t> statsUid, biasUid, scaleUid;
    fb::DataType scaleType = fb::DataType::FLOAT;  // of the scale tensor read at execute
    Layout q, k, v, o, stats, bias;
    // Backward: the output gradient and the three input gradients.
    int64_t dOUid = 0, dqUid = 0, dkUid = 0, dvUid = 0;
    Layout dO, dq, dk, dv;
    float scale = 1.0F;
    bool causal = false;
    int64_t diagonalShift = 0;  // key j is visible from query i when j <= i + shift (causal)
    std::map<std::pair<int64_t, int64_t>, TileMatmuls> tiles;
    std::map<std::pair<int64_t, int64_t>, GradientMatmuls> gradientTiles;
    // The private area: one region per thread of threadBytes, then (backward, GQA) the fp32 dK and
    // dV sums of every KV head.
    size_t threadsOffset = 0, threadBytes = 0, sharedGradientOffset = 0;
    // Offsets inside a thread's region.
    size_t scoresOffset = 0, probabilitiesOffset = 0, accumulatorOffset = 0, maxOffset = 0, sumOffset = 0,
           scratchpadOffset = 0;
    size_t gradientOffset = 0, gradientIoOffset = 0, deltaOffset = 0, queryGradientOffset = 0,
           keyGradientOffset = 0, valueGradientOffset = 0, rowOffset = 0;

    size_t elementBytes() const { return bf16 ? 2 : 4; }
    dt io() const { return bf16 ? dt::bf16 : dt::f32; }

    // The number of keys of tile [j0, j0 + keys) that query i sees: all but those above the
    // causal diagonal.
    int64_t visibleKeys(int64_t i, int64_t j0, int64_t keys) const {
        if (!causal) {
            return keys;
        }
        return std::clamp<int64_t>(i + diagonalShift - j0 + 1, 0, keys);
    }

    // The keys of the tile starting at j0 that queries up to lastQuery compute: the whole tile,
    // or under a causal mask up to the diagonal rounded up to kKeyGranule (the rest is masked;
    // the granule keeps the number of matmul shapes small); 0 when the tile is past the diagonal.
    int64_t keysOfTile(int64_t lastQuery, int64_t j0) const {
        const int64_t keys = std::min(keyTile, seqKv - j0);
        if (!causal) {
            return keys;
        }
        const int64_t needed = lastQuery + diagonalShift + 1 - j0;
        if (needed <= 0) {
            return 0;
        }
        return std::min(keys, (needed + kKeyGranule - 1) / kKeyGranule * kKeyGranule);
    }

    // Bias row of query i of head h in batch b (key 0 of the tile starting at j0), or null.
    const float* biasRow(const float* biasData, int64_t b, int64_t h, int64_t i, int64_t j0) const {
        return biasData == nullptr ? nullptr : biasData + b * bias.b + h * bias.h + i * bias.s + j0 * bias.d;
    }
};

md stridedDesc(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, dt type) {
    return md(dnnl::memory::dims(dims.begin(), dims.end()), type,
              dnnl::memory::dims(strides.begin(), strides.end()));
}

md denseDesc(int64_t rows, int64_t cols, dt type) {
    return md({rows, cols}, type, dnnl::memory::format_tag::ab);
}

Matmul makeMatmul(const Attention& a, const md& src, const md& weights, const md& dst, bool accumulate) {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (accumulate) {
        dnnl::post_ops sum;
        sum.append_sum(1.0F);
        attr.set_post_ops(sum);
    }
    const dnnl::matmul::primitive_desc pd({src, weights, dst}, attr, a.engine);
    return {dnnl::matmul(pd), src, weights, dst, pd.scratchpad_desc().get_size()};
}

// A thread's memory objects for one matmul: rebound with set_data_handle at every call.
struct MatmulMemory {
    dnnl::memory src, weights, dst, scratchpad;
};

class ThreadMatmuls {
public:
    ThreadMatmuls(const dnnl::engine& engine, std::byte* scratchpad)
        : _engine(engine), _stream(engine), _scratchpad(scratchpad) {}

    void run(const Matmul& m, const void* src, const void* weights, void* dst) {
        auto [it, added] = _memory.try_emplace(&m);
        MatmulMemory& memory = it->second;
        if (added) {
            memory.src = dnnl::memory(m.src, _engine, DNNL_MEMORY_NONE);
            memory.weights = dnnl::memory(m.weights, _engine, DNNL_MEMORY_NONE);
            memory.dst = dnnl::memory(m.dst, _engine, DNNL_MEMORY_NONE);
            memory.scratchpad = dnnl::memory(
                md({static_cast<int64_t>(m.scratchpadBytes)}, dt::u8, dnnl::memory::format_tag::a), _engine,
                _scratchpad);
        }
        memory.src.set_data_handle(const_cast<void*>(src));
        memory.weights.set_data_handle(const_cast<void*>(weights));
        memory.dst.set_data_handle(dst);
        m.primitive.execute(_stream, {{DNNL_ARG_SRC, memory.src},
                                      {DNNL_ARG_WEIGHTS, memory.weights},
                                      {DNNL_ARG_DST, memory.dst},
                                      {DNNL_ARG_SCRATCHPAD, memory.scratchpad}});
        _stream.wait();
    }

private:
    dnnl::engine _engine;
    dnnl::stream _stream;
    std::byte* _scratchpad;
    std::map<const Matmul*, MatmulMemory> _memory;
};

TileMatmuls makeTile(const Attention& a, int64_t queries, int64_t keys) {
    const dt io = a.io();
    TileMatmuls tile;
    const md qDesc = stridedDesc({queries, a.dim}, {a.q.s, a.q.d}, io);
    const md kTDesc = stridedDesc({a.dim, keys}, {a.k.d, a.k.s}, io);  // Kᵀ read through K's strides
    const md vDesc = stridedDesc({keys, a.valueDim}, {a.v.s, a.v.d}, io);
    tile.scores = makeMatmul(a, qDesc, kTDesc, denseDesc(queries, keys, dt::f32), false);
    tile.values =
        makeMatmul(a, denseDesc(queries, keys, io), vDesc, denseDesc(queries, a.valueDim, dt::f32), true);
    return tile;
}

GradientMatmuls makeGradientTile(const Attention& a, int64_t queries, int64_t keys) {
    const dt io = a.io();
    GradientMatmuls t;
    const md qDesc = stridedDesc({queries, a.dim}, {a.q.s, a.q.d}, io);
    const md kTDesc = stridedDesc({a.dim, keys}, {a.k.d, a.k.s}, io);
    const md kDesc = stridedDesc({keys, a.dim}, {a.k.s, a.k.d}, io);
    const md dODesc = stridedDesc({queries, a.valueDim}, {a.dO.s, a.dO.d}, io);
    const md vTDesc = stridedDesc({a.valueDim, keys}, {a.v.d, a.v.s}, io);
    const md transposed = stridedDesc({keys, queries}, {1, keys}, io);  // P or dS viewed transposed
    t.scores = makeMatmul(a, qDesc, kTDesc, denseDesc(queries, keys, dt::f32), false);
    t.valueGradientIn = makeMatmul(a, dODesc, vTDesc, denseDesc(queries, keys, dt::f32), false);
    t.valueGradient = makeMatmul(a, transposed, dODesc, denseDesc(keys, a.valueDim, dt::f32), true);
    t.keyGradient = makeMatmul(a, transposed, qDesc, denseDesc(keys, a.dim, dt::f32), true);
    t.queryGradient =
        makeMatmul(a, denseDesc(queries, keys, io), kDesc, denseDesc(queries, a.dim, dt::f32), true);
    return t;
}

std::byte* at(const void* base, int64_t elements, size_t elementBytes) {
    return const_cast<std::byte*>(static_cast<const std::byte*>(base)) +
           elements * static_cast<int64_t>(elementBytes);
}

// Runs body(matmuls, region, task) for every task in [0, count) on the plan's threads,
// dynamically scheduled; region is the thread's part of the private area, matmuls its memory
// objects. The first exception thrown by any task is rethrown here.
template <class Body>
void parallelTasks(const Attention& a, std::byte* area, int64_t count, Body&& body) {
    std::exception_ptr failure;
    std::mutex failureMutex;
    const int threads = static_cast<int>(std::min<int64_t>(a.threads, std::max<int64_t>(count, 1)));
#pragma omp parallel num_threads(threads)
    {
        const int thread = omp_get_thread_num();
        std::byte* region = area + a.threadsOffset + static_cast<size_t>(thread) * a.threadBytes;
        std::optional<ThreadMatmuls> matmuls;
#pragma omp for schedule(dynamic, 1)
        for (int64_t task = 0; task < count; ++task) {
            try {
                if (!matmuls) {
                    matmuls.emplace(a.engine, region + a.scratchpadOffset);
                }
                body(*matmuls, region, task);
            } catch (...) {
                const std::lock_guard lock(failureMutex);
                if (!failure) {
                    failure = std::current_exception();
                }
            }
        }
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
}

float readScalar(fb::DataType type, const void* data) {
    switch (type) {
        case fb::DataType::DOUBLE:
            return static_cast<float>(*static_cast<const double*>(data));
        case fb::DataType::BFLOAT16:
            return static_cast<float>(*static_cast<const hipdnn_data_sdk::types::bfloat16*>(data));
        default:
            return *static_cast<const float*>(data);
    }
}

int64_t tileCount(int64_t extent, int64_t tile) {
    return (extent + tile - 1) / tile;
}

// Forward: queries [i0, i0 + queries) of head h of batch b, over every key tile (online softmax:
// running maximum and sum per row, the fp32 output accumulator rescaled when the maximum grows).
void runQueryTile(const Attention& a, ThreadMatmuls& matmuls, const ExecutionBuffers& buffers,
                  std::byte* region, float scale, int64_t b, int64_t h, int64_t i0, int64_t queries) {
    auto* scores = reinterpret_cast<float*>(region + a.scoresOffset);
    // fp32 probabilities overwrite the scores; bf16 ones have their own region.
    void* probabilities = a.bf16 ? static_cast<void*>(region + a.probabilitiesOffset) : scores;
    auto* accumulator = reinterpret_cast<float*>(region + a.accumulatorOffset);
    auto* rowMax = reinterpret_cast<float*>(region + a.maxOffset);
    auto* rowSum = reinterpret_cast<float*>(region + a.sumOffset);
    std::fill(accumulator, accumulator + queries * a.valueDim, 0.0F);
    std::fill(rowMax, rowMax + queries, kNegativeInfinity);
    std::fill(rowSum, rowSum + queries, 0.0F);

    const size_t bytes = a.elementBytes();
    const int64_t hk = h / a.group;
    const std::byte* qTile = at(buffers.tensor(a.qUid), b * a.q.b + h * a.q.h + i0 * a.q.s, bytes);
    const void* kData = buffers.tensor(a.kUid);
    const void* vData = buffers.tensor(a.vUid);
    const auto* biasData = a.biasUid ? static_cast<const float*>(buffers.tensor(*a.biasUid)) : nullptr;
    const int64_t lastQuery = i0 + queries - 1;
    for (int64_t j0 = 0; j0 < a.seqKv; j0 += a.keyTile) {
        const int64_t keys = a.keysOfTile(lastQuery, j0);
        if (keys == 0) {
            break;  // every later key is above the diagonal for every query of the tile
        }
        const TileMatmuls& tile = a.tiles.at({queries, keys});
        matmuls.run(tile.scores, qTile, at(kData, b * a.k.b + hk * a.k.h + j0 * a.k.s, bytes), scores);
        for (int64_t r = 0; r < queries; ++r) {
            const int64_t i = i0 + r;
            float* s = scores + r * keys;
            const int64_t visible = a.visibleKeys(i, j0, keys);
            // Without a bias and with a positive scale, max(scale · s) = scale · max(s): the scores
            // are read once for their maximum and once for the exponentials, never rewritten.
            const bool scaleInExp = biasData == nullptr && scale > 0.0F;
            const float tileMax =
                scaleInExp ? (visible == 0 ? kNegativeInfinity : scale * kernels::rowMax(s, visible))
                           : kernels::scaleMaskMax(s, keys, visible, scale, a.biasRow(biasData, b, h, i, j0),
                                                   a.bias.d);
            const float newMax = std::max(rowMax[r], tileMax);
            // A row with no visible key yet keeps weight 0 everywhere (no exp(-inf + inf)).
            const float shift = newMax == kNegativeInfinity ? 0.0F : newMax;
            const float rescale = rowMax[r] == kNegativeInfinity ? 0.0F : std::exp(rowMax[r] - newMax);
            void* p = a.bf16 ? static_cast<void*>(static_cast<std::byte*>(probabilities) + r * keys * 2)
                             : static_cast<void*>(s);
            const float sum = kernels::expSum(s, keys, visible, scaleInExp ? scale : 1.0F, shift, p, a.bf16);
            rowSum[r] = rowSum[r] * rescale + sum;
            rowMax[r] = newMax;
            if (rescale != 1.0F) {
                kernels::scaleRow(accumulator + r * a.valueDim, a.valueDim, rescale);
            }
        }
        matmuls.run(tile.values, probabilities, at(vData, b * a.v.b + hk * a.v.h + j0 * a.v.s, bytes),
                    accumulator);
    }

    void* oData = buffers.tensor(a.oUid);
    auto* statsData = a.statsUid ? static_cast<float*>(buffers.tensor(*a.statsUid)) : nullptr;
    for (int64_t r = 0; r < queries; ++r) {
        const int64_t i = i0 + r;
        // A row that saw no key writes 0 and stats +inf, as the reference does.
        const bool empty = rowSum[r] == 0.0F;
        kernels::storeRow(accumulator + r * a.valueDim, a.valueDim, empty ? 0.0F : 1.0F / rowSum[r],
                          at(oData, b * a.o.b + h * a.o.h + i * a.o.s, bytes), a.o.d, a.bf16);
        if (statsData != nullptr) {
            statsData[b * a.stats.b + h * a.stats.h + i * a.stats.s] =
                empty ? std::numeric_limits<float>::infinity() : rowMax[r] + std::log(rowSum[r]);
        }
    }
}

// Backward of head h of batch b: for every query tile, delta_i = dO_i . O_i; for every key tile,
// P = exp(S - stats), dS = P (dP - delta) scale, then dV += Pᵀ dO, dK += dSᵀ Q (fp32, the whole
// head's keys) and dQ += dS K (fp32, the query tile's rows, written out after the last key tile).
// dK and dV go to the outputs directly when the head is its KV head's only one; otherwise they
// are added, under a lock, to the KV head's fp32 sums.
void runGradientHead(const Attention& a, ThreadMatmuls& matmuls, const ExecutionBuffers& buffers,
                     std::byte* region, std::byte* area, std::vector<std::mutex>& locks, float scale,
                     int64_t b, int64_t h) {
    const size_t bytes = a.elementBytes();
    const int64_t hk = h / a.group;
    auto* scores = reinterpret_cast<float*>(region + a.scoresOffset);
    auto* gradient = reinterpret_cast<float*>(region + a.gradientOffset);
    void* probabilities = a.bf16 ? static_cast<void*>(region + a.probabilitiesOffset) : scores;
    void* gradientIo = a.bf16 ? static_cast<void*>(region + a.gradientIoOffset) : gradient;
    auto* delta = reinterpret_cast<float*>(region + a.deltaOffset);
    auto* queryGradient = reinterpret_cast<float*>(region + a.queryGradientOffset);
    auto* keyGradient = reinterpret_cast<float*>(region + a.keyGradientOffset);
    auto* valueGradient = reinterpret_cast<float*>(region + a.valueGradientOffset);
    auto* rowA = reinterpret_cast<float*>(region + a.rowOffset);
    float* rowB = rowA + std::max(a.dim, a.valueDim);
    std::fill(keyGradient, keyGradient + a.seqKv * a.dim, 0.0F);
    std::fill(valueGradient, valueGradient + a.seqKv * a.valueDim, 0.0F);

    const void* qData = buffers.tensor(a.qUid);
    const void* kData = buffers.tensor(a.kUid);
    const void* vData = buffers.tensor(a.vUid);
    const void* oData = buffers.tensor(a.oUid);
    const void* dOData = buffers.tensor(a.dOUid);
    void* dqData = buffers.tensor(a.dqUid);
    const auto* statsData = static_cast<const float*>(buffers.tensor(*a.statsUid));
    const auto* biasData = a.biasUid ? static_cast<const float*>(buffers.tensor(*a.biasUid)) : nullptr;
    for (int64_t i0 = 0; i0 < a.seqQ; i0 += a.queryTile) {
        const int64_t queries = std::min(a.queryTile, a.seqQ - i0);
        const std::byte* qTile = at(qData, b * a.q.b + h * a.q.h + i0 * a.q.s, bytes);
        const std::byte* dOTile = at(dOData, b * a.dO.b + h * a.dO.h + i0 * a.dO.s, bytes);
        for (int64_t r = 0; r < queries; ++r) {
            const int64_t i = i0 + r;
            kernels::loadRow(at(dOData, b * a.dO.b + h * a.dO.h + i * a.dO.s, bytes), a.valueDim, a.dO.d,
                             a.bf16, rowA);
            kernels::loadRow(at(oData, b * a.o.b + h * a.o.h + i * a.o.s, bytes), a.valueDim, a.o.d, a.bf16,
                             rowB);
            delta[r] = kernels::dot(rowA, rowB, a.valueDim);
        }
        std::fill(queryGradient, queryGradient + queries * a.dim, 0.0F);
        const int64_t lastQuery = i0 + queries - 1;
        for (int64_t j0 = 0; j0 < a.seqKv; j0 += a.keyTile) {
            const int64_t keys = a.keysOfTile(lastQuery, j0);
            if (keys == 0) {
                break;
            }
            const GradientMatmuls& t = a.gradientTiles.at({queries, keys});
            const std::byte* kTile = at(kData, b * a.k.b + hk * a.k.h + j0 * a.k.s, bytes);
            const std::byte* vTile = at(vData, b * a.v.b + hk * a.v.h + j0 * a.v.s, bytes);
            matmuls.run(t.scores, qTile, kTile, scores);
            matmuls.run(t.valueGradientIn, dOTile, vTile, gradient);
            for (int64_t r = 0; r < queries; ++r) {
                const int64_t i = i0 + r;
                const int64_t e = r * keys;
                kernels::softmaxGradient(scores + e, gradient + e, keys, a.visibleKeys(i, j0, keys), scale,
                                         a.biasRow(biasData, b, h, i, j0), a.bias.d,
                                         statsData[b * a.stats.b + h * a.stats.h + i * a.stats.s], delta[r],
                                         at(probabilities, e, bytes), at(gradientIo, e, bytes), a.bf16);
            }
            matmuls.run(t.valueGradient, probabilities, dOTile, valueGradient + j0 * a.valueDim);
            matmuls.run(t.keyGradient, gradientIo, qTile, keyGradient + j0 * a.dim);
            matmuls.run(t.queryGradient, gradientIo, kTile, queryGradient);
        }
        for (int64_t r = 0; r < queries; ++r) {
            const int64_t i = i0 + r;
            kernels::storeRow(queryGradient + r * a.dim, a.dim, 1.0F,
                              at(dqData, b * a.dq.b + h * a.dq.h + i * a.dq.s, bytes), a.dq.d, a.bf16);
        }
    }

    if (a.group == 1) {
        void* dkData = buffers.tensor(a.dkUid);
        void* dvData = buffers.tensor(a.dvUid);
        for (int64_t j = 0; j < a.seqKv; ++j) {
            kernels::storeRow(keyGradient + j * a.dim, a.dim, 1.0F,
                              at(dkData, b * a.dk.b + hk * a.dk.h + j * a.dk.s, bytes), a.dk.d, a.bf16);
            kernels::storeRow(valueGradient + j * a.valueDim, a.valueDim, 1.0F,
                              at(dvData, b * a.dv.b + hk * a.dv.h + j * a.dv.s, bytes), a.dv.d, a.bf16);
        }
        return;
    }
    const int64_t kv = b * a.kvHeads + hk;
    auto* sums =
        reinterpret_cast<float*>(area + a.sharedGradientOffset) + kv * a.seqKv * (a.dim + a.valueDim);
    const int64_t keyElements = a.seqKv * a.dim;
    const int64_t valueElements = a.seqKv * a.valueDim;
    const std::lock_guard lock(locks[static_cast<size_t>(kv)]);
#pragma omp simd
    for (int64_t e = 0; e < keyElements; ++e) {
        sums[e] += keyGradient[e];
    }
#pragma omp simd
    for (int64_t e = 0; e < valueElements; ++e) {
        sums[keyElements + e] += valueGradient[e];
    }
}

// What forward and backward read from fields of the same names: the types, shapes and strides of
// q, k, v, o, the scale, the causal mask and the bias; what the engine does not run is declined.
template <class Attributes>
std::shared_ptr<Attention> parseAttention(const dnnl::engine& engine, const GraphWrapper& graph,
                                          const hipdnn_flatbuffers_sdk::NodeWrapper& node,
                                          const Attributes& attributes) {
    if (attributes.padding_mask() || attributes.seq_len_q_tensor_uid() ||
        attributes.seq_len_kv_tensor_uid()) {
        decline(node, "padding masks (seq_len_q / seq_len_kv) are not supported by the oneDNN engine");
    }
    if (attributes.dropout_probability().value_or(0.0F) > 0.0F || attributes.dropout_mask_tensor_uid()) {
        decline(node, "dropout is not supported by the oneDNN engine");
    }
    const fb::TensorAttributes& q = graph.tensor(attributes.q_tensor_uid());
    const fb::TensorAttributes& k = graph.tensor(attributes.k_tensor_uid());
    const fb::TensorAttributes& v = graph.tensor(attributes.v_tensor_uid());
    const fb::TensorAttributes& o = graph.tensor(attributes.o_tensor_uid());
    const fb::DataType type = q.data_type();
    for (const fb::TensorAttributes* tensor : {&k, &v, &o}) {
        if (tensor->data_type() != type) {
            decline(node, "q, k, v and o must share one data type (" + describeTensor(q) + ", " +
                              describeTensor(*tensor) + ")");
        }
    }
    if (type != fb::DataType::FLOAT && type != fb::DataType::BFLOAT16) {
        decline(node, std::string("attention in ") + fb::EnumNameDataType(type) +
                          " is not supported by the oneDNN engine (FLOAT or BFLOAT16)");
    }
    auto attention = std::make_shared<Attention>();
    Attention& a = *attention;
    a.engine = engine;
    a.bf16 = type == fb::DataType::BFLOAT16;
    const auto qDims = dimsOf(q);
    const auto kDims = dimsOf(k);
    a.batch = qDims[0];
    a.heads = qDims[1];
    a.kvHeads = kDims[1];
    a.group = a.heads / a.kvHeads;
    a.seqQ = qDims[2];
    a.seqKv = kDims[2];
    a.dim = qDims[3];
    a.valueDim = dimsOf(v)[3];
    a.qUid = q.uid();
    a.kUid = k.uid();
    a.vUid = v.uid();
    a.oUid = o.uid();
    a.q = layoutOf(q);
    a.k = layoutOf(k);
    a.v = layoutOf(v);
    a.o = layoutOf(o);
    if (const auto biasUid = attributes.attn_mask_tensor_uid()) {
        const fb::TensorAttributes& bias = graph.tensor(*biasUid);
        if (bias.data_type() != fb::DataType::FLOAT || dimsOf(bias).size() != 4) {
            decline(node, "the bias / mask must be a FLOAT tensor of rank 4 (" + describeTensor(bias) + ")");
        }
        a.biasUid = biasUid;
        a.bias = layoutOf(bias);
    }
    if (const auto scaleUid = attributes.scale_tensor_uid()) {
        const fb::TensorAttributes& scaleTensor = graph.tensor(*scaleUid);
        if (const auto value = hipdnn_flatbuffers_sdk::passByValueNumber(scaleTensor)) {
            a.scale = static_cast<float>(*value);
        } else {
            a.scaleUid = scaleUid;
            a.scaleType = scaleTensor.data_type();
        }
    } else if (const auto value = attributes.attn_scale_value()) {
        a.scale = *value;
    }
    const bool bottomRight =
        attributes.causal_mask_bottom_right() ||
        (attributes.causal_mask() && attributes.diagonal_alignment() == fb::DiagonalAlignment::BOTTOM_RIGHT);
    a.causal = attributes.causal_mask() || attributes.causal_mask_bottom_right();
    a.diagonalShift = bottomRight ? a.seqKv - a.seqQ : 0;
    return attention;
}

void requireFloatStats(const hipdnn_flatbuffers_sdk::NodeWrapper& node, const fb::TensorAttributes& stats) {
    if (stats.data_type() != fb::DataType::FLOAT) {
        decline(node, "stats must be FLOAT (" + describeTensor(stats) + ")");
    }
}

// Binds every tensor the host work reads or writes, so that virtual ones get workspace slots.
void bindTensors(PlanStep& step, const GraphWrapper& graph, std::vector<int64_t> uids,
                 std::initializer_list<std::optional<int64_t>> optional) {
    for (const auto& uid : optional) {
        if (uid) {
            uids.push_back(*uid);
        }
    }
    for (const int64_t uid : uids) {
        step.tensorMemory(makeMemoryDesc(graph.tensor(uid)), uid);
    }
}

float scaleOf(const Attention& a, const ExecutionBuffers& buffers) {
    return a.scaleUid ? readScalar(a.scaleType, buffers.tensor(*a.scaleUid)) : a.scale;
}

// Calls make(queries, keys) once for every tile shape the execute loops meet: full tiles, the
// remainders of Sq and Skv, and the causal diagonal's shorter key tiles.
template <class Make>
void forEachTileShape(const Attention& a, Make&& make) {
    std::set<std::pair<int64_t, int64_t>> shapes;
    for (int64_t i0 = 0; i0 < a.seqQ; i0 += a.queryTile) {
        const int64_t queries = std::min(a.queryTile, a.seqQ - i0);
        for (int64_t j0 = 0; j0 < a.seqKv; j0 += a.keyTile) {
            const int64_t keys = a.keysOfTile(i0 + queries - 1, j0);
            if (keys == 0) {
                break;
            }
            shapes.emplace(queries, keys);
        }
    }
    for (const auto& [queries, keys] : shapes) {
        make(queries, keys);
    }
}

void chooseTiles(Attention& a) {
    a.queryTile = std::min(kQueryTile, a.seqQ);
    a.keyTile = std::min(kKeyTile, a.seqKv);
    a.threads = std::max(1, omp_get_max_threads());
}

// Lays out one thread's region: `sizes` in order, each aligned; returns the offsets.
class RegionLayout {
public:
    size_t add(size_t bytes) {
        const size_t offset = _bytes;
        _bytes += alignUp(bytes);
        return offset;
    }
    size_t bytes() const { return _bytes; }

private:
    size_t _bytes = 0;
};

template <class Tiles>
size_t maxScratchpad(const Tiles& tiles) {
    size_t bytes = 0;
    for (const auto& [shape, tile] : tiles) {
        if constexpr (std::is_same_v<std::decay_t<decltype(tile)>, TileMatmuls>) {
            bytes = std::max({bytes, tile.scores.scratchpadBytes, tile.values.scratchpadBytes});
        } else {
            bytes = std::max({bytes, tile.scores.scratchpadBytes, tile.valueGradientIn.scratchpadBytes,
                              tile.valueGradient.scratchpadBytes, tile.keyGradient.scratchpadBytes,
                              tile.queryGradient.scratchpadBytes});
        }
    }
    return bytes;
}

}  // namespace

std::unique_ptr<PlanStep> buildSdpaStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                        const Stage& stage) {
    const auto node = graph.node(stage.primaryNode);
    const auto& attributes = *node.attributesAs<fb::SdpaAttributes>();
    auto attention = parseAttention(engine, graph, node, attributes);
    Attention& a = *attention;
    if (const auto statsUid = attributes.stats_tensor_uid()) {
        requireFloatStats(node, graph.tensor(*statsUid));
        a.statsUid = statsUid;
        a.stats = layoutOf(graph.tensor(*statsUid));
    }
    chooseTiles(a);
    forEachTileShape(a, [&](int64_t queries, int64_t keys) {
        a.tiles.emplace(std::pair{queries, keys}, makeTile(a, queries, keys));
    });

    const auto rows = static_cast<size_t>(a.queryTile);
    const auto keyTile = static_cast<size_t>(a.keyTile);
    RegionLayout region;
    a.scoresOffset = region.add(rows * keyTile * sizeof(float));
    a.probabilitiesOffset = region.add(a.bf16 ? rows * keyTile * 2 : 0);
    a.accumulatorOffset = region.add(rows * static_cast<size_t>(a.valueDim) * sizeof(float));
    a.maxOffset = region.add(rows * sizeof(float));
    a.sumOffset = region.add(rows * sizeof(float));
    a.scratchpadOffset = region.add(maxScratchpad(a.tiles));
    a.threadBytes = region.bytes();

    auto step = std::make_unique<PlanStep>(engine);
    a.threadsOffset = step->reservePrivate(a.threadBytes * static_cast<size_t>(a.threads));
    bindTensors(*step, graph, {a.qUid, a.kUid, a.vUid, a.oUid}, {a.statsUid, a.biasUid, a.scaleUid});
    step->addHostWork([attention](const ExecutionBuffers& buffers, std::byte* area) {
        const Attention& work = *attention;
        const float scale = scaleOf(work, buffers);
        const int64_t queryTiles = tileCount(work.seqQ, work.queryTile);
        parallelTasks(work, area, work.batch * work.heads * queryTiles,
                      [&](ThreadMatmuls& matmuls, std::byte* region, int64_t task) {
                          const int64_t head = task / queryTiles;
                          // The last query tiles first: under a causal mask they are the longest.
                          const int64_t i0 = (queryTiles - 1 - task % queryTiles) * work.queryTile;
                          runQueryTile(work, matmuls, buffers, region, scale, head / work.heads,
                                       head % work.heads, i0, std::min(work.queryTile, work.seqQ - i0));
                      });
    });
    return step;
}

std::unique_ptr<PlanStep> buildSdpaBackwardStep(const dnnl::engine& engine, const GraphWrapper& graph,
                                                const Stage& stage) {
    const auto node = graph.node(stage.primaryNode);
    const auto& attributes = *node.attributesAs<fb::SdpaBackwardAttributes>();
    if (attributes.dbias_tensor_uid()) {
        decline(node, "a bias gradient (dbias) is not supported by the oneDNN engine");
    }
    auto attention = parseAttention(engine, graph, node, attributes);
    Attention& a = *attention;
    const fb::TensorAttributes& stats = graph.tensor(attributes.stats_tensor_uid());
    requireFloatStats(node, stats);
    a.statsUid = stats.uid();
    a.stats = layoutOf(stats);
    const fb::TensorAttributes& dO = graph.tensor(attributes.do_tensor_uid());
    const fb::TensorAttributes& dq = graph.tensor(attributes.dq_tensor_uid());
    const fb::TensorAttributes& dk = graph.tensor(attributes.dk_tensor_uid());
    const fb::TensorAttributes& dv = graph.tensor(attributes.dv_tensor_uid());
    for (const fb::TensorAttributes* tensor : {&dO, &dq, &dk, &dv}) {
        if (tensor->data_type() != graph.tensor(a.qUid).data_type()) {
            decline(node, "dO, dq, dk and dv must have q's data type (" + describeTensor(*tensor) + ")");
        }
    }
    a.dOUid = dO.uid();
    a.dqUid = dq.uid();
    a.dkUid = dk.uid();
    a.dvUid = dv.uid();
    a.dO = layoutOf(dO);
    a.dq = layoutOf(dq);
    a.dk = layoutOf(dk);
    a.dv = layoutOf(dv);
    chooseTiles(a);
    forEachTileShape(a, [&](int64_t queries, int64_t keys) {
        a.gradientTiles.emplace(std::pair{queries, keys}, makeGradientTile(a, queries, keys));
    });

    const auto rows = static_cast<size_t>(a.queryTile);
    const auto keyTile = static_cast<size_t>(a.keyTile);
    const auto dim = static_cast<size_t>(a.dim);
    const auto valueDim = static_cast<size_t>(a.valueDim);
    const auto seqKv = static_cast<size_t>(a.seqKv);
    RegionLayout region;
    a.scoresOffset = region.add(rows * keyTile * sizeof(float));
    a.gradientOffset = region.add(rows * keyTile * sizeof(float));
    a.probabilitiesOffset = region.add(a.bf16 ? rows * keyTile * 2 : 0);
    a.gradientIoOffset = region.add(a.bf16 ? rows * keyTile * 2 : 0);
    a.deltaOffset = region.add(rows * sizeof(float));
    a.queryGradientOffset = region.add(rows * dim * sizeof(float));
    a.keyGradientOffset = region.add(seqKv * dim * sizeof(float));
    a.valueGradientOffset = region.add(seqKv * valueDim * sizeof(float));
    a.rowOffset = region.add(2 * std::max(dim, valueDim) * sizeof(float));
    a.scratchpadOffset = region.add(maxScratchpad(a.gradientTiles));
    a.threadBytes = region.bytes();

    auto step = std::make_unique<PlanStep>(engine);
    a.threadsOffset = step->reservePrivate(a.threadBytes * static_cast<size_t>(a.threads));
    if (a.group > 1) {
        a.sharedGradientOffset = step->reservePrivate(static_cast<size_t>(a.batch * a.kvHeads) * seqKv *
                                                      (dim + valueDim) * sizeof(float));
    }
    bindTensors(*step, graph,
                {a.qUid, a.kUid, a.vUid, a.oUid, a.dOUid, a.dqUid, a.dkUid, a.dvUid, *a.statsUid},
                {a.biasUid, a.scaleUid});
    step->addHostWork([attention](const ExecutionBuffers& buffers, std::byte* area) {
        const Attention& work = *attention;
        const float scale = scaleOf(work, buffers);
        const int64_t kvCount = work.batch * work.kvHeads;
        const int64_t sumElements = work.seqKv * (work.dim + work.valueDim);
        auto* sums = reinterpret_cast<float*>(area + work.sharedGradientOffset);
        if (work.group > 1) {
            std::fill(sums, sums + kvCount * sumElements, 0.0F);
        }
        std::vector<std::mutex> locks(static_cast<size_t>(kvCount));
        parallelTasks(work, area, work.batch * work.heads,
                      [&](ThreadMatmuls& matmuls, std::byte* region, int64_t task) {
                          runGradientHead(work, matmuls, buffers, region, area, locks, scale,
                                          task / work.heads, task % work.heads);
                      });
        if (work.group == 1) {
            return;
        }
        const size_t bytes = work.elementBytes();
        void* dkData = buffers.tensor(work.dkUid);
        void* dvData = buffers.tensor(work.dvUid);
#pragma omp parallel for num_threads(work.threads)
        for (int64_t kv = 0; kv < kvCount; ++kv) {
            const int64_t b = kv / work.kvHeads;
            const int64_t hk = kv % work.kvHeads;
            const float* keySums = sums + kv * sumElements;
            const float* valueSums = keySums + work.seqKv * work.dim;
            for (int64_t j = 0; j < work.seqKv; ++j) {
                kernels::storeRow(keySums + j * work.dim, work.dim, 1.0F,
                                  at(dkData, b * work.dk.b + hk * work.dk.h + j * work.dk.s, bytes),
                                  work.dk.d, work.bf16);
                kernels::storeRow(valueSums + j * work.valueDim, work.valueDim, 1.0F,
                                  at(dvData, b * work.dv.b + hk * work.dv.h + j * work.dv.s, bytes),
                                  work.dv.d, work.bf16);
            }
        }
    });
    return step;
}

}  // namespace hipdnn_onednn
