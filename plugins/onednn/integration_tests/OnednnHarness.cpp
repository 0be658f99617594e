#include "OnednnHarness.hpp"

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_test_sdk/AllClose.hpp>
#include <hipdnn_test_sdk/CpuGraphExecutor.hpp>
#include <hipdnn_test_sdk/ElementAccess.hpp>
#include <hipdnn_test_sdk/GuardedBuffer.hpp>
#include <hipdnn_test_sdk/Seed.hpp>

#include <gtest/gtest.h>

#include <oneapi/dnnl/dnnl.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <unordered_map>

namespace onednn_test {

using hipdnn_flatbuffers_sdk::GraphWrapper;

std::vector<int64_t> layoutStrides(const std::vector<int64_t>& dims, bool channelsLast) {
    // Stride order per dim, 0 = fastest: NC[D]HW = {n-1, ..., 0}; channels last puts C at 0.
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

hipdnn_test_sdk::PointwiseOptions reluClip(float lower, float upper) {
    hipdnn_test_sdk::PointwiseOptions options;
    options.reluLowerClip = lower;
    options.reluUpperClip = upper;
    return options;
}

hipdnn_test_sdk::PointwiseOptions leakyRelu(float slope) {
    hipdnn_test_sdk::PointwiseOptions options;
    options.reluLowerClipSlope = slope;
    return options;
}

hipdnn_test_sdk::PointwiseOptions swish(float beta) {
    hipdnn_test_sdk::PointwiseOptions options;
    options.swishBeta = beta;
    return options;
}

hipdnn_test_sdk::PointwiseOptions elu(float alpha) {
    hipdnn_test_sdk::PointwiseOptions options;
    options.eluAlpha = alpha;
    return options;
}

namespace {

template <class F>
F symbol(void* library, const char* name) {
    void* address = dlsym(library, name);
    if (address == nullptr) {
        throw std::runtime_error(std::string("onednn plugin lacks ") + name);
    }
    return reinterpret_cast<F>(address);
}

}  // namespace

OnednnPlugin& OnednnPlugin::instance() {
    static OnednnPlugin plugin;
    return plugin;
}

OnednnPlugin::OnednnPlugin() {
    _library = dlopen(HIPDNN_ONEDNN_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if (_library == nullptr) {
        throw std::runtime_error(std::string("cannot load the onednn plugin: ") + dlerror());
    }
    _lastError = symbol<decltype(_lastError)>(_library, "hipdnnPluginGetLastErrorString");
    _applicable = symbol<decltype(_applicable)>(_library, "hipdnnEnginePluginGetApplicableEngineIds");
    _createContext = symbol<decltype(_createContext)>(_library, "hipdnnEnginePluginCreateExecutionContext");
    _workspaceSize =
        symbol<decltype(_workspaceSize)>(_library, "hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext");
    _execute = symbol<decltype(_execute)>(_library, "hipdnnEnginePluginExecuteOpGraph");
    _destroyContext =
        symbol<decltype(_destroyContext)>(_library, "hipdnnEnginePluginDestroyExecutionContext");
    auto create = symbol<decltype(&hipdnnEnginePluginCreate)>(_library, "hipdnnEnginePluginCreate");
    hipdnnEnginePluginHandle_t handle = nullptr;
    if (create(&handle) != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        throw std::runtime_error("hipdnnEnginePluginCreate failed: " + lastError());
    }
    _handle = handle;
}

std::string OnednnPlugin::lastError() const {
    const char* message = nullptr;
    _lastError(&message);
    return message != nullptr ? message : "";
}

Applicability OnednnPlugin::applicability(const std::vector<uint8_t>& graph) {
    const hipdnnPluginConstData_t data{graph.data(), graph.size()};
    int64_t ids[4] = {};
    uint32_t count = 0;
    const auto status = _applicable(static_cast<hipdnnEnginePluginHandle_t>(_handle), &data, ids, 4, &count);
    Applicability result;
    result.reasons = lastError();
    result.applicable = status == HIPDNN_PLUGIN_STATUS_SUCCESS && count == 1 &&
                        ids[0] == hipdnn_data_sdk::utilities::ONEDNN_ENGINE_ID;
    if (status != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        ADD_FAILURE() << "GetApplicableEngineIds failed: " << result.reasons;
    }
    return result;
}

RawApplicability OnednnPlugin::rawApplicability(const std::vector<uint8_t>& graph) {
    const hipdnnPluginConstData_t data{graph.data(), graph.size()};
    int64_t ids[4] = {};
    uint32_t count = 0;
    RawApplicability result;
    result.status = _applicable(static_cast<hipdnnEnginePluginHandle_t>(_handle), &data, ids, 4, &count);
    result.message = lastError();
    result.engineIds.assign(ids, ids + std::min<uint32_t>(count, 4));
    return result;
}

bool OnednnPlugin::execute(const std::vector<uint8_t>& graph, const std::map<int64_t, void*>& buffers) {
    auto handle = static_cast<hipdnnEnginePluginHandle_t>(_handle);
    const auto config =
        hipdnn_flatbuffers_sdk::makeEngineConfig(hipdnn_data_sdk::utilities::ONEDNN_ENGINE_ID, {});
    const hipdnnPluginConstData_t graphData{graph.data(), graph.size()};
    const hipdnnPluginConstData_t configData{config.data(), config.size()};
    hipdnnEnginePluginExecutionContext_t context = nullptr;
    if (_createContext(handle, &configData, &graphData, &context) != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        ADD_FAILURE() << "CreateExecutionContext failed: " << lastError();
        return false;
    }
    size_t workspaceBytes = 0;
    EXPECT_EQ(_workspaceSize(handle, context, &workspaceBytes), HIPDNN_PLUGIN_STATUS_SUCCESS);
    // The workspace starts one byte past an allocation so that every test checks that the
    // engine aligns its regions itself, whatever pointer the user passes; it ends at a guard
    // page, so that a primitive writing past the scratchpad it reports faults.
    const hipdnn_test_sdk::GuardedBuffer allocation(workspaceBytes + 1);
    std::byte* workspace = workspaceBytes == 0 ? nullptr : static_cast<std::byte*>(allocation.data()) + 1;
    std::vector<hipdnnPluginDeviceBuffer_t> deviceBuffers;
    for (const auto& [uid, pointer] : buffers) {
        deviceBuffers.push_back({uid, pointer});
    }
    const auto status = _execute(handle, context, workspace, deviceBuffers.data(),
                                 static_cast<uint32_t>(deviceBuffers.size()));
    const std::string error = status == HIPDNN_PLUGIN_STATUS_SUCCESS ? "" : lastError();
    EXPECT_EQ(_destroyContext(handle, context), HIPDNN_PLUGIN_STATUS_SUCCESS);
    if (!error.empty()) {
        ADD_FAILURE() << "ExecuteOpGraph failed: " << error;
        return false;
    }
    return true;
}

bool cpuHasBf16() {
    try {
        const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
        const dnnl::memory::desc data({1, 8}, dnnl::memory::data_type::bf16, dnnl::memory::format_tag::ab);
        dnnl::eltwise_forward::primitive_desc(
            {dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_relu, data, 0.0F, 0.0F}, engine);
        return true;
    } catch (const dnnl::error&) {
        return false;
    }
}

void expectMatchesReference(const GraphBuilder& builder, hipdnn_test_sdk::ToleranceOp op,
                            const Ranges& ranges, int64_t reductionTerms) {
    expectMatchesReference(builder,
                           reductionTerms > 0
                               ? hipdnn_test_sdk::reductionTolerance(op, fb::DataType::FLOAT,
                                                                     fb::DataType::FLOAT, reductionTerms, 1.0)
                               : hipdnn_test_sdk::fixedTolerance(op, fb::DataType::FLOAT),
                           ranges);
}

void expectMatchesReference(const GraphBuilder& builder, const hipdnn_test_sdk::Tolerance& tolerance,
                            const Ranges& ranges) {
    const std::vector<uint8_t> bytes = builder.build();
    const GraphWrapper graph(bytes.data(), bytes.size());

    const Applicability verdict = OnednnPlugin::instance().applicability(bytes);
    ASSERT_TRUE(verdict.applicable) << "ONEDNN_ENGINE declined: " << verdict.reasons;

    // Host buffers of each tensor's type for every non-virtual, non-scalar tensor; inputs random,
    // outputs NaN. The plugin's buffers end at a guard page and its inputs are read-only, so that
    // a kernel reading or writing past a tensor, or writing an input, faults.
    std::unordered_map<int64_t, std::vector<std::byte>> reference;
    std::unordered_map<int64_t, hipdnn_test_sdk::GuardedBuffer> actual;
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed());
    const auto& inputs = graph.inputUids();
    for (const auto* tensor : *graph.graph().tensors()) {
        if (tensor->virtual_() || tensor->value_type() != fb::TensorValue::NONE) {
            continue;
        }
        const std::vector<int64_t> dims(tensor->dims()->begin(), tensor->dims()->end());
        const std::vector<int64_t> strides(tensor->strides()->begin(), tensor->strides()->end());
        const int64_t count = hipdnn_data_sdk::utilities::storageElementCount(dims, strides);
        std::vector<std::byte> storage(static_cast<size_t>(count) *
                                       hipdnn_test_sdk::dataTypeSize(tensor->data_type()));
        const bool isInput = std::find(inputs.begin(), inputs.end(), tensor->uid()) != inputs.end();
        const auto range = ranges.contains(tensor->uid()) ? ranges.at(tensor->uid()) : std::pair{-1.0F, 1.0F};
        std::uniform_real_distribution<float> distribution(range.first, range.second);
        for (int64_t i = 0; i < count; ++i) {
            hipdnn_test_sdk::writeElement(
                tensor->data_type(), storage.data(), i,
                isInput ? distribution(random) : std::numeric_limits<double>::quiet_NaN());
        }
        auto& guarded =
            actual.emplace(tensor->uid(), hipdnn_test_sdk::GuardedBuffer(storage.size())).first->second;
        std::memcpy(guarded.data(), storage.data(), storage.size());
        if (isInput) {
            guarded.makeReadOnly();
        }
        reference[tensor->uid()] = std::move(storage);
    }
    std::unordered_map<int64_t, void*> referencePointers;
    std::map<int64_t, void*> actualPointers;
    for (auto& [uid, storage] : reference) {
        referencePointers[uid] = storage.data();
        actualPointers[uid] = actual.at(uid).data();
    }
    hipdnn_test_sdk::CpuGraphExecutor().execute(graph, referencePointers);
    ASSERT_TRUE(OnednnPlugin::instance().execute(bytes, actualPointers));

    for (int64_t uid : graph.outputUids()) {
        const auto& tensor = graph.tensor(uid);
        const std::vector<int64_t> dims(tensor.dims()->begin(), tensor.dims()->end());
        const std::vector<int64_t> strides(tensor.strides()->begin(), tensor.strides()->end());
        const hipdnn_test_sdk::ErasedTensorView expected{tensor.data_type(), reference[uid].data(), dims,
                                                         strides};
        const hipdnn_test_sdk::ErasedTensorView got{tensor.data_type(), actual.at(uid).data(), dims, strides};
        const auto report = hipdnn_test_sdk::allClose(expected, got, tolerance);
        EXPECT_TRUE(report.passed) << "output uid " << uid << " '" << tensor.name()->str()
                                   << "': " << report.describe();
    }
}

}  // namespace onednn_test
