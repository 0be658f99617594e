// hipdnn_differential_fuzzer: random valid graphs through every engine of a device, each compared
// with the CPU reference engine. See README.md.
#include "FaultReport.hpp"
#include "Problem.hpp"
#include "Runner.hpp"

#include <hipdnn_test_sdk/DeviceDetection.hpp>
#include <hipdnn_test_sdk/Seed.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace {

using namespace hipdnn_differential;

struct Options {
    std::optional<int64_t> graphs;
    std::optional<double> seconds;
    uint32_t seed = 0;
    int64_t first = 0;
    Device device = Device::Cpu;
    bool printGraphs = false;
};

constexpr std::string_view usage =
    "usage: hipdnn_differential_fuzzer [--graphs N] [--seconds S] [--seed X] [--first K] [--device cpu|gpu]\n"
    "                                  [--print-graphs]\n"
    "  --graphs N   stop after N graphs (default 1000 unless --seconds is given)\n"
    "  --seconds S  stop after S seconds (with --graphs, whichever comes first)\n"
    "  --seed X     base seed (default HIPDNN_GLOBAL_TEST_SEED, else 1); graph K's own seed derives from it\n"
    "  --first K    start at graph K of the seed's sequence (a reproducer names K)\n"
    "  --device D   cpu: the CPU engines; gpu: the engines of a GPU handle, buffers on the device\n"
    "  --print-graphs  print each graph as JSON before it runs (hipdnn-driver graph runs that JSON)\n";

Options parseOptions(int argc, char** argv) {
    Options options;
    options.seed = hipdnn_test_sdk::globalTestSeed();
    for (int index = 1; index < argc; ++index) {
        const std::string_view flag = argv[index];
        if (flag == "--help" || flag == "-h") {
            std::cout << usage;
            std::exit(0);
        }
        if (flag == "--print-graphs") {
            options.printGraphs = true;
            continue;
        }
        if (index + 1 >= argc) {
            throw std::invalid_argument(std::string(flag) + " needs a value");
        }
        const std::string value = argv[++index];
        if (flag == "--graphs") {
            options.graphs = std::stoll(value);
        } else if (flag == "--seconds") {
            options.seconds = std::stod(value);
        } else if (flag == "--seed") {
            options.seed = static_cast<uint32_t>(std::stoul(value));
        } else if (flag == "--first") {
            options.first = std::stoll(value);
        } else if (flag == "--device" && (value == "cpu" || value == "gpu")) {
            options.device = value == "cpu" ? Device::Cpu : Device::Gpu;
        } else {
            throw std::invalid_argument("unknown option or value: " + std::string(flag) + " " + value);
        }
    }
    if (!options.graphs && !options.seconds) {
        options.graphs = 1000;
    }
    return options;
}

// splitmix64: neighbouring graph indices get unrelated seeds.
uint64_t graphSeed(uint32_t seed, int64_t index) {
    uint64_t z = (static_cast<uint64_t>(seed) << 32) + static_cast<uint64_t>(index) + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

std::string summary(const Statistics& statistics, const Options& options, double seconds) {
    std::ostringstream text;
    text << "summary: seed " << options.seed << ", " << statistics.generated << " graphs generated, "
         << statistics.refused << " refused (generator bugs); runs per engine:";
    for (const auto& [engine, count] : statistics.runs) {
        text << " " << engine << " " << count;
    }
    text << "; " << statistics.comparisons << " comparisons, " << statistics.disagreements
         << " disagreements, " << statistics.failures << " failures; declines per engine:";
    for (const auto& [engine, count] : statistics.declines) {
        text << " " << engine << " " << count;
    }
    if (statistics.declines.empty()) {
        text << " none";
    }
    text.precision(1);
    text << std::fixed << "; " << seconds << " s";
    return text.str();
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    try {
        options = parseOptions(argc, argv);
    } catch (const std::exception& error) {
        std::cerr << error.what() << "\n" << usage;
        return 2;
    }
    if (options.device == Device::Gpu && (!gpuExecutionBuilt() || hipdnn_test_sdk::cudaDeviceCount() == 0)) {
        std::cout << "gpu: skipped, "
                  << (gpuExecutionBuilt() ? "no CUDA device is usable" : "this build has no CUDA runtime")
                  << "\n";
        return 0;
    }
    installFaultHandler();
    const char* deviceName = options.device == Device::Cpu ? "cpu" : "gpu";
    try {
        Runner runner(options.device, options.printGraphs);
        Statistics statistics;
        const auto start = std::chrono::steady_clock::now();
        const auto elapsed = [&] {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        for (int64_t index = options.first;; ++index) {
            const int64_t done = index - options.first;
            if ((options.graphs && done >= *options.graphs) ||
                (options.seconds && elapsed() >= *options.seconds)) {
                break;
            }
            if (done > 0 && done % 10000 == 0) {
                std::cerr << "progress: " << summary(statistics, options, elapsed()) << "\n";
            }
            Random random(graphSeed(options.seed, index));
            const Problem problem = generateProblem(random);
            const std::string reproduce = "hipdnn_differential_fuzzer --device " + std::string(deviceName) +
                                          " --seed " + std::to_string(options.seed) + " --first " +
                                          std::to_string(index) + " --graphs 1";
            try {
                runner.run(problem, random, reproduce, statistics);
            } catch (const GpuContextLost& lost) {
                std::cout << "ABORTED: " << lost.what() << "\n";
                break;
            }
        }
        std::cout << summary(statistics, options, elapsed()) << "\n";
        return statistics.refused + statistics.disagreements + statistics.failures == 0 ? 0 : 1;
    } catch (const std::exception& error) {
        std::cerr << "hipdnn_differential_fuzzer: " << error.what() << "\n";
        return 2;
    }
}
