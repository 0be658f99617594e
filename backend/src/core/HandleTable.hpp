// The live objects of one kind handed out through the C API as opaque handles. A handle's value
// is a tag naming the kind in the top 16 bits and an id below it; ids count up from 1 and are
// never reused, so a destroyed handle stays invalid after newer objects are created (it can
// neither reach nor destroy them). The values are not addresses: on x86-64 they are
// non-canonical, so dereferencing one faults at once.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace hipdnn_backend {

template <class T>
class HandleTable {
public:
    enum class Miss { Destroyed, Unknown };

    explicit HandleTable(uint16_t tag) : _tag(uint64_t{tag} << kIdBits) {}

    uint64_t add(std::shared_ptr<T> object) {
        std::lock_guard lock(_mutex);
        const uint64_t handle = _tag | _nextId++;
        _live.emplace(handle, std::move(object));
        return handle;
    }

    // The live object, or null with `miss` saying whether the handle was destroyed.
    std::shared_ptr<T> find(uint64_t handle, Miss& miss) const {
        std::lock_guard lock(_mutex);
        if (auto entry = _live.find(handle); entry != _live.end()) {
            return entry->second;
        }
        miss = missLocked(handle);
        return nullptr;
    }

    // Removes and returns the live object (for the caller to release outside the lock), or null.
    std::shared_ptr<T> remove(uint64_t handle, Miss& miss) {
        std::lock_guard lock(_mutex);
        auto entry = _live.find(handle);
        if (entry == _live.end()) {
            miss = missLocked(handle);
            return nullptr;
        }
        std::shared_ptr<T> removed = std::move(entry->second);
        _live.erase(entry);
        return removed;
    }

private:
    static constexpr unsigned kIdBits = 48;

    Miss missLocked(uint64_t handle) const {
        const uint64_t id = handle & ((uint64_t{1} << kIdBits) - 1);
        const bool issued = (handle & ~((uint64_t{1} << kIdBits) - 1)) == _tag && id != 0 && id < _nextId;
        return issued ? Miss::Destroyed : Miss::Unknown;
    }

    const uint64_t _tag;
    mutable std::mutex _mutex;
    uint64_t _nextId = 1;
    std::unordered_map<uint64_t, std::shared_ptr<T>> _live;
};

}  // namespace hipdnn_backend
