#include "VariantPack.hpp"

#include "CudnnEngineConfigs.hpp"
#include "EnumMapping.hpp"

#include <bit>
#include <set>

namespace hipdnn_cudnn_plugin {

uint32_t HostScalar::bits() const {
    if (type == CUDNN_DATA_INT32) {
        return std::bit_cast<uint32_t>(static_cast<int32_t>(value));
    }
    return std::bit_cast<uint32_t>(static_cast<float>(value));
}

PlanBindings PlanBindings::fromSpec(const CudnnGraphSpec& spec) {
    std::set<int64_t> used;
    for (const OperationSpec& operation : spec.operations) {
        for (const TensorPort& port : operation.ports) {
            used.insert(port.uids.begin(), port.uids.end());
        }
    }
    PlanBindings bindings;
    bindings.internalWorkspaceBytes = spec.internalWorkspaceBytes;
    for (int64_t uid : used) {
        const TensorSpec& tensor = spec.tensors.at(uid);
        if (tensor.isVirtual) {
            continue;
        }
        const int64_t cudnnUid = spec.cudnnUid(uid);
        if (tensor.byValue) {
            bindings.scalars.push_back({cudnnUid, tensor.dataType, *tensor.byValue});
        } else if (tensor.workspaceOffset) {
            bindings.workspaceTensors.push_back({cudnnUid, *tensor.workspaceOffset});
        } else {
            bindings.deviceTensors.push_back({uid, cudnnUid});
            if (tensor.zeroedBeforeExecute) {
                bindings.zeroedOutputs.push_back({uid, static_cast<int64_t>(cudnnStorageBytes(
                                                           tensor.dataType, tensor.storageElements()))});
            }
        }
    }
    return bindings;
}

VariantPackArrays::VariantPackArrays(const PlanBindings& bindings)
    : _internalWorkspaceBytes(bindings.internalWorkspaceBytes), _deviceCount(bindings.deviceTensors.size()) {
    for (const DeviceTensor& tensor : bindings.deviceTensors) {
        _uids.push_back(tensor.cudnnUid);
    }
    _pointers.assign(_deviceCount, nullptr);
    for (const WorkspaceTensor& tensor : bindings.workspaceTensors) {
        _uids.push_back(tensor.cudnnUid);
        _workspaceOffsets.push_back(tensor.offset);
        _pointers.push_back(nullptr);
    }
    _scalarBits.reserve(bindings.scalars.size());
    for (const HostScalar& scalar : bindings.scalars) {
        _uids.push_back(scalar.cudnnUid);
        _scalarBits.push_back(scalar.bits());
    }
    // cuDNN reads by-value scalars through host pointers; _scalarBits never reallocates again.
    for (uint32_t& bits : _scalarBits) {
        _pointers.push_back(&bits);
    }
}

bool VariantPackArrays::setDevice(size_t index, void* pointer) {
    const bool changed = _pointers[index] != pointer;
    _pointers[index] = pointer;
    return changed;
}

bool VariantPackArrays::setWorkspace(void* workspace) {
    if (_workspaceSet && workspace == _workspace) {
        return false;
    }
    _workspace = workspace;
    _workspaceSet = true;
    for (size_t i = 0; i < _workspaceOffsets.size(); ++i) {
        _pointers[_deviceCount + i] = static_cast<std::byte*>(workspace) + _workspaceOffsets[i];
    }
    return true;
}

CudnnDescriptor VariantPackArrays::makePack() const {
    void* planWorkspace = _workspace == nullptr || _internalWorkspaceBytes == 0
                              ? _workspace
                              : static_cast<std::byte*>(_workspace) + _internalWorkspaceBytes;
    return makeVariantPack(_uids, _pointers, planWorkspace);
}

}  // namespace hipdnn_cudnn_plugin
