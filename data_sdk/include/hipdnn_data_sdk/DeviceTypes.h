// Device kinds a handle can be bound to and a plugin can serve (hipDNN extension).
#ifndef HIPDNN_DATA_SDK_DEVICE_TYPES_H
#define HIPDNN_DATA_SDK_DEVICE_TYPES_H

#include <hipdnn_data_sdk/CEnum.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum HIPDNN_C_ENUM_BASE {
    HIPDNN_DEVICE_TYPE_GPU_EXT = 0,
    HIPDNN_DEVICE_TYPE_CPU_EXT = 1,
} hipdnnDeviceType_ext_t;

#ifdef __cplusplus
}
#endif

#endif
