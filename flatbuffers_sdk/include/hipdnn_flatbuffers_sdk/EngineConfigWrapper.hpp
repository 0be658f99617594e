#pragma once

#include "hipdnn_flatbuffers_sdk/FlatbufferError.hpp"
#include "hipdnn_flatbuffers_sdk/data_objects/engine_config_generated.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hipdnn_flatbuffers_sdk {

// An engine configuration as engines see it: which engine, and the knob values chosen.
// Knob lookups return nullopt when the knob is not set and throw EngineConfigError when it
// is set with another value type.
class IEngineConfig {
public:
    virtual ~IEngineConfig() = default;

    virtual int64_t engineId() const = 0;
    virtual size_t knobCount() const = 0;
    // Knob ids in ascending order.
    virtual std::vector<std::string> knobIds() const = 0;
    virtual bool hasKnob(std::string_view id) const = 0;
    virtual std::optional<int64_t> intKnob(std::string_view id) const = 0;
    virtual std::optional<double> floatKnob(std::string_view id) const = 0;
    virtual std::optional<std::string> stringKnob(std::string_view id) const = 0;
};

// IEngineConfig over a serialized EngineConfig. Construction copies and verifies the buffer
// and rejects knobs without an id or a value, unknown value types and duplicate ids.
class EngineConfigWrapper final : public IEngineConfig {
public:
    EngineConfigWrapper(const void* data, size_t size)
        : _buffer(copyAndVerify<data_objects::EngineConfig, EngineConfigError>(data, size, "engine config")),
          _config(data_objects::GetEngineConfig(_buffer.data())) {
        indexKnobs(true);
    }

    EngineConfigWrapper(const EngineConfigWrapper& other)
        : _buffer(other._buffer), _config(data_objects::GetEngineConfig(_buffer.data())) {
        indexKnobs(false);
    }

    EngineConfigWrapper& operator=(const EngineConfigWrapper& other) {
        if (this != &other) {
            *this = EngineConfigWrapper(other);
        }
        return *this;
    }

    // Moving a std::vector keeps its storage, so the cached pointers stay valid.
    EngineConfigWrapper(EngineConfigWrapper&&) noexcept = default;
    EngineConfigWrapper& operator=(EngineConfigWrapper&&) noexcept = default;
    ~EngineConfigWrapper() override = default;

    const data_objects::EngineConfig& engineConfig() const { return *_config; }
    const uint8_t* data() const { return _buffer.data(); }
    size_t size() const { return _buffer.size(); }

    int64_t engineId() const override { return _config->engine_id(); }
    size_t knobCount() const override { return _knobsById.size(); }

    std::vector<std::string> knobIds() const override {
        std::vector<std::string> ids;
        ids.reserve(_knobsById.size());
        for (const auto& entry : _knobsById) {
            ids.emplace_back(entry.first);
        }
        return ids;
    }

    bool hasKnob(std::string_view id) const override { return _knobsById.contains(id); }

    std::optional<int64_t> intKnob(std::string_view id) const override {
        const auto* setting = find(id, data_objects::KnobValue::IntValue);
        return setting != nullptr ? std::optional(setting->value_as_IntValue()->value()) : std::nullopt;
    }

    std::optional<double> floatKnob(std::string_view id) const override {
        const auto* setting = find(id, data_objects::KnobValue::FloatValue);
        return setting != nullptr ? std::optional(setting->value_as_FloatValue()->value()) : std::nullopt;
    }

    std::optional<std::string> stringKnob(std::string_view id) const override {
        const auto* setting = find(id, data_objects::KnobValue::StringValue);
        if (setting == nullptr) {
            return std::nullopt;
        }
        const auto* text = setting->value_as_StringValue()->value();
        return text != nullptr ? text->str() : std::string();
    }

private:
    const data_objects::KnobSetting* find(std::string_view id, data_objects::KnobValue wanted) const {
        auto it = _knobsById.find(id);
        if (it == _knobsById.end()) {
            return nullptr;
        }
        const auto actual = it->second->value_type();
        if (actual != wanted) {
            throw EngineConfigError("knob '" + std::string(id) + "' holds a " +
                                    data_objects::EnumNameKnobValue(actual) + ", not a " +
                                    data_objects::EnumNameKnobValue(wanted));
        }
        return it->second;
    }

    void indexKnobs(bool validate) {
        _knobsById.clear();
        if (_config->knobs() == nullptr) {
            return;
        }
        for (const data_objects::KnobSetting* setting : *_config->knobs()) {
            if (validate) {
                validateSetting(*setting);
            }
            auto [it, inserted] = _knobsById.emplace(setting->knob_id()->string_view(), setting);
            if (!inserted) {
                throw EngineConfigError("duplicate knob id '" + std::string(it->first) +
                                        "' in engine config");
            }
        }
    }

    static void validateSetting(const data_objects::KnobSetting& setting) {
        if (setting.knob_id() == nullptr || setting.knob_id()->size() == 0) {
            throw EngineConfigError("engine config has a knob setting without an id");
        }
        const std::string id = setting.knob_id()->str();
        const auto type = setting.value_type();
        if (!isKnownEnumValue(type)) {
            throw EngineConfigError("knob '" + id + "' has unknown value type " +
                                    std::to_string(static_cast<int>(type)));
        }
        if (type == data_objects::KnobValue::NONE || setting.value() == nullptr) {
            throw EngineConfigError("knob '" + id + "' has no value");
        }
    }

    std::vector<uint8_t> _buffer;
    const data_objects::EngineConfig* _config;
    // Keys view the strings inside _buffer; std::less<> allows lookups by string_view.
    std::map<std::string_view, const data_objects::KnobSetting*, std::less<>> _knobsById;
};

}  // namespace hipdnn_flatbuffers_sdk
