// --dump DIR: one golden-data case (test SDK format: graph.json, manifest.json, tensor_<uid>.bin)
// per problem and engine, holding the inputs and the outputs that engine produced. Such a
// directory feeds `hipdnn-driver graph DIR/graph.json --inputs DIR` and the test SDK's
// loadGoldenCase.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "Inputs.hpp"

namespace hipdnn_driver {

// DIR/<problem index, 3 digits>_<first word of the label>/<engine>.
std::filesystem::path dumpDirectory(const std::string& root, size_t problemIndex,
                                    const std::string& problemLabel, const std::string& engine);

void dumpCase(const std::filesystem::path& directory, const std::vector<uint8_t>& graph,
              const std::vector<HostTensor>& inputs, const std::vector<HostTensor>& outputs);

}  // namespace hipdnn_driver
