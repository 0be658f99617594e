// Base of every backend descriptor: the create -> set -> finalize -> get state machine.
//
// Rules (checked here, before the subclass sees the call): a set with a negative element count
// or one above kMaxAttributeElements -> BAD_PARAM; set after finalize -> NOT_INITIALIZED; get before finalize
// -> BAD_PARAM_NOT_FINALIZED; finalize twice -> BAD_PARAM. Subclasses reject attributes that do not belong to
// them with BAD_PARAM.
#pragma once

#include <memory>

#include "descriptors/AttributeAccess.hpp"
#include "hipdnn_backend.h"

namespace hipdnn_backend::descriptors {

class Descriptor {
public:
    explicit Descriptor(hipdnnBackendDescriptorType_t type) : _type(type) {}
    virtual ~Descriptor() = default;
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;

    hipdnnBackendDescriptorType_t type() const noexcept { return _type; }
    bool isFinalized() const noexcept { return _finalized; }

    void setAttribute(const AttributeInput& input);
    void getAttribute(AttributeOutput& output) const;
    void finalize();

protected:
    virtual void set(const AttributeInput& input) = 0;
    virtual void get(AttributeOutput& output) const = 0;
    virtual void finalizeDescriptor() = 0;

    // For descriptors the backend fills itself (engines from heuristics, knob infos).
    void markFinalized() noexcept { _finalized = true; }
    [[noreturn]] void rejectAttribute(hipdnnBackendAttributeName_t name) const;

private:
    hipdnnBackendDescriptorType_t _type;
    bool _finalized = false;
};

// Creates a descriptor of `type`; NOT_SUPPORTED for the cuDNN-parity types this backend does
// not implement, BAD_PARAM for unknown values.
std::shared_ptr<Descriptor> createDescriptor(hipdnnBackendDescriptorType_t type);

}  // namespace hipdnn_backend::descriptors
