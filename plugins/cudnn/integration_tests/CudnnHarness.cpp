#include "CudnnHarness.hpp"

#include <hipdnn_flatbuffers_sdk/data_objects/engine_details_generated.h>
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_data_sdk/utilities/Tensor.hpp>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/BackendRun.hpp>
#include <hipdnn_test_sdk/DeviceTensor.hpp>
#include <hipdnn_test_sdk/ElementAccess.hpp>
#include <hipdnn_test_sdk/Seed.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>

namespace cudnn_integration {

using hipdnn_test_sdk::DeviceBuffer;

std::vector<int64_t> layoutStrides(const std::vector<int64_t>& dims, bool channelsLast) {
    const size_t rank = dims.size();
    std::vector<int64_t> order(rank);
    for (size_t i = 0; i < rank; ++i) {
        order[i] = static_cast<int64_t>(rank - 1 - i);
    }
    if (channelsLast) {
        order[0] = static_cast<int64_t>(rank - 1);
        order[1] = 0;
        for (size_t i = 2; i < rank; ++i) {
            order[i] = static_cast<int64_t>(rank - i);
        }
    }
    return hipdnn_data_sdk::utilities::generatePackedStrides(dims, order);
}

std::map<int64_t, HostTensor> makeHostTensors(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                              const Ranges& ranges) {
    std::map<int64_t, HostTensor> tensors;
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed());
    const auto& inputs = graph.inputUids();
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
        if (std::find(inputs.begin(), inputs.end(), tensor->uid()) != inputs.end()) {
            const auto range =
                ranges.contains(tensor->uid()) ? ranges.at(tensor->uid()) : std::pair{-1.0, 1.0};
            std::uniform_real_distribution<double> distribution(range.first, range.second);
            for (int64_t i = 0; i < storage; ++i) {
                hipdnn_test_sdk::writeElement(host.type, host.bytes.data(), i, distribution(random));
            }
        }
        tensors[tensor->uid()] = std::move(host);
    }
    return tensors;
}

using hipdnn_test_sdk::checkBackend;

Backend& Backend::instance() {
    static Backend backend;
    return backend;
}

Backend::Backend() {
    // Only the two plugin files built with these tests: nothing else in the build tree loads.
    const char* paths[] = {HIPDNN_CUDNN_PLUGIN_PATH, HIPDNN_CPU_REFERENCE_PLUGIN_PATH};
    checkBackend(hipdnnSetEnginePluginPaths_ext(2, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE),
                 "hipdnnSetEnginePluginPaths_ext");
    checkBackend(hipdnnCreateForDevice_ext(&_gpu, HIPDNN_DEVICE_TYPE_GPU_EXT, 0),
                 "hipdnnCreateForDevice_ext(GPU, 0)");
    checkBackend(hipdnnCreateForDevice_ext(&_cpu, HIPDNN_DEVICE_TYPE_CPU_EXT, 0),
                 "hipdnnCreateForDevice_ext(CPU)");
}

std::string Backend::run(hipdnnHandle_t handle, const std::vector<uint8_t>& graph,
                         const std::map<int64_t, void*>& pointers, bool onDevice) {
    std::vector<std::byte> hostWorkspace;
    std::unique_ptr<DeviceBuffer> deviceWorkspace;
    const std::string error =
        hipdnn_test_sdk::runThroughBackend(handle, graph, pointers, [&](size_t bytes) -> void* {
            if (onDevice) {
                deviceWorkspace = std::make_unique<DeviceBuffer>(bytes);
                return deviceWorkspace->data();
            }
            hostWorkspace.resize(bytes);
            return hostWorkspace.data();
        });
    if (error.empty() && onDevice) {
        if (const cudaError_t status = cudaDeviceSynchronize(); status != cudaSuccess) {
            return std::string("cudaDeviceSynchronize failed: ") + cudaGetErrorName(status);
        }
    }
    return error;
}

std::pair<std::vector<int64_t>, std::string> Backend::gpuHeuristics(const std::vector<uint8_t>& graph) {
    const hipdnn_test_sdk::BackendHeuristics planned(_gpu, graph);
    return {std::vector<int64_t>(static_cast<size_t>(planned.resultCount())), planned.declined()};
}

void runReference(const std::vector<uint8_t>& graph, std::map<int64_t, HostTensor>& tensors) {
    std::map<int64_t, void*> pointers;
    for (auto& [uid, tensor] : tensors) {
        pointers[uid] = tensor.bytes.data();
    }
    const std::string error = Backend::instance().run(Backend::instance().cpu(), graph, pointers, false);
    ASSERT_EQ(error, "") << "CPU reference run failed";
}

void expectOutputsClose(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                        const std::map<int64_t, HostTensor>& expected,
                        const std::map<int64_t, HostTensor>& actual, hipdnn_test_sdk::ToleranceOp op,
                        int64_t reductionTerms, const std::optional<hipdnn_test_sdk::Tolerance>& tolerance) {
    for (int64_t uid : graph.outputUids()) {
        const HostTensor& reference = expected.at(uid);
        const HostTensor& result = actual.at(uid);
        const auto outputTolerance = tolerance ? *tolerance
                                     : reductionTerms > 0
                                         ? hipdnn_test_sdk::reductionTolerance(
                                               op, reference.type, fb::DataType::FLOAT, reductionTerms, 1.0)
                                         : hipdnn_test_sdk::fixedTolerance(op, reference.type);
        const hipdnn_test_sdk::ErasedTensorView want{reference.type, reference.bytes.data(), reference.dims,
                                                     reference.strides};
        const hipdnn_test_sdk::ErasedTensorView got{result.type, result.bytes.data(), result.dims,
                                                    result.strides};
        const auto report = hipdnn_test_sdk::allClose(want, got, outputTolerance);
        EXPECT_TRUE(report.passed) << "output uid " << uid << " '" << graph.tensor(uid).name()->str()
                                   << "': " << report.describe();
    }
}

void expectMatchesReference(const GraphBuilder& builder, hipdnn_test_sdk::ToleranceOp op,
                            const RunOptions& options) {
    const std::vector<uint8_t> bytes = builder.build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
    expectMatchesReferenceOn(builder, makeHostTensors(graph, options.ranges), op, options);
}

void expectMatchesReferenceOn(const GraphBuilder& builder, std::map<int64_t, HostTensor> tensors,
                              hipdnn_test_sdk::ToleranceOp op, const RunOptions& options) {
    GraphBuilder configured = builder;
    if (options.engineId) {
        configured.setPreferredEngineId(*options.engineId);
    }
    const std::vector<uint8_t> bytes = configured.build();
    const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());

    std::map<int64_t, HostTensor> reference = std::move(tensors);
    std::map<int64_t, HostTensor> actual = reference;
    ASSERT_NO_FATAL_FAILURE(runReference(bytes, reference));

    std::map<int64_t, DeviceBuffer> device;
    std::map<int64_t, void*> pointers;
    const auto& outputs = graph.outputUids();
    for (auto& [uid, host] : actual) {
        DeviceBuffer& buffer = device.emplace(uid, DeviceBuffer(host.bytes.size())).first->second;
        if (std::find(outputs.begin(), outputs.end(), uid) != outputs.end()) {
            buffer.fillBytes(0xFF);  // NaN sentinel: an unwritten output cannot pass
        } else {
            buffer.copyFromHost(host.bytes.data());
        }
        pointers[uid] = buffer.data();
    }
    const std::string error = Backend::instance().run(Backend::instance().gpu(), bytes, pointers, true);
    if (options.mayBeDeclined && error.starts_with("no engine accepted the graph")) {
        EXPECT_NE(error.find("CUDNN_ENGINE\tcudnn\tcuDNN heuristics mode A returned no"), std::string::npos)
            << error;
        EXPECT_NE(error.find("CUDNN_ENGINE_DETERMINISTIC\tcudnn\t"), std::string::npos) << error;
        testing::Test::RecordProperty("cudnn_declined", error);
        std::cout << "[ INFO ] declined by cuDNN (asserted reason): " << error << '\n';
        return;
    }
    ASSERT_EQ(error, "") << "cuDNN run failed";
    for (auto& [uid, host] : actual) {
        device.at(uid).copyToHost(host.bytes.data());
    }
    expectOutputsClose(graph, reference, actual, op, options.reductionTerms, options.tolerance);
}

// ---- The plugin's own C API ----

namespace {

class PluginApi {
public:
    static PluginApi& instance() {
        static PluginApi api;
        return api;
    }
    template <class F>
    F symbol(const char* name) const {
        void* address = dlsym(_library, name);
        if (address == nullptr) {
            throw std::runtime_error(std::string("the cuDNN plugin lacks ") + name);
        }
        return reinterpret_cast<F>(address);
    }
    std::string lastError() const {
        const char* text = nullptr;
        symbol<void (*)(const char**)>("hipdnnPluginGetLastErrorString")(&text);
        return text == nullptr ? std::string() : text;
    }
    hipdnnEnginePluginHandle_t handle() const { return _handle; }

private:
    PluginApi() {
        _library = dlopen(HIPDNN_CUDNN_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
        if (_library == nullptr) {
            throw std::runtime_error(std::string("cannot load the cuDNN plugin: ") + dlerror());
        }
        if (symbol<decltype(&hipdnnEnginePluginCreate)>("hipdnnEnginePluginCreate")(&_handle) !=
            HIPDNN_PLUGIN_STATUS_SUCCESS) {
            throw std::runtime_error("hipdnnEnginePluginCreate failed: " + lastError());
        }
    }
    void* _library = nullptr;
    hipdnnEnginePluginHandle_t _handle = nullptr;
};

#define PLUGIN_CALL(name, ...) PluginApi::instance().symbol<decltype(&name)>(#name)(__VA_ARGS__)

}  // namespace

std::vector<KnobSummary> pluginKnobs(const std::vector<uint8_t>& graph, int64_t engineId) {
    const PluginApi& api = PluginApi::instance();
    const hipdnnPluginConstData_t graphData{graph.data(), graph.size()};
    hipdnnPluginConstData_t details{};
    std::vector<KnobSummary> knobs;
    if (PLUGIN_CALL(hipdnnEnginePluginGetEngineDetails, api.handle(), engineId, &graphData, &details) !=
        HIPDNN_PLUGIN_STATUS_SUCCESS) {
        ADD_FAILURE() << "GetEngineDetails failed: " << api.lastError();
        return knobs;
    }
    const auto* table = flatbuffers::GetRoot<fb::EngineDetails>(details.ptr);
    EXPECT_NE(table->knobs(), nullptr) << "the engine details list no knobs";
    for (size_t i = 0; table->knobs() != nullptr && i < table->knobs()->size(); ++i) {
        const auto* knob = table->knobs()->Get(static_cast<flatbuffers::uoffset_t>(i));
        KnobSummary summary{knob->knob_id()->str(), {}};
        if (const auto* constraint = knob->constraint_as_IntConstraint();
            constraint != nullptr && constraint->valid_values() != nullptr) {
            summary.validValues.assign(constraint->valid_values()->begin(),
                                       constraint->valid_values()->end());
        }
        knobs.push_back(std::move(summary));
    }
    EXPECT_EQ(PLUGIN_CALL(hipdnnEnginePluginDestroyEngineDetails, api.handle(), &details),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    return knobs;
}

void runThroughPlugin(const std::vector<uint8_t>& graph, std::map<int64_t, HostTensor>& tensors,
                      const PluginRun& run) {
    const PluginApi& api = PluginApi::instance();
    std::vector<hipdnn_flatbuffers_sdk::KnobSetting> settings;
    for (const auto& [id, value] : run.intKnobs) {
        settings.push_back({id, value});
    }
    for (const auto& [id, value] : run.stringKnobs) {
        settings.push_back({id, value});
    }
    const auto config =
        hipdnn_flatbuffers_sdk::makeEngineConfig(hipdnn_data_sdk::utilities::CUDNN_ENGINE_ID, settings);
    const hipdnnPluginConstData_t graphData{graph.data(), graph.size()};
    const hipdnnPluginConstData_t configData{config.data(), config.size()};
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    const hipdnnPluginStatus_t created = PLUGIN_CALL(hipdnnEnginePluginCreateExecutionContext, api.handle(),
                                                     &configData, &graphData, &context);
    if (created != HIPDNN_PLUGIN_STATUS_SUCCESS && run.createError != nullptr) {
        *run.createError = api.lastError();
        return;
    }
    ASSERT_EQ(created, HIPDNN_PLUGIN_STATUS_SUCCESS) << api.lastError();
    if (run.roundTripSerialization) {
        hipdnnPluginConstData_t serialized{};
        ASSERT_EQ(
            PLUGIN_CALL(hipdnnEnginePluginSerializeExecutionContext, api.handle(), context, &serialized),
            HIPDNN_PLUGIN_STATUS_SUCCESS)
            << api.lastError();
        EXPECT_EQ(PLUGIN_CALL(hipdnnEnginePluginDestroyExecutionContext, api.handle(), context),
                  HIPDNN_PLUGIN_STATUS_SUCCESS);
        context = nullptr;
        const hipdnnPluginStatus_t status = PLUGIN_CALL(
            hipdnnEnginePluginCreateExecutionContextFromSerialized, api.handle(), &serialized, &context);
        EXPECT_EQ(PLUGIN_CALL(hipdnnEnginePluginDestroySerializedExecutionContext, api.handle(), &serialized),
                  HIPDNN_PLUGIN_STATUS_SUCCESS);
        ASSERT_EQ(status, HIPDNN_PLUGIN_STATUS_SUCCESS) << api.lastError();
    }
    size_t workspaceSize = 0;
    EXPECT_EQ(PLUGIN_CALL(hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext, api.handle(), context,
                          &workspaceSize),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    DeviceBuffer workspace(workspaceSize);
    std::map<int64_t, DeviceBuffer> device;
    std::vector<hipdnnPluginDeviceBuffer_t> buffers;
    for (auto& [uid, host] : tensors) {
        DeviceBuffer& buffer = device.emplace(uid, DeviceBuffer(host.bytes.size())).first->second;
        buffer.copyFromHost(host.bytes.data());
        buffers.push_back({uid, buffer.data()});
    }
    const auto execute = [&] {
        return PLUGIN_CALL(hipdnnEnginePluginExecuteOpGraph, api.handle(), context, workspace.data(),
                           buffers.data(), static_cast<uint32_t>(buffers.size()));
    };
    hipdnnPluginStatus_t status = execute();
    if (run.replayInputs != nullptr) {
        for (int repeat = 0; repeat < 2 && status == HIPDNN_PLUGIN_STATUS_SUCCESS; ++repeat) {
            status = execute();
        }
        hipdnn_test_sdk::checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        for (const auto& [uid, host] : *run.replayInputs) {
            device.at(uid).copyFromHost(host.bytes.data());
        }
        if (status == HIPDNN_PLUGIN_STATUS_SUCCESS) {
            status = execute();
        }
    }
    const std::string error = status == HIPDNN_PLUGIN_STATUS_SUCCESS ? "" : api.lastError();
    hipdnn_test_sdk::checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    EXPECT_EQ(PLUGIN_CALL(hipdnnEnginePluginDestroyExecutionContext, api.handle(), context),
              HIPDNN_PLUGIN_STATUS_SUCCESS);
    ASSERT_EQ(error, "") << "ExecuteOpGraph failed";
    for (auto& [uid, host] : tensors) {
        device.at(uid).copyToHost(host.bytes.data());
    }
}

}  // namespace cudnn_integration
