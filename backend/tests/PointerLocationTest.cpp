#include <gtest/gtest.h>

#include <vector>

#include "platform/PointerLocation.hpp"

namespace hipdnn_backend::platform {
namespace {

using Kind = PointerLocation::Kind;

TEST(PointerLocation, AnotherGpusMemoryIsRefusedNamingBothDevices) {
    const auto problem = foreignDeviceProblem({Kind::Device, 1}, 0);
    ASSERT_TRUE(problem.has_value());
    EXPECT_EQ(*problem, "is memory of GPU 1; the handle is bound to GPU 0");
    EXPECT_TRUE(foreignDeviceProblem({Kind::Device, 0}, 3).has_value());
}

TEST(PointerLocation, OwnManagedHostAndUnknownMemoryAreAccepted) {
    EXPECT_FALSE(foreignDeviceProblem({Kind::Device, 2}, 2).has_value());
    // Managed memory migrates to the device that touches it; page-locked host memory is mapped.
    EXPECT_FALSE(foreignDeviceProblem({Kind::Managed, 1}, 0).has_value());
    EXPECT_FALSE(foreignDeviceProblem({Kind::Host, 1}, 0).has_value());
    EXPECT_FALSE(foreignDeviceProblem({Kind::Unknown, -1}, 0).has_value());
}

TEST(PointerLocation, PageableHostMemoryIsNotDeviceMemory) {
    // With or without a CUDA driver: malloc'ed memory is unknown to CUDA (never another GPU's).
    const std::vector<float> host(64, 1.0F);
    const PointerLocation location = locatePointer(host.data());
    EXPECT_EQ(location.kind, Kind::Unknown);
    EXPECT_FALSE(foreignDeviceProblem(location, 0).has_value());
    EXPECT_EQ(locatePointer(nullptr).kind, Kind::Unknown);
}

}  // namespace
}  // namespace hipdnn_backend::platform
