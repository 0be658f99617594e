#pragma once

// The element-wise parts of attention on the host, between oneDNN's matmuls: the scale, bias and
// causal mask of a score row, its exponentials and their sum (online softmax), the softmax
// gradient, and fp32 <-> bf16 row copies. Each has an AVX-512 version (AVX512F, BW, DQ and VL, chosen
// once at run time from the CPU's flags) and a portable one; both give the same results up to the
// exponential's last bits (the vector one is a degree-6 polynomial, within 2 ulp of expf).

#include <cstdint>

namespace hipdnn_onednn::sdpa_kernels {

// Whether the AVX-512 versions run (the CPU has AVX512F and AVX512BW, and no override is set).
bool vectorized();
// Tests: forces the portable versions (false) or the CPU's choice back (true).
void setVectorized(bool enable);

// s[j] = s[j] · scale + bias[j · biasStride] (no bias when bias is null) for j < limit, -inf for
// limit <= j < n. Returns the row's maximum (-inf when limit is 0).
float scaleMaskMax(float* s, int64_t n, int64_t limit, float scale, const float* bias, int64_t biasStride);

// The maximum of s[j] for j < limit (-inf when limit is 0), s unchanged.
float rowMax(const float* s, int64_t limit);

// p[j] = exp(s[j] · scale - shift) for j < limit (exactly 0 where s[j] is -inf), 0 for
// limit <= j < n, stored as fp32 (p may be s) or bf16 (round to nearest even). Returns the sum of
// the fp32 values. With scale > 0 and shift = scale · rowMax(s, limit), this is the unbiased row's
// softmax numerator in one pass over the scores.
float expSum(const float* s, int64_t n, int64_t limit, float scale, float shift, void* p, bool bf16);

// Backward: value = s[j] · scale + bias[j · biasStride]; p = exp(value - stats) for j < limit,
// 0 from limit on; dS = p · (dP[j] - delta) · scale. p and dS are fp32 (they may be s and dP) or
// bf16.
void softmaxGradient(const float* s, const float* dP, int64_t n, int64_t limit, float scale,
                     const float* bias, int64_t biasStride, float stats, float delta, void* p, void* dS,
                     bool bf16);

// out[d · stride] = in[d] · factor for d < n, as fp32 or bf16.
void storeRow(const float* in, int64_t n, float factor, void* out, int64_t stride, bool bf16);

// out[d] = in[d · stride] for d < n, from fp32 or bf16.
void loadRow(const void* in, int64_t n, int64_t stride, bool bf16, float* out);

// Σ a[d] · b[d].
float dot(const float* a, const float* b, int64_t n);

// y[d] *= factor.
void scaleRow(float* y, int64_t n, float factor);

}  // namespace hipdnn_onednn::sdpa_kernels
