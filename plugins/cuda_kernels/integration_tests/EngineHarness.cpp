#include "EngineHarness.hpp"

#include <hipdnn_data_sdk/utilities/Tensor.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/BackendRun.hpp>
#include <hipdnn_test_sdk/DeviceTensor.hpp>
#include <hipdnn_test_sdk/ElementAccess.hpp>
#include <hipdnn_test_sdk/Seed.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <random>

namespace cuda_kernels_integration {

namespace {

using hipdnn_test_sdk::BackendHandle;

constexpr size_t kWorkspaceGuardBytes = 4096;
using hipdnn_test_sdk::DeviceBuffer;

struct HostTensor {
    fb::DataType type = fb::DataType::FLOAT;
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
    std::vector<std::byte> bytes;
};

// One GPU and one CPU handle with only this plugin and the CPU reference loaded.
struct Backend {
    static Backend& instance() {
        static Backend backend;
        return backend;
    }
    Backend() {
        kernelCacheDirectory();  // before the plugin reads HIPDNN_CACHE_DIR
        const char* paths[] = {HIPDNN_CUDA_KERNELS_PLUGIN_PATH, HIPDNN_CPU_REFERENCE_PLUGIN_PATH};
        hipdnn_test_sdk::checkBackend(
            hipdnnSetEnginePluginPaths_ext(2, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE),
            "hipdnnSetEnginePluginPaths_ext");
        gpu.emplace(HIPDNN_DEVICE_TYPE_GPU_EXT, 0);
        cpu.emplace(HIPDNN_DEVICE_TYPE_CPU_EXT, 0);
    }
    void attachCommunicator() {
        std::call_once(communicatorAttached, [this] {
            const hipdnnHandle_t handle = gpu->get();
            hipdnn_test_sdk::checkBackend(hipdnnCreateCommunicators_ext(1, &handle),
                                          "hipdnnCreateCommunicators_ext");
        });
    }
    std::optional<BackendHandle> gpu;
    std::optional<BackendHandle> cpu;
    std::once_flag communicatorAttached;
};

bool contains(const std::vector<int64_t>& uids, int64_t uid) {
    return std::find(uids.begin(), uids.end(), uid) != uids.end();
}

std::map<int64_t, HostTensor> makeHostTensors(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                              const RunOptions& options) {
    std::map<int64_t, HostTensor> tensors;
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed());
    for (const auto* tensor : *graph.graph().tensors()) {
        if (tensor->virtual_() || tensor->value_type() != fb::TensorValue::NONE) {
            continue;
        }
        HostTensor host;
        host.type = tensor->data_type();
        host.dims.assign(tensor->dims()->begin(), tensor->dims()->end());
        host.strides.assign(tensor->strides()->begin(), tensor->strides()->end());
        const int64_t storage = hipdnn_data_sdk::utilities::storageElementCount(host.dims, host.strides);
        host.bytes.assign(static_cast<size_t>(storage) * hipdnn_test_sdk::dataTypeSize(host.type),
                          std::byte{0});
        if (contains(graph.inputUids(), tensor->uid())) {
            const auto found = options.ranges.find(tensor->uid());
            const auto range = found != options.ranges.end() ? found->second : std::pair{-1.0, 1.0};
            std::uniform_real_distribution<double> distribution(range.first, range.second);
            for (int64_t i = 0; i < storage; ++i) {
                hipdnn_test_sdk::writeElement(host.type, host.bytes.data(), i, distribution(random));
            }
        }
        if (const auto given = options.values.find(tensor->uid()); given != options.values.end()) {
            EXPECT_EQ(static_cast<int64_t>(given->second.size()), storage)
                << "values given for tensor uid " << tensor->uid() << " do not cover its storage";
            for (int64_t i = 0; i < std::min<int64_t>(storage, static_cast<int64_t>(given->second.size()));
                 ++i) {
                hipdnn_test_sdk::writeElement(host.type, host.bytes.data(), i,
                                              given->second[static_cast<size_t>(i)]);
            }
        }
        tensors[tensor->uid()] = std::move(host);
    }
    return tensors;
}

// Runs `bytes` on the CPU handle over `tensors` (outputs written in place).
std::string runOnCpu(const std::vector<uint8_t>& bytes, std::map<int64_t, HostTensor>& tensors) {
    std::map<int64_t, void*> hostPointers;
    for (auto& [uid, tensor] : tensors) {
        hostPointers[uid] = tensor.bytes.data();
    }
    std::vector<std::byte> hostWorkspace;
    return hipdnn_test_sdk::runThroughBackend(Backend::instance().cpu->get(), bytes, hostPointers,
                                              [&](size_t size) -> void* {
                                                  hostWorkspace.resize(size);
                                                  return hostWorkspace.data();
                                              });
}

}  // namespace

void useThisPluginAndTheReference() {
    Backend::instance();
}

std::map<int64_t, std::vector<double>> referenceTensors(const GraphBuilder& builder,
                                                        const RunOptions& options) {
    const std::vector<uint8_t> bytes = builder.build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    std::map<int64_t, HostTensor> tensors = makeHostTensors(graph, options);
    const std::string error = runOnCpu(bytes, tensors);
    EXPECT_EQ(error, "") << "CPU reference run failed";
    std::map<int64_t, std::vector<double>> values;
    for (const auto& [uid, tensor] : tensors) {
        const auto count =
            static_cast<int64_t>(tensor.bytes.size() / hipdnn_test_sdk::dataTypeSize(tensor.type));
        std::vector<double>& elements = values[uid];
        for (int64_t i = 0; i < count; ++i) {
            elements.push_back(hipdnn_test_sdk::readElement(tensor.type, tensor.bytes.data(), i));
        }
    }
    return values;
}

const std::filesystem::path& kernelCacheDirectory() {
    static const std::filesystem::path directory = [] {
        const auto temporary = std::filesystem::temp_directory_path() /
                               ("hipdnn_cuda_kernels_integration_" + std::to_string(getpid()));
        std::filesystem::create_directories(temporary);
        setenv("HIPDNN_CACHE_DIR", temporary.c_str(), 1);
        unsetenv("HIPDNN_DISABLE_CACHE");
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(kernelCacheDirectory(), ignored);
        });
        return temporary;
    }();
    return directory;
}

void expectMatchesReference(const GraphBuilder& builder, const RunOptions& options) {
    const std::vector<uint8_t> bytes = builder.build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    const std::vector<uint8_t> referenceBytes =
        options.referenceGraph ? options.referenceGraph->build() : bytes;
    std::map<int64_t, HostTensor> reference = makeHostTensors(
        hipdnn_flatbuffers_sdk::GraphWrapper(referenceBytes.data(), referenceBytes.size()), options);
    std::map<int64_t, HostTensor> actual = reference;
    // Inputs only the engine's graph has.
    for (auto& [uid, host] : makeHostTensors(graph, options)) {
        actual.try_emplace(uid, std::move(host));
    }

    Backend& backend = Backend::instance();
    ASSERT_EQ(runOnCpu(referenceBytes, reference), "") << "CPU reference run failed";
    if (options.communicator) {
        backend.attachCommunicator();
    }

    const size_t padding = options.misalign ? 16 : 0;
    std::map<int64_t, DeviceBuffer> device;
    std::map<int64_t, void*> devicePointers;
    for (auto& [uid, host] : actual) {
        DeviceBuffer& buffer = device.emplace(uid, DeviceBuffer(host.bytes.size() + padding)).first->second;
        // One element in: never 16-byte aligned, still aligned to the element.
        auto* start = static_cast<std::byte*>(buffer.data()) +
                      (options.misalign ? hipdnn_test_sdk::dataTypeSize(host.type) : 0);
        if (contains(graph.outputUids(), uid)) {
            buffer.fillBytes(0xFF);  // NaN sentinel: an unwritten output cannot pass
        } else {
            hipdnn_test_sdk::checkCuda(
                cudaMemcpy(start, host.bytes.data(), host.bytes.size(), cudaMemcpyHostToDevice),
                "cudaMemcpy to device");
        }
        devicePointers[uid] = start;
    }
    const std::string engine(hipdnn_data_sdk::utilities::getEngineNameFromId(options.engineId));
    std::optional<hipdnn_test_sdk::BackendPlan> planned;
    try {
        planned.emplace(hipdnn_test_sdk::BackendGraph(backend.gpu->get(), bytes), options.engineId,
                        options.knobs);
    } catch (const hipdnn_test_sdk::BackendError& error) {
        if (options.planError != nullptr) {
            *options.planError = error.what();
            return;
        }
        FAIL() << engine << ": " << error.what();
    }
    // Executes the plan once and copies every tensor back into `actual`.
    const auto runPlan = [&] {
        try {
            const hipdnn_test_sdk::BackendPlan& plan = *planned;
            // NaN-filled (a workspace read before it is written cannot pass), with a guard after it
            // that must stay untouched.
            const auto workspaceBytes = static_cast<size_t>(plan.workspaceSize());
            DeviceBuffer workspace(workspaceBytes + kWorkspaceGuardBytes);
            workspace.fillBytes(0xFF);
            plan.execute(hipdnn_test_sdk::BackendVariantPack(
                devicePointers, workspaceBytes > 0 ? workspace.data() : nullptr));
            std::vector<uint8_t> guard(kWorkspaceGuardBytes);
            hipdnn_test_sdk::checkCuda(
                cudaMemcpy(guard.data(), static_cast<const std::byte*>(workspace.data()) + workspaceBytes,
                           guard.size(), cudaMemcpyDeviceToHost),
                "cudaMemcpy of the workspace guard");
            EXPECT_TRUE(std::all_of(guard.begin(), guard.end(), [](uint8_t byte) { return byte == 0xFF; }))
                << engine << " wrote past its " << workspaceBytes << "-byte workspace";
        } catch (const hipdnn_test_sdk::BackendError& error) {
            ADD_FAILURE() << engine << ": " << error.what();
        }
        hipdnn_test_sdk::checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        for (auto& [uid, host] : actual) {
            hipdnn_test_sdk::checkCuda(
                cudaMemcpy(host.bytes.data(), devicePointers[uid], host.bytes.size(), cudaMemcpyDeviceToHost),
                "cudaMemcpy to host");
        }
    };
    runPlan();
    if (options.roundTripSerialization) {
        const std::map<int64_t, HostTensor> first = actual;
        try {
            const int64_t workspaceBytes = planned->workspaceSize();
            planned->reloadFromSerialized();
            EXPECT_EQ(planned->workspaceSize(), workspaceBytes)
                << engine
                << " asks for another workspace after the plan was rebuilt from its serialized bytes";
        } catch (const hipdnn_test_sdk::BackendError& error) {
            FAIL() << engine << ": " << error.what();
        }
        for (const int64_t uid : graph.outputUids()) {
            device.at(uid).fillBytes(0xFF);
        }
        runPlan();
        for (const int64_t uid : graph.outputUids()) {
            EXPECT_TRUE(first.at(uid).bytes == actual.at(uid).bytes)
                << engine << " output uid " << uid
                << " differs after the plan was rebuilt from its serialized bytes";
        }
    }
    for (const int64_t uid : graph.outputUids()) {
        const HostTensor& want = reference.at(uid);
        const HostTensor& got = actual.at(uid);
        const auto tolerance =
            options.bounds ? *options.bounds
            : options.reductionTerms > 0
                ? hipdnn_test_sdk::reductionTolerance(options.tolerance, want.type, fb::DataType::FLOAT,
                                                      options.reductionTerms, 1.0)
                : hipdnn_test_sdk::fixedTolerance(options.tolerance, want.type);
        const auto report =
            hipdnn_test_sdk::allClose({want.type, want.bytes.data(), want.dims, want.strides},
                                      {got.type, got.bytes.data(), got.dims, got.strides}, tolerance);
        EXPECT_TRUE(report.passed) << engine << " output uid " << uid << " '"
                                   << graph.tensor(uid).name()->str() << "': " << report.describe();
    }
}

}  // namespace cuda_kernels_integration
