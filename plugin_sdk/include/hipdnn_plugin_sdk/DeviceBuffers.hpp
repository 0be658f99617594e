// Read-only view over the variant pack an execute call receives.
#pragma once

#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>
#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace hipdnn_plugin_sdk {

/// Wraps hipdnnPluginDeviceBuffer_t[] without copying; the array must outlive the view.
class DeviceBuffers {
public:
    /// Throws PluginError(BAD_PARAM) when `buffers` is null while `count` > 0, or when a uid
    /// appears twice.
    DeviceBuffers(const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count) {
        if (buffers == nullptr && count > 0) {
            throw PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                              "device_buffers is null but num_device_buffers is " + std::to_string(count));
        }
        if (count > 0) {
            _buffers = std::span<const hipdnnPluginDeviceBuffer_t>(buffers, count);
        }
        for (std::size_t i = 0; i < _buffers.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                if (_buffers[j].uid == _buffers[i].uid) {
                    throw PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "device buffer for tensor uid " +
                                                                          std::to_string(_buffers[i].uid) +
                                                                          " is given twice");
                }
            }
        }
    }

    /// The data pointer of tensor `uid`; throws PluginError(BAD_PARAM) naming the uid when it is
    /// absent or null.
    void* pointer(int64_t uid) const {
        const std::optional<void*> found = find(uid);
        if (!found) {
            throw PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                              "no device buffer for tensor uid " + std::to_string(uid));
        }
        if (*found == nullptr) {
            throw PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                              "device buffer for tensor uid " + std::to_string(uid) + " is null");
        }
        return *found;
    }

    /// The data pointer of tensor `uid` as given (possibly null), or nullopt when absent.
    std::optional<void*> find(int64_t uid) const noexcept {
        for (const hipdnnPluginDeviceBuffer_t& buffer : _buffers) {
            if (buffer.uid == uid) {
                return buffer.ptr;
            }
        }
        return std::nullopt;
    }

    std::size_t size() const noexcept { return _buffers.size(); }
    auto begin() const noexcept { return _buffers.begin(); }
    auto end() const noexcept { return _buffers.end(); }

private:
    std::span<const hipdnnPluginDeviceBuffer_t> _buffers;
};

}  // namespace hipdnn_plugin_sdk
