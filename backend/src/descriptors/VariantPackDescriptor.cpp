#include "descriptors/VariantPackDescriptor.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace hipdnn_backend::descriptors {

namespace {

void assignInt64s(const AttributeInput& input, std::vector<int64_t>& target) {
    const auto values = input.values<int64_t>(HIPDNN_TYPE_INT64);
    target.assign(values.begin(), values.end());
}

}  // namespace

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
        case HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_UNIQUE_IDS_EXT:
            assignInt64s(input, _overrides.uids);
            return;
        case HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_SHAPES_EXT:
            assignInt64s(input, _overrides.shapes);
            return;
        case HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_STRIDES_EXT:
            assignInt64s(input, _overrides.strides);
            return;
        case HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_LENGTHS_EXT:
            assignInt64s(input, _overrides.lengths);
            return;
        default:
            rejectAttribute(input.name);
    }
}

void VariantPackDescriptor::checkOverrides() const {
    const auto& overrides = _overrides;
    if (overrides.lengths.size() != overrides.uids.size()) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            fmt::format("The variant pack overrides {} tensor uids but gives {} override lengths",
                        overrides.uids.size(), overrides.lengths.size()));
    }
    size_t total = 0;
    for (size_t index = 0; index < overrides.uids.size(); ++index) {
        const int64_t uid = overrides.uids[index];
        const int64_t length = overrides.lengths[index];
        if (length < 1) {
            throw HipdnnException(
                HIPDNN_STATUS_BAD_PARAM,
                fmt::format("The override length of tensor uid {} is {}; ranks start at 1", uid, length));
        }
        total += static_cast<size_t>(length);
        if (std::count(overrides.uids.begin(), overrides.uids.end(), uid) > 1) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                  fmt::format("Tensor uid {} is overridden more than once", uid));
        }
        const bool inPack =
            std::binary_search(_buffers.begin(), _buffers.end(), hipdnnPluginDeviceBuffer_t{uid, nullptr},
                               [](const auto& a, const auto& b) { return a.uid < b.uid; });
        if (!inPack) {
            throw HipdnnException(
                HIPDNN_STATUS_BAD_PARAM,
                fmt::format("Overridden tensor uid {} has no data pointer in the variant pack", uid));
        }
    }
    if (overrides.shapes.size() != total || overrides.strides.size() != total) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            fmt::format("The override lengths add up to {} but {} override dims and {} override "
                        "strides are given",
                        total, overrides.shapes.size(), overrides.strides.size()));
    }
    for (const int64_t dim : overrides.shapes) {
        if (dim < 1) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                                  fmt::format("An override dim is {}; dims start at 1", dim));
        }
    }
    for (const int64_t stride : overrides.strides) {
        if (stride < 0) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, fmt::format("An override stride is {}", stride));
        }
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
    checkOverrides();
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
        case HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_UNIQUE_IDS_EXT:
            output.write<int64_t>(HIPDNN_TYPE_INT64, _overrides.uids);
            return;
        case HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_SHAPES_EXT:
            output.write<int64_t>(HIPDNN_TYPE_INT64, _overrides.shapes);
            return;
        case HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_STRIDES_EXT:
            output.write<int64_t>(HIPDNN_TYPE_INT64, _overrides.strides);
            return;
        case HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_LENGTHS_EXT:
            output.write<int64_t>(HIPDNN_TYPE_INT64, _overrides.lengths);
            return;
        default:
            rejectAttribute(output.name);
    }
}

}  // namespace hipdnn_backend::descriptors
