#include "ReferenceTestHelpers.hpp"

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_test_sdk/references/Convolution.hpp>
#include <hipdnn_test_sdk/references/Parallel.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <iostream>

namespace {

using namespace reference_tests;
using hipdnn_data_sdk::types::half;

TEST(Convolution, HandWorked2dCrossCorrelationAndConvolution) {
    // x = 1..9 (3x3), w = [[1, 0], [0, -1]]: each output is x[i][j] - x[i+1][j+1] = -4.
    auto x = packed<float>({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    auto w = packed<float>({1, 1, 2, 2}, {1, 0, 0, -1});
    auto y = packedZeros<float>({1, 1, 2, 2});
    refs::ConvolutionParams params{{0, 0}, {0, 0}, {1, 1}, {1, 1}, refs::ConvMode::CROSS_CORRELATION};
    refs::convolutionFprop<float>(x.constView(), w.constView(), y.view(), params);
    EXPECT_EQ(y.rowMajor(), (std::vector<float>{-4, -4, -4, -4}));
    // CONVOLUTION flips the filter: x[i+1][j+1] - x[i][j] = 4.
    params.mode = refs::ConvMode::CONVOLUTION;
    refs::convolutionFprop<float>(x.constView(), w.constView(), y.view(), params);
    EXPECT_EQ(y.rowMajor(), (std::vector<float>{4, 4, 4, 4}));
}

TEST(Convolution, HandWorked1dAsymmetricPaddingAndStride) {
    // x = [1, 2, 3, 4] padded as [0 | 1 2 3 4], w = [1, 1], stride 2: [0 + 1, 2 + 3].
    auto x = packed<float>({1, 1, 4}, {1, 2, 3, 4});
    auto w = packed<float>({1, 1, 2}, {1, 1});
    auto y = packedZeros<float>({1, 1, 2});
    refs::convolutionFprop<float>(x.constView(), w.constView(), y.view(),
                                  {{1}, {0}, {2}, {1}, refs::ConvMode::CROSS_CORRELATION});
    EXPECT_EQ(y.rowMajor(), (std::vector<float>{1, 5}));
    // dgrad scatters back: dx[i] = sum of dy over the outputs reading x[i].
    auto dy = packed<float>({1, 1, 2}, {10, 100});
    auto dx = packedZeros<float>({1, 1, 4});
    refs::convolutionDgrad<float>(dy.constView(), w.constView(), dx.view(),
                                  {{1}, {0}, {2}, {1}, refs::ConvMode::CROSS_CORRELATION});
    EXPECT_EQ(dx.rowMajor(), (std::vector<float>{10, 100, 100, 0}));
    // wgrad: dw[t] = sum over outputs of dy * x[2o + t - 1] = [10*0 + 100*2, 10*1 + 100*3].
    auto dw = packedZeros<float>({1, 1, 2});
    refs::convolutionWgrad<float>(x.constView(), dy.constView(), dw.view(),
                                  {{1}, {0}, {2}, {1}, refs::ConvMode::CROSS_CORRELATION});
    EXPECT_EQ(dw.rowMajor(), (std::vector<float>{200, 310}));
}

struct ConvCase {
    std::vector<int64_t> xDims;
    std::vector<int64_t> wDims;
    refs::ConvolutionParams params;
};

std::vector<int64_t> outputDims(const ConvCase& c) {
    std::vector<int64_t> dims{c.xDims[0], c.wDims[0]};
    for (size_t d = 2; d < c.xDims.size(); ++d) {
        const int64_t span = c.params.dilation[d - 2] * (c.wDims[d] - 1) + 1;
        dims.push_back((c.xDims[d] + c.params.prePadding[d - 2] + c.params.postPadding[d - 2] - span) /
                           c.params.stride[d - 2] +
                       1);
    }
    return dims;
}

// Direct definition in double: y[n][k][o] = sum over c in k's group and taps t of
// x[n][c][o * stride + t * dilation - pre] * w[k][c'][t or flipped t].
std::vector<double> naiveFprop(const ConvCase& c, const std::vector<float>& x, const std::vector<float>& w) {
    const auto yDims = outputDims(c);
    const size_t spatial = c.xDims.size() - 2;
    const int64_t cPerGroup = c.wDims[1];
    const int64_t kPerGroup = c.wDims[0] / (c.xDims[1] / cPerGroup);
    const auto xStrides = refs::packedStrides(c.xDims);
    const auto wStrides = refs::packedStrides(c.wDims);
    std::vector<double> y(static_cast<size_t>(refs::elementCount(yDims)));
    const int64_t taps = refs::elementCount({c.wDims.begin() + 2, c.wDims.end()});
    for (size_t i = 0; i < y.size(); ++i) {
        std::vector<int64_t> coord(yDims.size());
        int64_t rest = static_cast<int64_t>(i);
        for (size_t d = yDims.size(); d-- > 0;) {
            coord[d] = rest % yDims[d];
            rest /= yDims[d];
        }
        const int64_t group = coord[1] / kPerGroup;
        double sum = 0;
        for (int64_t cc = 0; cc < cPerGroup; ++cc) {
            for (int64_t t = 0; t < taps; ++t) {
                int64_t tapRest = t;
                int64_t xOffset = coord[0] * xStrides[0] + (group * cPerGroup + cc) * xStrides[1];
                int64_t wOffset = coord[1] * wStrides[0] + cc * wStrides[1];
                bool inside = true;
                for (size_t d = spatial; d-- > 0;) {
                    const int64_t k = c.wDims[d + 2];
                    const int64_t tap = tapRest % k;
                    tapRest /= k;
                    const int64_t in = coord[d + 2] * c.params.stride[d] + tap * c.params.dilation[d] -
                                       c.params.prePadding[d];
                    inside = inside && in >= 0 && in < c.xDims[d + 2];
                    xOffset += in * xStrides[d + 2];
                    const int64_t filterTap =
                        c.params.mode == refs::ConvMode::CONVOLUTION ? k - 1 - tap : tap;
                    wOffset += filterTap * wStrides[d + 2];
                }
                if (inside) {
                    sum += static_cast<double>(x[static_cast<size_t>(xOffset)]) *
                           w[static_cast<size_t>(wOffset)];
                }
            }
        }
        y[i] = sum;
    }
    return y;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        sum += a[i] * b[i];
    }
    return sum;
}

class ConvolutionAgainstNaive : public ::testing::TestWithParam<ConvCase> {};

// fprop against the direct definition, in NC... and N...C layouts; dgrad and wgrad through the
// adjoint identities <fprop(x, w), dy> = <x, dgrad(dy, w)> = <w, wgrad(x, dy)>, which hold
// exactly for values whose sums are exact in double.
TEST_P(ConvolutionAgainstNaive, AllDirectionsInBothLayouts) {
    const ConvCase& c = GetParam();
    const auto yDims = outputDims(c);
    const auto xValues = randomValues(static_cast<size_t>(refs::elementCount(c.xDims)), 1);
    const auto wValues = randomValues(static_cast<size_t>(refs::elementCount(c.wDims)), 2);
    const auto dyValues = randomValues(static_cast<size_t>(refs::elementCount(yDims)), 3);
    const auto expected = naiveFprop(c, xValues, wValues);
    std::vector<double> dyDouble(dyValues.begin(), dyValues.end());
    std::vector<double> xDouble(xValues.begin(), xValues.end());
    std::vector<double> wDouble(wValues.begin(), wValues.end());

    std::vector<std::vector<double>> fpropResults;
    for (const bool channelsLastLayout : {false, true}) {
        auto stridesOf = [&](const std::vector<int64_t>& dims) {
            return channelsLastLayout ? channelsLast(dims) : refs::packedStrides(dims);
        };
        StridedTensor<double> x(c.xDims, stridesOf(c.xDims), xDouble);
        StridedTensor<double> w(c.wDims, stridesOf(c.wDims), wDouble);
        StridedTensor<double> dy(yDims, stridesOf(yDims), dyDouble);
        StridedTensor<float> xf(c.xDims, stridesOf(c.xDims), xValues);
        StridedTensor<float> wf(c.wDims, stridesOf(c.wDims), wValues);
        StridedTensor<float> yf(yDims, stridesOf(yDims));
        refs::convolutionFprop<float, double>(xf.constView(), wf.constView(), yf.view(), c.params);
        const auto y = yf.rowMajor();
        for (size_t i = 0; i < expected.size(); ++i) {
            ASSERT_EQ(y[i], static_cast<float>(expected[i])) << "fprop element " << i;
        }
        fpropResults.emplace_back(y.begin(), y.end());

        StridedTensor<float> dyf(yDims, stridesOf(yDims), dyValues);
        StridedTensor<float> dxf(c.xDims, stridesOf(c.xDims));
        StridedTensor<float> dwf(c.wDims, stridesOf(c.wDims));
        refs::convolutionDgrad<float, double>(dyf.constView(), wf.constView(), dxf.view(), c.params);
        refs::convolutionWgrad<float, double>(xf.constView(), dyf.constView(), dwf.view(), c.params);
        const auto dx = dxf.rowMajor();
        const auto dw = dwf.rowMajor();
        const double forward = dot(expected, dyDouble);
        EXPECT_EQ(dot(std::vector<double>(dx.begin(), dx.end()), xDouble), forward);
        EXPECT_EQ(dot(std::vector<double>(dw.begin(), dw.end()), wDouble), forward);
    }
    EXPECT_EQ(fpropResults[0], fpropResults[1]);
}

using CM = refs::ConvMode;
INSTANTIATE_TEST_SUITE_P(
    Shapes, ConvolutionAgainstNaive,
    ::testing::Values(
        ConvCase{{2, 3, 7}, {4, 3, 3}, {{1}, {2}, {2}, {1}, CM::CROSS_CORRELATION}},
        ConvCase{{1, 4, 9}, {6, 2, 2}, {{0}, {1}, {1}, {3}, CM::CONVOLUTION}},
        ConvCase{{2, 4, 6, 5}, {6, 2, 3, 2}, {{1, 0}, {2, 1}, {2, 1}, {1, 2}, CM::CROSS_CORRELATION}},
        ConvCase{{1, 6, 5, 6}, {6, 1, 3, 3}, {{1, 1}, {1, 1}, {1, 1}, {1, 1}, CM::CONVOLUTION}},
        ConvCase{{1, 2, 4, 4}, {3, 2, 1, 1}, {{0, 0}, {0, 0}, {2, 2}, {1, 1}, CM::CROSS_CORRELATION}},
        ConvCase{{1, 4, 4, 5, 4},
                 {4, 2, 2, 3, 2},
                 {{1, 0, 1}, {0, 1, 1}, {1, 2, 1}, {2, 1, 1}, CM::CONVOLUTION}}));

TEST(Convolution, RejectsInconsistentShapes) {
    auto x = packedZeros<float>({1, 4, 5, 5});
    auto w = packedZeros<float>({2, 3, 3, 3});  // 4 channels are not a multiple of 3
    auto y = packedZeros<float>({1, 2, 3, 3});
    refs::ConvolutionParams params{{0, 0}, {0, 0}, {1, 1}, {1, 1}, CM::CROSS_CORRELATION};
    EXPECT_THROW(refs::convolutionFprop<float>(x.constView(), w.constView(), y.view(), params),
                 std::invalid_argument);
    auto goodW = packedZeros<float>({2, 4, 3, 3});
    auto wrongY = packedZeros<float>({1, 2, 4, 3});
    EXPECT_THROW(refs::convolutionFprop<float>(x.constView(), goodW.constView(), wrongY.view(), params),
                 std::invalid_argument);
    params.stride = {0, 1};
    EXPECT_THROW(refs::convolutionFprop<float>(x.constView(), goodW.constView(), y.view(), params),
                 std::invalid_argument);
}

TEST(Convolution, HalfMatchesFloatRoundedOnce) {
    const ConvCase c{{1, 4, 5, 5}, {3, 4, 3, 3}, {{1, 1}, {1, 1}, {1, 1}, {1, 1}, CM::CROSS_CORRELATION}};
    const auto xValues = randomValues(100, 4);
    const auto wValues = randomValues(108, 5);
    std::vector<half> xHalf;
    std::vector<half> wHalf;
    for (float v : xValues) {
        xHalf.push_back(half(v));
    }
    for (float v : wValues) {
        wHalf.push_back(half(v));
    }
    auto x = packed<half>(c.xDims, xHalf);
    auto w = packed<half>(c.wDims, wHalf);
    auto y = packedZeros<half>({1, 3, 5, 5});
    refs::convolutionFprop<half>(x.constView(), w.constView(), y.view(), c.params);
    const auto expected = naiveFprop(c, xValues, wValues);
    const auto got = y.rowMajor();
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(static_cast<float>(got[i]), static_cast<float>(half(expected[i]))) << i;
    }
}

// The performance bar of the oracle: N=4, 56x56, C=K=64, 3x3, pad 1, fp32.
TEST(Convolution, FpropResNetLayerTiming) {
    const std::vector<int64_t> xDims{4, 64, 56, 56};
    const std::vector<int64_t> wDims{64, 64, 3, 3};
    auto x = packed<float>(xDims, randomValues(static_cast<size_t>(refs::elementCount(xDims)), 6));
    auto w = packed<float>(wDims, randomValues(static_cast<size_t>(refs::elementCount(wDims)), 7));
    auto y = packedZeros<float>(xDims);
    const auto start = std::chrono::steady_clock::now();
    refs::convolutionFprop<float>(x.constView(), w.constView(), y.view(),
                                  {{1, 1}, {1, 1}, {1, 1}, {1, 1}, CM::CROSS_CORRELATION});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "conv fprop N=4 56x56 64->64 3x3 fp32: " << seconds << " s on "
              << refs::referenceThreadCount() << " threads\n";
    // Spot check one interior output against the definition.
    double expected = 0;
    for (int64_t c = 0; c < 64; ++c) {
        for (int64_t r = 0; r < 3; ++r) {
            for (int64_t s = 0; s < 3; ++s) {
                expected += static_cast<double>(
                                x.storage[static_cast<size_t>(((1 * 64 + c) * 56 + 9 + r) * 56 + 19 + s)]) *
                            w.storage[static_cast<size_t>(((5 * 64 + c) * 3 + r) * 3 + s)];
            }
        }
    }
    EXPECT_NEAR(y.storage[static_cast<size_t>(((1 * 64 + 5) * 56 + 10) * 56 + 20)], expected, 1e-4);
#ifdef NDEBUG
    EXPECT_LT(seconds, 2.0);
#endif
}

}  // namespace
