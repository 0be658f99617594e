// Plain-C types of the plugin ABI. Enumerator values are frozen: append only.
#ifndef HIPDNN_PLUGIN_SDK_PLUGIN_API_DATA_TYPES_H
#define HIPDNN_PLUGIN_SDK_PLUGIN_API_DATA_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include <hipdnn_data_sdk/CEnum.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum HIPDNN_C_ENUM_BASE {
    HIPDNN_PLUGIN_STATUS_SUCCESS = 0,
    HIPDNN_PLUGIN_STATUS_BAD_PARAM = 1,
    HIPDNN_PLUGIN_STATUS_INVALID_VALUE = 2,
    HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR = 3,
    HIPDNN_PLUGIN_STATUS_ALLOC_FAILED = 4,
    HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE = 5,
    HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED = 6,
} hipdnnPluginStatus_t;

typedef enum HIPDNN_C_ENUM_BASE {
    HIPDNN_PLUGIN_TYPE_UNSPECIFIED = 0,
    HIPDNN_PLUGIN_TYPE_ENGINE = 1,
    HIPDNN_PLUGIN_TYPE_HEURISTIC = 2,
} hipdnnPluginType_t;

/// Prediction work an engine is asked for (an estimate only: neither kind benchmarks, tunes or
/// executes the graph).
typedef enum HIPDNN_C_ENUM_BASE {
    HIPDNN_ENGINE_PREDICTION_ENGINE = 0,         ///< The engine's ordinary execution, tuning off.
    HIPDNN_ENGINE_PREDICTION_CONFIGURATION = 1,  ///< One exact configuration, selected and predicted.
} hipdnnEnginePredictionKind_t;

/// A read-only byte buffer (a serialized FlatBuffer). Ownership is stated by each function.
typedef struct {
    const void* ptr;
    size_t size;
} hipdnnPluginConstData_t;

/// One tensor of a variant pack: the tensor's uid and its data pointer on the handle's device.
typedef struct {
    int64_t uid;
    void* ptr;
} hipdnnPluginDeviceBuffer_t;

/// Opaque handles of an engine plugin and of one of its execution contexts (upstream's tags).
typedef struct HipdnnEnginePluginHandle* hipdnnEnginePluginHandle_t;
typedef struct HipdnnEnginePluginExecutionContext* hipdnnEnginePluginExecutionContext_t;

/// Opaque stream: a cudaStream_t for GPU plugins (null = legacy default stream); ignored on CPU.
typedef void* hipdnnPluginStream_t;

/// Longest message a plugin keeps in its per-thread last-error buffer, terminator included.
#define HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH 2048

#ifdef __cplusplus
}
#endif

#endif
