#include "Report.hpp"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "Session.hpp"

namespace hipdnn_driver {

const char* statusName(Status status) {
    switch (status) {
        case Status::Passed:
            return "PASSED";
        case Status::Timed:
            return "TIMED";
        case Status::Failed:
            return "FAILED";
        case Status::Unimplemented:
            return "UNIMPLEMENTED";
        case Status::Error:
            break;
    }
    return "ERROR";
}

std::optional<double> Result::tflops() const {
    if (!timing || timing->medianMs <= 0.0 || flops <= 0.0) {
        return std::nullopt;
    }
    return flops / (timing->medianMs * 1e-3) / 1e12;
}

std::optional<double> Result::gbps() const {
    if (!timing || timing->medianMs <= 0.0 || bytes <= 0.0) {
        return std::nullopt;
    }
    return bytes / (timing->medianMs * 1e-3) / 1e9;
}

namespace {

std::string fixed(double value, int precision) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(precision) << value;
    return text.str();
}

std::string scientific(double value) {
    std::ostringstream text;
    text << std::scientific << std::setprecision(2) << value;
    return text.str();
}

// Milliseconds with about four significant digits.
std::string milliseconds(double value) {
    return value >= 100.0 ? fixed(value, 1) : value >= 1.0 ? fixed(value, 3) : fixed(value, 4);
}

std::string throughput(const Result& result) {
    if (const auto tflops = result.tflops()) {
        std::ostringstream text;
        text << std::setprecision(3) << *tflops << " TFLOP/s";
        return text.str();
    }
    if (const auto gbps = result.gbps()) {
        std::ostringstream text;
        text << std::setprecision(3) << *gbps << " GB/s";
        return text.str();
    }
    return "-";
}

std::string padded(const std::string& text, size_t width) {
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string leftPadded(const std::string& text, size_t width) {
    return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string indented(const std::string& text, const std::string& prefix) {
    std::string result;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        result += prefix + line + "\n";
    }
    return result;
}

}  // namespace

void printResultLine(std::ostream& out, const Result& result, size_t position, size_t total, bool verbose) {
    out << "[" << position << "/" << total << "] " << statusName(result.status) << " " << result.engine
        << " | " << result.problem;
    if (result.timing) {
        out << " | median " << milliseconds(result.timing->medianMs) << " ms (min "
            << milliseconds(result.timing->minMs) << ", max " << milliseconds(result.timing->maxMs) << ", "
            << result.timing->iterations << " runs) " << throughput(result);
        if (result.floorMs) {
            out << ", floor " << milliseconds(*result.floorMs) << " ms";
        }
        if (result.speedupOverReference) {
            out << ", x" << fixed(*result.speedupOverReference, 1) << " vs reference";
        }
    }
    if (result.maxAbsError) {
        out << " | max_abs_err " << scientific(*result.maxAbsError);
    }
    out << "\n";
    const bool showMessage = !result.message.empty() &&
                             (verbose || (result.status != Status::Passed && result.status != Status::Timed));
    if (showMessage) {
        out << indented(result.message, "    ");
    }
    out << "    repro: " << result.command << "\n";
}

void printTable(std::ostream& out, const std::vector<Result>& results) {
    size_t engineWidth = 6;
    for (const auto& result : results) {
        engineWidth = std::max(engineWidth, result.engine.size());
    }
    std::optional<size_t> currentProblem;
    for (const auto& result : results) {
        if (currentProblem != result.problemIndex) {
            currentProblem = result.problemIndex;
            out << "\n" << result.problem << "\n";
            out << "  " << padded("engine", engineWidth) << "  " << padded("status", 13)
                << leftPadded("median ms", 11) << leftPadded("min ms", 11) << leftPadded("max ms", 11)
                << leftPadded("throughput", 18) << leftPadded("floor ms", 11) << leftPadded("vs ref", 9)
                << leftPadded("max abs err", 13) << "\n";
        }
        out << "  " << padded(result.engine, engineWidth) << "  " << padded(statusName(result.status), 13);
        if (result.timing) {
            out << leftPadded(milliseconds(result.timing->medianMs), 11)
                << leftPadded(milliseconds(result.timing->minMs), 11)
                << leftPadded(milliseconds(result.timing->maxMs), 11);
        } else {
            out << leftPadded("-", 11) << leftPadded("-", 11) << leftPadded("-", 11);
        }
        out << leftPadded(throughput(result), 18)
            << leftPadded(result.floorMs && result.timing ? milliseconds(*result.floorMs) : "-", 11)
            << leftPadded(result.speedupOverReference ? "x" + fixed(*result.speedupOverReference, 1) : "-", 9)
            << leftPadded(result.maxAbsError ? scientific(*result.maxAbsError) : "-", 13) << "\n";
    }
}

std::string summaryLine(const std::vector<Result>& results) {
    std::map<Status, size_t> counts;
    for (const auto& result : results) {
        ++counts[result.status];
    }
    std::string text = std::to_string(results.size()) + " result(s):";
    for (Status status :
         {Status::Passed, Status::Timed, Status::Failed, Status::Unimplemented, Status::Error}) {
        text += " " + std::to_string(counts[status]) + " " + statusName(status);
        text += status == Status::Error ? "" : ",";
    }
    return text;
}

namespace {

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (char ch : text) {
        quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    }
    return quoted + "\"";
}

std::string optionalNumber(const std::optional<double>& value) {
    if (!value) {
        return "";
    }
    std::ostringstream text;
    text << std::setprecision(6) << *value;
    return text.str();
}

nlohmann::json jsonNumber(const std::optional<double>& value) {
    return value && std::isfinite(*value) ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::ofstream openOutput(const std::string& path) {
    std::ofstream out(path, std::ios::trunc);
    if (!out) {
        throw DriverError(path + ": cannot open for writing");
    }
    return out;
}

}  // namespace

void writeCsv(const std::string& path, const std::vector<Result>& results) {
    auto out = openOutput(path);
    out << "problem,engine,status,median_ms,min_ms,max_ms,iterations,tflops,gbps,floor_ms,speedup_vs_"
           "reference,"
           "max_abs_err,message,command\n";
    for (const auto& result : results) {
        const auto& timing = result.timing;
        out << csvField(result.problem) << "," << csvField(result.engine) << "," << statusName(result.status)
            << "," << optionalNumber(timing ? std::optional(timing->medianMs) : std::nullopt) << ","
            << optionalNumber(timing ? std::optional(timing->minMs) : std::nullopt) << ","
            << optionalNumber(timing ? std::optional(timing->maxMs) : std::nullopt) << ","
            << (timing ? std::to_string(timing->iterations) : "") << "," << optionalNumber(result.tflops())
            << "," << optionalNumber(result.gbps()) << "," << optionalNumber(result.floorMs) << ","
            << optionalNumber(result.speedupOverReference) << "," << optionalNumber(result.maxAbsError) << ","
            << csvField(result.message) << "," << csvField(result.command) << "\n";
    }
}

void writeJson(const std::string& path, const std::vector<Result>& results) {
    nlohmann::json array = nlohmann::json::array();
    for (const auto& result : results) {
        const auto& timing = result.timing;
        array.push_back({
            {"problem", result.problem},
            {"engine", result.engine},
            {"status", statusName(result.status)},
            {"median_ms", jsonNumber(timing ? std::optional(timing->medianMs) : std::nullopt)},
            {"min_ms", jsonNumber(timing ? std::optional(timing->minMs) : std::nullopt)},
            {"max_ms", jsonNumber(timing ? std::optional(timing->maxMs) : std::nullopt)},
            {"iterations", timing ? nlohmann::json(timing->iterations) : nlohmann::json(nullptr)},
            {"flops", result.flops},
            {"bytes", result.bytes},
            {"tflops", jsonNumber(result.tflops())},
            {"gbps", jsonNumber(result.gbps())},
            {"floor_ms", jsonNumber(result.floorMs)},
            {"speedup_vs_reference", jsonNumber(result.speedupOverReference)},
            {"max_abs_err", result.maxAbsError && !std::isfinite(*result.maxAbsError)
                                ? nlohmann::json("inf")
                                : jsonNumber(result.maxAbsError)},
            {"message", result.message},
            {"command", result.command},
        });
    }
    openOutput(path) << array.dump(2) << "\n";
}

}  // namespace hipdnn_driver
