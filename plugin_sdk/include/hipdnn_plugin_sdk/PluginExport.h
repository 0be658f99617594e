// Marks the plugin API functions as exported while everything else stays hidden
// (plugins are built with -fvisibility=hidden).
#ifndef HIPDNN_PLUGIN_SDK_PLUGIN_EXPORT_H
#define HIPDNN_PLUGIN_SDK_PLUGIN_EXPORT_H

#if defined(_WIN32)
#define HIPDNN_PLUGIN_EXPORT __declspec(dllexport)
#else
#define HIPDNN_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#endif
