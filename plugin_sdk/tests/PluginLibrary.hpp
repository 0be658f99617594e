// Loads a test plugin the way the backend does and resolves its exports.
#pragma once

#include <hipdnn_plugin_sdk/EnginePluginApi.h>

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace plugin_sdk_test {

class PluginLibrary {
public:
    explicit PluginLibrary(const char* path) : _library(dlopen(path, RTLD_NOW | RTLD_LOCAL)) {
        if (_library == nullptr) {
            throw std::runtime_error(std::string("dlopen failed: ") + dlerror());
        }
    }
    ~PluginLibrary() { dlclose(_library); }
    PluginLibrary(const PluginLibrary&) = delete;
    PluginLibrary& operator=(const PluginLibrary&) = delete;

    void* find(const char* name) const { return dlsym(_library, name); }

    template <class Function>
    Function* get(const char* name) const {
        void* symbol = find(name);
        if (symbol == nullptr) {
            throw std::runtime_error(std::string("missing export ") + name);
        }
        return reinterpret_cast<Function*>(symbol);
    }

private:
    void* _library;
};

// Every function of PluginApi.h and EnginePluginApi.h, resolved through dlsym.
struct PluginApi {
    explicit PluginApi(const PluginLibrary& library)
#define HIPDNN_TEST_RESOLVE(name) name(library.get<decltype(::name)>(#name))
        : HIPDNN_TEST_RESOLVE(hipdnnPluginGetName),
          HIPDNN_TEST_RESOLVE(hipdnnPluginGetVersion),
          HIPDNN_TEST_RESOLVE(hipdnnPluginGetType),
          HIPDNN_TEST_RESOLVE(hipdnnPluginGetLastErrorString),
          HIPDNN_TEST_RESOLVE(hipdnnPluginSetLoggingCallback),
          HIPDNN_TEST_RESOLVE(hipdnnPluginGetApiVersion),
          HIPDNN_TEST_RESOLVE(hipdnnPluginSetLogLevel),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginGetAllEngineIds),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginCreate),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginDestroy),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginSetStream),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginSetCommunicator_ext),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginGetApplicableEngineIds),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginGetEngineDetails),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginDestroyEngineDetails),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginGetWorkspaceSize),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginCreateExecutionContext),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginDestroyExecutionContext),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginExecuteOpGraph),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginGetEngineName),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginSerializeExecutionContext),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginDestroySerializedExecutionContext),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginCreateExecutionContextFromSerialized),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginGetDeviceType_ext),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginGetLibraryVersions_ext),
          HIPDNN_TEST_RESOLVE(hipdnnEnginePluginEstimateExecutionTime_ext) {
    }
#undef HIPDNN_TEST_RESOLVE

    std::string lastError() const {
        const char* text = nullptr;
        hipdnnPluginGetLastErrorString(&text);
        return text != nullptr ? std::string(text) : std::string("<null>");
    }

    decltype(::hipdnnPluginGetName)* hipdnnPluginGetName;
    decltype(::hipdnnPluginGetVersion)* hipdnnPluginGetVersion;
    decltype(::hipdnnPluginGetType)* hipdnnPluginGetType;
    decltype(::hipdnnPluginGetLastErrorString)* hipdnnPluginGetLastErrorString;
    decltype(::hipdnnPluginSetLoggingCallback)* hipdnnPluginSetLoggingCallback;
    decltype(::hipdnnPluginGetApiVersion)* hipdnnPluginGetApiVersion;
    decltype(::hipdnnPluginSetLogLevel)* hipdnnPluginSetLogLevel;
    decltype(::hipdnnEnginePluginGetAllEngineIds)* hipdnnEnginePluginGetAllEngineIds;
    decltype(::hipdnnEnginePluginCreate)* hipdnnEnginePluginCreate;
    decltype(::hipdnnEnginePluginDestroy)* hipdnnEnginePluginDestroy;
    decltype(::hipdnnEnginePluginSetStream)* hipdnnEnginePluginSetStream;
    decltype(::hipdnnEnginePluginSetCommunicator_ext)* hipdnnEnginePluginSetCommunicator_ext;
    decltype(::hipdnnEnginePluginGetApplicableEngineIds)* hipdnnEnginePluginGetApplicableEngineIds;
    decltype(::hipdnnEnginePluginGetEngineDetails)* hipdnnEnginePluginGetEngineDetails;
    decltype(::hipdnnEnginePluginDestroyEngineDetails)* hipdnnEnginePluginDestroyEngineDetails;
    decltype(::hipdnnEnginePluginGetWorkspaceSize)* hipdnnEnginePluginGetWorkspaceSize;
    decltype(::hipdnnEnginePluginCreateExecutionContext)* hipdnnEnginePluginCreateExecutionContext;
    decltype(::hipdnnEnginePluginDestroyExecutionContext)* hipdnnEnginePluginDestroyExecutionContext;
    decltype(::hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext)*
        hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext;
    decltype(::hipdnnEnginePluginExecuteOpGraph)* hipdnnEnginePluginExecuteOpGraph;
    decltype(::hipdnnEnginePluginGetEngineName)* hipdnnEnginePluginGetEngineName;
    decltype(::hipdnnEnginePluginSerializeExecutionContext)* hipdnnEnginePluginSerializeExecutionContext;
    decltype(::hipdnnEnginePluginDestroySerializedExecutionContext)*
        hipdnnEnginePluginDestroySerializedExecutionContext;
    decltype(::hipdnnEnginePluginCreateExecutionContextFromSerialized)*
        hipdnnEnginePluginCreateExecutionContextFromSerialized;
    decltype(::hipdnnEnginePluginGetDeviceType_ext)* hipdnnEnginePluginGetDeviceType_ext;
    decltype(::hipdnnEnginePluginGetLibraryVersions_ext)* hipdnnEnginePluginGetLibraryVersions_ext;
    decltype(::hipdnnEnginePluginEstimateExecutionTime_ext)* hipdnnEnginePluginEstimateExecutionTime_ext;
};

}  // namespace plugin_sdk_test
