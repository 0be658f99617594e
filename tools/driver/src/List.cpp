#include "List.hpp"

#include <iomanip>
#include <ostream>
#include <sstream>

#include <dlfcn.h>

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_frontend.hpp>

#include "SupportTable.hpp"

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;

namespace {

struct PluginFacts {
    std::string name = "?";
    std::string version = "?";
    std::string apiVersion = "1.0.0 (not reported)";
    std::string device = "GPU (not reported)";
    std::string libraries;
};

// Reads the plugin's own answers through its C ABI. The backend already loaded it, so
// RTLD_NOLOAD only takes another reference to the same library (nothing is initialised twice).
PluginFacts pluginFacts(const std::string& path) {
    PluginFacts facts;
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (library == nullptr) {
        facts.name = "(not loaded in this process)";
        return facts;
    }
    auto symbol = [&](const char* name) { return dlsym(library, name); };
    const char* text = nullptr;
    if (auto* getName = reinterpret_cast<decltype(&hipdnnPluginGetName)>(symbol("hipdnnPluginGetName"))) {
        if (getName(&text) == HIPDNN_PLUGIN_STATUS_SUCCESS && text != nullptr) {
            facts.name = text;
        }
    }
    if (auto* getVersion =
            reinterpret_cast<decltype(&hipdnnPluginGetVersion)>(symbol("hipdnnPluginGetVersion"))) {
        if (getVersion(&text) == HIPDNN_PLUGIN_STATUS_SUCCESS && text != nullptr) {
            facts.version = text;
        }
    }
    if (auto* getApi =
            reinterpret_cast<decltype(&hipdnnPluginGetApiVersion)>(symbol("hipdnnPluginGetApiVersion"))) {
        if (getApi(&text) == HIPDNN_PLUGIN_STATUS_SUCCESS && text != nullptr) {
            facts.apiVersion = text;
        }
    }
    if (auto* getDevice = reinterpret_cast<decltype(&hipdnnEnginePluginGetDeviceType_ext)>(
            symbol("hipdnnEnginePluginGetDeviceType_ext"))) {
        hipdnnDeviceType_ext_t type = HIPDNN_DEVICE_TYPE_GPU_EXT;
        if (getDevice(&type) == HIPDNN_PLUGIN_STATUS_SUCCESS) {
            facts.device = type == HIPDNN_DEVICE_TYPE_CPU_EXT ? "CPU" : "GPU";
        }
    }
    if (auto* getLibraries = reinterpret_cast<decltype(&hipdnnEnginePluginGetLibraryVersions_ext)>(
            symbol("hipdnnEnginePluginGetLibraryVersions_ext"))) {
        if (getLibraries(&text) == HIPDNN_PLUGIN_STATUS_SUCCESS && text != nullptr) {
            facts.libraries = text;
        }
    }
    dlclose(library);
    return facts;
}

std::string knobValue(const fe::KnobValue& value) {
    return fe::to_string(value);
}

std::string knobType(const fe::Knob& knob) {
    static const char* const names[] = {"int64", "double", "string"};
    return names[knob.defaultValue.index()];
}

std::string knobConstraint(const fe::Knob& knob) {
    std::ostringstream text;
    if (const auto* c = std::get_if<fe::IntKnobConstraint>(&knob.constraint)) {
        text << "[" << c->min << ", " << c->max << "] step " << c->step;
        if (!c->validValues.empty()) {
            text << ", one of";
            for (auto value : c->validValues) {
                text << " " << value;
            }
        }
    } else if (const auto* c = std::get_if<fe::FloatKnobConstraint>(&knob.constraint)) {
        text << "[" << c->min << ", " << c->max << "]";
    } else if (const auto* c = std::get_if<fe::StringKnobConstraint>(&knob.constraint)) {
        text << "max length " << c->maxLength;
        if (!c->validValues.empty()) {
            text << ", one of";
            for (const auto& value : c->validValues) {
                text << " \"" << value << "\"";
            }
        }
    } else {
        text << "none";
    }
    return text.str();
}

// Knobs are published per graph: the first probe graph the engine accepts is asked.
void printKnobs(Session& session, const std::string& engine, const std::vector<SupportProbe>& probes,
                std::ostream& out) {
    for (const auto& probe : probes) {
        fe::graph::Graph graph;
        if (graph.deserialize(session.handle(), probe.problem.graph).is_bad()) {
            continue;
        }
        std::vector<fe::Knob> knobs;
        if (graph.get_knobs_for_engine(engine, knobs).is_bad()) {
            continue;
        }
        out << "    knobs (for " << probe.operation << " " << probe.dataType << "):";
        if (knobs.empty()) {
            out << " none\n";
            return;
        }
        out << "\n";
        for (const auto& knob : knobs) {
            out << "      " << knob.id << "  type " << knobType(knob) << "  default "
                << knobValue(knob.defaultValue) << "  constraint " << knobConstraint(knob)
                << (knob.deprecated ? "  (deprecated)" : "") << "\n";
            if (!knob.description.empty()) {
                out << "        " << knob.description << "\n";
            }
        }
        return;
    }
    out << "    knobs: (no probe graph is accepted by this engine)\n";
}

}  // namespace

void printList(Session& session, std::ostream& out) {
    out << "hipdnn " << hipdnnVersionString_ext() << "\n";
    out << "Handle device: " << session.deviceDescription() << "\n\n";
    const auto paths = session.loadedPluginPaths();
    out << "Plugins loaded (" << paths.size() << "):\n";
    for (const auto& path : paths) {
        const PluginFacts facts = pluginFacts(path);
        out << "  " << facts.name << "  version " << facts.version << "  API " << facts.apiVersion
            << "  device " << facts.device << (facts.libraries.empty() ? "" : "  libraries " + facts.libraries)
            << "\n    " << path << "\n";
    }
    const auto engines = session.engines();
    const auto probes = supportProbes();
    out << "\nEngines of the handle's device (" << engines.size() << "):\n";
    for (const auto& engine : engines) {
        out << "  " << engine.name << "  id " << hipdnn_data_sdk::utilities::formatEngineIdHex(engine.id)
            << "  plugin " << engine.pluginName << "\n";
        printKnobs(session, engine.name, probes, out);
    }
}

}  // namespace hipdnn_driver
