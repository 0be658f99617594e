// The kernel generator: every schema mode for every element and compute type, contiguous and
// broadcasting, compiled with NVRTC to a CUBIN for sm_90 (and sm_75, whose bf16 rounding is
// generated in software). NVRTC needs no GPU.
#include "PointwiseGraphs.hpp"

#include <KernelCache.hpp>
#include <pointwise/PointwiseEngine.hpp>

#include <gtest/gtest.h>

#include <tuple>

namespace cuda_kernels_test {
namespace {

using hipdnn_cuda_kernels::Nvrtc;

const Nvrtc& nvrtc() {
    std::string reason;
    const Nvrtc* loaded = Nvrtc::instance(reason);
    if (loaded == nullptr) {
        throw std::runtime_error(reason);
    }
    return *loaded;
}

hipdnn_cuda_kernels::PointwisePlan planOf(const hipdnn_test_sdk::GraphBuilder& builder,
                                          int computeCapability) {
    std::string reason;
    auto plan = hipdnn_cuda_kernels::planPointwise(wrap(builder), computeCapability, reason);
    if (!plan) {
        throw std::runtime_error("declined: " + reason);
    }
    return std::move(*plan);
}

void expectCompiles(const hipdnn_cuda_kernels::PointwiseSource& source, int computeCapability) {
    const auto result = nvrtc().compileToCubin(source.source, "test.cu", computeCapability);
    ASSERT_TRUE(result.succeeded()) << result.error << "\n" << source.source;
    ASSERT_GE(result.cubin.size(), 4U);
    // A CUBIN is an ELF image.
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(result.cubin.data()), 4),
              "\x7f"
              "ELF");
}

using Case = std::tuple<fb::DataType, fb::DataType, bool>;  // element type, compute type, broadcast

class EveryModeCompiles : public testing::TestWithParam<Case> {};

TEST_P(EveryModeCompiles, ForSm90) {
    const auto [type, compute, broadcast] = GetParam();
    const auto plan = planOf(everyModeGraph(type, compute, {2, 3, 4, 5}, broadcast), 90);
    EXPECT_EQ(plan.program.steps.size(), allPointwiseModes().size());
    EXPECT_EQ(plan.program.contiguous, false);  // GEN_INDEX needs coordinates
    expectCompiles(plan.source, 90);
}

TEST_P(EveryModeCompiles, ForSm75) {
    const auto [type, compute, broadcast] = GetParam();
    expectCompiles(planOf(everyModeGraph(type, compute, {2, 3, 4, 5}, broadcast), 75).source, 75);
}

std::string caseName(const testing::TestParamInfo<Case>& info) {
    return std::string(fb::EnumNameDataType(std::get<0>(info.param))) + "_compute_" +
           fb::EnumNameDataType(std::get<1>(info.param)) +
           (std::get<2>(info.param) ? "_broadcast" : "_same_shape");
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, EveryModeCompiles,
    testing::Combine(testing::Values(fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16),
                     testing::Values(fb::DataType::FLOAT, fb::DataType::DOUBLE), testing::Bool()),
    caseName);

// Each mode alone: a contiguous graph gets the vector kernel as well (GEN_INDEX excepted).
class SingleMode : public testing::TestWithParam<fb::PointwiseMode> {};

TEST_P(SingleMode, GeneratesBothKernelsWhenContiguous) {
    const fb::PointwiseMode mode = GetParam();
    hipdnn_test_sdk::GraphBuilder builder("one_mode");
    const int inputs = hipdnn_flatbuffers_sdk::pointwiseInputCount(mode);
    builder.addTensor(1, "a", fb::DataType::BFLOAT16, {4, 8, 16})
        .addTensor(4, "out", fb::DataType::BFLOAT16, {4, 8, 16});
    if (inputs >= 2) {
        builder.addTensor(2, "b", fb::DataType::HALF, {4, 8, 16});
    }
    if (inputs == 3) {
        builder.addTensor(3, "c", fb::DataType::FLOAT, {4, 8, 16});
    }
    hipdnn_test_sdk::PointwiseOptions options;
    options.axis = 2;
    builder.addPointwise("node", mode, 1, 4, inputs >= 2 ? std::optional<int64_t>(2) : std::nullopt,
                         inputs == 3 ? std::optional<int64_t>(3) : std::nullopt, options);
    const auto plan = planOf(builder, 90);
    if (mode == fb::PointwiseMode::GEN_INDEX) {
        EXPECT_EQ(plan.source.vectorWidth, 0);
        EXPECT_EQ(plan.source.kernelNames,
                  std::vector<std::string>{hipdnn_cuda_kernels::kPointwiseScalarKernel});
    } else {
        // The widest operand decides: a float input (c) with ternary modes, else 16-bit types.
        EXPECT_EQ(plan.source.vectorWidth, inputs == 3 ? 4 : 8);
        EXPECT_EQ(plan.source.kernelNames.size(), 2U);
    }
    expectCompiles(plan.source, 90);
}

INSTANTIATE_TEST_SUITE_P(AllModes, SingleMode, testing::ValuesIn(allPointwiseModes()),
                         [](const testing::TestParamInfo<fb::PointwiseMode>& info) {
                             return std::string(fb::EnumNamePointwiseMode(info.param));
                         });

TEST(PointwiseCodegen, ScaleAddReluIsOneVectorizedKernel) {
    const auto plan = planOf(scaleAddReluGraph(fb::DataType::BFLOAT16, {64, 256, 56, 56}), 90);
    EXPECT_EQ(plan.source.vectorWidth, 8);  // 16-byte accesses of bf16
    EXPECT_NE(plan.source.source.find("hipdnn_pointwise_vector"), std::string::npos);
    EXPECT_NE(plan.source.source.find("cvt.rn.bf16.f32"), std::string::npos);
    // The scalar travels as a constant: 1.5f is 0x3fc00000.
    EXPECT_NE(plan.source.source.find("__int_as_float(0x3fc00000)"), std::string::npos);
    // Intermediates stay in registers: only x, b (loads) and y (store) are parameters.
    EXPECT_NE(plan.source.source.find("hipdnn_pointwise_vector(const unsigned short* __restrict__ p0, const "
                                      "unsigned short* __restrict__ p1, unsigned short* __restrict__ p2)"),
              std::string::npos)
        << plan.source.source;
    expectCompiles(plan.source, 90);
}

TEST(PointwiseCodegen, Sm75RoundsBf16InSoftware) {
    const auto plan = planOf(scaleAddReluGraph(fb::DataType::BFLOAT16, {2, 3, 4, 5}), 75);
    EXPECT_EQ(plan.source.source.find("cvt.rn.bf16.f32"), std::string::npos);
    expectCompiles(plan.source, 75);
}

TEST(PointwiseCodegen, OneElementGraphsCompile) {
    const auto plan = planOf(scaleAddReluGraph(fb::DataType::HALF, {1, 1}), 90);
    EXPECT_TRUE(plan.program.contiguous);
    EXPECT_FALSE(plan.program.operands[2].isSingleElement);  // outputs are written, never broadcast
    expectCompiles(plan.source, 90);
}

TEST(PointwiseCodegen, LargeTensorsIndexIn64Bits) {
    const auto plan = planOf(scaleAddReluGraph(fb::DataType::HALF, {1, 1, 65536, 65536}), 90);
    EXPECT_NE(plan.source.source.find("typedef unsigned long long hdnn_index;"), std::string::npos);
    const auto small = planOf(scaleAddReluGraph(fb::DataType::HALF, {2, 3, 4, 5}), 90);
    EXPECT_NE(small.source.source.find("typedef unsigned int hdnn_index;"), std::string::npos);
}

TEST(PointwiseCodegen, CompileErrorsCarryTheLog) {
    const auto result = nvrtc().compileToCubin("this is not CUDA", "broken.cu", 90);
    EXPECT_FALSE(result.succeeded());
    EXPECT_NE(result.error.find("nvrtcCompileProgram failed"), std::string::npos) << result.error;
    EXPECT_NE(result.error.find("broken.cu"), std::string::npos) << result.error;
    EXPECT_TRUE(result.cubin.empty());
}

TEST(Nvrtc, AMissingLibraryIsAReasonNamingIt) {
    std::string reason;
    EXPECT_EQ(Nvrtc::load("libnvrtc_absent_for_this_test.so.13", reason), nullptr);
    EXPECT_NE(reason.find("NVRTC is not available: dlopen(\"libnvrtc_absent_for_this_test.so.13\") failed"),
              std::string::npos)
        << reason;
}

TEST(Nvrtc, ALibraryWithoutTheFunctionsIsRefused) {
    std::string reason;
    EXPECT_EQ(Nvrtc::load("libm.so.6", reason), nullptr);
    EXPECT_EQ(reason, "NVRTC is not available: libm.so.6 lacks nvrtcGetErrorString");
}

TEST(Nvrtc, TheInstalledLibraryLoadsWithItsVersionAndArchitectures) {
    EXPECT_EQ(nvrtc().version().substr(0, 3), "13.");
    EXPECT_TRUE(nvrtc().supportsArchitecture(90));
    EXPECT_TRUE(nvrtc().supportsArchitecture(75));
    EXPECT_FALSE(nvrtc().supportsArchitecture(11));
}

}  // namespace
}  // namespace cuda_kernels_test
