#include "BatchFile.hpp"

#include <sstream>
#include <stdexcept>

#include <hipdnn_test_sdk/FileReading.hpp>

namespace hipdnn_driver {

std::vector<std::string> splitWords(const std::string& line) {
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    char quote = '\0';
    for (char ch : line) {
        if (quote != '\0') {
            if (ch == quote) {
                quote = '\0';
            } else {
                word += ch;
            }
        } else if (ch == '\'' || ch == '"') {
            quote = ch;
            inWord = true;
        } else if (ch == '#') {
            break;
        } else if (ch == ' ' || ch == '\t' || ch == '\r') {
            if (inWord) {
                words.push_back(word);
                word.clear();
                inWord = false;
            }
        } else {
            word += ch;
            inWord = true;
        }
    }
    if (quote != '\0') {
        throw UsageError(std::string("unterminated ") + quote + " quote");
    }
    if (inWord) {
        words.push_back(word);
    }
    return words;
}

std::vector<BatchEntry> parseBatch(std::istream& in, const std::string& fileName,
                                   const std::filesystem::path& baseDirectory,
                                   const CommonOptions& defaults) {
    std::vector<BatchEntry> entries;
    std::string errors;
    size_t lineNumber = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineNumber;
        try {
            const auto words = splitWords(line);
            if (words.empty()) {
                continue;
            }
            std::string text;
            for (const auto& word : words) {
                text += (text.empty() ? "" : " ") + word;
            }
            BatchEntry entry{lineNumber, text, parseProblemWords(words, defaults)};
            if (auto* graph = std::get_if<GraphSpec>(&entry.invocation.problem)) {
                if (graph->file.is_relative()) {
                    graph->file = baseDirectory / graph->file;
                }
                if (graph->inputsDir && graph->inputsDir->is_relative()) {
                    graph->inputsDir = baseDirectory / *graph->inputsDir;
                }
            }
            entries.push_back(std::move(entry));
        } catch (const UsageError& error) {
            errors += fileName + ":" + std::to_string(lineNumber) + ": " + error.what() + "\n";
        }
    }
    if (!errors.empty()) {
        throw UsageError(errors.substr(0, errors.size() - 1));
    }
    if (entries.empty()) {
        throw UsageError(fileName + ": no problem in the file (only comments or blank lines)");
    }
    return entries;
}

std::vector<BatchEntry> parseBatchFile(const std::filesystem::path& file, const CommonOptions& defaults) {
    // A regular file of at most 1 GiB, like a graph file: /dev/zero would be one endless line.
    std::vector<uint8_t> contents;
    try {
        contents = hipdnn_test_sdk::readRegularFile(file, hipdnn_test_sdk::kMaxGraphFileBytes, "batch file");
    } catch (const std::runtime_error& error) {
        throw UsageError(error.what());
    }
    std::istringstream in(std::string(contents.begin(), contents.end()));
    return parseBatch(in, file.string(), file.parent_path(), defaults);
}

}  // namespace hipdnn_driver
