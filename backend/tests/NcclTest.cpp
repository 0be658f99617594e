#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>

#include "platform/Nccl.hpp"

namespace hipdnn_backend::platform {
namespace {

// On a host with NCCL the functions resolve and a failing result is described in NCCL's words;
// without it, the error names the library and dlopen's reason.
TEST(Nccl, LoadsTheLibraryOrSaysWhyNot) {
    void* library = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        try {
            NcclApi::instance();
            FAIL() << "NcclApi::instance() succeeded although libnccl.so.2 does not load";
        } catch (const NcclUnavailable& error) {
            EXPECT_TRUE(
                std::string(error.what()).starts_with("NCCL is not available: cannot load libnccl.so.2: "))
                << error.what();
        }
        return;
    }
    dlclose(library);
    const NcclApi& nccl = NcclApi::instance();
    EXPECT_NO_THROW(nccl.check(0, "ncclCommInitAll"));
    // 1 is ncclUnhandledCudaError.
    try {
        nccl.check(1, "ncclCommInitAll");
        FAIL() << "check(1) did not throw";
    } catch (const NcclError& error) {
        EXPECT_EQ(std::string(error.what()),
                  std::string("ncclCommInitAll failed: ") + nccl.getErrorString(1) + " (1)");
    }
}

}  // namespace
}  // namespace hipdnn_backend::platform
