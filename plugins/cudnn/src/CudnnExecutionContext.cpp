#include "CudnnExecutionContext.hpp"

#include "CudnnHandle.hpp"

#include <hipdnn_data_sdk/logging/CallbackLogger.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string_view>

namespace hipdnn_cudnn_plugin {

namespace {

// Serialized form: magic, format version, the plan's tensor bindings and cuDNN's JSON.
constexpr std::string_view kMagic = "HDNNCUDN";
constexpr uint32_t kFormatVersion = 4;

constexpr const char* kLogComponent = "cudnn";
// Executes with the previous call's pointers before the plan is captured as a CUDA graph: a
// caller that rebinds buffers every call never pays for a capture it cannot replay.
constexpr int kRepeatsBeforeCapture = 1;

bool isCapturing(cudaStream_t stream) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    return cudaStreamIsCapturing(stream, &status) != cudaSuccess || status != cudaStreamCaptureStatusNone;
}

class Writer {
public:
    template <class T>
    void put(const T& value) {
        const auto* raw = reinterpret_cast<const uint8_t*>(&value);
        _bytes.insert(_bytes.end(), raw, raw + sizeof(T));
    }
    void putBytes(const void* data, size_t size) {
        const auto* raw = static_cast<const uint8_t*>(data);
        _bytes.insert(_bytes.end(), raw, raw + size);
    }
    std::vector<uint8_t> release() { return std::move(_bytes); }

private:
    std::vector<uint8_t> _bytes;
};

class Reader {
public:
    explicit Reader(std::span<const uint8_t> bytes) : _bytes(bytes) {}
    template <class T>
    T get() {
        T value{};
        std::memcpy(&value, take(sizeof(T)), sizeof(T));
        return value;
    }
    const uint8_t* take(size_t size) {
        if (size > _bytes.size() - _offset) {
            throw hipdnn_plugin_sdk::PluginError(
                HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                "serialized cuDNN execution context is truncated at byte " + std::to_string(_offset));
        }
        const uint8_t* start = _bytes.data() + _offset;
        _offset += size;
        return start;
    }

private:
    std::span<const uint8_t> _bytes;
    size_t _offset = 0;
};

}  // namespace

CudnnExecutionContext::CudnnExecutionContext(std::shared_ptr<CudnnPlan> plan, PlanBindings bindings,
                                             std::shared_ptr<void> keepAlive)
    : _plan(std::move(plan)),
      _bindings(std::move(bindings)),
      _keepAlive(std::move(keepAlive)),
      _arrays(_bindings) {}

void CudnnExecutionContext::execute(hipdnn_plugin_sdk::PluginHandleBase& handle, void* workspace,
                                    const hipdnn_plugin_sdk::DeviceBuffers& buffers) {
    auto& cudnnHandle = static_cast<CudnnHandle&>(handle);
    std::lock_guard lock(_mutex);
    bool changed = _arrays.setWorkspace(workspace) || !_variantPack.has_value();
    for (size_t i = 0; i < _bindings.deviceTensors.size(); ++i) {
        changed = _arrays.setDevice(i, buffers.pointer(_bindings.deviceTensors[i].uid)) || changed;
    }
    if (changed) {
        // A finalized variant pack is immutable, so new pointers need a new one.
        _variantPack.reset();
        _variantPack = _arrays.makePack();
        _replay.reset();
        _callsWithSamePointers = 0;
    } else if (_callsWithSamePointers < kRepeatsBeforeCapture) {
        ++_callsWithSamePointers;
    }
    cudaStream_t stream = nullptr;
    checkCudnn(cudnnGetStream(cudnnHandle.cudnn(), &stream), "cudnnGetStream");
    zeroOutputs(buffers, stream);
    if (replayReady(cudnnHandle.cudnn(), stream)) {
        _replay.launch(stream);
        return;
    }
    const cudnnStatus_t status = cudnnBackendExecute(cudnnHandle.cudnn(), _plan->get(), _variantPack->get());
    if (status != CUDNN_STATUS_SUCCESS) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                             "cudnnBackendExecute failed: " + describeCudnnStatus(status));
    }
}

void CudnnExecutionContext::zeroOutputs(const hipdnn_plugin_sdk::DeviceBuffers& buffers,
                                        cudaStream_t stream) const {
    for (const ZeroedOutput& output : _bindings.zeroedOutputs) {
        const cudaError_t error =
            cudaMemsetAsync(buffers.pointer(output.uid), 0, static_cast<size_t>(output.bytes), stream);
        if (error != cudaSuccess) {
            cudaGetLastError();
            throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                                 "cudaMemsetAsync of output uid " +
                                                     std::to_string(output.uid) +
                                                     " failed: " + cudaGetErrorName(error));
        }
    }
}

bool CudnnExecutionContext::replayReady(cudnnHandle_t cudnn, cudaStream_t stream) {
    // A caller capturing its own CUDA graph records the plain execute instead.
    if (_replayUnsupported || _callsWithSamePointers < kRepeatsBeforeCapture || isCapturing(stream)) {
        return false;
    }
    if (!_replay.ready()) {
        std::string failure;
        if (!_replay.capture(cudnn, _plan->get(), _variantPack->get(), failure)) {
            _replayUnsupported = true;
            HIPDNN_SDK_LOG_INFO(kLogComponent, "plan executes without CUDA graph replay: " << failure);
            return false;
        }
    }
    return true;
}

std::vector<uint8_t> CudnnExecutionContext::serialize() const {
    std::string json;
    try {
        json = _plan->json();
    } catch (const CudnnError& error) {
        throw hipdnn_plugin_sdk::PluginError(
            HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
            std::string("this cuDNN plan cannot be serialized: ") + error.what());
    }
    Writer writer;
    writer.putBytes(kMagic.data(), kMagic.size());
    writer.put(kFormatVersion);
    writer.put(static_cast<uint64_t>(_bindings.deviceTensors.size()));
    for (const DeviceTensor& tensor : _bindings.deviceTensors) {
        writer.put(tensor.uid);
        writer.put(tensor.cudnnUid);
    }
    writer.put(static_cast<uint64_t>(_bindings.workspaceTensors.size()));
    for (const WorkspaceTensor& tensor : _bindings.workspaceTensors) {
        writer.put(tensor.cudnnUid);
        writer.put(tensor.offset);
    }
    writer.put(_bindings.internalWorkspaceBytes);
    writer.put(static_cast<uint64_t>(_bindings.scalars.size()));
    for (const HostScalar& scalar : _bindings.scalars) {
        writer.put(scalar.cudnnUid);
        writer.put(static_cast<int32_t>(scalar.type));
        writer.put(scalar.value);
    }
    writer.put(static_cast<uint64_t>(_bindings.zeroedOutputs.size()));
    for (const ZeroedOutput& output : _bindings.zeroedOutputs) {
        writer.put(output.uid);
        writer.put(output.bytes);
    }
    writer.put(static_cast<uint64_t>(json.size()));
    writer.putBytes(json.data(), json.size());
    return writer.release();
}

std::unique_ptr<CudnnExecutionContext> CudnnExecutionContext::deserialize(cudnnHandle_t handle,
                                                                          std::span<const uint8_t> bytes) {
    Reader reader(bytes);
    if (std::memcmp(reader.take(kMagic.size()), kMagic.data(), kMagic.size()) != 0) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                             "bytes are not a serialized cuDNN execution context");
    }
    const auto version = reader.get<uint32_t>();
    if (version != kFormatVersion) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                             "serialized cuDNN execution context has format version " +
                                                 std::to_string(version) + ", expected " +
                                                 std::to_string(kFormatVersion));
    }
    PlanBindings bindings;
    const auto deviceCount = reader.get<uint64_t>();
    for (uint64_t i = 0; i < deviceCount; ++i) {
        DeviceTensor tensor;
        tensor.uid = reader.get<int64_t>();
        tensor.cudnnUid = reader.get<int64_t>();
        bindings.deviceTensors.push_back(tensor);
    }
    const auto workspaceCount = reader.get<uint64_t>();
    for (uint64_t i = 0; i < workspaceCount; ++i) {
        WorkspaceTensor tensor;
        tensor.cudnnUid = reader.get<int64_t>();
        tensor.offset = reader.get<int64_t>();
        bindings.workspaceTensors.push_back(tensor);
    }
    bindings.internalWorkspaceBytes = reader.get<int64_t>();
    for (const WorkspaceTensor& tensor : bindings.workspaceTensors) {
        if (tensor.offset < 0 || tensor.offset >= bindings.internalWorkspaceBytes) {
            throw hipdnn_plugin_sdk::PluginError(
                HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                "serialized cuDNN execution context puts tensor uid " + std::to_string(tensor.cudnnUid) +
                    " at workspace offset " + std::to_string(tensor.offset) + ", outside its " +
                    std::to_string(bindings.internalWorkspaceBytes) + " internal bytes");
        }
    }
    const auto scalarCount = reader.get<uint64_t>();
    for (uint64_t i = 0; i < scalarCount; ++i) {
        HostScalar scalar;
        scalar.cudnnUid = reader.get<int64_t>();
        const auto type = static_cast<cudnnDataType_t>(reader.get<int32_t>());
        if (type != CUDNN_DATA_FLOAT && type != CUDNN_DATA_INT32) {
            throw hipdnn_plugin_sdk::PluginError(
                HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                "serialized cuDNN execution context has a scalar of data type " +
                    std::to_string(static_cast<int>(type)) + "; only FLOAT and INT32 scalars exist");
        }
        scalar.type = type;
        scalar.value = reader.get<double>();
        bindings.scalars.push_back(scalar);
    }
    const auto zeroedCount = reader.get<uint64_t>();
    for (uint64_t i = 0; i < zeroedCount; ++i) {
        ZeroedOutput output;
        output.uid = reader.get<int64_t>();
        output.bytes = reader.get<int64_t>();
        const auto isOutput = [&](const DeviceTensor& tensor) { return tensor.uid == output.uid; };
        if (std::none_of(bindings.deviceTensors.begin(), bindings.deviceTensors.end(), isOutput) ||
            output.bytes <= 0) {
            throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                                 "serialized cuDNN execution context zeroes " +
                                                     std::to_string(output.bytes) + " bytes of tensor uid " +
                                                     std::to_string(output.uid) +
                                                     ", which is no device tensor of the plan");
        }
        bindings.zeroedOutputs.push_back(output);
    }
    const auto jsonSize = reader.get<uint64_t>();
    const auto* json = reinterpret_cast<const char*>(reader.take(jsonSize));
    std::shared_ptr<CudnnPlan> plan;
    try {
        plan = std::make_shared<CudnnPlan>(handle, std::string(json, jsonSize));
    } catch (const CudnnError& error) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                             std::string("cannot rebuild the cuDNN plan: ") + error.what());
    }
    return std::make_unique<CudnnExecutionContext>(std::move(plan), std::move(bindings), nullptr);
}

}  // namespace hipdnn_cudnn_plugin
