// example_plugin_loader [options]
//
// Creates a CPU handle through the hipDNN backend, lists the loaded engine plugins with
// hipdnnGetLoadedEnginePluginPaths_ext, checks them against the expectations given, and runs
// y = relu(x + b) on EXAMPLE_RELU_ADD_ENGINE, validated against the test SDK's CPU reference.
//
//   --plugin-path PATH         (repeatable) passed to hipdnnSetEnginePluginPaths_ext
//   --mode additive|absolute   the loading mode for --plugin-path (default additive)
//   --expect-loaded PATH       (repeatable) this plugin file must be loaded
//   --expect-not-loaded PATH   (repeatable) this plugin file must not be loaded
//   --expect-only              nothing but the --expect-loaded files may be loaded
//   --expect-engine NAME       (repeatable) an engine of that name must be available
//   --expect-no-engine NAME    (repeatable) no engine of that name may be available
//   --then-absolute PATH       afterwards, switch to ABSOLUTE {PATH} and check that the open handle
//                              keeps its plugins while a new handle loads exactly PATH
//
// Exits 0 when every check passes; prints one "FAILED: ..." line per failed check otherwise.
#include "BackendSession.hpp"
#include "ExampleEngineName.hpp"

#include <hipdnn_data_sdk/utilities/Tensor.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/CpuGraphExecutor.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>
#include <hipdnn_test_sdk/Tolerances.hpp>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using example_plugin::CpuHandle;
using hipdnn_data_sdk::utilities::Tensor;
using hipdnn_data_sdk::utilities::TensorLayout;

struct Options {
    std::vector<std::string> pluginPaths;
    hipdnnPluginLoadingMode_ext_t mode = HIPDNN_PLUGIN_LOADING_ADDITIVE;
    std::vector<std::string> expectLoaded;
    std::vector<std::string> expectNotLoaded;
    bool expectOnly = false;
    std::vector<std::string> expectEngines;
    std::vector<std::string> expectNoEngines;
    std::optional<std::string> thenAbsolute;
};

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

Options parseOptions(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--expect-only") {
            options.expectOnly = true;
            continue;
        }
        if (i + 1 >= argc) {
            throw UsageError(flag + " needs a value");
        }
        const std::string value = argv[++i];
        if (flag == "--plugin-path") {
            options.pluginPaths.push_back(value);
        } else if (flag == "--mode") {
            if (value != "additive" && value != "absolute") {
                throw UsageError("--mode is additive or absolute, not '" + value + "'");
            }
            options.mode =
                value == "additive" ? HIPDNN_PLUGIN_LOADING_ADDITIVE : HIPDNN_PLUGIN_LOADING_ABSOLUTE;
        } else if (flag == "--expect-loaded") {
            options.expectLoaded.push_back(value);
        } else if (flag == "--expect-not-loaded") {
            options.expectNotLoaded.push_back(value);
        } else if (flag == "--expect-engine") {
            options.expectEngines.push_back(value);
        } else if (flag == "--expect-no-engine") {
            options.expectNoEngines.push_back(value);
        } else if (flag == "--then-absolute") {
            options.thenAbsolute = value;
        } else {
            throw UsageError("unknown option " + flag);
        }
    }
    return options;
}

int failures = 0;

void check(bool passed, const std::string& what) {
    if (!passed) {
        ++failures;
        std::cout << "FAILED: " << what << '\n';
    }
}

// The backend reports canonical paths; expectations may name the same file through links or
// relative paths.
std::string canonicalPath(const std::string& path) {
    return std::filesystem::weakly_canonical(path).string();
}

bool contains(const std::vector<std::string>& paths, const std::string& path) {
    return std::find(paths.begin(), paths.end(), canonicalPath(path)) != paths.end();
}

void checkLoadedPlugins(const CpuHandle& handle, const Options& options) {
    const std::vector<std::string> loaded = handle.loadedPluginPaths();
    for (const std::string& path : loaded) {
        std::cout << "Loaded plugin: " << path << '\n';
    }
    for (const std::string& path : options.expectLoaded) {
        check(contains(loaded, path), "expected " + canonicalPath(path) + " to be loaded");
    }
    for (const std::string& path : options.expectNotLoaded) {
        check(!contains(loaded, path), "expected " + canonicalPath(path) + " not to be loaded");
    }
    if (options.expectOnly) {
        std::set<std::string> expected;
        for (const std::string& path : options.expectLoaded) {
            expected.insert(canonicalPath(path));
        }
        for (const std::string& path : loaded) {
            check(expected.contains(path), "did not expect " + path + " to be loaded");
        }
    }
    for (const std::string& name : options.expectEngines) {
        check(handle.hasEngine(name), "expected engine " + name + " to be available");
    }
    for (const std::string& name : options.expectNoEngines) {
        check(!handle.hasEngine(name), "expected engine " + name + " not to be available");
    }
}

// y = relu(x + b) with a per-channel b and an NHWC x, on the example engine, against the test
// SDK's CPU graph executor (the same references the CPU reference plugin runs).
void runAndValidateGraph(const CpuHandle& handle) {
    constexpr int64_t kX = 1;
    constexpr int64_t kB = 2;
    constexpr int64_t kSum = 3;
    constexpr int64_t kY = 4;
    const std::vector<int64_t> dims = {2, 4, 3, 3};
    Tensor<float> x(dims, TensorLayout::NHWC);
    Tensor<float> b({1, 4, 1, 1}, TensorLayout::NCHW);
    Tensor<float> expected(dims, TensorLayout::NCHW);
    Tensor<float> actual(dims, TensorLayout::NCHW);
    x.fillRandom(-2.0, 2.0, 1);
    b.fillRandom(-1.0, 1.0, 2);
    actual.fillSentinel();
    const std::vector<uint8_t> graph = hipdnn_test_sdk::GraphBuilder("bias_relu")
                                           .addTensor(kX, "x", fb::DataType::FLOAT, dims, x.strides())
                                           .addTensor(kB, "b", fb::DataType::FLOAT, b.dims(), b.strides())
                                           .addTensor(kSum, "sum", fb::DataType::FLOAT, dims, {}, true)
                                           .addTensor(kY, "y", fb::DataType::FLOAT, dims, actual.strides())
                                           .addPointwise("add_bias", fb::PointwiseMode::ADD, kX, kSum, kB)
                                           .addPointwise("relu", fb::PointwiseMode::RELU_FWD, kSum, kY)
                                           .build();

    handle.execute(graph, example_plugin::EXAMPLE_RELU_ADD_ENGINE_ID,
                   {{kX, x.data()}, {kB, b.data()}, {kY, actual.data()}});
    hipdnn_test_sdk::CpuGraphExecutor().execute(
        hipdnn_flatbuffers_sdk::GraphWrapper(graph.data(), graph.size()),
        {{kX, x.data()}, {kB, b.data()}, {kY, expected.data()}});
    const hipdnn_test_sdk::AllCloseReport report = hipdnn_test_sdk::allClose(
        hipdnn_test_sdk::viewOf(expected, fb::DataType::FLOAT),
        hipdnn_test_sdk::viewOf(actual, fb::DataType::FLOAT),
        hipdnn_test_sdk::fixedTolerance(hipdnn_test_sdk::ToleranceOp::Pointwise, fb::DataType::FLOAT));
    check(report.passed, "EXAMPLE_RELU_ADD_ENGINE output differs from the reference: " + report.describe());
    if (report.passed) {
        std::cout << "EXAMPLE_RELU_ADD_ENGINE ran relu(x + b) and matches the reference\n";
    }
}

// Plugin paths apply when a handle is created: the open handle keeps its plugin set, the next
// handle gets the new one.
void checkPathsApplyAtNextHandle(const CpuHandle& openHandle, const std::string& absolutePath) {
    const std::vector<std::string> before = openHandle.loadedPluginPaths();
    example_plugin::setEnginePluginPaths({absolutePath}, HIPDNN_PLUGIN_LOADING_ABSOLUTE);
    check(openHandle.loadedPluginPaths() == before, "the open handle's plugins changed after a path change");
    const CpuHandle nextHandle;
    check(
        nextHandle.loadedPluginPaths() == std::vector<std::string>{canonicalPath(absolutePath)},
        "a handle created after switching to ABSOLUTE {" + absolutePath + "} did not load exactly that file");
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const Options options = parseOptions(argc, argv);
        if (!options.pluginPaths.empty()) {
            example_plugin::setEnginePluginPaths(options.pluginPaths, options.mode);
        }
        const CpuHandle handle;
        checkLoadedPlugins(handle, options);
        runAndValidateGraph(handle);
        if (options.thenAbsolute) {
            checkPathsApplyAtNextHandle(handle, *options.thenAbsolute);
        }
    } catch (const UsageError& error) {
        std::cerr << "example_plugin_loader: " << error.what() << '\n';
        return 2;
    } catch (const std::exception& error) {
        std::cout << "FAILED: " << error.what() << '\n';
        return 1;
    }
    return failures == 0 ? 0 : 1;
}
