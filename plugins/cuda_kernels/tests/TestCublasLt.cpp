// CUBLASLT_ENGINE's knob settings and the cuBLASLt loader, without a GPU.
#include <matmul/CublasLt.hpp>
#include <matmul/CublasLtEngine.hpp>

#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_plugin_sdk/KnobValidation.hpp>

#include <gtest/gtest.h>

namespace cuda_kernels_test {
namespace {

hipdnn_flatbuffers_sdk::EngineConfigWrapper config(
    const std::vector<hipdnn_flatbuffers_sdk::KnobSetting>& knobs) {
    const std::vector<uint8_t> bytes =
        hipdnn_flatbuffers_sdk::makeEngineConfig(hipdnn_data_sdk::utilities::CUBLASLT_ENGINE_ID, knobs);
    return {bytes.data(), bytes.size()};
}

TEST(CublasLtSettings, DefaultsAndKnobs) {
    const auto defaults = hipdnn_cuda_kernels::cublasLtSettingsFrom(config({}));
    EXPECT_EQ(defaults.algorithm, 0);
    EXPECT_FALSE(defaults.allowTf32);
    EXPECT_EQ(defaults.workspaceBytes, hipdnn_cuda_kernels::kCublasLtWorkspaceBytes);

    const auto chosen = hipdnn_cuda_kernels::cublasLtSettingsFrom(
        config({{"cublaslt.algorithm", int64_t{3}},
                {"cublaslt.allow_tf32", int64_t{1}},
                {std::string(hipdnn_plugin_sdk::kGlobalWorkspaceSizeLimitKnob), int64_t{4096}}}));
    EXPECT_EQ(chosen.algorithm, 3);
    EXPECT_TRUE(chosen.allowTf32);
    EXPECT_EQ(chosen.workspaceBytes, 4096U);

    const auto unlimited = hipdnn_cuda_kernels::cublasLtSettingsFrom(
        config({{std::string(hipdnn_plugin_sdk::kGlobalWorkspaceSizeLimitKnob), int64_t{-1}}}));
    EXPECT_EQ(unlimited.workspaceBytes, hipdnn_cuda_kernels::kCublasLtWorkspaceBytes);
}

TEST(CublasLt, AMissingLibraryIsAReasonNamingIt) {
    std::string reason;
    EXPECT_EQ(hipdnn_cuda_kernels::CublasLt::load("libcublasLt_absent_for_this_test.so.13", reason), nullptr);
    EXPECT_NE(
        reason.find("cuBLASLt is not available: dlopen(\"libcublasLt_absent_for_this_test.so.13\") failed"),
        std::string::npos)
        << reason;
}

TEST(CublasLt, ALibraryWithoutTheFunctionsIsRefused) {
    std::string reason;
    EXPECT_EQ(hipdnn_cuda_kernels::CublasLt::load("libm.so.6", reason), nullptr);
    EXPECT_EQ(reason, "cuBLASLt is not available: libm.so.6 lacks cublasLtGetVersion");
}

TEST(CublasLt, TheInstalledLibraryLoadsWithItsVersion) {
    std::string reason;
    const hipdnn_cuda_kernels::CublasLt* library = hipdnn_cuda_kernels::CublasLt::instance(reason);
    ASSERT_NE(library, nullptr) << reason;
    EXPECT_GE(library->version(), 130000U);
    EXPECT_NE(std::string(library->api().getStatusString(CUBLAS_STATUS_NOT_SUPPORTED)).find("not supported"),
              std::string::npos);
}

}  // namespace
}  // namespace cuda_kernels_test
