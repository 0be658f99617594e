#pragma once

#include "hipdnn_flatbuffers_sdk/FlatbufferError.hpp"
#include "hipdnn_flatbuffers_sdk/GraphWrapper.hpp"
#include "hipdnn_flatbuffers_sdk/data_objects/EmbeddedSchemas.hpp"
#include "hipdnn_flatbuffers_sdk/data_objects/engine_config_generated.h"
#include "hipdnn_flatbuffers_sdk/data_objects/engine_details_generated.h"
#include "hipdnn_flatbuffers_sdk/data_objects/execution_plan_generated.h"
#include "hipdnn_flatbuffers_sdk/data_objects/graph_generated.h"
#include "hipdnn_flatbuffers_sdk/data_objects/knob_value_generated.h"

#include <flatbuffers/flexbuffers.h>
#include <flatbuffers/idl.h>
#include <flatbuffers/util.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

// JSON, the human form of the SDK's tables, through the FlatBuffers parser and the schemas
// embedded at build time (no schema file is read at run time).
namespace hipdnn_flatbuffers_sdk {

namespace detail {

// All schemas as one text, in dependency order, without include and root_type lines: the
// parser then never looks for include files on disk (where a stray file of the same name
// could shadow ours), and the root type is chosen per call.
inline const std::string& combinedSchemaText() {
    static const std::string combined = [] {
        std::string text;
        for (const auto& schema : data_objects::kEmbeddedSchemas) {
            std::string_view rest = schema.text;
            while (!rest.empty()) {
                const size_t end = rest.find('\n');
                const std::string_view line = rest.substr(0, end);
                rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
                if (!line.starts_with("include ") && !line.starts_with("root_type ")) {
                    text.append(line).push_back('\n');
                }
            }
        }
        return text;
    }();
    return combined;
}

// FlatBuffers' JSON printer asserts (aborts) on a union value whose type field is absent or
// NONE, which the verifier lets through; such buffers are refused before printing.
inline bool unionsHaveTypes(const data_objects::TensorAttributes& tensor) {
    return tensor.value() == nullptr || tensor.value_type() != data_objects::TensorValue::NONE;
}
inline bool unionsHaveTypes(const data_objects::Node& node) {
    return node.attributes() == nullptr || node.attributes_type() != data_objects::NodeAttributes::NONE;
}
inline bool unionsHaveTypes(const data_objects::KnobSetting& setting) {
    return setting.value() == nullptr || setting.value_type() != data_objects::KnobValue::NONE;
}
inline bool unionsHaveTypes(const data_objects::Knob& knob) {
    return (knob.default_value() == nullptr || knob.default_value_type() != data_objects::KnobValue::NONE) &&
           (knob.constraint() == nullptr || knob.constraint_type() != data_objects::KnobConstraint::NONE);
}
template <class Table>
bool unionsHaveTypes(const flatbuffers::Vector<flatbuffers::Offset<Table>>* tables) {
    if (tables == nullptr) {
        return true;
    }
    for (const Table* table : *tables) {
        if (!unionsHaveTypes(*table)) {
            return false;
        }
    }
    return true;
}
inline bool unionsHaveTypes(const data_objects::Graph& graph) {
    return unionsHaveTypes(graph.tensors()) && unionsHaveTypes(graph.nodes());
}
inline bool unionsHaveTypes(const data_objects::EngineConfig& config) {
    return unionsHaveTypes(config.knobs());
}
inline bool unionsHaveTypes(const data_objects::EngineDetails& details) {
    return unionsHaveTypes(details.knobs());
}
inline bool unionsHaveTypes(const data_objects::SerializedExecutionPlan&) {
    return true;
}

// A verified copy of a buffer whose root is Table, safe to print.
template <class Table>
std::vector<uint8_t> printableCopy(const void* data, size_t size, std::string_view what) {
    auto copy = copyAndVerify<Table, FlatbufferError>(data, size, what);
    if (!unionsHaveTypes(*flatbuffers::GetRoot<Table>(copy.data()))) {
        throw FlatbufferError(std::string(what) + " buffer has a union value without a type (corrupted)");
    }
    return copy;
}

struct JsonRootType {
    std::string_view name;
    std::vector<uint8_t> (*printableCopy)(const void*, size_t, std::string_view);
};

// Tables that may be the root of a JSON document.
inline constexpr std::array kJsonRootTypes{
    JsonRootType{"Graph", &printableCopy<data_objects::Graph>},
    JsonRootType{"Node", &printableCopy<data_objects::Node>},
    JsonRootType{"TensorAttributes", &printableCopy<data_objects::TensorAttributes>},
    JsonRootType{"EngineConfig", &printableCopy<data_objects::EngineConfig>},
    JsonRootType{"EngineDetails", &printableCopy<data_objects::EngineDetails>},
    JsonRootType{"Knob", &printableCopy<data_objects::Knob>},
    JsonRootType{"KnobSetting", &printableCopy<data_objects::KnobSetting>},
    JsonRootType{"SerializedExecutionPlan", &printableCopy<data_objects::SerializedExecutionPlan>},
};

inline const JsonRootType& jsonRootType(std::string_view name) {
    for (const auto& rootType : kJsonRootTypes) {
        if (rootType.name == name) {
            return rootType;
        }
    }
    std::string known;
    for (const auto& rootType : kJsonRootTypes) {
        known += (known.empty() ? "" : ", ") + std::string(rootType.name);
    }
    throw FlatbufferError("unknown JSON root type '" + std::string(name) + "' (known: " + known + ")");
}

inline std::string qualifiedTypeName(std::string_view rootTypeName) {
    return "hipdnn_flatbuffers_sdk.data_objects." + std::string(rootTypeName);
}

// A parser holding every schema, rooted at rootTypeName. Parsing JSON takes a fresh one per
// call, because a parser keeps state from a failed parse.
inline std::unique_ptr<flatbuffers::Parser> makeParser(std::string_view rootTypeName) {
    flatbuffers::IDLOptions options;
    options.strict_json = true;
    options.output_default_scalars_in_json = true;
    options.indent_step = 2;
    // The parser accepts structs as union members (TensorValue's) only when told it produces
    // binary; its default, no target language, refuses them.
    options.lang_to_generate = flatbuffers::IDLOptions::kBinary;
    auto parser = std::make_unique<flatbuffers::Parser>(options);
    if (!parser->Parse(combinedSchemaText().c_str(), nullptr, "hipdnn_flatbuffers_sdk.fbs")) {
        throw FlatbufferError("embedded schemas failed to parse: " + parser->error_);
    }
    const std::string qualified = qualifiedTypeName(rootTypeName);
    if (!parser->SetRootType(qualified.c_str())) {
        throw FlatbufferError("embedded schemas have no table " + qualified);
    }
    return parser;
}

// Printing only reads the parser's schema, so each thread keeps one (building it costs
// milliseconds, too much for every log line).
inline const flatbuffers::Parser& printingParser() {
    thread_local const std::unique_ptr<flatbuffers::Parser> parser = makeParser("Graph");
    return *parser;
}

// Upstream hipDNN's own JSON form of a graph, rewritten into the FlatBuffers parser's form. The
// two differ in shape only: upstream puts a node's attribute fields beside its "type", "name" and
// "compute_data_type" (older writers group them under "inputs", "outputs" and "attributes"),
// writes a pass-by-value scalar as a bare number beside "value_type", and the graph id as a UUID
// string. A document already in the parser's form is returned unchanged.
class UpstreamGraphJson {
public:
    static std::string normalized(std::string_view json) {
        flexbuffers::Builder flex;
        flatbuffers::Parser parser;
        const std::string text(json);
        if (!parser.ParseFlexBuffer(text.c_str(), nullptr, &flex)) {
            return text;  // the FlatBuffers parser reports the error with its position
        }
        const flexbuffers::Reference root = flexbuffers::GetRoot(flex.GetBuffer());
        // The FlexBuffers parser stops after the first value: a document with anything after it
        // is left to the FlatBuffers parser, which refuses it.
        if (!root.IsMap() || !isUpstreamForm(root.AsMap()) || !endsAfterOneObject(json)) {
            return text;
        }
        std::string out;
        emitGraph(root.AsMap(), out);
        return out;
    }

private:
    static bool endsAfterOneObject(std::string_view json) {
        const auto isSpace = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
        size_t i = 0;
        while (i < json.size() && isSpace(json[i])) {
            ++i;
        }
        int depth = 0;
        bool inString = false;
        for (; i < json.size(); ++i) {
            const char c = json[i];
            if (inString) {
                if (c == '\\') {
                    ++i;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                break;
            }
        }
        return i < json.size() &&
               std::all_of(json.begin() + static_cast<std::ptrdiff_t>(i) + 1, json.end(), isSpace);
    }

    static bool isUpstreamForm(const flexbuffers::Map& graph) {
        const auto nodes = graph["nodes"];
        if (nodes.IsVector()) {
            const auto list = nodes.AsVector();
            for (size_t i = 0; i < list.size(); ++i) {
                if (list[i].IsMap() && !list[i].AsMap()["type"].IsNull() &&
                    list[i].AsMap()["attributes_type"].IsNull()) {
                    return true;
                }
            }
        }
        return graph["id"].IsString();
    }

    static void emitKey(std::string_view key, std::string& out) {
        if (out.back() != '{') {
            out += ',';
        }
        emitString(key, out);
        out += ':';
    }

    static void emitString(std::string_view text, std::string& out) {
        std::string escaped;
        flatbuffers::EscapeString(text.data(), text.size(), &escaped, true, true);
        out += escaped;
    }

    static void emitValue(const flexbuffers::Reference& value, std::string& out) {
        if (value.IsMap()) {
            emitMap(value.AsMap(), {}, out);
        } else if (value.IsVector()) {
            emitList(value.AsVector(), out);
        } else if (value.IsTypedVector()) {
            emitList(value.AsTypedVector(), out);
        } else if (value.IsFixedTypedVector()) {
            emitList(value.AsFixedTypedVector(), out);
        } else if (value.IsString()) {
            emitString(value.AsString().str(), out);
        } else if (value.IsBool()) {
            out += value.AsBool() ? "true" : "false";
        } else if (value.IsInt()) {
            out += std::to_string(value.AsInt64());
        } else if (value.IsUInt()) {
            out += std::to_string(value.AsUInt64());
        } else if (value.IsFloat()) {
            std::array<char, 32> digits{};
            std::snprintf(digits.data(), digits.size(), "%.17g", value.AsDouble());
            out += digits.data();
        } else {
            out += "null";
        }
    }

    template <class List>
    static void emitList(const List& list, std::string& out) {
        out += '[';
        for (size_t i = 0; i < list.size(); ++i) {
            if (i > 0) {
                out += ',';
            }
            emitValue(list[i], out);
        }
        out += ']';
    }

    // Keys in `skip` are left out. Union type fields ("*_type") go first: the parser reads a
    // union's value by its type.
    static void emitMap(const flexbuffers::Map& map, std::initializer_list<std::string_view> skip,
                        std::string& out) {
        out += '{';
        const auto keys = map.Keys();
        const auto values = map.Values();
        for (const bool typeFields : {true, false}) {
            for (size_t i = 0; i < keys.size(); ++i) {
                const std::string_view key = keys[i].AsKey();
                if (key.ends_with("_type") != typeFields ||
                    std::find(skip.begin(), skip.end(), key) != skip.end()) {
                    continue;
                }
                emitKey(key, out);
                emitValue(values[i], out);
            }
        }
        out += '}';
    }

    static void emitNode(const flexbuffers::Map& node, std::string& out) {
        if (node["type"].IsNull() || !node["attributes_type"].IsNull()) {
            emitMap(node, {}, out);
            return;
        }
        out += '{';
        for (const char* key : {"name", "compute_data_type"}) {
            if (!node[key].IsNull()) {
                emitKey(key, out);
                emitValue(node[key], out);
            }
        }
        emitKey("attributes_type", out);
        emitValue(node["type"], out);
        emitKey("attributes", out);
        out += '{';
        const auto keys = node.Keys();
        const auto values = node.Values();
        for (size_t i = 0; i < keys.size(); ++i) {
            const std::string_view key = keys[i].AsKey();
            if (key == "type" || key == "name" || key == "compute_data_type") {
                continue;
            }
            const bool grouped =
                (key == "inputs" || key == "outputs" || key == "attributes") && values[i].IsMap();
            if (!grouped) {
                emitKey(key, out);
                emitValue(values[i], out);
                continue;
            }
            const auto group = values[i].AsMap();
            const auto groupKeys = group.Keys();
            const auto groupValues = group.Values();
            for (size_t j = 0; j < groupKeys.size(); ++j) {
                emitKey(groupKeys[j].AsKey(), out);
                emitValue(groupValues[j], out);
            }
        }
        out += "}}";
    }

    static void emitTensor(const flexbuffers::Map& tensor, std::string& out) {
        const auto value = tensor["value"];
        if (value.IsNull() || value.IsMap()) {
            emitMap(tensor, {}, out);
            return;
        }
        emitMap(tensor, {"value"}, out);
        out.pop_back();
        emitKey("value", out);
        out += "{\"value\":";
        emitValue(value, out);
        out += "}}";
    }

    // "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" as the Uuid struct's 16 bytes.
    static void emitUuid(std::string_view text, std::string& out) {
        std::string hex;
        for (const char c : text) {
            if (c != '-') {
                hex += c;
            }
        }
        const bool canonical = text.size() == 36 && hex.size() == 32 &&
                               std::all_of(hex.begin(), hex.end(), [](char c) { return std::isxdigit(c); });
        if (!canonical) {
            throw FlatbufferError("graph id '" + std::string(text) +
                                  "' is not a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)");
        }
        out += "{\"bytes\":[";
        for (size_t i = 0; i < 16; ++i) {
            if (i > 0) {
                out += ',';
            }
            out.append(std::to_string(std::stoi(hex.substr(2 * i, 2), nullptr, 16)));
        }
        out += "]}";
    }

    static void emitGraph(const flexbuffers::Map& graph, std::string& out) {
        emitMap(graph, {"nodes", "tensors", "id"}, out);
        out.pop_back();
        if (const auto nodes = graph["nodes"]; nodes.IsVector()) {
            emitKey("nodes", out);
            out += '[';
            const auto list = nodes.AsVector();
            for (size_t i = 0; i < list.size(); ++i) {
                out += i > 0 ? "," : "";
                list[i].IsMap() ? emitNode(list[i].AsMap(), out) : emitValue(list[i], out);
            }
            out += ']';
        }
        if (const auto tensors = graph["tensors"]; tensors.IsVector()) {
            emitKey("tensors", out);
            out += '[';
            const auto list = tensors.AsVector();
            for (size_t i = 0; i < list.size(); ++i) {
                out += i > 0 ? "," : "";
                list[i].IsMap() ? emitTensor(list[i].AsMap(), out) : emitValue(list[i], out);
            }
            out += ']';
        }
        if (const auto id = graph["id"]; !id.IsNull()) {
            emitKey("id", out);
            id.IsString() ? emitUuid(id.AsString().str(), out) : emitValue(id, out);
        }
        out += '}';
    }
};

}  // namespace detail

// Prints a buffer whose root is the named table (see detail::kJsonRootTypes) as strict JSON.
// The buffer is checked with the FlatBuffers verifier first; throws FlatbufferError. An
// unknown union type or a string that is not UTF-8 cannot be printed and throws too.
inline std::string tableToJson(const void* data, size_t size, std::string_view rootTypeName) {
    const auto& rootType = detail::jsonRootType(rootTypeName);
    const std::string what(rootTypeName);
    const auto copy = rootType.printableCopy(data, size, what);
    std::string json;
    if (!flatbuffers::GenerateTextFromTable(detail::printingParser(),
                                            flatbuffers::GetRoot<flatbuffers::Table>(copy.data()),
                                            detail::qualifiedTypeName(rootTypeName), &json)) {
        throw FlatbufferError(
            what + " buffer cannot be printed as JSON (unknown union type or a string that is not UTF-8)");
    }
    return json;
}

// Parses JSON whose root is the named table into a FlatBuffer; throws FlatbufferError with
// the parser's message (line and column) on malformed input. `json` holds one document and
// nothing after it but whitespace, or one NUL terminator (a C string's, counted in the size);
// any other NUL is an error giving its offset (the parser would stop there and ignore the rest).
inline std::vector<uint8_t> tableFromJson(std::string_view json, std::string_view rootTypeName) {
    detail::jsonRootType(rootTypeName);
    if (const size_t nul = json.find('\0'); nul != std::string_view::npos) {
        if (nul + 1 != json.size()) {
            throw FlatbufferError("invalid " + std::string(rootTypeName) + " JSON: byte " +
                                  std::to_string(nul) + " of " + std::to_string(json.size()) +
                                  " is a NUL; only a single NUL terminator may follow the JSON document");
        }
        json.remove_suffix(1);
    }
    const auto parser = detail::makeParser(rootTypeName);
    const std::string text(json);  // the parser needs a terminated string
    if (!parser->ParseJson(text.c_str())) {
        throw FlatbufferError("invalid " + std::string(rootTypeName) + " JSON: " + parser->error_);
    }
    const uint8_t* begin = parser->builder_.GetBufferPointer();
    return {begin, begin + parser->builder_.GetSize()};
}

// A graph buffer as strict JSON. Only the FlatBuffers verifier runs (not the graph contract),
// so a graph that GraphWrapper rejects can still be printed for a log. Throws GraphError.
inline std::string graphToJson(const void* data, size_t size) {
    try {
        return tableToJson(data, size, "Graph");
    } catch (const FlatbufferError& e) {
        throw GraphError(e.what());
    }
}

// A graph buffer from JSON, in the FlatBuffers parser's form or upstream hipDNN's. The result
// has passed GraphWrapper's checks; throws GraphError with the parser's or the contract's message.
inline std::vector<uint8_t> graphFromJson(std::string_view json) {
    std::vector<uint8_t> buffer;
    try {
        const std::string_view document = json.ends_with('\0') ? json.substr(0, json.size() - 1) : json;
        buffer = document.find('\0') == std::string_view::npos
                     ? tableFromJson(detail::UpstreamGraphJson::normalized(document), "Graph")
                     : tableFromJson(json, "Graph");
    } catch (const FlatbufferError& e) {
        throw GraphError(e.what());
    }
    const GraphWrapper verified(buffer.data(), buffer.size());  // throws when the contract fails
    return buffer;
}

}  // namespace hipdnn_flatbuffers_sdk
