// The engine plugin API version under this SDK's earlier names; engine_api_version.h holds it.
#ifndef HIPDNN_PLUGIN_SDK_ENGINE_PLUGIN_API_VERSION_H
#define HIPDNN_PLUGIN_SDK_ENGINE_PLUGIN_API_VERSION_H

#include <hipdnn_plugin_sdk/engine_api_version.h>

#define HIPDNN_ENGINE_API_VERSION_STRING HIPDNN_ENGINE_API_VERSION

#endif
