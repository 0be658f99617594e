#include "api/HandleRegistry.hpp"

#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include "core/HipdnnException.hpp"

namespace hipdnn_backend::api {

namespace {

struct Registry {
    std::mutex mutex;
    std::unordered_map<hipdnnHandle_t, std::unique_ptr<hipdnnHandle>> live;
};

Registry& registry() {
    static Registry instance;
    return instance;
}

[[noreturn]] void throwNotLive(hipdnnHandle_t handle) {
    throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                          fmt::format("Handle {} is not a live hipdnn handle (destroyed or never created)",
                                      static_cast<const void*>(handle)));
}

}  // namespace

hipdnnHandle_t registerHandle(std::shared_ptr<plugin::HandleState> state) {
    auto handle = std::make_unique<hipdnnHandle>(hipdnnHandle{std::move(state)});
    hipdnnHandle_t opaque = handle.get();
    Registry& instance = registry();
    std::lock_guard lock(instance.mutex);
    instance.live.emplace(opaque, std::move(handle));
    return opaque;
}

std::shared_ptr<plugin::HandleState> lookupHandle(hipdnnHandle_t handle) {
    Registry& instance = registry();
    std::lock_guard lock(instance.mutex);
    auto entry = instance.live.find(handle);
    if (entry == instance.live.end()) {
        throwNotLive(handle);
    }
    return entry->second->state;
}

void unregisterHandle(hipdnnHandle_t handle) {
    std::unique_ptr<hipdnnHandle> removed;  // plugin handles are destroyed outside the lock
    Registry& instance = registry();
    std::lock_guard lock(instance.mutex);
    auto entry = instance.live.find(handle);
    if (entry == instance.live.end()) {
        throwNotLive(handle);
    }
    removed = std::move(entry->second);
    instance.live.erase(entry);
}

}  // namespace hipdnn_backend::api
