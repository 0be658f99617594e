#include <hipdnn_test_sdk/references/Attention.hpp>

#include "Common.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace hipdnn_test_sdk::references {
namespace {

using detail::require;
using detail::toString;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The problem's sizes, checked once against every tensor.
struct Geometry {
    int64_t batch = 0, queryHeads = 0, kvHeads = 0, seqQ = 0, seqKv = 0, headDim = 0, valueDim = 0;

    int64_t group() const { return queryHeads / kvHeads; }
    int64_t rows() const { return batch * queryHeads * seqQ; }
};

template <class T>
void checkRank4(const TensorView<T>& view, const std::string& name) {
    detail::checkView(view, name);
    require(view.rank() == 4, name + " must be (B, H, S, D), got dims " + toString(view.dims));
}

template <class T>
Geometry checkOperands(const TensorView<const T>& q, const TensorView<const T>& k,
                       const TensorView<const T>& v, const std::vector<int64_t>& oDims,
                       const std::string& op) {
    checkRank4(q, op + " q");
    checkRank4(k, op + " k");
    checkRank4(v, op + " v");
    const Geometry g{q.dims[0], q.dims[1], k.dims[1], q.dims[2], k.dims[2], q.dims[3], v.dims[3]};
    require(k.dims[0] == g.batch && k.dims[3] == g.headDim,
            op + " k dims " + toString(k.dims) + " need q's batch and head dim " + toString(q.dims));
    require(g.kvHeads > 0 && g.queryHeads % g.kvHeads == 0, op + " k has " + std::to_string(g.kvHeads) +
                                                                " heads, which do not divide q's " +
                                                                std::to_string(g.queryHeads));
    require(v.dims[0] == g.batch && v.dims[1] == g.kvHeads && v.dims[2] == g.seqKv,
            op + " v dims " + toString(v.dims) + " need k's (B, H, S) " + toString(k.dims));
    const std::vector<int64_t> expectedO{g.batch, g.queryHeads, g.seqQ, g.valueDim};
    require(oDims == expectedO, op + " o dims " + toString(oDims) + " must be " + toString(expectedO));
    return g;
}

std::vector<int64_t> validLengths(const std::optional<std::vector<int64_t>>& lengths, int64_t batch,
                                  int64_t full, const std::string& name) {
    if (!lengths) {
        return std::vector<int64_t>(static_cast<size_t>(batch), full);
    }
    require(static_cast<int64_t>(lengths->size()) == batch,
            name + " has " + std::to_string(lengths->size()) + " lengths for batch " + std::to_string(batch));
    for (size_t b = 0; b < lengths->size(); ++b) {
        require((*lengths)[b] >= 0 && (*lengths)[b] <= full,
                name + "[" + std::to_string(b) + "] = " + std::to_string((*lengths)[b]) + " is outside [0, " +
                    std::to_string(full) + "]");
    }
    return *lengths;
}

// Everything the forward and backward passes share: the operands, the masks and the dropout.
template <class T>
class Attention {
public:
    Attention(const AttentionParams& params, const TensorView<const T>& q, const TensorView<const T>& k,
              const TensorView<const T>& v, const std::optional<TensorView<const float>>& bias,
              const std::vector<int64_t>& oDims, const std::string& op)
        : geometry(checkOperands(q, k, v, oDims, op)),
          _params(params),
          _q(q),
          _k(k),
          _v(v),
          _bias(bias),
          _seqLenQ(validLengths(params.seqLenQ, geometry.batch, geometry.seqQ, op + " seq_len_q")),
          _seqLenKv(validLengths(params.seqLenKv, geometry.batch, geometry.seqKv, op + " seq_len_kv")) {
        require(std::isfinite(params.scale),
                op + " scale " + std::to_string(params.scale) + " is not finite");
        require(
            params.dropoutProbability >= 0.0 && params.dropoutProbability < 1.0,
            op + " dropout probability " + std::to_string(params.dropoutProbability) + " is outside [0, 1)");
        require(!(params.causal && params.causalBottomRight),
                op + ": causal and causalBottomRight are exclusive; set one");
        if (bias) {
            checkRank4(*bias, op + " bias");
            const std::vector<int64_t> scores{geometry.batch, geometry.queryHeads, geometry.seqQ,
                                              geometry.seqKv};
            for (size_t d = 0; d < 4; ++d) {
                require(
                    bias->dims[d] == scores[d] || bias->dims[d] == 1,
                    op + " bias dims " + toString(bias->dims) + " do not broadcast to " + toString(scores));
                _biasStrides[d] = bias->dims[d] == 1 ? 0 : bias->strides[d];
            }
        }
    }

    const Geometry geometry;

    // Query i of batch b sees keys [0, visibleEnd): padding and the causal mask cut a prefix.
    int64_t visibleEnd(int64_t b, int64_t i) const {
        const int64_t rows = _seqLenQ[static_cast<size_t>(b)];
        const int64_t columns = _seqLenKv[static_cast<size_t>(b)];
        if (i >= rows) {
            return 0;
        }
        if (!_params.causal && !_params.causalBottomRight) {
            return columns;
        }
        const int64_t shift = _params.causalBottomRight ? columns - rows : 0;
        return std::clamp<int64_t>(i + shift + 1, 0, columns);
    }

    const T* qRow(int64_t b, int64_t h, int64_t i) const { return row(_q, b, h, i); }
    const T* kRow(int64_t b, int64_t h, int64_t j) const { return row(_k, b, h / geometry.group(), j); }
    const T* vRow(int64_t b, int64_t h, int64_t j) const { return row(_v, b, h / geometry.group(), j); }
    int64_t qStride() const { return _q.strides[3]; }
    int64_t kStride() const { return _k.strides[3]; }
    int64_t vStride() const { return _v.strides[3]; }

    // scale * q_i . k_j + bias; -inf when the bias masks it.
    double score(const std::vector<double>& query, int64_t b, int64_t h, int64_t i, int64_t j) const {
        const T* key = kRow(b, h, j);
        double dot = 0;
        for (int64_t d = 0; d < geometry.headDim; ++d) {
            dot += query[static_cast<size_t>(d)] * detail::load<double>(key[d * kStride()]);
        }
        double value = _params.scale * dot;
        if (_bias) {
            value += static_cast<double>(_bias->data[b * _biasStrides[0] + h * _biasStrides[1] +
                                                     i * _biasStrides[2] + j * _biasStrides[3]]);
        }
        return value;
    }

    // 0 for a dropped weight, 1 / (1 - p) for a kept one (1 without dropout).
    double keepFactor(int64_t b, int64_t h, int64_t i, int64_t j) const {
        const double probability = _params.dropoutProbability;
        if (probability == 0.0) {
            return 1.0;
        }
        const auto index =
            static_cast<uint64_t>(((b * geometry.queryHeads + h) * geometry.seqQ + i) * geometry.seqKv + j);
        return dropoutUniform(_params.dropoutSeed, _params.dropoutOffset, index) < probability
                   ? 0.0
                   : 1.0 / (1.0 - probability);
    }

    double scale() const { return _params.scale; }

    static std::vector<double> load(const T* data, int64_t count, int64_t stride) {
        std::vector<double> values(static_cast<size_t>(count));
        for (int64_t d = 0; d < count; ++d) {
            values[static_cast<size_t>(d)] = detail::load<double>(data[d * stride]);
        }
        return values;
    }

    // Row r of (B, Hq, Sq) in row-major order.
    void rowIndex(int64_t r, int64_t& b, int64_t& h, int64_t& i) const {
        i = r % geometry.seqQ;
        h = (r / geometry.seqQ) % geometry.queryHeads;
        b = r / (geometry.seqQ * geometry.queryHeads);
    }

private:
    static const T* row(const TensorView<const T>& view, int64_t b, int64_t h, int64_t s) {
        return view.data + b * view.strides[0] + h * view.strides[1] + s * view.strides[2];
    }

    AttentionParams _params;
    TensorView<const T> _q, _k, _v;
    std::optional<TensorView<const float>> _bias;
    std::array<int64_t, 4> _biasStrides{};
    std::vector<int64_t> _seqLenQ, _seqLenKv;
};

template <class T>
T* element(const TensorView<T>& view, int64_t b, int64_t h, int64_t s, int64_t d) {
    return view.data + b * view.strides[0] + h * view.strides[1] + s * view.strides[2] + d * view.strides[3];
}

template <class T>
void checkLike(const TensorView<T>& view, const std::vector<int64_t>& dims, const std::string& name) {
    detail::checkView(view, name);
    require(view.dims == dims, name + " dims " + toString(view.dims) + " must be " + toString(dims));
}

}  // namespace

double dropoutUniform(uint64_t seed, uint64_t offset, uint64_t index) {
    uint64_t x = seed + 0x9E3779B97F4A7C15ULL * (offset + index + 1);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return static_cast<double>(x >> 11) * 0x1.0p-53;
}

template <class T>
void sdpaForward(const AttentionParams& params, const TensorView<const T>& q, const TensorView<const T>& k,
                 const TensorView<const T>& v, const std::optional<TensorView<const float>>& bias,
                 const TensorView<T>& o, const std::optional<TensorView<float>>& stats) {
    detail::checkView(o, "sdpa o");
    const Attention<T> attention(params, q, k, v, bias, o.dims, "sdpa");
    const Geometry& g = attention.geometry;
    if (stats) {
        checkLike(*stats, {g.batch, g.queryHeads, g.seqQ, 1}, "sdpa stats");
    }
    parallelFor(g.rows(), [&](int64_t begin, int64_t end) {
        std::vector<double> scores(static_cast<size_t>(g.seqKv));
        std::vector<double> output(static_cast<size_t>(g.valueDim));
        for (int64_t r = begin; r < end; ++r) {
            int64_t b = 0, h = 0, i = 0;
            attention.rowIndex(r, b, h, i);
            const int64_t visible = attention.visibleEnd(b, i);
            const auto query = Attention<T>::load(attention.qRow(b, h, i), g.headDim, attention.qStride());
            double maximum = -kInfinity;
            for (int64_t j = 0; j < visible; ++j) {
                scores[static_cast<size_t>(j)] = attention.score(query, b, h, i, j);
                maximum = std::max(maximum, scores[static_cast<size_t>(j)]);
            }
            std::fill(output.begin(), output.end(), 0.0);
            double logSumExp = kInfinity;
            if (maximum > -kInfinity) {
                double sum = 0;
                for (int64_t j = 0; j < visible; ++j) {
                    sum += std::exp(scores[static_cast<size_t>(j)] - maximum);
                }
                logSumExp = maximum + std::log(sum);
                for (int64_t j = 0; j < visible; ++j) {
                    const double weight = std::exp(scores[static_cast<size_t>(j)] - maximum) / sum *
                                          attention.keepFactor(b, h, i, j);
                    if (weight == 0.0) {
                        continue;
                    }
                    const T* value = attention.vRow(b, h, j);
                    for (int64_t d = 0; d < g.valueDim; ++d) {
                        output[static_cast<size_t>(d)] +=
                            weight * detail::load<double>(value[d * attention.vStride()]);
                    }
                }
            }
            for (int64_t d = 0; d < g.valueDim; ++d) {
                *element(o, b, h, i, d) = detail::store<T>(output[static_cast<size_t>(d)]);
            }
            if (stats) {
                *element(*stats, b, h, i, 0) = static_cast<float>(logSumExp);
            }
        }
    });
}

// The gradients of s = scale * q k^T + bias, p = softmax(s), p' = p * keep, o = p' v:
// dv_j = sum_i p'_ij dO_i, dp_ij = keep_ij (dO_i . v_j), ds_ij = p_ij (dp_ij - dO_i . o_i),
// dq_i = scale sum_j ds_ij k_j, dk_j = scale sum_i ds_ij q_i (summed over the query heads of a KV head).
// p is recomputed from the given stats; a row with stats +inf (it saw no key) has no gradient.
template <class T>
void sdpaBackward(const AttentionParams& params, const TensorView<const T>& q, const TensorView<const T>& k,
                  const TensorView<const T>& v, const TensorView<const T>& o, const TensorView<const T>& dO,
                  const TensorView<const float>& stats, const std::optional<TensorView<const float>>& bias,
                  const TensorView<T>& dq, const TensorView<T>& dk, const TensorView<T>& dv) {
    detail::checkView(o, "sdpa backward o");
    const Attention<T> attention(params, q, k, v, bias, o.dims, "sdpa backward");
    const Geometry& g = attention.geometry;
    checkLike(dO, o.dims, "sdpa backward dO");
    checkLike(stats, {g.batch, g.queryHeads, g.seqQ, 1}, "sdpa backward stats");
    checkLike(dq, q.dims, "sdpa backward dq");
    checkLike(dk, k.dims, "sdpa backward dk");
    checkLike(dv, v.dims, "sdpa backward dv");

    const auto rowLogSumExp = [&](int64_t b, int64_t h, int64_t i) {
        return static_cast<double>(
            stats.data[b * stats.strides[0] + h * stats.strides[1] + i * stats.strides[2]]);
    };
    const auto gradientRow = [&](int64_t b, int64_t h, int64_t i) {
        return Attention<T>::load(dO.data + b * dO.strides[0] + h * dO.strides[1] + i * dO.strides[2],
                                  g.valueDim, dO.strides[3]);
    };
    const auto dot = [](const std::vector<double>& a, const T* b, int64_t stride) {
        double sum = 0;
        for (size_t d = 0; d < a.size(); ++d) {
            sum += a[d] * detail::load<double>(b[static_cast<int64_t>(d) * stride]);
        }
        return sum;
    };

    // delta_i = dO_i . o_i, and dq row by row.
    std::vector<double> delta(static_cast<size_t>(g.rows()));
    parallelFor(g.rows(), [&](int64_t begin, int64_t end) {
        std::vector<double> gradient(static_cast<size_t>(g.headDim));
        for (int64_t r = begin; r < end; ++r) {
            int64_t b = 0, h = 0, i = 0;
            attention.rowIndex(r, b, h, i);
            const auto outputGradient = gradientRow(b, h, i);
            const double rowDelta =
                dot(outputGradient, o.data + b * o.strides[0] + h * o.strides[1] + i * o.strides[2],
                    o.strides[3]);
            delta[static_cast<size_t>(r)] = rowDelta;
            std::fill(gradient.begin(), gradient.end(), 0.0);
            const double logSumExp = rowLogSumExp(b, h, i);
            const int64_t visible = logSumExp == kInfinity ? 0 : attention.visibleEnd(b, i);
            const auto query = Attention<T>::load(attention.qRow(b, h, i), g.headDim, attention.qStride());
            for (int64_t j = 0; j < visible; ++j) {
                const double probability = std::exp(attention.score(query, b, h, i, j) - logSumExp);
                const double keep = attention.keepFactor(b, h, i, j);
                const double weightGradient =
                    keep * dot(outputGradient, attention.vRow(b, h, j), attention.vStride());
                const double scoreGradient = probability * (weightGradient - rowDelta);
                const T* key = attention.kRow(b, h, j);
                for (int64_t d = 0; d < g.headDim; ++d) {
                    gradient[static_cast<size_t>(d)] +=
                        scoreGradient * detail::load<double>(key[d * attention.kStride()]);
                }
            }
            for (int64_t d = 0; d < g.headDim; ++d) {
                *element(dq, b, h, i, d) =
                    detail::store<T>(attention.scale() * gradient[static_cast<size_t>(d)]);
            }
        }
    });

    // dk and dv key by key, over every query row of the KV head's query heads.
    parallelFor(g.batch * g.kvHeads * g.seqKv, [&](int64_t begin, int64_t end) {
        std::vector<double> keyGradient(static_cast<size_t>(g.headDim));
        std::vector<double> valueGradient(static_cast<size_t>(g.valueDim));
        for (int64_t column = begin; column < end; ++column) {
            const int64_t j = column % g.seqKv;
            const int64_t kvHead = (column / g.seqKv) % g.kvHeads;
            const int64_t b = column / (g.seqKv * g.kvHeads);
            std::fill(keyGradient.begin(), keyGradient.end(), 0.0);
            std::fill(valueGradient.begin(), valueGradient.end(), 0.0);
            for (int64_t h = kvHead * g.group(); h < (kvHead + 1) * g.group(); ++h) {
                for (int64_t i = 0; i < g.seqQ; ++i) {
                    const double logSumExp = rowLogSumExp(b, h, i);
                    if (logSumExp == kInfinity || j >= attention.visibleEnd(b, i)) {
                        continue;
                    }
                    const auto query =
                        Attention<T>::load(attention.qRow(b, h, i), g.headDim, attention.qStride());
                    const auto outputGradient = gradientRow(b, h, i);
                    const double probability = std::exp(attention.score(query, b, h, i, j) - logSumExp);
                    const double keep = attention.keepFactor(b, h, i, j);
                    for (int64_t d = 0; d < g.valueDim; ++d) {
                        valueGradient[static_cast<size_t>(d)] +=
                            probability * keep * outputGradient[static_cast<size_t>(d)];
                    }
                    const double weightGradient =
                        keep * dot(outputGradient, attention.vRow(b, h, j), attention.vStride());
                    const double scoreGradient =
                        probability *
                        (weightGradient - delta[static_cast<size_t>((b * g.queryHeads + h) * g.seqQ + i)]);
                    for (int64_t d = 0; d < g.headDim; ++d) {
                        keyGradient[static_cast<size_t>(d)] += scoreGradient * query[static_cast<size_t>(d)];
                    }
                }
            }
            for (int64_t d = 0; d < g.headDim; ++d) {
                *element(dk, b, kvHead, j, d) =
                    detail::store<T>(attention.scale() * keyGradient[static_cast<size_t>(d)]);
            }
            for (int64_t d = 0; d < g.valueDim; ++d) {
                *element(dv, b, kvHead, j, d) = detail::store<T>(valueGradient[static_cast<size_t>(d)]);
            }
        }
    });
}

#define HIPDNN_INSTANTIATE_ATTENTION(T)                                                                      \
    template void sdpaForward<T>(const AttentionParams&, const TensorView<const T>&,                         \
                                 const TensorView<const T>&, const TensorView<const T>&,                     \
                                 const std::optional<TensorView<const float>>&, const TensorView<T>&,        \
                                 const std::optional<TensorView<float>>&);                                   \
    template void sdpaBackward<T>(                                                                           \
        const AttentionParams&, const TensorView<const T>&, const TensorView<const T>&,                      \
        const TensorView<const T>&, const TensorView<const T>&, const TensorView<const T>&,                  \
        const TensorView<const float>&, const std::optional<TensorView<const float>>&, const TensorView<T>&, \
        const TensorView<T>&, const TensorView<T>&);

HIPDNN_INSTANTIATE_ATTENTION(float)
HIPDNN_INSTANTIATE_ATTENTION(detail::half)
HIPDNN_INSTANTIATE_ATTENTION(detail::bfloat16)

}  // namespace hipdnn_test_sdk::references
