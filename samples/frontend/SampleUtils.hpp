// Shared by the samples: a CPU handle with the shipped plugins, deterministic inputs and a
// helper that prints a frontend error and fails.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <hipdnn_frontend.hpp>

namespace samples {

namespace fe = hipdnn_frontend;

// Exits with a message when a frontend call fails: samples stop at the first error.
inline void check(const fe::Error& error, const char* what) {
    if (error.is_bad()) {
        std::fprintf(stderr, "%s failed: %s: %s\n", what, fe::to_string(error.code), error.message.c_str());
        std::exit(EXIT_FAILURE);
    }
}

// A handle bound to the host CPU; the backend loads the shipped plugins from its default
// directory (hipdnn_plugins/engines next to libhipdnn_backend.so).
class CpuHandle {
public:
    CpuHandle() {
        if (hipdnnCreateForDevice_ext(&handle_, HIPDNN_DEVICE_TYPE_CPU_EXT, 0) != HIPDNN_STATUS_SUCCESS) {
            char message[HIPDNN_ERROR_STRING_MAX_LENGTH];
            hipdnnGetLastErrorString(message, sizeof(message));
            std::fprintf(stderr, "hipdnnCreateForDevice_ext failed: %s\n", message);
            std::exit(EXIT_FAILURE);
        }
    }
    ~CpuHandle() { hipdnnDestroy(handle_); }
    CpuHandle(const CpuHandle&) = delete;
    CpuHandle& operator=(const CpuHandle&) = delete;
    operator hipdnnHandle_t() const { return handle_; }

private:
    hipdnnHandle_t handle_ = nullptr;
};

inline std::vector<float> randomValues(size_t count, unsigned seed) {
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
    std::vector<float> values(count);
    for (float& value : values) {
        value = distribution(generator);
    }
    return values;
}

// Compares element by element with |a - b| <= tolerance * (1 + |b|); prints the first mismatch.
inline bool allClose(const std::vector<float>& actual, const std::vector<float>& expected, float tolerance,
                     const char* what) {
    for (size_t i = 0; i < expected.size(); ++i) {
        if (!(std::fabs(actual[i] - expected[i]) <= tolerance * (1.0f + std::fabs(expected[i])))) {
            std::fprintf(stderr, "%s mismatch at %zu: got %g, expected %g\n", what, i, actual[i],
                         expected[i]);
            return false;
        }
    }
    std::printf("%s: %zu values match\n", what, expected.size());
    return true;
}

// A plain NCHW cross-correlation with symmetric padding and unit stride/dilation, to check the
// engine's result.
inline std::vector<float> referenceConv(const std::vector<float>& x, const std::vector<float>& w, int64_t n,
                                        int64_t c, int64_t h, int64_t wd, int64_t k, int64_t r, int64_t s,
                                        int64_t pad) {
    const int64_t outH = h + 2 * pad - r + 1;
    const int64_t outW = wd + 2 * pad - s + 1;
    std::vector<float> y(static_cast<size_t>(n * k * outH * outW), 0.0f);
    for (int64_t in = 0; in < n; ++in)
        for (int64_t ik = 0; ik < k; ++ik)
            for (int64_t oh = 0; oh < outH; ++oh)
                for (int64_t ow = 0; ow < outW; ++ow) {
                    float sum = 0.0f;
                    for (int64_t ic = 0; ic < c; ++ic)
                        for (int64_t ir = 0; ir < r; ++ir)
                            for (int64_t is = 0; is < s; ++is) {
                                const int64_t ih = oh + ir - pad;
                                const int64_t iw = ow + is - pad;
                                if (ih < 0 || ih >= h || iw < 0 || iw >= wd)
                                    continue;
                                sum += x[static_cast<size_t>(((in * c + ic) * h + ih) * wd + iw)] *
                                       w[static_cast<size_t>(((ik * c + ic) * r + ir) * s + is)];
                            }
                    y[static_cast<size_t>(((in * k + ik) * outH + oh) * outW + ow)] = sum;
                }
    return y;
}

}  // namespace samples
