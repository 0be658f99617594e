#include "logging/GraphDump.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/GraphJson.hpp>
#include <hipdnn_flatbuffers_sdk/data_objects/engine_config_generated.h>

#include "logging/Logger.hpp"

namespace hipdnn_backend::logging {

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

const char* graphDumpDirectory() {
    const char* directory = std::getenv("HIPDNN_LOG_GRAPH_DIR");
    return directory != nullptr && *directory != '\0' ? directory : nullptr;
}

// Writes <directory>/graph_<FNV-1a of the bytes>.json; throws on failure.
std::filesystem::path writeGraphJson(const std::vector<uint8_t>& serializedGraph,
                                     const std::filesystem::path& directory) {
    const std::string_view bytes(reinterpret_cast<const char*>(serializedGraph.data()),
                                 serializedGraph.size());
    const std::filesystem::path file =
        directory / fmt::format("graph_{:016x}.json", hipdnn_data_sdk::utilities::fnv1aHash(bytes));
    std::filesystem::create_directories(directory);
    std::ofstream out(file, std::ios::trunc);
    out << hipdnn_flatbuffers_sdk::graphToJson(serializedGraph.data(), serializedGraph.size());
    if (!out) {
        throw std::runtime_error("could not write " + file.string());
    }
    return file;
}

std::string knobArguments(const std::vector<uint8_t>& serializedEngineConfig) {
    std::string arguments;
    const fb::EngineConfig* config = fb::GetEngineConfig(serializedEngineConfig.data());
    if (config->knobs() == nullptr) {
        return arguments;
    }
    for (const fb::KnobSetting* knob : *config->knobs()) {
        if (const auto* value = knob->value_as_IntValue()) {
            arguments += fmt::format(" --knob {}={}", knob->knob_id()->str(), value->value());
        } else if (const auto* value = knob->value_as_FloatValue()) {
            arguments += fmt::format(" --knob {}={:.17g}", knob->knob_id()->str(), value->value());
        } else if (const auto* value = knob->value_as_StringValue()) {
            arguments += fmt::format(" --knob {}={}", knob->knob_id()->str(),
                                     value->value() != nullptr ? value->value()->str() : "");
        }
    }
    return arguments;
}

}  // namespace

void dumpGraphIfRequested(const std::vector<uint8_t>& serializedGraph) {
    const char* directory = graphDumpDirectory();
    if (directory == nullptr) {
        return;
    }
    try {
        HIPDNN_LOG_INFO("Graph written to [{}]", writeGraphJson(serializedGraph, directory).string());
    } catch (const std::exception& error) {
        HIPDNN_LOG_ERROR("Could not dump graph into HIPDNN_LOG_GRAPH_DIR [{}]: {}", directory, error.what());
    }
}

void logPlanReproducer(const std::vector<uint8_t>& serializedGraph, std::string_view engineName,
                       const std::vector<uint8_t>& serializedEngineConfig) {
    if (!isEnabled(HIPDNN_SEV_INFO)) {
        return;
    }
    try {
        const char* directory = graphDumpDirectory();
        const std::filesystem::path file = writeGraphJson(
            serializedGraph,
            directory != nullptr ? std::filesystem::path(directory)
                                 : std::filesystem::temp_directory_path() / "hipdnn_graphs");
        HIPDNN_LOG_INFO("Plan for engine {}: reproduce with: hipdnn-driver graph {} --engine {}{}", engineName,
                        file.string(), engineName, knobArguments(serializedEngineConfig));
    } catch (const std::exception& error) {
        HIPDNN_LOG_ERROR("Could not write the reproducer graph for engine {}: {}", engineName, error.what());
    }
}

}  // namespace hipdnn_backend::logging
