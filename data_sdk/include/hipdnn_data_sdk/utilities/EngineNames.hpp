// Engine names and ids. An engine id is the 64-bit FNV-1a hash of the engine name, so every
// plugin derives the same id from the same name. HIPDNN_REGISTER_ENGINE records names in a
// registry that rejects duplicates and hash collisions when the library starts.
//
// The registry lives in an inline function's static, so each shared library (built with hidden
// visibility) has its own: the names a library sees are those registered by the code linked
// into it, the shipped names below included.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

namespace hipdnn_data_sdk::utilities {

/// 64-bit FNV-1a over the bytes of `bytes` (no terminator).
constexpr uint64_t fnv1aHash(std::string_view bytes) noexcept {
    constexpr uint64_t offsetBasis = 0xcbf29ce484222325;
    constexpr uint64_t prime = 0x100000001b3;
    uint64_t hash = offsetBasis;
    for (const char byte : bytes) {
        hash ^= static_cast<unsigned char>(byte);
        hash *= prime;
    }
    return hash;
}

/// The engine id of `name`: its FNV-1a hash as int64_t; 0 for the empty name.
constexpr int64_t engineNameToId(std::string_view name) noexcept {
    return name.empty() ? 0 : static_cast<int64_t>(fnv1aHash(name));
}

/// "0x" followed by the id's 16 upper-case hex digits (two's complement for negative ids).
inline std::string formatEngineIdHex(int64_t id) {
    constexpr std::string_view digits = "0123456789ABCDEF";
    constexpr int hexDigits = 16;
    auto value = static_cast<uint64_t>(id);
    std::string text(2 + hexDigits, '0');
    text[1] = 'x';
    for (int position = hexDigits + 1; position >= 2; --position) {
        text[static_cast<size_t>(position)] = digits[value & 0xf];
        value >>= 4;
    }
    return text;
}

/// Engine names with distinct ids. Thread-safe.
class EngineNameRegistry {
public:
    using IdFunction = int64_t (*)(std::string_view);

    /// `toId` maps names to ids; tests pass a deliberately weak one to provoke collisions.
    explicit EngineNameRegistry(IdFunction toId = engineNameToId) : toId_(toId) {}

    /// Adds `name`. Throws std::invalid_argument for the empty name and std::logic_error, naming
    /// both names and the id, when the name is already registered or another name has its id.
    void add(std::string_view name) {
        if (name.empty()) {
            throw std::invalid_argument("HIPDNN_REGISTER_ENGINE: engine names must not be empty");
        }
        const int64_t id = toId_(name);
        const std::lock_guard lock(mutex_);
        const auto [position, inserted] = idToName_.try_emplace(id, name);
        if (!inserted) {
            const std::string& existing = position->second;
            const std::string hexId = formatEngineIdHex(id);
            throw std::logic_error(existing == name
                                       ? "HIPDNN_REGISTER_ENGINE: engine name '" + existing +
                                             "' is registered twice (id " + hexId + ")"
                                       : "HIPDNN_REGISTER_ENGINE: engine name '" + std::string(name) +
                                             "' collides with engine name '" + existing + "': both have id " +
                                             hexId);
        }
    }

    bool contains(std::string_view name) const {
        const std::lock_guard lock(mutex_);
        const auto found = idToName_.find(toId_(name));
        return found != idToName_.end() && found->second == name;
    }

    std::optional<std::string> nameOf(int64_t id) const {
        const std::lock_guard lock(mutex_);
        const auto found = idToName_.find(id);
        return found == idToName_.end() ? std::nullopt : std::optional<std::string>(found->second);
    }

    std::set<std::string> names() const {
        const std::lock_guard lock(mutex_);
        std::set<std::string> result;
        for (const auto& [id, name] : idToName_) {
            result.insert(name);
        }
        return result;
    }

    std::map<int64_t, std::string> idToName() const {
        const std::lock_guard lock(mutex_);
        return idToName_;
    }

private:
    IdFunction toId_;
    mutable std::mutex mutex_;
    std::map<int64_t, std::string> idToName_;
};

/// The registry of this shared library.
inline EngineNameRegistry& engineNameRegistry() {
    static EngineNameRegistry registry;
    return registry;
}

/// Adds `name` to this library's registry; throws as EngineNameRegistry::add does.
inline void registerEngineName(std::string_view name) {
    engineNameRegistry().add(name);
}

inline bool isEngineNameRegistered(std::string_view name) {
    return engineNameRegistry().contains(name);
}

inline std::optional<std::string> tryGetEngineNameFromId(int64_t id) {
    return engineNameRegistry().nameOf(id);
}

/// Throws std::out_of_range naming the id (in hex) when no registered name has it.
inline std::string getEngineNameFromId(int64_t id) {
    auto name = tryGetEngineNameFromId(id);
    if (!name) {
        throw std::out_of_range("No engine name is registered for engine id " + formatEngineIdHex(id));
    }
    return *std::move(name);
}

inline std::set<std::string> getAllEngineNames() {
    return engineNameRegistry().names();
}

inline std::map<int64_t, std::string> getEngineIdToNameMap() {
    return engineNameRegistry().idToName();
}

/// Registers a name during static initialisation (see HIPDNN_REGISTER_ENGINE).
struct EngineRegistrar {
    explicit EngineRegistrar(std::string_view name) { registerEngineName(name); }
};

}  // namespace hipdnn_data_sdk::utilities

// HIPDNN_REGISTER_ENGINE(NAME) or HIPDNN_REGISTER_ENGINE(NAME, "string") defines, in the current
// namespace, `NAME_NAME` (the engine name: the string, or NAME spelled out) and `NAME_ID` (its
// id), and registers the name. The registrar is an inline variable, so a header that registers
// a name may be included by any number of translation units: the library initialises it once.
// A duplicate or colliding name throws std::logic_error during static initialisation, which
// stops the program (or fails the dlopen of the plugin) with the message.
//
// The variables are [[maybe_unused]]: in an anonymous namespace they have internal linkage, and
// a plugin that uses only NAME_ID (or neither) must still build with -Wall -Wextra -Werror
// (clang's -Wunused-const-variable).
#define HIPDNN_DETAIL_REGISTER_ENGINE_NAMED(NAME, STRING)               \
    [[maybe_unused]] inline constexpr const char* NAME##_NAME = STRING; \
    [[maybe_unused]] inline constexpr int64_t NAME##_ID =               \
        ::hipdnn_data_sdk::utilities::engineNameToId(STRING);           \
    [[maybe_unused]] inline const ::hipdnn_data_sdk::utilities::EngineRegistrar NAME##_REGISTRAR{STRING};
#define HIPDNN_DETAIL_REGISTER_ENGINE_UNNAMED(NAME) HIPDNN_DETAIL_REGISTER_ENGINE_NAMED(NAME, #NAME)
#define HIPDNN_DETAIL_PICK_THIRD(FIRST, SECOND, THIRD, ...) THIRD
#define HIPDNN_REGISTER_ENGINE(...)                                            \
    HIPDNN_DETAIL_PICK_THIRD(__VA_ARGS__, HIPDNN_DETAIL_REGISTER_ENGINE_NAMED, \
                             HIPDNN_DETAIL_REGISTER_ENGINE_UNNAMED, unused)    \
    (__VA_ARGS__)

namespace hipdnn_data_sdk::utilities {

// Engines of the shipped plugins. An engine's name must never change: its id derives from it.
HIPDNN_REGISTER_ENGINE(CPU_REFERENCE_ENGINE)
HIPDNN_REGISTER_ENGINE(ONEDNN_ENGINE)
HIPDNN_REGISTER_ENGINE(CUDNN_ENGINE)
HIPDNN_REGISTER_ENGINE(CUDNN_ENGINE_DETERMINISTIC)
HIPDNN_REGISTER_ENGINE(CUDA_POINTWISE_ENGINE)
HIPDNN_REGISTER_ENGINE(CUDA_NORM_ENGINE)
HIPDNN_REGISTER_ENGINE(CUBLASLT_ENGINE)
HIPDNN_REGISTER_ENGINE(CUDA_SDPA_ENGINE)
HIPDNN_REGISTER_ENGINE(CUDA_GRAPH_ENGINE)

}  // namespace hipdnn_data_sdk::utilities
