#include "descriptors/DescriptorRegistry.hpp"

#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include "core/AttributeNames.hpp"

namespace hipdnn_backend::descriptors {

namespace {

struct Registry {
    std::mutex mutex;
    std::unordered_map<hipdnnBackendDescriptor_t, std::shared_ptr<Descriptor>> live;
};

Registry& registry() {
    static Registry instance;
    return instance;
}

hipdnnBackendDescriptor_t toHandle(const Descriptor* descriptor) {
    // The opaque handle is the object's address; it is only dereferenced after a lookup.
    return reinterpret_cast<hipdnnBackendDescriptor_t>(const_cast<Descriptor*>(descriptor));
}

[[noreturn]] void throwNotLive(hipdnnBackendDescriptor_t handle) {
    throw HipdnnException(
        HIPDNN_STATUS_BAD_PARAM,
        fmt::format("Descriptor {} is not a live hipdnn descriptor (destroyed or never created)",
                    static_cast<const void*>(handle)));
}

}  // namespace

hipdnnBackendDescriptor_t registerDescriptor(std::shared_ptr<Descriptor> descriptor) {
    const hipdnnBackendDescriptor_t handle = toHandle(descriptor.get());
    Registry& instance = registry();
    std::lock_guard lock(instance.mutex);
    instance.live.emplace(handle, std::move(descriptor));
    return handle;
}

std::shared_ptr<Descriptor> lookupDescriptor(hipdnnBackendDescriptor_t handle) {
    Registry& instance = registry();
    std::lock_guard lock(instance.mutex);
    auto entry = instance.live.find(handle);
    if (entry == instance.live.end()) {
        throwNotLive(handle);
    }
    return entry->second;
}

void unregisterDescriptor(hipdnnBackendDescriptor_t handle) {
    std::shared_ptr<Descriptor> removed;  // destroyed after the lock is released
    Registry& instance = registry();
    std::lock_guard lock(instance.mutex);
    auto entry = instance.live.find(handle);
    if (entry == instance.live.end()) {
        throwNotLive(handle);
    }
    removed = std::move(entry->second);
    instance.live.erase(entry);
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
