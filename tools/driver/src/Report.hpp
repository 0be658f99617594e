// Results: one per problem and engine, printed as they come (status line + reproducer), then as
// a table, and optionally written as CSV and JSON.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "Timing.hpp"

namespace hipdnn_driver {

// PASSED: validated (and timed when asked). TIMED: performance mode only, not validated.
// FAILED: outside the tolerance. UNIMPLEMENTED: the engine declined the graph (the reason is the
// message). ERROR: the graph, plan or execution failed.
enum class Status { Passed, Timed, Failed, Unimplemented, Error };

const char* statusName(Status status);

struct Result {
    size_t problemIndex = 0;
    std::string problem;  // the label
    std::string engine;
    Status status = Status::Error;
    std::string message;
    std::optional<TimingStats> timing;
    double flops = 0.0;
    double bytes = 0.0;
    std::optional<double> floorMs;
    std::optional<double> speedupOverReference;
    std::optional<double> maxAbsError;
    std::string command;  // the reproducer

    [[nodiscard]] std::optional<double> tflops() const;
    [[nodiscard]] std::optional<double> gbps() const;
};

// A status line and its reproducer ("    repro: hipdnn-driver ..."); with verbose, the message
// too even when the result passed.
void printResultLine(std::ostream& out, const Result& result, size_t position, size_t total, bool verbose);

// The table: per problem a heading, then engine, status, median/min/max ms, TFLOP/s or GB/s,
// floor, speed-up over the reference and max abs error per row.
void printTable(std::ostream& out, const std::vector<Result>& results);

// "N passed, M failed, ..." counts.
std::string summaryLine(const std::vector<Result>& results);

void writeCsv(const std::string& path, const std::vector<Result>& results);
// A JSON array, one object per problem and engine.
void writeJson(const std::string& path, const std::vector<Result>& results);

}  // namespace hipdnn_driver
