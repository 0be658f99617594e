// The host kernels of attention: the AVX-512 versions against the portable ones (tails of every
// length, causal limits, contiguous and strided bias, fp32 and bf16 outputs), the exponential
// against std::exp, and bf16 rounding against the data SDK's bfloat16 (NaN and infinities too).
#include "SdpaKernels.hpp"

#include <hipdnn_data_sdk/types.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

namespace kernels = hipdnn_onednn::sdpa_kernels;
using hipdnn_data_sdk::types::bfloat16;

constexpr float kInf = std::numeric_limits<float>::infinity();

// Restores the CPU's choice after a test that forces the portable versions.
struct PortableScope {
    explicit PortableScope(bool portable) { kernels::setVectorized(!portable); }
    ~PortableScope() { kernels::setVectorized(true); }
    PortableScope(const PortableScope&) = delete;
    PortableScope& operator=(const PortableScope&) = delete;
};

std::vector<float> randomRow(std::mt19937& random, int64_t n, float spread) {
    std::normal_distribution<float> normal(0.0F, spread);
    std::vector<float> row(static_cast<size_t>(n));
    for (float& value : row) {
        value = normal(random);
    }
    return row;
}

uint16_t bits(bfloat16 value) {
    uint16_t out = 0;
    std::memcpy(&out, &value, sizeof(out));
    return out;
}

// Relative closeness for values of a softmax (exp within a few ulp).
void expectClose(float expected, float actual, const char* what, int64_t index) {
    EXPECT_NEAR(expected, actual, 4e-6F * std::max(1.0F, std::fabs(expected))) << what << " at " << index;
}

const std::vector<int64_t> kLengths = {1, 2, 7, 15, 16, 17, 31, 33, 64, 100, 128, 130, 512, 515};

#if defined(__x86_64__)
TEST(SdpaKernels, AvxFiveTwelveCpusTakeTheVectorPath) {
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    EXPECT_EQ(avx512, kernels::vectorized());
}
#endif

TEST(SdpaKernels, ScaleMaskMaxMatchesPortable) {
    std::mt19937 random(7);
    for (const int64_t n : kLengths) {
        for (const int64_t limit : {int64_t{0}, n / 3, n - 1, n}) {
            for (const int64_t biasStride : {int64_t{0}, int64_t{1}, int64_t{3}}) {
                const auto scores = randomRow(random, n, 3.0F);
                auto bias = randomRow(random, 3 * n + 1, 1.0F);
                bias[0] = -kInf;  // a masked key through the bias
                const float* biasRow = biasStride == 0 ? nullptr : bias.data();
                auto vector = scores;
                auto portable = scores;
                const float vectorMax =
                    kernels::scaleMaskMax(vector.data(), n, limit, 0.3F, biasRow, biasStride);
                float portableMax = 0.0F;
                {
                    const PortableScope scope(true);
                    portableMax = kernels::scaleMaskMax(portable.data(), n, limit, 0.3F, biasRow, biasStride);
                }
                EXPECT_EQ(portableMax, vectorMax) << "n " << n << " limit " << limit;
                for (int64_t j = 0; j < n; ++j) {
                    EXPECT_EQ(portable[static_cast<size_t>(j)], vector[static_cast<size_t>(j)]) << j;
                }
            }
        }
    }
}

TEST(SdpaKernels, RowMaxMatchesPortable) {
    std::mt19937 random(6);
    for (const int64_t n : kLengths) {
        auto scores = randomRow(random, n, 3.0F);
        scores[static_cast<size_t>(n - 1)] = 100.0F;  // beyond every limit below but n
        for (const int64_t limit : {int64_t{0}, n / 3, n - 1, n}) {
            const float vectorMax = kernels::rowMax(scores.data(), limit);
            float portableMax = 0.0F;
            {
                const PortableScope scope(true);
                portableMax = kernels::rowMax(scores.data(), limit);
            }
            const float expected =
                limit == 0 ? -kInf : *std::max_element(scores.begin(), scores.begin() + limit);
            EXPECT_EQ(expected, vectorMax) << "n " << n << " limit " << limit;
            EXPECT_EQ(expected, portableMax) << "n " << n << " limit " << limit;
        }
    }
}

TEST(SdpaKernels, ExpSumMatchesPortableInFp32AndBf16) {
    std::mt19937 random(8);
    for (const int64_t n : kLengths) {
        auto scores = randomRow(random, n, 4.0F);
        scores[static_cast<size_t>(n / 2)] = -kInf;  // masked: exactly 0
        for (const int64_t limit : {int64_t{0}, n / 3, n}) {
            for (const float scale : {1.0F, 0.125F}) {
                // The shift is finite, as the online softmax passes it: 0 while no key is seen.
                const float rowMax = kernels::rowMax(scores.data(), limit);
                const float shift = rowMax == -kInf ? 0.0F : scale * rowMax;
                std::vector<float> vector(scores.size(), 1.0F), portable(scores.size(), 1.0F);
                std::vector<bfloat16> vector16(scores.size()), portable16(scores.size());
                const float vectorSum =
                    kernels::expSum(scores.data(), n, limit, scale, shift, vector.data(), false);
                const float vectorSum16 =
                    kernels::expSum(scores.data(), n, limit, scale, shift, vector16.data(), true);
                float portableSum = 0.0F, portableSum16 = 0.0F;
                {
                    const PortableScope scope(true);
                    portableSum =
                        kernels::expSum(scores.data(), n, limit, scale, shift, portable.data(), false);
                    portableSum16 =
                        kernels::expSum(scores.data(), n, limit, scale, shift, portable16.data(), true);
                }
                EXPECT_NEAR(portableSum, vectorSum, 1e-5F * portableSum);
                EXPECT_NEAR(portableSum16, vectorSum16, 1e-5F * portableSum16);
                for (size_t j = 0; j < scores.size(); ++j) {
                    const bool visible = static_cast<int64_t>(j) < limit && scores[j] != -kInf;
                    const float expected = visible ? std::exp(scores[j] * scale - shift) : 0.0F;
                    expectClose(expected, portable[j], "portable fp32", static_cast<int64_t>(j));
                    expectClose(portable[j], vector[j], "fp32", static_cast<int64_t>(j));
                    // bf16 of values within a few ulp of each other: equal or one bf16 ulp apart.
                    EXPECT_LE(
                        std::abs(static_cast<int>(bits(portable16[j])) - static_cast<int>(bits(vector16[j]))),
                        1)
                        << j;
                    if (!visible) {
                        EXPECT_EQ(0.0F, vector[j]) << "masked or past the limit: " << j;
                    }
                }
            }
        }
    }
}

TEST(SdpaKernels, ExponentialFollowsStdExp) {
    std::vector<float> x;
    for (float value = -100.0F; value <= 10.0F; value += 0.0137F) {
        x.push_back(value);
    }
    x.push_back(-kInf);
    const auto n = static_cast<int64_t>(x.size());
    std::vector<float> out(x.size());
    kernels::expSum(x.data(), n, n, 1.0F, 0.0F, out.data(), false);
    for (size_t j = 0; j < x.size(); ++j) {
        const float expected = x[j] < -87.0F ? 0.0F : std::exp(x[j]);
        EXPECT_NEAR(expected, out[j], 3e-7F * expected + 1e-37F) << "exp(" << x[j] << ")";
    }
}

TEST(SdpaKernels, SoftmaxGradientMatchesPortable) {
    std::mt19937 random(9);
    for (const int64_t n : kLengths) {
        for (const int64_t limit : {int64_t{0}, n / 2, n}) {
            for (const bool bf16 : {false, true}) {
                for (const float stats : {1.5F, kInf}) {
                    const auto scores = randomRow(random, n, 2.0F);
                    const auto dP = randomRow(random, n, 1.0F);
                    const auto bias = randomRow(random, 2 * n, 0.5F);
                    std::vector<float> p(2 * scores.size()), dS(2 * scores.size());
                    std::vector<float> portableP(p.size()), portableDS(dS.size());
                    kernels::softmaxGradient(scores.data(), dP.data(), n, limit, 0.7F, bias.data(), 2, stats,
                                             0.2F, p.data(), dS.data(), bf16);
                    {
                        const PortableScope scope(true);
                        kernels::softmaxGradient(scores.data(), dP.data(), n, limit, 0.7F, bias.data(), 2,
                                                 stats, 0.2F, portableP.data(), portableDS.data(), bf16);
                    }
                    const auto read = [&](const std::vector<float>& data, int64_t j) {
                        if (!bf16) {
                            return data[static_cast<size_t>(j)];
                        }
                        const uint32_t high = reinterpret_cast<const uint16_t*>(data.data())[j];
                        const uint32_t widened = high << 16U;
                        float value = 0.0F;
                        std::memcpy(&value, &widened, sizeof(value));
                        return value;
                    };
                    const float tolerance = bf16 ? 1.0F / 128 : 4e-6F;
                    for (int64_t j = 0; j < n; ++j) {
                        EXPECT_NEAR(read(portableP, j), read(p, j),
                                    tolerance * std::fabs(read(portableP, j)) + 1e-30F)
                            << "p " << j << " n " << n << " limit " << limit;
                        EXPECT_NEAR(read(portableDS, j), read(dS, j),
                                    tolerance * std::fabs(read(portableDS, j)) + 1e-30F)
                            << "dS " << j;
                        if (j >= limit || std::isinf(stats)) {
                            EXPECT_EQ(0.0F, read(p, j)) << j;
                        }
                    }
                }
            }
        }
    }
}

TEST(SdpaKernels, Bf16RoundingAndRowCopiesMatchTheSdk) {
    std::mt19937 random(10);
    auto values = randomRow(random, 83, 100.0F);
    values[0] = kInf;
    values[1] = -kInf;
    values[2] = std::numeric_limits<float>::quiet_NaN();
    values[3] = 1.00390625F;  // halfway between two bf16 values: rounds to even
    values[4] = 1.01171875F;  // halfway, rounds up to even
    values[5] = 3.0e38F;      // rounds to the largest finite or to infinity as the SDK does
    values[6] = 1e-40F;       // subnormal
    const auto n = static_cast<int64_t>(values.size());
    for (const int64_t stride : {int64_t{1}, int64_t{2}}) {
        std::vector<bfloat16> out(values.size() * 2);
        kernels::storeRow(values.data(), n, 1.0F, out.data(), stride, true);
        for (int64_t d = 0; d < n; ++d) {
            const bfloat16 expected(values[static_cast<size_t>(d)]);
            const bfloat16 actual = out[static_cast<size_t>(d * stride)];
            if (std::isnan(values[static_cast<size_t>(d)])) {
                EXPECT_TRUE(std::isnan(static_cast<float>(actual)));
            } else {
                EXPECT_EQ(bits(expected), bits(actual)) << values[static_cast<size_t>(d)];
            }
        }
        std::vector<float> back(values.size());
        kernels::loadRow(out.data(), n, stride, true, back.data());
        for (int64_t d = 0; d < n; ++d) {
            const float expected = static_cast<float>(out[static_cast<size_t>(d * stride)]);
            if (!std::isnan(expected)) {
                EXPECT_EQ(expected, back[static_cast<size_t>(d)]);
            }
        }
        std::vector<float> scaled(values.size() * 2);
        kernels::storeRow(values.data(), n, 0.5F, scaled.data(), stride, false);
        std::vector<float> scaledBack(values.size());
        kernels::loadRow(scaled.data(), n, stride, false, scaledBack.data());
        for (int64_t d = 3; d < n; ++d) {
            EXPECT_EQ(values[static_cast<size_t>(d)] * 0.5F, scaledBack[static_cast<size_t>(d)]);
        }
    }
}

}  // namespace
