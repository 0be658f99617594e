#include "logging/GraphDump.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/GraphJson.hpp>

#include "logging/Logger.hpp"

namespace hipdnn_backend::logging {

void dumpGraphIfRequested(const std::vector<uint8_t>& serializedGraph) {
    const char* directory = std::getenv("HIPDNN_LOG_GRAPH_DIR");
    if (directory == nullptr || *directory == '\0') {
        return;
    }
    try {
        const std::string_view bytes(reinterpret_cast<const char*>(serializedGraph.data()),
                                     serializedGraph.size());
        const std::filesystem::path file =
            std::filesystem::path(directory) /
            fmt::format("graph_{:016x}.json", hipdnn_data_sdk::utilities::fnv1aHash(bytes));
        std::filesystem::create_directories(file.parent_path());
        std::ofstream out(file, std::ios::trunc);
        out << hipdnn_flatbuffers_sdk::graphToJson(serializedGraph.data(), serializedGraph.size());
        if (!out) {
            HIPDNN_LOG_ERROR("Could not write graph dump [{}]", file.string());
            return;
        }
        HIPDNN_LOG_INFO("Graph written to [{}]", file.string());
    } catch (const std::exception& error) {
        HIPDNN_LOG_ERROR("Could not dump graph into HIPDNN_LOG_GRAPH_DIR [{}]: {}", directory, error.what());
    }
}

}  // namespace hipdnn_backend::logging
