#include "EveryGpu.hpp"

#include <iomanip>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>

namespace hipdnn_driver {

namespace {

struct Throughput {
    double value = 0.0;
    const char* unit = "";
};

std::optional<Throughput> throughputOf(const Result& result) {
    if (const auto tflops = result.tflops()) {
        return Throughput{*tflops, "TFLOP/s"};
    }
    if (const auto gbps = result.gbps()) {
        return Throughput{*gbps, "GB/s"};
    }
    return std::nullopt;
}

}  // namespace

void printEveryGpuSummary(std::ostream& out, const std::vector<std::vector<Result>>& resultsByGpu) {
    if (resultsByGpu.empty()) {
        return;
    }
    out << "\nevery GPU at once (" << resultsByGpu.size() << " GPUs, one thread each):\n";
    const size_t rows = resultsByGpu.front().size();
    out << std::fixed << std::setprecision(1);
    for (size_t row = 0; row < rows; ++row) {
        const Result& first = resultsByGpu.front()[row];
        std::optional<Throughput> total;
        std::string perGpu;
        for (size_t gpu = 0; gpu < resultsByGpu.size(); ++gpu) {
            perGpu += gpu == 0 ? "" : ", ";
            perGpu += "GPU " + std::to_string(gpu) + " ";
            if (row >= resultsByGpu[gpu].size()) {
                perGpu += "(no result)";
                continue;
            }
            const std::optional<Throughput> throughput = throughputOf(resultsByGpu[gpu][row]);
            if (!throughput) {
                perGpu += statusName(resultsByGpu[gpu][row].status);
                continue;
            }
            std::ostringstream value;
            value << std::fixed << std::setprecision(1) << throughput->value << " " << throughput->unit;
            perGpu += value.str();
            total = Throughput{(total ? total->value : 0.0) + throughput->value, throughput->unit};
        }
        if (!total) {
            continue;
        }
        out << "  " << first.problem << " " << first.engine << ": " << perGpu << "; total " << total->value
            << " " << total->unit << "\n";
    }
    out << std::defaultfloat << std::setprecision(6);
}

}  // namespace hipdnn_driver
