#include "descriptors/VariantPackDescriptor.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace hipdnn_backend::descriptors {

void VariantPackDescriptor::set(const AttributeInput& input) {
    switch (input.name) {
        case HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS: {
            const auto uids = input.values<int64_t>(HIPDNN_TYPE_INT64);
            _uids.assign(uids.begin(), uids.end());
            return;
        }
        case HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS: {
            const auto pointers = input.values<void*>(HIPDNN_TYPE_VOID_PTR);
            _pointers.assign(pointers.begin(), pointers.end());
            return;
        }
        case HIPDNN_ATTR_VARIANT_PACK_WORKSPACE:
            _workspace = input.single<void*>(HIPDNN_TYPE_VOID_PTR);
            return;
        default:
            rejectAttribute(input.name);
    }
}

void VariantPackDescriptor::finalizeDescriptor() {
    if (_uids.size() != _pointers.size()) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              fmt::format("The variant pack has {} unique ids but {} data pointers",
                                          _uids.size(), _pointers.size()));
    }
    _buffers.clear();
    for (size_t index = 0; index < _uids.size(); ++index) {
        _buffers.push_back({_uids[index], _pointers[index]});
    }
    std::sort(_buffers.begin(), _buffers.end(), [](const auto& a, const auto& b) { return a.uid < b.uid; });
    auto duplicate = std::adjacent_find(_buffers.begin(), _buffers.end(),
                                        [](const auto& a, const auto& b) { return a.uid == b.uid; });
    if (duplicate != _buffers.end()) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            fmt::format("Tensor uid {} appears more than once in the variant pack", duplicate->uid));
    }
}

void VariantPackDescriptor::get(AttributeOutput& output) const {
    switch (output.name) {
        case HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS:
            output.write<int64_t>(HIPDNN_TYPE_INT64, _uids);
            return;
        case HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS:
            output.write<void*>(HIPDNN_TYPE_VOID_PTR, _pointers);
            return;
        case HIPDNN_ATTR_VARIANT_PACK_WORKSPACE:
            output.writeSingle<void*>(HIPDNN_TYPE_VOID_PTR, _workspace);
            return;
        default:
            rejectAttribute(output.name);
    }
}

}  // namespace hipdnn_backend::descriptors
