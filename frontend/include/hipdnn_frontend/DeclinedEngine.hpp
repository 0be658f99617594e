// Why an engine did not take a graph, as reported by the backend's heuristics.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hipdnn_frontend {

struct DeclinedEngine {
    std::string engine_name;
    std::string plugin_name;
    std::string reason;
};

namespace detail {

// Parses HIPDNN_ATTR_ENGINEHEUR_DECLINED_EXT: one "<engine>\t<plugin>\t<reason>\n" line per engine.
inline std::vector<DeclinedEngine> parseDeclinedEngines(std::string_view text) {
    std::vector<DeclinedEngine> result;
    while (!text.empty()) {
        const size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (line.empty()) {
            continue;
        }
        DeclinedEngine engine;
        const size_t firstTab = line.find('\t');
        const size_t secondTab =
            firstTab == std::string_view::npos ? firstTab : line.find('\t', firstTab + 1);
        engine.engine_name = std::string(line.substr(0, firstTab));
        if (firstTab != std::string_view::npos) {
            engine.plugin_name = std::string(line.substr(firstTab + 1, secondTab - firstTab - 1));
        }
        if (secondTab != std::string_view::npos) {
            engine.reason = std::string(line.substr(secondTab + 1));
        }
        result.push_back(std::move(engine));
    }
    return result;
}

// "  <engine> (<plugin>): <reason>" per line, for error messages.
inline std::string formatDeclinedEngines(const std::vector<DeclinedEngine>& engines) {
    if (engines.empty()) {
        return "  (no engine was asked: are plugins for this device loaded?)\n";
    }
    std::string text;
    for (const auto& engine : engines) {
        text += "  " + engine.engine_name + " (" + engine.plugin_name + "): " + engine.reason + "\n";
    }
    return text;
}

}  // namespace detail
}  // namespace hipdnn_frontend
