// The hipdnn backend C API: handles, descriptors, plugin loading, logging.
//
// Conventions: every function returns a hipdnnStatus_t (except the string getters); a failing
// call leaves a message naming the problem in the calling thread's last-error buffer
// (hipdnnGetLastErrorString), and so does an ENGINEHEUR finalize that finds no engine. Output parameters are
// untouched on failure. Counts are int64_t for descriptor attributes and size_t for byte sizes.
#ifndef HIPDNN_BACKEND_H
#define HIPDNN_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include <hipdnn_data_sdk/CEnum.h>
#include <hipdnn_data_sdk/DeviceTypes.h>
#include <hipdnn_data_sdk/logging/CallbackTypes.h>

#include "HipdnnBackendAttributeName.h"
#include "HipdnnBackendAttributeType.h"
#include "HipdnnBackendDescriptorType.h"
#include "HipdnnStatus.h"

#if defined(_WIN32)
#define HIPDNN_BACKEND_EXPORT __declspec(dllexport)
#else
#define HIPDNN_BACKEND_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Handles and descriptors are opaque values, not addresses. A value is never given out twice, so
/// one that was destroyed stays invalid: passing it again, a second destroy included, is
/// HIPDNN_STATUS_BAD_PARAM with a message naming it, and it never reaches a newer object.
typedef struct hipdnnHandle* hipdnnHandle_t;
typedef struct hipdnnBackendDescriptor* hipdnnBackendDescriptor_t;
/// Opaque stream: a cudaStream_t on GPU handles (null = legacy default stream); unused on CPU.
typedef void* hipdnnStream_t;

#define HIPDNN_ERROR_STRING_MAX_LENGTH 2048

/* ---- Handles and devices ---- */

/// Binds the new handle to GPU 0 when a CUDA device is usable, else to the CPU.
/// HIPDNN_DEVICE (cpu, gpu, gpu:N) overrides. Loads the engine plugins for the device.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnCreate(hipdnnHandle_t* handle);
/// Binds the new handle to one device explicitly (ordinal is ignored for the CPU).
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnCreateForDevice_ext(hipdnnHandle_t* handle,
                                                               hipdnnDeviceType_ext_t device_type,
                                                               int ordinal);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetDevice_ext(hipdnnHandle_t handle,
                                                         hipdnnDeviceType_ext_t* device_type, int* ordinal);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnDestroy(hipdnnHandle_t handle);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetStream(hipdnnHandle_t handle, hipdnnStream_t stream);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetStream(hipdnnHandle_t handle, hipdnnStream_t* stream);
/// Attaches an NCCL communicator (an ncclComm_t the caller made and owns, whose device is the
/// handle's GPU) to a GPU handle: its engines combine statistics across GPUs through it (batch
/// norm nodes with peer_stats). Null detaches. The handle's plugins that export
/// hipdnnEnginePluginSetCommunicator_ext receive it; keep it alive until it is replaced or the
/// handle and the plans built on it are destroyed. A communicator that
/// hipdnnCreateCommunicators_ext made for the handle is destroyed when replaced.
/// HIPDNN_STATUS_BAD_PARAM_NULL_POINTER for a null handle; HIPDNN_STATUS_BAD_PARAM for a handle
/// that is not live or is bound to the CPU.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetCommunicator_ext(hipdnnHandle_t handle, void* communicator);
/// Makes one NCCL communicator per handle over the handles' GPUs, handles[i] being rank i
/// (ncclCommInitAll), and attaches each to its handle as hipdnnSetCommunicator_ext does. Each
/// handle owns its communicator: it is destroyed (ncclCommDestroy) when replaced, or once the
/// handle and the plans built on it are destroyed. When a plugin fails to take its communicator
/// (HIPDNN_STATUS_PLUGIN_ERROR), the handles before it keep their new communicators and the others
/// what they had. NCCL (libnccl.so.2) is loaded on first use; without it:
/// HIPDNN_STATUS_NOT_SUPPORTED naming the library and why it did not load. An NCCL failure is
/// HIPDNN_STATUS_INTERNAL_ERROR with NCCL's description. HIPDNN_STATUS_BAD_PARAM: count 0, a handle
/// that is not live or is bound to the CPU, two handles bound to the same GPU (the messages give
/// the index in `handles`); HIPDNN_STATUS_BAD_PARAM_NULL_POINTER: a null array or element.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnCreateCommunicators_ext(size_t count,
                                                                   const hipdnnHandle_t* handles);

/* ---- Descriptors ---- */

HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendCreateDescriptor(
    hipdnnBackendDescriptorType_t descriptor_type, hipdnnBackendDescriptor_t* descriptor);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendDestroyDescriptor(hipdnnBackendDescriptor_t descriptor);
/// element_count is checked before array_of_elements is read: a negative count or one above
/// 1048576 (2^20) is HIPDNN_STATUS_BAD_PARAM naming the attribute and the count.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendSetAttribute(hipdnnBackendDescriptor_t descriptor,
                                                               hipdnnBackendAttributeName_t attribute_name,
                                                               hipdnnBackendAttributeType_t attribute_type,
                                                               int64_t element_count,
                                                               const void* array_of_elements);
/// With requested_element_count == 0 only *element_count is written (two-call pattern);
/// otherwise it is the capacity of array_of_elements: at most min(requested, available)
/// elements are written (or, for descriptors the caller created, read).
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendGetAttribute(hipdnnBackendDescriptor_t descriptor,
                                                               hipdnnBackendAttributeName_t attribute_name,
                                                               hipdnnBackendAttributeType_t attribute_type,
                                                               int64_t requested_element_count,
                                                               int64_t* element_count,
                                                               void* array_of_elements);
/// An ENGINEHEUR for which no engine applies finalizes with zero results and leaves the reason
/// as the calling thread's last error (so it is seen with logging off): "No engine applies to
/// graph '<name>'", the plugin paths searched with what was found there and the plugins serving
/// the handle's device, then every engine asked with its reason
/// (e.g. "...: no engine was asked. Plugins: searched /opt/p (does not exist); no plugin serves
/// device cpu").
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendFinalize(hipdnnBackendDescriptor_t descriptor);
/// Runs a finalized execution plan on a finalized variant pack; asynchronous on the handle's
/// stream for GPU engines, synchronous for CPU engines.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendExecute(hipdnnHandle_t handle,
                                                          hipdnnBackendDescriptor_t execution_plan,
                                                          hipdnnBackendDescriptor_t variant_pack);

/// Times a finalized execution plan on a finalized variant pack: one untimed run, then `runs`
/// timed runs back to back; `median_ms` gets the median of their times. A GPU handle's runs are
/// timed on its stream by CUDA events (through the driver, libcuda.so.1), a CPU handle's by the
/// host's steady clock; either way the call returns when the last run has finished. Outputs are
/// overwritten. BAD_PARAM for `runs` outside [1, 10000]; NOT_SUPPORTED when the CUDA driver
/// cannot time the handle's stream (the message names the failing call).
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendTimeExecution_ext(hipdnnHandle_t handle,
                                                                    hipdnnBackendDescriptor_t execution_plan,
                                                                    hipdnnBackendDescriptor_t variant_pack,
                                                                    int32_t runs, double* median_ms);

/* ---- Graph and plan serialization (extensions) ---- */

/// Creates an OPERATIONGRAPH descriptor (not finalized) from a serialized Graph FlatBuffer.
/// The buffer is verified and the graph contract checked; the bytes are copied.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendCreateAndDeserializeGraph_ext(
    hipdnnBackendDescriptor_t* descriptor, const uint8_t* serialized_graph, size_t graph_byte_size);
/// Same from the JSON form of the graph: json_byte_size bytes holding one JSON document, with
/// nothing after it but whitespace or a single NUL terminator (the size
/// hipdnnBackendGetSerializedJsonGraph_ext reports counts one). Any other NUL, inside the
/// document or after it, is HIPDNN_STATUS_BAD_PARAM giving its offset.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendCreateAndDeserializeJsonGraph_ext(
    hipdnnBackendDescriptor_t* descriptor, const char* json_graph, size_t json_byte_size);
/// Two-call: a null buffer or too small a requested size writes only *byte_size.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendGetSerializedBinaryGraph_ext(
    hipdnnBackendDescriptor_t descriptor, size_t requested_byte_size, size_t* byte_size, uint8_t* buffer);
/// Two-call; the size includes the terminating NUL.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendGetSerializedJsonGraph_ext(
    hipdnnBackendDescriptor_t descriptor, size_t requested_byte_size, size_t* byte_size, char* buffer);
/// Two-call. NOT_SUPPORTED when the plan's plugin cannot serialize its execution contexts: it
/// does not export the plan serialization functions, or its engine answers
/// HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE (no plan serialization); the message names the plugin,
/// the engine and the reason.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendGetSerializedExecutionPlan_ext(
    hipdnnBackendDescriptor_t execution_plan, size_t requested_byte_size, size_t* byte_size, uint8_t* buffer);
/// Creates a finalized EXECUTION_PLAN descriptor on `handle` from serialized bytes.
/// NOT_SUPPORTED when no plugin serving the handle's device provides the plan's engine, or that
/// plugin cannot rebuild serialized plans (as above).
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendCreateAndDeserializeExecutionPlan_ext(
    hipdnnHandle_t handle, hipdnnBackendDescriptor_t* execution_plan, const uint8_t* serialized_plan,
    size_t plan_byte_size);

/* ---- Tuning database ---- */

/// Records a finalized execution plan's engine configuration as the fastest measured for its
/// graph on its handle's device, in the tuning database (<HIPDNN_CACHE_DIR>/tuning.jsonl), where
/// ENGINEHEUR finds it and ranks that engine first. `median_ms`: the plan's median time;
/// `runner_up_ms`: the second fastest configuration's median, or 0 when only this one ran; `tool`:
/// what measured it (stored as given, e.g. "autotune"). A record of the same graph and device is
/// replaced. NOT_SUPPORTED when the database is off (HIPDNN_DISABLE_CACHE set, or no cache
/// directory); BAD_PARAM for a negative, non-finite or out-of-order median.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendRecordTuningResult_ext(
    hipdnnBackendDescriptor_t execution_plan, double median_ms, double runner_up_ms, const char* tool);

/// The tuning database files below hold one record per line (a JSON object: graph, device, plugin,
/// plugin_version, engine, knobs, median_ms, margin_ms, date, tool and, for a merged record,
/// provenance), at most one per graph and device. "The current database" is
/// <HIPDNN_CACHE_DIR>/tuning.jsonl as the environment names it at the call; each of these calls
/// returns NOT_SUPPORTED when the environment turns the database off. Files named by the caller
/// must exist and hold only valid lines: otherwise BAD_PARAM naming the file (and the first bad
/// line, with how many more there are).

/// The current database's path. Two-call; the size includes the terminating NUL.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetTuningDatabasePath_ext(size_t requested_byte_size,
                                                                     size_t* byte_size, char* buffer);
/// The records of `database_path` (NULL: the current database, empty when it does not exist yet)
/// as JSON lines, each ending in a newline, in file order. Two-call; the size includes the
/// terminating NUL. A malformed line of the current database is BAD_PARAM naming it, as for any
/// file: hipdnnPruneTuningDatabase_ext drops such lines.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetTuningRecords_ext(const char* database_path,
                                                                size_t requested_byte_size, size_t* byte_size,
                                                                char* buffer);
/// Merges `num_paths` database files into the current one, under its lock: per graph and device
/// the record with the smaller median stays; a record taken from a file records where it came
/// from ("provenance": the file's name, without its directory, unless it already names an earlier source).
/// Every file is read and checked before anything changes. `merged_count` (may be NULL): the
/// records taken from the files.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnMergeTuningDatabases_ext(size_t num_paths,
                                                                    const char* const* database_paths,
                                                                    size_t* merged_count);
/// Drops from the handle's database the records nothing loaded can use: a plugin name and version
/// that no plugin loaded by the handle has (whatever device it serves), a CPU record measured on
/// another CPU fingerprint than the handle's (CPU handles only; GPU records are judged by their
/// plugin), and malformed lines. Each dropped record is logged at info with its reason.
/// `removed_count` (may be NULL): how many were dropped. NOT_SUPPORTED when the handle was created
/// with the database off.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnPruneTuningDatabase_ext(hipdnnHandle_t handle,
                                                                   size_t* removed_count);
/// Writes the current database's records to `path` (through a temporary file renamed over it, so
/// a reader never sees part of it). BAD_PARAM when the directory of `path` does not exist or
/// `path` is a directory, or the current database holds a malformed line. `exported_count` (may
/// be NULL): the records written.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnExportTuningDatabase_ext(const char* path, size_t* exported_count);

/* ---- Errors and version ---- */

HIPDNN_BACKEND_EXPORT const char* hipdnnGetErrorString(hipdnnStatus_t status);
/// Copies the calling thread's last error message (truncated to max_size - 1) and clears it.
HIPDNN_BACKEND_EXPORT void hipdnnGetLastErrorString(char* message, size_t max_size);
/// Copies the calling thread's last error message without clearing it.
HIPDNN_BACKEND_EXPORT void hipdnnPeekLastErrorString_ext(char* message, size_t max_size);
/// "MAJOR.MINOR.PATCH.TWEAK".
HIPDNN_BACKEND_EXPORT const char* hipdnnVersionString_ext(void);
HIPDNN_BACKEND_EXPORT size_t hipdnnGetVersion(void);

/* ---- Plugins ---- */

typedef enum HIPDNN_C_ENUM_BASE {
    HIPDNN_PLUGIN_LOADING_ADDITIVE = 0,
    HIPDNN_PLUGIN_LOADING_ABSOLUTE = 1,
} hipdnnPluginLoadingMode_ext_t;

typedef enum HIPDNN_C_ENUM_BASE {
    HIPDNN_PLUGIN_UNLOAD_LAZY = 0,
    HIPDNN_PLUGIN_UNLOAD_EAGER = 1,
} hipdnnPluginUnloadingMode_ext_t;

/// Sets the custom engine plugin paths (directories or .so files; relative entries resolve
/// against the directory of the backend library). Takes effect at the next handle creation;
/// live handles keep the plugins they were created with.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetEnginePluginPaths_ext(
    size_t num_paths, const char* const* plugin_paths, hipdnnPluginLoadingMode_ext_t loading_mode);
/// LAZY (default): a plugin set no handle uses stays loaded until exit or a path change.
/// EAGER: it is unloaded when its last handle is destroyed.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetPluginUnloadMode_ext(hipdnnPluginUnloadingMode_ext_t mode);
/// Two-call: with plugin_paths == NULL writes the count and the longest path length
/// (terminator included); then fills caller buffers of *max_string_len bytes.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetLoadedEnginePluginPaths_ext(hipdnnHandle_t handle,
                                                                          size_t* num_plugin_paths,
                                                                          char** plugin_paths,
                                                                          size_t* max_string_len);

/* ---- Engine listing (extensions) ---- */

/// Engines of the plugins serving the handle's device, sorted by name, then id.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetEngineCount_ext(hipdnnHandle_t handle, size_t* count);
/// String outputs use the two-call pattern per string: a null buffer writes only its length
/// (terminator included).
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetEngineInfo_ext(hipdnnHandle_t handle, size_t index,
                                                             int64_t* engine_id, char* engine_name,
                                                             size_t* engine_name_len, char* plugin_name,
                                                             size_t* plugin_name_len, char* plugin_path,
                                                             size_t* plugin_path_len);
/// NOT_SUPPORTED when no loaded engine has that name.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetEngineIdByName_ext(hipdnnHandle_t handle, const char* name,
                                                                 int64_t* engine_id);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetEngineNameById_ext(hipdnnHandle_t handle, int64_t engine_id,
                                                                 char* name, size_t* name_len);

/* ---- Logging (extensions) ---- */

typedef enum HIPDNN_C_ENUM_BASE {
    HIPDNN_LOG_CALLBACK_SYNC = 0,
    HIPDNN_LOG_CALLBACK_ASYNC = 1,
} hipdnnLogCallbackMode_t;

/* hipdnnUserLogCallback_t and hipdnnUserLogCallbackHandle_t come from
 * hipdnn_data_sdk/logging/CallbackTypes.h. */

/// Adds, updates (same callback and user_handle) or removes (min_level == HIPDNN_SEV_OFF) a
/// user log callback. Messages still pass the global level first. ASYNC callbacks run on one
/// backend thread, in order. An update or a removal returns only when the previous registration
/// will never be called again — its queued ASYNC messages are dropped and a call in progress on
/// another thread has returned — so user_handle may be freed right after a removal. A callback
/// may add, update or remove callbacks (itself included) from inside a call.
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetUserLogCallback_ext(hipdnnUserLogCallback_t callback,
                                                                  hipdnnSeverity_t min_level,
                                                                  hipdnnLogCallbackMode_t mode,
                                                                  hipdnnUserLogCallbackHandle_t user_handle);
/// The sink plugins and the frontend log through ("[component] message").
HIPDNN_BACKEND_EXPORT void hipdnnLoggingCallback_ext(hipdnnSeverity_t severity, const char* message);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendSetGlobalLogLevel_ext(hipdnnSeverity_t level);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendGetGlobalLogLevel_ext(hipdnnSeverity_t* level);

#ifdef __cplusplus
}
#endif

#endif
