#include "descriptors/DescriptorRegistry.hpp"

#include <fmt/format.h>

#include "core/AttributeNames.hpp"
#include "core/HandleTable.hpp"

namespace hipdnn_backend::descriptors {

namespace {

using Table = HandleTable<Descriptor>;

Table& registry() {
    static Table instance(0x4844);  // "HD"
    return instance;
}

uint64_t toValue(hipdnnBackendDescriptor_t handle) {
    return reinterpret_cast<uintptr_t>(handle);
}

[[noreturn]] void throwNotLive(hipdnnBackendDescriptor_t handle, Table::Miss miss) {
    throw HipdnnException(
        HIPDNN_STATUS_BAD_PARAM,
        fmt::format("Descriptor {} is not a live hipdnn descriptor: {}", static_cast<const void*>(handle),
                    miss == Table::Miss::Destroyed ? "it was destroyed"
                                                   : "no descriptor was created with this value"));
}

}  // namespace

hipdnnBackendDescriptor_t registerDescriptor(std::shared_ptr<Descriptor> descriptor) {
    return reinterpret_cast<hipdnnBackendDescriptor_t>(
        static_cast<uintptr_t>(registry().add(std::move(descriptor))));
}

std::shared_ptr<Descriptor> lookupDescriptor(hipdnnBackendDescriptor_t handle) {
    Table::Miss miss{};
    std::shared_ptr<Descriptor> descriptor = registry().find(toValue(handle), miss);
    if (!descriptor) {
        throwNotLive(handle, miss);
    }
    return descriptor;
}

void unregisterDescriptor(hipdnnBackendDescriptor_t handle) {
    Table::Miss miss{};
    // Released here, after the table's lock: destroying a descriptor may release others.
    const std::shared_ptr<Descriptor> removed = registry().remove(toValue(handle), miss);
    if (!removed) {
        throwNotLive(handle, miss);
    }
}

void requireDescriptorType(const Descriptor& descriptor, hipdnnBackendDescriptorType_t expected,
                           const char* role) {
    if (descriptor.type() != expected) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              fmt::format("{} must be a {}, got a {}", role, descriptorTypeName(expected),
                                          descriptorTypeName(descriptor.type())));
    }
}

}  // namespace hipdnn_backend::descriptors
