#include "SdpaPlan.hpp"

#include "MemoryDesc.hpp"

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_flatbuffers_sdk/PassByValue.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace hipdnn_onednn {

using hipdnn_flatbuffers_sdk::GraphWrapper;
using md = dnnl::memory::desc;
using dt = dnnl::memory::data_type;

namespace {

// Queries and keys per tile: the score tile of one KV head's query group is G · 256 · 512 floats.
constexpr int64_t kQueryTile = 256;
constexpr int64_t kKeyTile = 512;

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

// The two matmuls of one tile shape (queries × keys): scores S = Q Kᵀ and O += P V.
struct TileMatmuls {
    dnnl::matmul scores;
    dnnl::matmul values;
    dnnl::memory q;
    dnnl::memory kT;
    dnnl::memory s;
    dnnl::memory p;
    dnnl::memory v;
    dnnl::memory o;
};

// The five matmuls of one backward tile shape: S = Q Kᵀ, dP = dO Vᵀ, dQ += dS K, dK += dSᵀ Q,
// dV += Pᵀ dO (dS already carries the scale). Q and dO are the tile's rows copied densely,
// (G · queries) × D; dS and P are (G, queries, keys).
struct GradientMatmuls {
    dnnl::matmul scores, valueGradient, queryGradient, keyGradient, valueAccumulate;
    dnnl::memory qDense, kT, s, dODense, vT, dP, dS, k, dq, dST, dk, pT, dv;
};

// Everything one execute needs; shared by the host work's copies.
struct Attention {
    dnnl::engine engine;
    int64_t batch = 0, heads = 0, kvHeads = 0, group = 0, seqQ = 0, seqKv = 0, dim = 0, valueDim = 0;
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
    // Private-area regions (byte offsets).
    size_t scoresOffset = 0, probabilitiesOffset = 0, accumulatorOffset = 0, maxOffset = 0, sumOffset = 0;
    size_t gradientOffset = 0, gradientIoOffset = 0, queryCopyOffset = 0, gradientCopyOffset = 0,
           deltaOffset = 0, queryGradientOffset = 0, keyGradientOffset = 0, valueGradientOffset = 0;

    size_t elementBytes() const { return bf16 ? 2 : 4; }

    // The score of query i and key j (absolute positions) of head h from q . k, or -inf where
    // the causal mask hides the key.
    float score(float dot, float scaleValue, const float* biasData, int64_t b, int64_t h, int64_t i,
                int64_t j) const {
        if (causal && j > i + diagonalShift) {
            return -std::numeric_limits<float>::infinity();
        }
        float value = dot * scaleValue;
        if (biasData != nullptr) {
            value += biasData[b * bias.b + h * bias.h + i * bias.s + j * bias.d];
        }
        return value;
    }
};

md stridedDesc(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, dt type) {
    return md(dnnl::memory::dims(dims.begin(), dims.end()), type,
              dnnl::memory::dims(strides.begin(), strides.end()));
}

dnnl::primitive_attr accumulateAttr() {
    dnnl::post_ops accumulate;
    accumulate.append_sum(1.0F);
    dnnl::primitive_attr attr;
    attr.set_post_ops(accumulate);
    return attr;
}

TileMatmuls makeTile(const Attention& a, int64_t queries, int64_t keys) {
    const dt io = a.bf16 ? dt::bf16 : dt::f32;
    const int64_t g = a.group;
    TileMatmuls tile;
    const md qDesc = stridedDesc({g, queries, a.dim}, {a.q.h, a.q.s, a.q.d}, io);
    // Kᵀ: (D, keys) read through K's strides; one KV head serves the whole group (broadcast).
    const md kDesc = stridedDesc({1, a.dim, keys}, {a.dim * keys, a.k.d, a.k.s}, io);
    const md sDesc({g, queries, keys}, dt::f32, dnnl::memory::format_tag::abc);
    const md pDesc({g, queries, keys}, io, dnnl::memory::format_tag::abc);
    const md vDesc = stridedDesc({1, keys, a.valueDim}, {keys * a.valueDim, a.v.s, a.v.d}, io);
    const md oDesc({g, queries, a.valueDim}, dt::f32, dnnl::memory::format_tag::abc);
    tile.scores = dnnl::matmul(dnnl::matmul::primitive_desc({qDesc, kDesc, sDesc}, a.engine));
    tile.values =
        dnnl::matmul(dnnl::matmul::primitive_desc({pDesc, vDesc, oDesc}, accumulateAttr(), a.engine));
    tile.q = dnnl::memory(qDesc, a.engine, DNNL_MEMORY_NONE);
    tile.kT = dnnl::memory(kDesc, a.engine, DNNL_MEMORY_NONE);
    tile.s = dnnl::memory(sDesc, a.engine, DNNL_MEMORY_NONE);
    tile.p = dnnl::memory(pDesc, a.engine, DNNL_MEMORY_NONE);
    tile.v = dnnl::memory(vDesc, a.engine, DNNL_MEMORY_NONE);
    tile.o = dnnl::memory(oDesc, a.engine, DNNL_MEMORY_NONE);
    return tile;
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

// One tile of queries [i0, i0 + queries) of KV head `hk` of batch `b`, over every key tile.
void runQueryTile(const Attention& a, dnnl::stream& stream, const ExecutionBuffers& buffers, std::byte* area,
                  float scale, int64_t b, int64_t hk, int64_t i0, int64_t queries) {
    auto* scores = reinterpret_cast<float*>(area + a.scoresOffset);
    auto* accumulator = reinterpret_cast<float*>(area + a.accumulatorOffset);
    auto* rowMax = reinterpret_cast<float*>(area + a.maxOffset);
    auto* rowSum = reinterpret_cast<float*>(area + a.sumOffset);
    std::byte* probabilities = area + a.probabilitiesOffset;
    const int64_t rows = a.group * queries;
    std::fill(accumulator, accumulator + rows * a.valueDim, 0.0F);
    std::fill(rowMax, rowMax + rows, kNegativeInfinity);
    std::fill(rowSum, rowSum + rows, 0.0F);

    const auto* qData = static_cast<const std::byte*>(buffers.tensor(a.qUid));
    const auto* kData = static_cast<const std::byte*>(buffers.tensor(a.kUid));
    const auto* vData = static_cast<const std::byte*>(buffers.tensor(a.vUid));
    const auto* biasData = a.biasUid ? static_cast<const float*>(buffers.tensor(*a.biasUid)) : nullptr;
    const size_t bytes = a.elementBytes();
    const int64_t lastQuery = i0 + queries - 1;
    for (int64_t j0 = 0; j0 < a.seqKv; j0 += kKeyTile) {
        if (a.causal && j0 > lastQuery + a.diagonalShift) {
            break;  // every later key is above the diagonal for every query of the tile
        }
        const int64_t keys = std::min(kKeyTile, a.seqKv - j0);
        const TileMatmuls& tile = a.tiles.at({queries, keys});
        tile.q.set_data_handle(const_cast<std::byte*>(
            qData + (b * a.q.b + hk * a.group * a.q.h + i0 * a.q.s) * static_cast<int64_t>(bytes)));
        tile.kT.set_data_handle(const_cast<std::byte*>(kData + (b * a.k.b + hk * a.k.h + j0 * a.k.s) *
                                                                   static_cast<int64_t>(bytes)));
        tile.v.set_data_handle(const_cast<std::byte*>(vData + (b * a.v.b + hk * a.v.h + j0 * a.v.s) *
                                                                  static_cast<int64_t>(bytes)));
        tile.s.set_data_handle(scores);
        tile.p.set_data_handle(probabilities);
        tile.o.set_data_handle(accumulator);
        tile.scores.execute(stream,
                            {{DNNL_ARG_SRC, tile.q}, {DNNL_ARG_WEIGHTS, tile.kT}, {DNNL_ARG_DST, tile.s}});
        stream.wait();
#pragma omp parallel for
        for (int64_t row = 0; row < rows; ++row) {
            {
                const int64_t g = row / queries;
                const int64_t h = hk * a.group + g;
                const int64_t i = i0 + row % queries;
                float* s = scores + row * keys;
                float tileMax = kNegativeInfinity;
                for (int64_t j = 0; j < keys; ++j) {
                    s[j] = a.score(s[j], scale, biasData, b, h, i, j0 + j);
                    tileMax = std::max(tileMax, s[j]);
                }
                const float newMax = std::max(rowMax[row], tileMax);
                // A row with no visible key yet keeps weight 0 everywhere (no exp(-inf + inf)).
                const float shift = newMax == kNegativeInfinity ? 0.0F : newMax;
                const float rescale =
                    rowMax[row] == kNegativeInfinity ? 0.0F : std::exp(rowMax[row] - newMax);
                float sum = 0.0F;
                for (int64_t j = 0; j < keys; ++j) {
                    const float p = std::exp(s[j] - shift);
                    sum += p;
                    if (a.bf16) {
                        reinterpret_cast<hipdnn_data_sdk::types::bfloat16*>(probabilities)[row * keys + j] =
                            hipdnn_data_sdk::types::bfloat16(p);
                    } else {
                        reinterpret_cast<float*>(probabilities)[row * keys + j] = p;
                    }
                }
                rowSum[row] = rowSum[row] * rescale + sum;
                rowMax[row] = newMax;
                float* out = accumulator + row * a.valueDim;
                for (int64_t d = 0; d < a.valueDim; ++d) {
                    out[d] *= rescale;
                }
            }
        }
        tile.values.execute(stream,
                            {{DNNL_ARG_SRC, tile.p}, {DNNL_ARG_WEIGHTS, tile.v}, {DNNL_ARG_DST, tile.o}});
        stream.wait();
    }

    auto* oData = static_cast<std::byte*>(buffers.tensor(a.oUid));
    auto* statsData = a.statsUid ? static_cast<float*>(buffers.tensor(*a.statsUid)) : nullptr;
    for (int64_t g = 0; g < a.group; ++g) {
        const int64_t h = hk * a.group + g;
        for (int64_t r = 0; r < queries; ++r) {
            const int64_t row = g * queries + r;
            const int64_t i = i0 + r;
            // A row that saw no key writes 0 and stats +inf, as the reference does.
            const bool empty = rowSum[row] == 0.0F;
            const float inverse = empty ? 0.0F : 1.0F / rowSum[row];
            std::byte* out = oData + (b * a.o.b + h * a.o.h + i * a.o.s) * static_cast<int64_t>(bytes);
            for (int64_t d = 0; d < a.valueDim; ++d) {
                const float value = accumulator[row * a.valueDim + d] * inverse;
                if (a.bf16) {
                    reinterpret_cast<hipdnn_data_sdk::types::bfloat16*>(out)[d * a.o.d] =
                        hipdnn_data_sdk::types::bfloat16(value);
                } else {
                    reinterpret_cast<float*>(out)[d * a.o.d] = value;
                }
            }
            if (statsData != nullptr) {
                statsData[b * a.stats.b + h * a.stats.h + i * a.stats.s] =
                    empty ? std::numeric_limits<float>::infinity() : rowMax[row] + std::log(rowSum[row]);
            }
        }
    }
}

GradientMatmuls makeGradientTile(const Attention& a, int64_t queries, int64_t keys) {
    const dt io = a.bf16 ? dt::bf16 : dt::f32;
    const int64_t rows = a.group * queries;
    const dnnl::memory::format_tag rowMajor = dnnl::memory::format_tag::ab;
    GradientMatmuls t;
    const md qDense({rows, a.dim}, io, rowMajor);
    const md kT = stridedDesc({a.dim, keys}, {a.k.d, a.k.s}, io);
    const md s({rows, keys}, dt::f32, rowMajor);
    const md dODense({rows, a.valueDim}, io, rowMajor);
    const md vT = stridedDesc({a.valueDim, keys}, {a.v.d, a.v.s}, io);
    const md dS3({a.group, queries, keys}, io, dnnl::memory::format_tag::abc);
    const md k3 = stridedDesc({1, keys, a.dim}, {keys * a.dim, a.k.s, a.k.d}, io);
    // dQ accumulates in fp32 (G, Sq, D); the tile's rows start at its first query.
    const md dq3 = stridedDesc({a.group, queries, a.dim}, {a.seqQ * a.dim, a.dim, 1}, dt::f32);
    const md dST = stridedDesc({keys, rows}, {1, keys}, io);  // dS viewed transposed
    const md dk({keys, a.dim}, dt::f32, rowMajor);
    const md dv({keys, a.valueDim}, dt::f32, rowMajor);
    const auto make = [&](const md& src, const md& weights, const md& dst, bool accumulate) {
        return dnnl::matmul(
            accumulate ? dnnl::matmul::primitive_desc({src, weights, dst}, accumulateAttr(), a.engine)
                       : dnnl::matmul::primitive_desc({src, weights, dst}, a.engine));
    };
    t.scores = make(qDense, kT, s, false);
    t.valueGradient = make(dODense, vT, s, false);
    t.queryGradient = make(dS3, k3, dq3, true);
    t.keyGradient = make(dST, qDense, dk, true);
    t.valueAccumulate = make(dST, dODense, dv, true);
    const auto memory = [&](const md& desc) { return dnnl::memory(desc, a.engine, DNNL_MEMORY_NONE); };
    t.qDense = memory(qDense);
    t.kT = memory(kT);
    t.s = memory(s);
    t.dODense = memory(dODense);
    t.vT = memory(vT);
    t.dP = memory(s);
    t.dS = memory(dS3);
    t.k = memory(k3);
    t.dq = memory(dq3);
    t.dST = memory(dST);
    t.dk = memory(dk);
    t.pT = memory(dST);
    t.dv = memory(dv);
    return t;
}

// Element `index` of a tensor of the attention's element type, as float.
float loadElement(const Attention& a, const std::byte* data, int64_t index) {
    if (a.bf16) {
        return static_cast<float>(reinterpret_cast<const hipdnn_data_sdk::types::bfloat16*>(data)[index]);
    }
    return reinterpret_cast<const float*>(data)[index];
}

void storeElement(const Attention& a, std::byte* data, int64_t index, float value) {
    if (a.bf16) {
        reinterpret_cast<hipdnn_data_sdk::types::bfloat16*>(data)[index] =
            hipdnn_data_sdk::types::bfloat16(value);
    } else {
        reinterpret_cast<float*>(data)[index] = value;
    }
}

std::byte* at(const void* base, int64_t elements, size_t elementBytes) {
    return const_cast<std::byte*>(static_cast<const std::byte*>(base)) +
           elements * static_cast<int64_t>(elementBytes);
}

// dQ, dK, dV of KV head `hk` of batch `b` and its query group: for every query tile, the rows of Q
// and dO copied densely and delta_i = dO_i . O_i; for every key tile, P = exp(S - stats),
// dS = P (dP - delta) scale, and the three gradient matmuls accumulating in fp32.
void runGradientHead(const Attention& a, dnnl::stream& stream, const ExecutionBuffers& buffers,
                     std::byte* area, float scale, int64_t b, int64_t hk) {
    const size_t bytes = a.elementBytes();
    auto* scores = reinterpret_cast<float*>(area + a.scoresOffset);
    auto* gradient = reinterpret_cast<float*>(area + a.gradientOffset);
    std::byte* probabilities = area + a.probabilitiesOffset;
    std::byte* gradientIo = area + a.gradientIoOffset;
    std::byte* queryCopy = area + a.queryCopyOffset;
    std::byte* gradientCopy = area + a.gradientCopyOffset;
    auto* delta = reinterpret_cast<float*>(area + a.deltaOffset);
    auto* queryGradient = reinterpret_cast<float*>(area + a.queryGradientOffset);
    auto* keyGradient = reinterpret_cast<float*>(area + a.keyGradientOffset);
    auto* valueGradient = reinterpret_cast<float*>(area + a.valueGradientOffset);
    std::fill(queryGradient, queryGradient + a.group * a.seqQ * a.dim, 0.0F);
    std::fill(keyGradient, keyGradient + a.seqKv * a.dim, 0.0F);
    std::fill(valueGradient, valueGradient + a.seqKv * a.valueDim, 0.0F);

    const void* qData = buffers.tensor(a.qUid);
    const void* kData = buffers.tensor(a.kUid);
    const void* vData = buffers.tensor(a.vUid);
    const void* oData = buffers.tensor(a.oUid);
    const void* dOData = buffers.tensor(a.dOUid);
    const auto* statsData = static_cast<const float*>(buffers.tensor(*a.statsUid));
    const auto* biasData = a.biasUid ? static_cast<const float*>(buffers.tensor(*a.biasUid)) : nullptr;
    const int64_t queryTile = std::min(kQueryTile, a.seqQ);
    for (int64_t i0 = 0; i0 < a.seqQ; i0 += queryTile) {
        const int64_t queries = std::min(queryTile, a.seqQ - i0);
#pragma omp parallel for
        for (int64_t row = 0; row < a.group * queries; ++row) {
            {
                const int64_t h = hk * a.group + row / queries;
                const int64_t i = i0 + row % queries;
                const auto* qRow = at(qData, b * a.q.b + h * a.q.h + i * a.q.s, bytes);
                const auto* dORow = at(dOData, b * a.dO.b + h * a.dO.h + i * a.dO.s, bytes);
                const auto* oRow = at(oData, b * a.o.b + h * a.o.h + i * a.o.s, bytes);
                for (int64_t d = 0; d < a.dim; ++d) {
                    storeElement(a, queryCopy, row * a.dim + d, loadElement(a, qRow, d * a.q.d));
                }
                float dot = 0.0F;
                for (int64_t d = 0; d < a.valueDim; ++d) {
                    const float value = loadElement(a, dORow, d * a.dO.d);
                    storeElement(a, gradientCopy, row * a.valueDim + d, value);
                    dot += value * loadElement(a, oRow, d * a.o.d);
                }
                delta[row] = dot;
            }
        }
        const int64_t lastQuery = i0 + queries - 1;
        for (int64_t j0 = 0; j0 < a.seqKv; j0 += kKeyTile) {
            if (a.causal && j0 > lastQuery + a.diagonalShift) {
                break;
            }
            const int64_t keys = std::min(kKeyTile, a.seqKv - j0);
            const GradientMatmuls& t = a.gradientTiles.at({queries, keys});
            t.qDense.set_data_handle(queryCopy);
            t.kT.set_data_handle(at(kData, b * a.k.b + hk * a.k.h + j0 * a.k.s, bytes));
            t.k.set_data_handle(at(kData, b * a.k.b + hk * a.k.h + j0 * a.k.s, bytes));
            t.vT.set_data_handle(at(vData, b * a.v.b + hk * a.v.h + j0 * a.v.s, bytes));
            t.dODense.set_data_handle(gradientCopy);
            t.s.set_data_handle(scores);
            t.dP.set_data_handle(gradient);
            t.dS.set_data_handle(gradientIo);
            t.dST.set_data_handle(gradientIo);
            t.pT.set_data_handle(probabilities);
            t.dq.set_data_handle(queryGradient + i0 * a.dim);
            t.dk.set_data_handle(keyGradient + j0 * a.dim);
            t.dv.set_data_handle(valueGradient + j0 * a.valueDim);
            t.scores.execute(stream,
                             {{DNNL_ARG_SRC, t.qDense}, {DNNL_ARG_WEIGHTS, t.kT}, {DNNL_ARG_DST, t.s}});
            t.valueGradient.execute(
                stream, {{DNNL_ARG_SRC, t.dODense}, {DNNL_ARG_WEIGHTS, t.vT}, {DNNL_ARG_DST, t.dP}});
            stream.wait();
#pragma omp parallel for
            for (int64_t row = 0; row < a.group * queries; ++row) {
                {
                    const int64_t h = hk * a.group + row / queries;
                    const int64_t i = i0 + row % queries;
                    const float rowStats = statsData[b * a.stats.b + h * a.stats.h + i * a.stats.s];
                    for (int64_t j = 0; j < keys; ++j) {
                        const int64_t e = row * keys + j;
                        const float value = a.score(scores[e], scale, biasData, b, h, i, j0 + j);
                        // A row the forward pass saw as empty (stats +inf) has no weights.
                        const float p = value == kNegativeInfinity || std::isinf(rowStats)
                                            ? 0.0F
                                            : std::exp(value - rowStats);
                        storeElement(a, probabilities, e, p);
                        storeElement(a, gradientIo, e, p * (gradient[e] - delta[row]) * scale);
                    }
                }
            }
            t.queryGradient.execute(stream,
                                    {{DNNL_ARG_SRC, t.dS}, {DNNL_ARG_WEIGHTS, t.k}, {DNNL_ARG_DST, t.dq}});
            t.keyGradient.execute(
                stream, {{DNNL_ARG_SRC, t.dST}, {DNNL_ARG_WEIGHTS, t.qDense}, {DNNL_ARG_DST, t.dk}});
            t.valueAccumulate.execute(
                stream, {{DNNL_ARG_SRC, t.pT}, {DNNL_ARG_WEIGHTS, t.dODense}, {DNNL_ARG_DST, t.dv}});
            stream.wait();
        }
    }

    auto* dqData = buffers.tensor(a.dqUid);
    auto* dkData = buffers.tensor(a.dkUid);
    auto* dvData = buffers.tensor(a.dvUid);
    for (int64_t g = 0; g < a.group; ++g) {
        const int64_t h = hk * a.group + g;
        for (int64_t i = 0; i < a.seqQ; ++i) {
            std::byte* row = at(dqData, b * a.dq.b + h * a.dq.h + i * a.dq.s, bytes);
            for (int64_t d = 0; d < a.dim; ++d) {
                storeElement(a, row, d * a.dq.d, queryGradient[(g * a.seqQ + i) * a.dim + d]);
            }
        }
    }
    for (int64_t j = 0; j < a.seqKv; ++j) {
        std::byte* keyRow = at(dkData, b * a.dk.b + hk * a.dk.h + j * a.dk.s, bytes);
        for (int64_t d = 0; d < a.dim; ++d) {
            storeElement(a, keyRow, d * a.dk.d, keyGradient[j * a.dim + d]);
        }
        std::byte* valueRow = at(dvData, b * a.dv.b + hk * a.dv.h + j * a.dv.s, bytes);
        for (int64_t d = 0; d < a.valueDim; ++d) {
            storeElement(a, valueRow, d * a.dv.d, valueGradient[j * a.valueDim + d]);
        }
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

// The tile shapes: full tiles and the remainders of Sq and Skv.
template <class Make>
void forEachTileShape(const Attention& a, Make&& make) {
    const int64_t queryTile = std::min(kQueryTile, a.seqQ);
    const int64_t keyTile = std::min(kKeyTile, a.seqKv);
    for (const int64_t queries : {queryTile, a.seqQ % queryTile}) {
        for (const int64_t keys : {keyTile, a.seqKv % keyTile}) {
            if (queries > 0 && keys > 0) {
                make(queries, keys);
            }
        }
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
    forEachTileShape(a, [&](int64_t queries, int64_t keys) {
        a.tiles.emplace(std::pair{queries, keys}, makeTile(a, queries, keys));
    });

    auto step = std::make_unique<PlanStep>(engine);
    const auto rows = static_cast<size_t>(a.group * std::min(kQueryTile, a.seqQ));
    const auto keyTile = static_cast<size_t>(std::min(kKeyTile, a.seqKv));
    a.scoresOffset = step->reservePrivate(alignUp(rows * keyTile * sizeof(float)));
    a.probabilitiesOffset = step->reservePrivate(alignUp(rows * keyTile * a.elementBytes()));
    a.accumulatorOffset =
        step->reservePrivate(alignUp(rows * static_cast<size_t>(a.valueDim) * sizeof(float)));
    a.maxOffset = step->reservePrivate(alignUp(rows * sizeof(float)));
    a.sumOffset = step->reservePrivate(alignUp(rows * sizeof(float)));
    bindTensors(*step, graph, {a.qUid, a.kUid, a.vUid, a.oUid}, {a.statsUid, a.biasUid, a.scaleUid});
    step->addHostWork([attention](const ExecutionBuffers& buffers, std::byte* area) {
        const Attention& work = *attention;
        const float scale = scaleOf(work, buffers);
        dnnl::stream stream(work.engine);
        const int64_t queryTile = std::min(kQueryTile, work.seqQ);
        for (int64_t b = 0; b < work.batch; ++b) {
            for (int64_t hk = 0; hk < work.kvHeads; ++hk) {
                for (int64_t i0 = 0; i0 < work.seqQ; i0 += queryTile) {
                    runQueryTile(work, stream, buffers, area, scale, b, hk, i0,
                                 std::min(queryTile, work.seqQ - i0));
                }
            }
        }
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
    forEachTileShape(a, [&](int64_t queries, int64_t keys) {
        a.gradientTiles.emplace(std::pair{queries, keys}, makeGradientTile(a, queries, keys));
    });

    auto step = std::make_unique<PlanStep>(engine);
    const auto rows = static_cast<size_t>(a.group * std::min(kQueryTile, a.seqQ));
    const auto keyTile = static_cast<size_t>(std::min(kKeyTile, a.seqKv));
    const size_t io = a.elementBytes();
    a.scoresOffset = step->reservePrivate(alignUp(rows * keyTile * sizeof(float)));
    a.gradientOffset = step->reservePrivate(alignUp(rows * keyTile * sizeof(float)));
    a.probabilitiesOffset = step->reservePrivate(alignUp(rows * keyTile * io));
    a.gradientIoOffset = step->reservePrivate(alignUp(rows * keyTile * io));
    a.queryCopyOffset = step->reservePrivate(alignUp(rows * static_cast<size_t>(a.dim) * io));
    a.gradientCopyOffset = step->reservePrivate(alignUp(rows * static_cast<size_t>(a.valueDim) * io));
    a.deltaOffset = step->reservePrivate(alignUp(rows * sizeof(float)));
    a.queryGradientOffset =
        step->reservePrivate(alignUp(static_cast<size_t>(a.group * a.seqQ * a.dim) * sizeof(float)));
    a.keyGradientOffset = step->reservePrivate(alignUp(static_cast<size_t>(a.seqKv * a.dim) * sizeof(float)));
    a.valueGradientOffset =
        step->reservePrivate(alignUp(static_cast<size_t>(a.seqKv * a.valueDim) * sizeof(float)));
    bindTensors(*step, graph,
                {a.qUid, a.kUid, a.vUid, a.oUid, a.dOUid, a.dqUid, a.dkUid, a.dvUid, *a.statsUid},
                {a.biasUid, a.scaleUid});
    step->addHostWork([attention](const ExecutionBuffers& buffers, std::byte* area) {
        const Attention& work = *attention;
        const float scale = scaleOf(work, buffers);
        dnnl::stream stream(work.engine);
        for (int64_t b = 0; b < work.batch; ++b) {
            for (int64_t hk = 0; hk < work.kvHeads; ++hk) {
                runGradientHead(work, stream, buffers, area, scale, b, hk);
            }
        }
    });
    return step;
}

}  // namespace hipdnn_onednn
