// Base of a plugin's per-backend-handle state.
#pragma once

#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>

namespace hipdnn_plugin_sdk {

/// One instance exists per hipdnnEnginePluginCreate call. Plugins derive their own handle type
/// and acquire device objects in its constructor; a throwing constructor makes Create fail
/// with the exception's message.
class PluginHandleBase {
public:
    PluginHandleBase() = default;
    virtual ~PluginHandleBase() = default;

    PluginHandleBase(const PluginHandleBase&) = delete;
    PluginHandleBase& operator=(const PluginHandleBase&) = delete;

    /// A cudaStream_t for GPU plugins (null: the legacy default stream); CPU plugins ignore it.
    hipdnnPluginStream_t stream() const noexcept { return _stream; }

    /// Virtual so that a handle can rebind stream-dependent objects (for example library handles).
    virtual void setStream(hipdnnPluginStream_t stream) { _stream = stream; }

    /// The NCCL communicator (an ncclComm_t on the handle's GPU) through which engines combine
    /// statistics across GPUs; null when none is attached. Owned by the backend or the user.
    void* communicator() const noexcept { return _communicator; }

    /// Virtual so that a handle can drop state tied to the previous communicator.
    virtual void setCommunicator(void* communicator) { _communicator = communicator; }

private:
    hipdnnPluginStream_t _stream = nullptr;
    void* _communicator = nullptr;
};

}  // namespace hipdnn_plugin_sdk
