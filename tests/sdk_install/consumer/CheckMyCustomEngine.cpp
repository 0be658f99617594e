// check_my_custom_engine <path to my_custom_plugin.so>
// Checks the engine id that HIPDNN_REGISTER_ENGINE defines against an independent FNV-1a-64, then
// loads the installed plugin like the backend does and checks what it reports.
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

HIPDNN_REGISTER_ENGINE(MY_CUSTOM_ENGINE)

namespace {

uint64_t fnv1a64(const char* text) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char* c = text; *c != '\0'; ++c) {
        hash ^= static_cast<unsigned char>(*c);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

int failures = 0;

void check(bool condition, const std::string& what) {
    if (!condition) {
        std::fprintf(stderr, "FAILED: %s\n", what.c_str());
        ++failures;
    }
}

template <class Function>
Function* symbol(void* library, const char* name) {
    return reinterpret_cast<Function*>(dlsym(library, name));
}

}  // namespace

int main(int argc, char** argv) {
    check(MY_CUSTOM_ENGINE_ID == static_cast<int64_t>(fnv1a64("MY_CUSTOM_ENGINE")),
          "MY_CUSTOM_ENGINE_ID is the FNV-1a-64 hash of \"MY_CUSTOM_ENGINE\"");
    check(std::strcmp(MY_CUSTOM_ENGINE_NAME, "MY_CUSTOM_ENGINE") == 0, "MY_CUSTOM_ENGINE_NAME");
    check(hipdnn_data_sdk::utilities::isEngineNameRegistered("MY_CUSTOM_ENGINE"), "the name is registered");
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <plugin.so>\n", argv[0]);
        return 2;
    }

    void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        std::fprintf(stderr, "FAILED: dlopen: %s\n", dlerror());
        return 1;
    }
    auto* getAllEngineIds =
        symbol<decltype(hipdnnEnginePluginGetAllEngineIds)>(library, "hipdnnEnginePluginGetAllEngineIds");
    auto* getEngineName =
        symbol<decltype(hipdnnEnginePluginGetEngineName)>(library, "hipdnnEnginePluginGetEngineName");
    auto* getDeviceType =
        symbol<decltype(hipdnnEnginePluginGetDeviceType_ext)>(library, "hipdnnEnginePluginGetDeviceType_ext");
    check(getAllEngineIds != nullptr && getEngineName != nullptr && getDeviceType != nullptr,
          "plugin exports");
    if (failures == 0) {
        uint32_t count = 0;
        check(getAllEngineIds(nullptr, 0, &count) == HIPDNN_PLUGIN_STATUS_SUCCESS && count == 1,
              "one engine");
        std::vector<int64_t> ids(count);
        check(getAllEngineIds(ids.data(), count, &count) == HIPDNN_PLUGIN_STATUS_SUCCESS &&
                  ids == std::vector<int64_t>{MY_CUSTOM_ENGINE_ID},
              "the plugin reports MY_CUSTOM_ENGINE_ID");
        const char* name = nullptr;
        check(getEngineName(MY_CUSTOM_ENGINE_ID, &name) == HIPDNN_PLUGIN_STATUS_SUCCESS && name != nullptr &&
                  std::strcmp(name, "MY_CUSTOM_ENGINE") == 0,
              "the plugin names its engine MY_CUSTOM_ENGINE");
        hipdnnDeviceType_ext_t device = HIPDNN_DEVICE_TYPE_GPU_EXT;
        check(getDeviceType(&device) == HIPDNN_PLUGIN_STATUS_SUCCESS && device == HIPDNN_DEVICE_TYPE_CPU_EXT,
              "the plugin serves the CPU");
    }
    dlclose(library);
    if (failures == 0) {
        std::printf("check_my_custom_engine: all checks passed\n");
    }
    return failures == 0 ? 0 : 1;
}
