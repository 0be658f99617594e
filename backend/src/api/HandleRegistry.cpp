#include "api/HandleRegistry.hpp"

#include <fmt/format.h>

#include "core/HandleTable.hpp"
#include "core/HipdnnException.hpp"

namespace hipdnn_backend::api {

namespace {

using Table = HandleTable<plugin::HandleState>;

Table& registry() {
    static Table instance(0x4848);  // "HH"
    return instance;
}

uint64_t toValue(hipdnnHandle_t handle) {
    return reinterpret_cast<uintptr_t>(handle);
}

[[noreturn]] void throwNotLive(hipdnnHandle_t handle, Table::Miss miss) {
    throw HipdnnException(
        HIPDNN_STATUS_BAD_PARAM,
        fmt::format(
            "Handle {} is not a live hipdnn handle: {}", static_cast<const void*>(handle),
            miss == Table::Miss::Destroyed ? "it was destroyed" : "no handle was created with this value"));
}

}  // namespace

hipdnnHandle_t registerHandle(std::shared_ptr<plugin::HandleState> state) {
    return reinterpret_cast<hipdnnHandle_t>(static_cast<uintptr_t>(registry().add(std::move(state))));
}

std::shared_ptr<plugin::HandleState> lookupHandle(hipdnnHandle_t handle) {
    Table::Miss miss{};
    std::shared_ptr<plugin::HandleState> state = registry().find(toValue(handle), miss);
    if (!state) {
        throwNotLive(handle, miss);
    }
    return state;
}

void unregisterHandle(hipdnnHandle_t handle) {
    Table::Miss miss{};
    // Plugin handles are destroyed here, after the table's lock (unless a plan still holds them).
    const std::shared_ptr<plugin::HandleState> removed = registry().remove(toValue(handle), miss);
    if (!removed) {
        throwNotLive(handle, miss);
    }
}

}  // namespace hipdnn_backend::api
