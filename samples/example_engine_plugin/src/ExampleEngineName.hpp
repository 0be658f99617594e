// The example engine's name. HIPDNN_REGISTER_ENGINE defines EXAMPLE_RELU_ADD_ENGINE_NAME and
// EXAMPLE_RELU_ADD_ENGINE_ID (the FNV-1a hash of the name) and registers the name, which fails at
// load time if it collides with a name of the official registry. Programs that only talk to the
// backend include this header too: the id is deterministic, so both sides agree on it.
#pragma once

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

namespace example_plugin {

HIPDNN_REGISTER_ENGINE(EXAMPLE_RELU_ADD_ENGINE)

}  // namespace example_plugin
