// VARIANT_PACK: the buffers of one execution. Set UNIQUE_IDS (INT64 n), DATA_POINTERS
// (VOID_PTR n, on the handle's device) and WORKSPACE (VOID_PTR 1). Finalize checks equal
// lengths and unique uids; the plan checks the uids against its graph at execute. The OVERRIDE_*_EXT
// attributes (INT64) give some tensors run-time shapes; finalize checks that they agree with each
// other and name tensors of the pack, and the plan hands them to the plugin's override-aware
// execute.
#pragma once

#include <vector>

#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>

#include "descriptors/Descriptor.hpp"
#include "plugin/ShapeOverrides.hpp"

namespace hipdnn_backend::descriptors {

class VariantPackDescriptor final : public Descriptor {
public:
    VariantPackDescriptor() : Descriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR) {}

    // Sorted by uid.
    const std::vector<hipdnnPluginDeviceBuffer_t>& buffers() const noexcept { return _buffers; }
    void* workspace() const noexcept { return _workspace; }
    const plugin::ShapeOverrides& overrides() const noexcept { return _overrides; }

private:
    void set(const AttributeInput& input) override;
    void get(AttributeOutput& output) const override;
    void finalizeDescriptor() override;
    void checkOverrides() const;

    std::vector<int64_t> _uids;
    std::vector<void*> _pointers;
    void* _workspace = nullptr;
    std::vector<hipdnnPluginDeviceBuffer_t> _buffers;
    plugin::ShapeOverrides _overrides;
};

}  // namespace hipdnn_backend::descriptors
