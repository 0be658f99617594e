// A graph's canonical form: what two graphs share when they are the same computation, whatever
// their names and uid numbering. Tools compare graphs with it and the backend keys the tuning
// database by its hash.
//
// Header-only over nlohmann/json (a header-only library): include it only where nlohmann_json is
// on the include path; no other SDK header includes this one.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <nlohmann/json.hpp>

#include "GraphJson.hpp"

namespace hipdnn_flatbuffers_sdk {

namespace detail {

// Renumbers every "*_tensor_uid" value below `value` by first use.
inline void renumberTensorUids(nlohmann::json& value, const std::string& key,
                               std::map<int64_t, int64_t>& numbers) {
    const bool isUid = key.size() > 11 && key.compare(key.size() - 11, 11, "_tensor_uid") == 0;
    if (value.is_object()) {
        for (auto& [childKey, child] : value.items()) {
            renumberTensorUids(child, childKey, numbers);
        }
    } else if (value.is_array()) {
        for (auto& child : value) {
            renumberTensorUids(child, key, numbers);
        }
    } else if (isUid && value.is_number_integer()) {
        const auto uid = value.get<int64_t>();
        const auto found = numbers.emplace(uid, static_cast<int64_t>(numbers.size()));
        value = found.first->second;
    }
}

}  // namespace detail

// The graph as compact JSON without the graph's, nodes' and tensors' names, tensors renumbered
// by first use in node order (tensors no node uses are dropped) and listed in that order: equal
// strings mean the same operations, attributes, dims, strides and data types. Throws GraphError
// for a buffer that does not verify.
inline std::string canonicalGraph(const uint8_t* data, size_t size) {
    auto json = nlohmann::json::parse(graphToJson(data, size));
    json.erase("name");
    std::map<int64_t, int64_t> numbers;
    for (auto& node : json["nodes"]) {
        node.erase("name");
        detail::renumberTensorUids(node, "", numbers);
    }
    std::map<int64_t, nlohmann::json> tensors;
    for (auto& tensor : json["tensors"]) {
        const auto found = numbers.find(tensor["uid"].get<int64_t>());
        if (found == numbers.end()) {
            continue;
        }
        tensor.erase("name");
        tensor["uid"] = found->second;
        tensors[found->second] = tensor;
    }
    json["tensors"] = nlohmann::json::array();
    for (auto& [number, tensor] : tensors) {
        json["tensors"].push_back(tensor);
    }
    return json.dump();
}

inline std::string canonicalGraph(const std::vector<uint8_t>& bytes) {
    return canonicalGraph(bytes.data(), bytes.size());
}

// 16 hex digits: the FNV-1a hash of canonicalGraph.
inline std::string canonicalGraphKey(const uint8_t* data, size_t size) {
    uint64_t hash = hipdnn_data_sdk::utilities::fnv1aHash(canonicalGraph(data, size));
    std::string text(16, '0');
    constexpr std::string_view digits = "0123456789abcdef";
    for (size_t position = 16; position-- > 0;) {
        text[position] = digits[hash & 0xf];
        hash >>= 4;
    }
    return text;
}

}  // namespace hipdnn_flatbuffers_sdk
