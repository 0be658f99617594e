// Version of the engine plugin C ABI, under upstream hipDNN's names. A plugin reports the version
// it was built against through hipdnnPluginGetApiVersion; the backend refuses another major
// version and accepts any minor and patch.
#ifndef HIPDNN_PLUGIN_SDK_ENGINE_API_VERSION_H
#define HIPDNN_PLUGIN_SDK_ENGINE_API_VERSION_H

#define HIPDNN_ENGINE_API_VERSION_MAJOR 1
#define HIPDNN_ENGINE_API_VERSION_MINOR 5
#define HIPDNN_ENGINE_API_VERSION_PATCH 0

#define HIPDNN_PLUGIN_API_STRINGIFY_IMPL(x) #x
#define HIPDNN_PLUGIN_API_STRINGIFY(x) HIPDNN_PLUGIN_API_STRINGIFY_IMPL(x)

/// "1.5.0": the string a plugin built with this SDK reports.
#define HIPDNN_ENGINE_API_VERSION                                                                     \
    HIPDNN_PLUGIN_API_STRINGIFY(HIPDNN_ENGINE_API_VERSION_MAJOR)                                      \
    "." HIPDNN_PLUGIN_API_STRINGIFY(HIPDNN_ENGINE_API_VERSION_MINOR) "." HIPDNN_PLUGIN_API_STRINGIFY( \
        HIPDNN_ENGINE_API_VERSION_PATCH)

#endif
