// Why engines declined a graph. Plugins leave one "<engine name>: <reason>" line per declining
// engine in their last-error string after hipdnnEnginePluginGetApplicableEngineIds.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace hipdnn_backend::heuristics {

inline constexpr std::string_view kNoDeclineReason = "declined without a reason";

// Engine name -> reason, from the plugin's last-error text; lines without ": " are ignored.
std::map<std::string, std::string, std::less<>> parseDeclineReasons(std::string_view text);

}  // namespace hipdnn_backend::heuristics
