// Helpers shared by the backend's black-box tests: graphs built with the generated FlatBuffers
// headers, log capture through a user callback, plugin path selection and plan building, all
// through the public C API only.
#pragma once

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <hipdnn_flatbuffers_sdk/data_objects/engine_details_generated.h>
#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "hipdnn_backend.h"

namespace hipdnn_backend_tests {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

// <build>/lib/test_plugins/<testCase>
inline std::string pluginDir(const std::string& testCase) {
    return std::string(HIPDNN_TEST_PLUGIN_DIR) + "/" + testCase;
}
inline std::string pluginFile(const std::string& testCase, const std::string& name) {
    return pluginDir(testCase) + "/lib" + name + ".so";
}

struct GraphOptions {
    fb::PointwiseMode mode = fb::PointwiseMode::RELU_FWD;
    std::vector<int64_t> dims = {2, 4};
    std::optional<int64_t> preferredEngineId;
    std::optional<fb::EngineApiVersion> minimumApiVersion;
    bool addVirtualTensor = false;  // a second node reads x and writes virtual uid 3, then uid 2
    std::string name = "relu_graph";
};

inline GraphOptions withMode(fb::PointwiseMode mode) {
    GraphOptions options;
    options.mode = mode;
    return options;
}

constexpr int64_t kInputUid = 1;
constexpr int64_t kOutputUid = 2;
constexpr int64_t kVirtualUid = 3;

// x (uid 1) -> pointwise -> y (uid 2), float, packed.
inline std::vector<uint8_t> makeGraph(const GraphOptions& options = {}) {
    flatbuffers::FlatBufferBuilder builder;
    std::vector<int64_t> strides(options.dims.size(), 1);
    for (size_t d = options.dims.size() - 1; d > 0; --d) {
        strides[d - 1] = strides[d] * options.dims[d];
    }
    std::vector<flatbuffers::Offset<fb::TensorAttributes>> tensors;
    auto tensor = [&](int64_t uid, const char* name, bool isVirtual) {
        tensors.push_back(fb::CreateTensorAttributesDirect(builder, uid, name, fb::DataType::FLOAT, &strides,
                                                           &options.dims, isVirtual));
    };
    tensor(kInputUid, "x", false);
    tensor(kOutputUid, "y", false);
    std::vector<flatbuffers::Offset<fb::Node>> nodes;
    auto node = [&](const char* name, int64_t in, int64_t out, fb::PointwiseMode mode) {
        fb::PointwiseAttributesBuilder attributes(builder);
        attributes.add_operation(mode);
        attributes.add_in_0_tensor_uid(in);
        attributes.add_out_0_tensor_uid(out);
        const auto offset = attributes.Finish();
        nodes.push_back(fb::CreateNodeDirect(builder, name, fb::DataType::FLOAT,
                                             fb::NodeAttributes::PointwiseAttributes, offset.Union()));
    };
    if (options.addVirtualTensor) {
        tensor(kVirtualUid, "t", true);
        node("first", kInputUid, kVirtualUid, fb::PointwiseMode::IDENTITY);
        node("second", kVirtualUid, kOutputUid, options.mode);
    } else {
        node("pointwise", kInputUid, kOutputUid, options.mode);
    }
    const auto name = builder.CreateString(options.name);
    const auto tensorVector = builder.CreateVector(tensors);
    const auto nodeVector = builder.CreateVector(nodes);
    fb::GraphBuilder graph(builder);
    graph.add_name(name);
    graph.add_tensors(tensorVector);
    graph.add_nodes(nodeVector);
    if (options.preferredEngineId) {
        graph.add_preferred_engine_id(*options.preferredEngineId);
    }
    if (options.minimumApiVersion) {
        graph.add_min_required_engine_api_version(&*options.minimumApiVersion);
    }
    builder.Finish(graph.Finish());
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

// Sets an environment variable for the scope and restores its previous value.
class ScopedEnvironment {
public:
    ScopedEnvironment(const char* name, const std::string& value) : _name(name) {
        if (const char* previous = std::getenv(name)) {
            _previous = previous;
        }
        setenv(name, value.c_str(), 1);
    }
    ~ScopedEnvironment() {
        if (_previous) {
            setenv(_name, _previous->c_str(), 1);
        } else {
            unsetenv(_name);
        }
    }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
    const char* _name;
    std::optional<std::string> _previous;
};

inline std::string lastError() {
    char buffer[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnGetLastErrorString(buffer, sizeof(buffer));
    return buffer;
}

// Collects log messages through a synchronous user callback at INFO and above.
class LogCapture {
public:
    LogCapture() {
        EXPECT_EQ(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO), HIPDNN_STATUS_SUCCESS);
        EXPECT_EQ(hipdnnSetUserLogCallback_ext(&LogCapture::receive, HIPDNN_SEV_INFO,
                                               HIPDNN_LOG_CALLBACK_SYNC, this),
                  HIPDNN_STATUS_SUCCESS);
    }
    ~LogCapture() {
        hipdnnSetUserLogCallback_ext(&LogCapture::receive, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, this);
    }

    std::vector<std::string> messages() const {
        std::lock_guard lock(_mutex);
        return _messages;
    }
    bool contains(const std::string& text) const {
        std::lock_guard lock(_mutex);
        return std::any_of(_messages.begin(), _messages.end(), [&](const std::string& message) {
            return message.find(text) != std::string::npos;
        });
    }
    std::string all() const {
        std::string joined;
        for (const std::string& message : messages()) {
            joined += message + "\n";
        }
        return joined;
    }

private:
    static void receive(void* self, hipdnnSeverity_t, const char* message) {
        auto* capture = static_cast<LogCapture*>(self);
        std::lock_guard lock(capture->_mutex);
        capture->_messages.emplace_back(message);
    }

    mutable std::mutex _mutex;
    std::vector<std::string> _messages;
};

inline void usePluginPaths(const std::vector<std::string>& paths,
                           hipdnnPluginLoadingMode_ext_t mode = HIPDNN_PLUGIN_LOADING_ABSOLUTE) {
    std::vector<const char*> pointers;
    for (const std::string& path : paths) {
        pointers.push_back(path.c_str());
    }
    ASSERT_EQ(hipdnnSetEnginePluginPaths_ext(pointers.size(), pointers.data(), mode), HIPDNN_STATUS_SUCCESS)
        << lastError();
}

inline std::vector<std::string> loadedPluginPaths(hipdnnHandle_t handle) {
    size_t count = 0;
    size_t maxLength = 0;
    EXPECT_EQ(hipdnnGetLoadedEnginePluginPaths_ext(handle, &count, nullptr, &maxLength),
              HIPDNN_STATUS_SUCCESS);
    std::vector<std::vector<char>> buffers(count, std::vector<char>(maxLength));
    std::vector<char*> pointers;
    for (auto& buffer : buffers) {
        pointers.push_back(buffer.data());
    }
    EXPECT_EQ(hipdnnGetLoadedEnginePluginPaths_ext(handle, &count, pointers.data(), &maxLength),
              HIPDNN_STATUS_SUCCESS);
    std::vector<std::string> paths;
    for (auto& buffer : buffers) {
        paths.emplace_back(buffer.data());
    }
    return paths;
}

// True when the library at `path` is mapped into this process.
inline bool isLibraryLoaded(const std::string& path) {
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (handle == nullptr) {
        return false;
    }
    dlclose(handle);
    return true;
}

inline hipdnnHandle_t createCpuHandle() {
    hipdnnHandle_t handle = nullptr;
    EXPECT_EQ(hipdnnCreateForDevice_ext(&handle, HIPDNN_DEVICE_TYPE_CPU_EXT, 0), HIPDNN_STATUS_SUCCESS)
        << lastError();
    return handle;
}

inline std::string charAttribute(hipdnnBackendDescriptor_t descriptor, hipdnnBackendAttributeName_t name) {
    int64_t count = 0;
    EXPECT_EQ(hipdnnBackendGetAttribute(descriptor, name, HIPDNN_TYPE_CHAR, 0, &count, nullptr),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
    std::string text(static_cast<size_t>(count), '\0');
    EXPECT_EQ(hipdnnBackendGetAttribute(descriptor, name, HIPDNN_TYPE_CHAR, count, &count, text.data()),
              HIPDNN_STATUS_SUCCESS);
    text.resize(text.empty() ? 0 : text.size() - 1);
    return text;
}

// A finalized OPERATIONGRAPH on `handle`.
inline hipdnnBackendDescriptor_t finalizedGraph(hipdnnHandle_t handle, const std::vector<uint8_t>& bytes) {
    hipdnnBackendDescriptor_t graph = nullptr;
    EXPECT_EQ(hipdnnBackendCreateAndDeserializeGraph_ext(&graph, bytes.data(), bytes.size()),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
    EXPECT_EQ(
        hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle),
        HIPDNN_STATUS_SUCCESS)
        << lastError();
    EXPECT_EQ(hipdnnBackendFinalize(graph), HIPDNN_STATUS_SUCCESS) << lastError();
    return graph;
}

// A finalized ENGINEHEUR (mode FALLBACK) over `graph`.
inline hipdnnBackendDescriptor_t finalizedHeuristic(
    hipdnnBackendDescriptor_t graph, hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK) {
    hipdnnBackendDescriptor_t heuristic = nullptr;
    EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heuristic),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
    EXPECT_EQ(
        hipdnnBackendSetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode),
        HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendFinalize(heuristic), HIPDNN_STATUS_SUCCESS) << lastError();
    return heuristic;
}

// Engine ids in ranked order, read through RESULTS -> ENGINECFG -> ENGINE.
inline std::vector<int64_t> rankedEngineIds(hipdnnBackendDescriptor_t heuristic) {
    int64_t count = 0;
    EXPECT_EQ(hipdnnBackendGetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr),
              HIPDNN_STATUS_SUCCESS);
    std::vector<hipdnnBackendDescriptor_t> configs(static_cast<size_t>(count));
    for (auto& config : configs) {
        EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &config),
                  HIPDNN_STATUS_SUCCESS);
    }
    std::vector<int64_t> ids;
    if (count > 0) {
        EXPECT_EQ(hipdnnBackendGetAttribute(heuristic, HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                            HIPDNN_TYPE_BACKEND_DESCRIPTOR, count, &count, configs.data()),
                  HIPDNN_STATUS_SUCCESS)
            << lastError();
    }
    for (auto config : configs) {
        EXPECT_EQ(hipdnnBackendFinalize(config), HIPDNN_STATUS_SUCCESS) << lastError();
        hipdnnBackendDescriptor_t engine = nullptr;
        EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &engine),
                  HIPDNN_STATUS_SUCCESS);
        int64_t one = 0;
        EXPECT_EQ(hipdnnBackendGetAttribute(config, HIPDNN_ATTR_ENGINECFG_ENGINE,
                                            HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &one, &engine),
                  HIPDNN_STATUS_SUCCESS)
            << lastError();
        int64_t id = 0;
        EXPECT_EQ(hipdnnBackendGetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1,
                                            &one, &id),
                  HIPDNN_STATUS_SUCCESS);
        ids.push_back(id);
        hipdnnBackendDestroyDescriptor(engine);
        hipdnnBackendDestroyDescriptor(config);
    }
    return ids;
}

// A finalized ENGINE for `engineId` over `graph`.
inline hipdnnBackendDescriptor_t finalizedEngine(hipdnnBackendDescriptor_t graph, int64_t engineId) {
    hipdnnBackendDescriptor_t engine = nullptr;
    EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &engine),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
    EXPECT_EQ(
        hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &engineId),
        HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendFinalize(engine), HIPDNN_STATUS_SUCCESS) << lastError();
    return engine;
}

inline hipdnnBackendDescriptor_t finalizedConfig(hipdnnBackendDescriptor_t engine) {
    hipdnnBackendDescriptor_t config = nullptr;
    EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &config),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(config, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                        1, &engine),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
    EXPECT_EQ(hipdnnBackendFinalize(config), HIPDNN_STATUS_SUCCESS) << lastError();
    return config;
}

inline hipdnnBackendDescriptor_t finalizedPlan(hipdnnBackendDescriptor_t config) {
    hipdnnBackendDescriptor_t plan = nullptr;
    EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG,
                                        HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &config),
              HIPDNN_STATUS_SUCCESS)
        << lastError();
    EXPECT_EQ(hipdnnBackendFinalize(plan), HIPDNN_STATUS_SUCCESS) << lastError();
    return plan;
}

// A variant pack (not finalized when `finalize` is false).
inline hipdnnBackendDescriptor_t variantPack(std::vector<int64_t> uids, std::vector<void*> pointers,
                                             void* workspace = nullptr, bool finalize = true) {
    hipdnnBackendDescriptor_t pack = nullptr;
    EXPECT_EQ(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64,
                                        static_cast<int64_t>(uids.size()), uids.data()),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR,
                                        static_cast<int64_t>(pointers.size()), pointers.data()),
              HIPDNN_STATUS_SUCCESS);
    EXPECT_EQ(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1,
                                        &workspace),
              HIPDNN_STATUS_SUCCESS);
    if (finalize) {
        EXPECT_EQ(hipdnnBackendFinalize(pack), HIPDNN_STATUS_SUCCESS) << lastError();
    }
    return pack;
}

inline int64_t engineIdOf(const char* name) {
    return hipdnn_data_sdk::utilities::engineNameToId(name);
}

}  // namespace hipdnn_backend_tests
