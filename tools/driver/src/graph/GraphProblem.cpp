// graph FILE: a serialized graph from disk (JSON, or a binary Graph FlatBuffer), checked with the
// FlatBuffers SDK's verifier and graph contract before anything runs it.
#include "Problem.hpp"
#include "Reproducer.hpp"
#include "graph/GraphSpec.hpp"

#include <regex>
#include <stdexcept>

#include <hipdnn_flatbuffers_sdk/GraphJson.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_test_sdk/FileReading.hpp>

namespace hipdnn_driver {

namespace {

bool looksLikeJson(const std::string& text) {
    const size_t first = text.find_first_not_of(" \t\r\n");
    return first != std::string::npos && text[first] == '{';
}

}  // namespace

std::vector<uint8_t> readGraphFile(const std::filesystem::path& file) {
    // A regular file of at most 1 GiB, checked before reading: a device such as /dev/zero would
    // be read until memory ran out.
    std::vector<uint8_t> contents;
    try {
        contents = hipdnn_test_sdk::readRegularFile(file, hipdnn_test_sdk::kMaxGraphFileBytes, "graph file");
    } catch (const std::runtime_error& error) {
        throw ProblemError(error.what());
    }
    const std::string text(contents.begin(), contents.end());
    contents = {};
    return parseGraphText(text, file.string());
}

std::vector<uint8_t> parseGraphText(const std::string& text, const std::string& source) {
    std::vector<uint8_t> bytes;
    try {
        if (looksLikeJson(text)) {
            bytes = hipdnn_flatbuffers_sdk::graphFromJson(text);
        } else {
            bytes.assign(text.begin(), text.end());
        }
        // Verifies the buffer and the graph contract; the message names the tensor or node.
        hipdnn_flatbuffers_sdk::GraphWrapper verified(bytes.data(), bytes.size());
    } catch (const std::exception& error) {
        // The FlatBuffers parser reports "<line>: <column>: error: ..."; say which is which.
        static const std::regex position("(\\d+): (\\d+): error: ");
        throw ProblemError(source + ": " +
                           std::regex_replace(std::string(error.what()), position, "line $1, column $2: "));
    }
    return bytes;
}

Problem makeGraphProblem(const GraphSpec& spec) {
    Problem problem;
    problem.graph = readGraphFile(spec.file);
    const auto* graph = hipdnn_flatbuffers_sdk::data_objects::GetGraph(problem.graph.data());
    const std::string name = graph->name() != nullptr ? graph->name()->str() : std::string();
    problem.label = "graph " + spec.file.filename().string() + (name.empty() ? "" : " (" + name + ")");
    // A graph that is exactly one of the driver's problems is reproduced by that subcommand (this
    // is how a graph file logged by the backend turns into a readable command line); inputs from a
    // directory keep the graph form, which can name them.
    const auto recognized = spec.inputsDir ? std::nullopt : recognizeGraph(problem.graph);
    problem.commandWords = recognized ? commandWordsFor(*recognized) : commandWordsFor(spec);
    problem.inputsDir = spec.inputsDir;
    return problem;
}

}  // namespace hipdnn_driver
