#include "SdpaKernels.hpp"

#include <hipdnn_data_sdk/types.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// GCC 12's AVX-512 headers start reductions and min / max from _mm512_undefined_*, which
// -Wuninitialized reports at every inlined use (a false positive; GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#define HIPDNN_SDPA_AVX512 1
#define HIPDNN_SDPA_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma")))
#endif

namespace hipdnn_onednn::sdpa_kernels {

namespace {

using hipdnn_data_sdk::types::bfloat16;

constexpr float kNegativeInfinity = -std::numeric_limits<float>::infinity();

bool cpuHasAvx512() {
#ifdef HIPDNN_SDPA_AVX512
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
    return false;
#endif
}

std::atomic<bool>& useVector() {
    static std::atomic<bool> use{cpuHasAvx512()};
    return use;
}

// ---- portable versions ----

float scaleMaskMaxScalar(float* s, int64_t n, int64_t limit, float scale, const float* bias,
                         int64_t biasStride) {
    float best = kNegativeInfinity;
    for (int64_t j = 0; j < limit; ++j) {
        float value = s[j] * scale;
        if (bias != nullptr) {
            value += bias[j * biasStride];
        }
        s[j] = value;
        best = std::max(best, value);
    }
    std::fill(s + limit, s + n, kNegativeInfinity);
    return best;
}

void storeValue(void* out, int64_t index, float value, bool bf16) {
    if (bf16) {
        static_cast<bfloat16*>(out)[index] = bfloat16(value);
    } else {
        static_cast<float*>(out)[index] = value;
    }
}

float rowMaxScalar(const float* s, int64_t limit) {
    float best = kNegativeInfinity;
    for (int64_t j = 0; j < limit; ++j) {
        best = std::max(best, s[j]);
    }
    return best;
}

float expSumScalar(const float* s, int64_t n, int64_t limit, float scale, float shift, void* p, bool bf16) {
    float sum = 0.0F;
    for (int64_t j = 0; j < n; ++j) {
        const bool visible = j < limit && s[j] != kNegativeInfinity;
        const float value = visible ? std::exp(std::fma(s[j], scale, -shift)) : 0.0F;
        sum += value;
        storeValue(p, j, value, bf16);
    }
    return sum;
}

void softmaxGradientScalar(const float* s, const float* dP, int64_t n, int64_t limit, float scale,
                           const float* bias, int64_t biasStride, float stats, float delta, void* p, void* dS,
                           bool bf16) {
    for (int64_t j = 0; j < n; ++j) {
        float value = 0.0F;
        if (j < limit) {
            float x = s[j] * scale;
            if (bias != nullptr) {
                x += bias[j * biasStride];
            }
            value = x == kNegativeInfinity ? 0.0F : std::exp(x - stats);
        }
        const float gradient = value * (dP[j] - delta) * scale;
        storeValue(p, j, value, bf16);
        storeValue(dS, j, gradient, bf16);
    }
}

void storeRowScalar(const float* in, int64_t n, float factor, void* out, int64_t stride, bool bf16) {
    for (int64_t d = 0; d < n; ++d) {
        storeValue(out, d * stride, in[d] * factor, bf16);
    }
}

void loadRowScalar(const void* in, int64_t n, int64_t stride, bool bf16, float* out) {
    for (int64_t d = 0; d < n; ++d) {
        out[d] = bf16 ? static_cast<float>(static_cast<const bfloat16*>(in)[d * stride])
                      : static_cast<const float*>(in)[d * stride];
    }
}

// ---- AVX-512 versions ----

#ifdef HIPDNN_SDPA_AVX512

HIPDNN_SDPA_TARGET inline __mmask16 tailMask(int64_t remaining) {
    return remaining >= 16 ? static_cast<__mmask16>(0xFFFF)
                           : static_cast<__mmask16>((1U << static_cast<unsigned>(remaining)) - 1U);
}

// exp(x) for x <= ~88; 0 below -87 (so exactly 0 for -inf). Cody-Waite reduction by ln 2 and the
// Cephes polynomial; scalef applies 2^n.
HIPDNN_SDPA_TARGET inline __m512 exp512(__m512 x) {
    const __mmask16 tiny = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-87.0F), _CMP_LT_OQ);
    x = _mm512_max_ps(x, _mm512_set1_ps(-87.0F));
    x = _mm512_min_ps(x, _mm512_set1_ps(88.0F));
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341F)),
                                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375F), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4F), r);
    __m512 poly = _mm512_set1_ps(1.9875691500E-4F);
    poly = _mm512_fmadd_ps(poly, r, _mm512_set1_ps(1.3981999507E-3F));
    poly = _mm512_fmadd_ps(poly, r, _mm512_set1_ps(8.3334519073E-3F));
    poly = _mm512_fmadd_ps(poly, r, _mm512_set1_ps(4.1665795894E-2F));
    poly = _mm512_fmadd_ps(poly, r, _mm512_set1_ps(1.6666665459E-1F));
    poly = _mm512_fmadd_ps(poly, r, _mm512_set1_ps(5.0000001201E-1F));
    const __m512 r2 = _mm512_mul_ps(r, r);
    __m512 y = _mm512_fmadd_ps(poly, r2, _mm512_add_ps(r, _mm512_set1_ps(1.0F)));
    y = _mm512_scalef_ps(y, n);
    return _mm512_maskz_mov_ps(static_cast<__mmask16>(~tiny), y);
}

// 16 floats to bf16, round to nearest even; NaN stays a quiet NaN.
HIPDNN_SDPA_TARGET inline __m256i toBf16(__m512 v) {
    const __m512i bits = _mm512_castps_si512(v);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    __m512i rounded = _mm512_add_epi32(bits, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7FFF)));
    rounded = _mm512_srli_epi32(rounded, 16);
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    rounded = _mm512_mask_mov_epi32(rounded, nan,
                                    _mm512_or_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(0x40)));
    return _mm512_cvtepi32_epi16(rounded);
}

HIPDNN_SDPA_TARGET inline __m512 fromBf16(__m256i v) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(v), 16));
}

HIPDNN_SDPA_TARGET inline void store16(void* out, int64_t index, __m512 v, __mmask16 mask, bool bf16) {
    if (bf16) {
        _mm256_mask_storeu_epi16(static_cast<uint16_t*>(out) + index, mask, toBf16(v));
    } else {
        _mm512_mask_storeu_ps(static_cast<float*>(out) + index, mask, v);
    }
}

HIPDNN_SDPA_TARGET float scaleMaskMaxVector(float* s, int64_t n, int64_t limit, float scale,
                                            const float* bias, int64_t biasStride) {
    const __m512 scales = _mm512_set1_ps(scale);
    __m512 best = _mm512_set1_ps(kNegativeInfinity);
    const bool contiguousBias = bias != nullptr && biasStride == 1;
    const bool gatheredBias = bias != nullptr && biasStride != 1;
    int64_t j = 0;
    for (; j < limit; j += 16) {
        const __mmask16 mask = tailMask(limit - j);
        __m512 value = _mm512_mul_ps(_mm512_maskz_loadu_ps(mask, s + j), scales);
        if (contiguousBias) {
            value = _mm512_add_ps(value, _mm512_maskz_loadu_ps(mask, bias + j));
        } else if (gatheredBias) {
            alignas(64) float gathered[16] = {};
            for (int64_t e = 0; e < 16 && j + e < limit; ++e) {
                gathered[e] = bias[(j + e) * biasStride];
            }
            value = _mm512_add_ps(value, _mm512_load_ps(gathered));
        }
        _mm512_mask_storeu_ps(s + j, mask, value);
        best = _mm512_mask_max_ps(best, mask, best, value);
    }
    std::fill(s + limit, s + n, kNegativeInfinity);
    return _mm512_reduce_max_ps(best);
}

HIPDNN_SDPA_TARGET float rowMaxVector(const float* s, int64_t limit) {
    __m512 best = _mm512_set1_ps(kNegativeInfinity);
    for (int64_t j = 0; j < limit; j += 16) {
        const __mmask16 mask = tailMask(limit - j);
        best = _mm512_mask_max_ps(best, mask, best, _mm512_maskz_loadu_ps(mask, s + j));
    }
    return _mm512_reduce_max_ps(best);
}

HIPDNN_SDPA_TARGET float expSumVector(const float* s, int64_t n, int64_t limit, float scale, float shift,
                                      void* p, bool bf16) {
    const __m512 scales = _mm512_set1_ps(scale);
    const __m512 shifts = _mm512_set1_ps(-shift);
    __m512 sum = _mm512_setzero_ps();
    for (int64_t j = 0; j < n; j += 16) {
        const __mmask16 mask = tailMask(n - j);
        const __mmask16 visible = j >= limit ? static_cast<__mmask16>(0) : tailMask(limit - j);
        const __m512 x = _mm512_maskz_loadu_ps(visible, s + j);
        // -inf · scale - shift stays -inf (scale > 0, shift finite), and exp512 makes it 0.
        const __m512 value = _mm512_maskz_mov_ps(visible, exp512(_mm512_fmadd_ps(x, scales, shifts)));
        sum = _mm512_add_ps(sum, value);
        store16(p, j, value, mask, bf16);
    }
    return _mm512_reduce_add_ps(sum);
}

HIPDNN_SDPA_TARGET void softmaxGradientVector(const float* s, const float* dP, int64_t n, int64_t limit,
                                              float scale, const float* bias, int64_t biasStride, float stats,
                                              float delta, void* p, void* dS, bool bf16) {
    const __m512 scales = _mm512_set1_ps(scale);
    const __m512 statsV = _mm512_set1_ps(stats);
    const __m512 deltaV = _mm512_set1_ps(delta);
    for (int64_t j = 0; j < n; j += 16) {
        const __mmask16 mask = tailMask(n - j);
        const __mmask16 visible = j >= limit ? static_cast<__mmask16>(0) : tailMask(limit - j);
        __m512 x = _mm512_mul_ps(_mm512_maskz_loadu_ps(mask, s + j), scales);
        if (bias != nullptr) {
            if (biasStride == 1) {
                x = _mm512_add_ps(x, _mm512_maskz_loadu_ps(visible, bias + j));
            } else {
                alignas(64) float gathered[16] = {};
                for (int64_t e = 0; e < 16 && j + e < limit; ++e) {
                    gathered[e] = bias[(j + e) * biasStride];
                }
                x = _mm512_add_ps(x, _mm512_load_ps(gathered));
            }
        }
        const __m512 value = _mm512_maskz_mov_ps(visible, exp512(_mm512_sub_ps(x, statsV)));
        const __m512 gradient = _mm512_mul_ps(
            _mm512_mul_ps(value, _mm512_sub_ps(_mm512_maskz_loadu_ps(mask, dP + j), deltaV)), scales);
        store16(p, j, value, mask, bf16);
        store16(dS, j, gradient, mask, bf16);
    }
}

HIPDNN_SDPA_TARGET void storeRowVector(const float* in, int64_t n, float factor, void* out, bool bf16) {
    const __m512 factors = _mm512_set1_ps(factor);
    for (int64_t d = 0; d < n; d += 16) {
        const __mmask16 mask = tailMask(n - d);
        store16(out, d, _mm512_mul_ps(_mm512_maskz_loadu_ps(mask, in + d), factors), mask, bf16);
    }
}

HIPDNN_SDPA_TARGET void loadRowVector(const void* in, int64_t n, bool bf16, float* out) {
    for (int64_t d = 0; d < n; d += 16) {
        const __mmask16 mask = tailMask(n - d);
        const __m512 value =
            bf16 ? fromBf16(_mm256_maskz_loadu_epi16(mask, static_cast<const uint16_t*>(in) + d))
                 : _mm512_maskz_loadu_ps(mask, static_cast<const float*>(in) + d);
        _mm512_mask_storeu_ps(out + d, mask, value);
    }
}

#endif

}  // namespace

bool vectorized() {
    return useVector().load(std::memory_order_relaxed);
}

void setVectorized(bool enable) {
    useVector().store(enable && cpuHasAvx512());
}

float scaleMaskMax(float* s, int64_t n, int64_t limit, float scale, const float* bias, int64_t biasStride) {
    limit = std::clamp<int64_t>(limit, 0, n);
#ifdef HIPDNN_SDPA_AVX512
    if (vectorized()) {
        return scaleMaskMaxVector(s, n, limit, scale, bias, biasStride);
    }
#endif
    return scaleMaskMaxScalar(s, n, limit, scale, bias, biasStride);
}

float rowMax(const float* s, int64_t limit) {
#ifdef HIPDNN_SDPA_AVX512
    if (vectorized()) {
        return rowMaxVector(s, limit);
    }
#endif
    return rowMaxScalar(s, limit);
}

float expSum(const float* s, int64_t n, int64_t limit, float scale, float shift, void* p, bool bf16) {
    limit = std::clamp<int64_t>(limit, 0, n);
#ifdef HIPDNN_SDPA_AVX512
    if (vectorized()) {
        return expSumVector(s, n, limit, scale, shift, p, bf16);
    }
#endif
    return expSumScalar(s, n, limit, scale, shift, p, bf16);
}

void softmaxGradient(const float* s, const float* dP, int64_t n, int64_t limit, float scale,
                     const float* bias, int64_t biasStride, float stats, float delta, void* p, void* dS,
                     bool bf16) {
    limit = std::clamp<int64_t>(limit, 0, n);
    if (std::isinf(stats)) {
        limit = 0;  // a row the forward pass saw as empty has no weights
    }
#ifdef HIPDNN_SDPA_AVX512
    if (vectorized()) {
        softmaxGradientVector(s, dP, n, limit, scale, bias, biasStride, stats, delta, p, dS, bf16);
        return;
    }
#endif
    softmaxGradientScalar(s, dP, n, limit, scale, bias, biasStride, stats, delta, p, dS, bf16);
}

void storeRow(const float* in, int64_t n, float factor, void* out, int64_t stride, bool bf16) {
#ifdef HIPDNN_SDPA_AVX512
    if (stride == 1 && vectorized()) {
        storeRowVector(in, n, factor, out, bf16);
        return;
    }
#endif
    storeRowScalar(in, n, factor, out, stride, bf16);
}

void loadRow(const void* in, int64_t n, int64_t stride, bool bf16, float* out) {
#ifdef HIPDNN_SDPA_AVX512
    if (stride == 1 && vectorized()) {
        loadRowVector(in, n, bf16, out);
        return;
    }
#endif
    loadRowScalar(in, n, stride, bf16, out);
}

float dot(const float* a, const float* b, int64_t n) {
    float sum = 0.0F;
#pragma omp simd reduction(+ : sum)
    for (int64_t d = 0; d < n; ++d) {
        sum += a[d] * b[d];
    }
    return sum;
}

void scaleRow(float* y, int64_t n, float factor) {
#pragma omp simd
    for (int64_t d = 0; d < n; ++d) {
        y[d] *= factor;
    }
}

}  // namespace hipdnn_onednn::sdpa_kernels
