#ifndef HIPDNN_BACKEND_ATTRIBUTE_TYPE_H
#define HIPDNN_BACKEND_ATTRIBUTE_TYPE_H

#include <stddef.h>

#include <hipdnn_data_sdk/CEnum.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element type of the array passed to hipdnnBackendSetAttribute / GetAttribute.
typedef enum HIPDNN_C_ENUM_BASE {
    HIPDNN_TYPE_HANDLE = 0,
    HIPDNN_TYPE_DATA_TYPE = 1,
    HIPDNN_TYPE_BOOLEAN = 2,
    HIPDNN_TYPE_INT64 = 3,
    HIPDNN_TYPE_FLOAT = 4,
    HIPDNN_TYPE_DOUBLE = 5,
    HIPDNN_TYPE_VOID_PTR = 6,
    HIPDNN_TYPE_HEUR_MODE = 7,
    HIPDNN_TYPE_BACKEND_DESCRIPTOR = 13,
    HIPDNN_TYPE_INT32 = 18,
    HIPDNN_TYPE_CHAR = 19,
    HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT = 10000,
    HIPDNN_TYPE_OPERATION_TYPE_EXT = 10001,
} hipdnnBackendAttributeType_t;

/// Element of HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT attributes: a serialized FlatBuffer.
typedef struct {
    const void* ptr;
    size_t size;
} hipdnnFlatbufferData_ext_t;

/// Heuristic modes. A and B are accepted and currently rank like FALLBACK.
typedef enum HIPDNN_C_ENUM_BASE {
    HIPDNN_HEUR_MODE_INSTANT = 0,
    HIPDNN_HEUR_MODE_B = 1,
    HIPDNN_HEUR_MODE_FALLBACK = 2,
    HIPDNN_HEUR_MODE_A = 3,
} hipdnnBackendHeurMode_t;

/// Data types of HIPDNN_TYPE_DATA_TYPE attributes.
typedef enum HIPDNN_C_ENUM_BASE {
    HIPDNN_DATA_FLOAT = 0,
    HIPDNN_DATA_DOUBLE = 1,
    HIPDNN_DATA_HALF = 2,
    HIPDNN_DATA_INT8 = 3,
    HIPDNN_DATA_INT32 = 4,
    HIPDNN_DATA_UINT8 = 6,
    HIPDNN_DATA_INT64 = 8,
    HIPDNN_DATA_BFLOAT16 = 9,
    HIPDNN_DATA_FP8_E4M3 = 12,
    HIPDNN_DATA_FP8_E5M2 = 13,
} hipdnnDataType_t;

#ifdef __cplusplus
}
#endif

#endif
