// Every descriptor handed out through the C API. Handle values are ids from a HandleTable, never
// reused and never dereferenced: lookups turn a destroyed or garbage handle into BAD_PARAM naming
// it instead of a crash, and a stale handle cannot reach a newer descriptor. The registry owns
// user-created descriptors (shared_ptr), and descriptors that reference one another hold
// shared_ptrs too, so destroying one that is still referenced is safe.
#pragma once

#include <memory>

#include "descriptors/Descriptor.hpp"

namespace hipdnn_backend::descriptors {

hipdnnBackendDescriptor_t registerDescriptor(std::shared_ptr<Descriptor> descriptor);
// BAD_PARAM naming `handle` when it is not a live descriptor (destroyed, or never created).
std::shared_ptr<Descriptor> lookupDescriptor(hipdnnBackendDescriptor_t handle);
// BAD_PARAM naming `handle` when it is not a live descriptor.
void unregisterDescriptor(hipdnnBackendDescriptor_t handle);

// Casts after checking the type; BAD_PARAM naming both types otherwise.
template <class T>
std::shared_ptr<T> lookupDescriptorAs(hipdnnBackendDescriptor_t handle,
                                      hipdnnBackendDescriptorType_t expected, const char* role);

void requireDescriptorType(const Descriptor& descriptor, hipdnnBackendDescriptorType_t expected,
                           const char* role);

template <class T>
std::shared_ptr<T> lookupDescriptorAs(hipdnnBackendDescriptor_t handle,
                                      hipdnnBackendDescriptorType_t expected, const char* role) {
    std::shared_ptr<Descriptor> descriptor = lookupDescriptor(handle);
    requireDescriptorType(*descriptor, expected, role);
    return std::static_pointer_cast<T>(descriptor);
}

}  // namespace hipdnn_backend::descriptors
