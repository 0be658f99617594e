#include "heuristics/DeclineReasons.hpp"

namespace hipdnn_backend::heuristics {

std::map<std::string, std::string, std::less<>> parseDeclineReasons(std::string_view text) {
    std::map<std::string, std::string, std::less<>> reasons;
    while (!text.empty()) {
        const size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        const size_t separator = line.find(": ");
        if (separator == std::string_view::npos || separator == 0) {
            continue;
        }
        const std::string_view engine = line.substr(0, separator);
        const std::string_view reason = line.substr(separator + 2);
        auto [entry, inserted] = reasons.emplace(std::string(engine), std::string(reason));
        if (!inserted) {
            entry->second += "; ";
            entry->second += reason;
        }
    }
    return reasons;
}

}  // namespace hipdnn_backend::heuristics
