// The NCCL loader synchronized batch norm goes through, without a GPU.
#include <Nccl.hpp>

#include <gtest/gtest.h>

namespace cuda_kernels_test {
namespace {

TEST(NcclLoader, AMissingLibraryIsAReasonNamingIt) {
    std::string reason;
    EXPECT_EQ(hipdnn_cuda_kernels::Nccl::load("libnccl_absent_for_this_test.so.2", reason), nullptr);
    EXPECT_NE(reason.find("NCCL is not available: dlopen(\"libnccl_absent_for_this_test.so.2\") failed"),
              std::string::npos)
        << reason;
}

TEST(NcclLoader, ALibraryWithoutTheFunctionsIsRefused) {
    std::string reason;
    EXPECT_EQ(hipdnn_cuda_kernels::Nccl::load("libm.so.6", reason), nullptr);
    EXPECT_EQ(reason, "NCCL is not available: libm.so.6 lacks ncclGetErrorString");
}

}  // namespace
}  // namespace cuda_kernels_test
