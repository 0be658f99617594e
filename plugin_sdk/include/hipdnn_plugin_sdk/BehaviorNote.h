// Advisory, non-numerical behaviour of an engine, as plugins report it in EngineDetails
// (behavior_notes) and the backend exposes it (HIPDNN_ATTR_ENGINE_BEHAVIOR_NOTE). The values are
// the schema's BehaviorNote values. Our schema appends DETERMINISTIC = 5, which upstream's enum
// below does not name (its HIPDNN_BEHAVIOR_NOTE_TYPE_COUNT counts upstream's five).
#ifndef HIPDNN_PLUGIN_SDK_BEHAVIOR_NOTE_H
#define HIPDNN_PLUGIN_SDK_BEHAVIOR_NOTE_H

#include <hipdnn_data_sdk/CEnum.h>

#ifdef __cplusplus
extern "C" {
#endif

// Guarded as upstream's is, so that another header may define the same type.
#ifndef HIPDNN_BEHAVIOR_NOTE_TYPES_DEFINED
#define HIPDNN_BEHAVIOR_NOTE_TYPES_DEFINED

typedef enum HIPDNN_C_ENUM_BASE {
    HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION = 0,
    HIPDNN_BEHAVIOR_NOTE_REQUIRES_LAYOUT_TRANSFORM = 1,
    HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE = 2,
    HIPDNN_BEHAVIOR_NOTE_EXTERNAL_LIBRARY_DEPENDENCY = 3,
    HIPDNN_BEHAVIOR_NOTE_SUPPORTS_EXECUTION_PLAN_SERIALIZATION = 4,
    HIPDNN_BEHAVIOR_NOTE_TYPE_COUNT = 5
} hipdnnBackendBehaviorNote_t;

#endif

#ifdef __cplusplus
}
#endif

#endif
