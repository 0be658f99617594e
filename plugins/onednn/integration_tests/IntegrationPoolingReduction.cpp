// Pooling (max, average with and without padding; 2-D and 3-D) and reductions.
#include "OnednnHarness.hpp"

#include <gtest/gtest.h>

namespace {

using namespace onednn_test;
using hipdnn_test_sdk::ToleranceOp;
using Resample = fb::ResampleMode;
constexpr auto F32 = fb::DataType::FLOAT;

struct PoolCase {
    std::string name;
    Resample mode;
    std::vector<int64_t> x, window, stride, pre, post;
};

struct PoolParam {
    PoolCase pool;
    bool channelsLast;
};

class Pooling : public testing::TestWithParam<PoolParam> {};

TEST_P(Pooling, MatchesReference) {
    const auto& [p, channelsLast] = GetParam();
    std::vector<int64_t> y{p.x[0], p.x[1]};
    for (size_t i = 0; i < p.window.size(); ++i) {
        y.push_back((p.x[i + 2] + p.pre[i] + p.post[i] - p.window[i]) / p.stride[i] + 1);
    }
    hipdnn_test_sdk::PoolingGeometry geometry;
    geometry.mode = p.mode;
    geometry.prePadding = p.pre;
    geometry.postPadding = p.post;
    geometry.stride = p.stride;
    geometry.window = p.window;
    if (p.mode == Resample::MAXPOOL) {
        geometry.paddingMode = fb::PaddingMode::NEG_INF_PAD;
    }
    GraphBuilder builder("pool");
    builder.addTensor(1, "x", F32, p.x, layoutStrides(p.x, channelsLast))
        .addTensor(2, "y", F32, y, layoutStrides(y, channelsLast))
        .addResample("pool", 1, 2, geometry);
    expectMatchesReference(builder, ToleranceOp::Resample);
}

std::vector<PoolParam> poolParams() {
    const std::vector<PoolCase> cases{
        {"Max2x2", Resample::MAXPOOL, {2, 4, 8, 8}, {2, 2}, {2, 2}, {0, 0}, {0, 0}},
        {"Max3x3Padded", Resample::MAXPOOL, {2, 4, 7, 7}, {3, 3}, {2, 2}, {1, 1}, {1, 1}},
        {"AvgInclude", Resample::AVGPOOL_INCLUDE_PADDING, {1, 3, 7, 6}, {3, 3}, {2, 2}, {1, 1}, {1, 0}},
        {"AvgExclude", Resample::AVGPOOL_EXCLUDE_PADDING, {1, 3, 7, 6}, {3, 3}, {2, 2}, {1, 1}, {1, 0}},
        {"Max3d", Resample::MAXPOOL, {1, 2, 4, 6, 6}, {2, 2, 2}, {2, 2, 2}, {0, 0, 0}, {0, 0, 0}},
        {"Avg3d",
         Resample::AVGPOOL_EXCLUDE_PADDING,
         {1, 2, 5, 5, 5},
         {3, 3, 3},
         {1, 1, 1},
         {1, 1, 1},
         {1, 1, 1}},
    };
    std::vector<PoolParam> params;
    for (const auto& c : cases) {
        params.push_back({c, false});
        params.push_back({c, true});
    }
    return params;
}

INSTANTIATE_TEST_SUITE_P(Smoke, Pooling, testing::ValuesIn(poolParams()),
                         [](const testing::TestParamInfo<PoolParam>& info) {
                             return info.param.pool.name +
                                    (info.param.channelsLast ? "_ChannelsLast" : "_ChannelsFirst");
                         });

struct ReductionCase {
    std::string name;
    fb::ReductionMode mode;
    std::vector<int64_t> in, out;
    std::pair<float, float> range{-1.0F, 1.0F};
};

class Reduction : public testing::TestWithParam<ReductionCase> {};

TEST_P(Reduction, MatchesReference) {
    const auto& r = GetParam();
    GraphBuilder builder("reduction");
    builder.addTensor(1, "in", F32, r.in)
        .addTensor(2, "out", F32, r.out)
        .addReduction("reduce", r.mode, 1, 2);
    expectMatchesReference(builder, ToleranceOp::Reduction, {{1, r.range}});
}

INSTANTIATE_TEST_SUITE_P(
    Smoke, Reduction,
    testing::Values(ReductionCase{"SumSpatial", fb::ReductionMode::ADD, {2, 4, 5, 6}, {2, 4, 1, 1}},
                    ReductionCase{"MeanChannels", fb::ReductionMode::AVG, {2, 4, 5, 6}, {2, 1, 5, 6}},
                    ReductionCase{"MaxLast", fb::ReductionMode::MAX_OP, {3, 7, 9}, {3, 7, 1}},
                    ReductionCase{"MinAll", fb::ReductionMode::MIN_OP, {3, 7, 9}, {1, 1, 1}},
                    ReductionCase{"MulRows", fb::ReductionMode::MUL, {4, 6}, {4, 1}, {0.8F, 1.2F}},
                    ReductionCase{"Norm1", fb::ReductionMode::NORM1, {2, 3, 8}, {2, 3, 1}},
                    ReductionCase{"Norm2", fb::ReductionMode::NORM2, {2, 3, 8}, {2, 1, 1}}),
    [](const testing::TestParamInfo<ReductionCase>& info) { return info.param.name; });

}  // namespace
