// The cuDNN loader CUDA_GRAPH_ENGINE's convolutions go through, without a GPU.
#include <graph/Cudnn.hpp>

#include <gtest/gtest.h>

namespace cuda_kernels_test {
namespace {

TEST(CudnnLoader, AMissingLibraryIsAReasonNamingIt) {
    std::string reason;
    EXPECT_EQ(hipdnn_cuda_kernels::Cudnn::load("libcudnn_absent_for_this_test.so.9", reason), nullptr);
    EXPECT_NE(reason.find("cuDNN is not available: dlopen(\"libcudnn_absent_for_this_test.so.9\") failed"),
              std::string::npos)
        << reason;
}

TEST(CudnnLoader, ALibraryWithoutTheFunctionsIsRefused) {
    std::string reason;
    EXPECT_EQ(hipdnn_cuda_kernels::Cudnn::load("libm.so.6", reason), nullptr);
    EXPECT_EQ(reason, "cuDNN is not available: libm.so.6 lacks cudnnGetVersion");
}

TEST(CudnnLoader, TheInstalledLibraryLoadsWithItsVersion) {
    std::string reason;
    const hipdnn_cuda_kernels::Cudnn* library = hipdnn_cuda_kernels::Cudnn::instance(reason);
    ASSERT_NE(library, nullptr) << reason;
    EXPECT_GE(library->api().getVersion(), 90000U);
    EXPECT_NE(library->describe(CUDNN_STATUS_NOT_SUPPORTED).find("CUDNN_STATUS_NOT_SUPPORTED"),
              std::string::npos);
}

}  // namespace
}  // namespace cuda_kernels_test
