// Handles, devices, streams and NCCL communicators.
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "api/ApiGuard.hpp"
#include "api/HandleRegistry.hpp"
#include "platform/DeviceDetection.hpp"
#include "platform/Nccl.hpp"

namespace hipdnn_backend::api {

namespace {

struct DeviceBinding {
    hipdnnDeviceType_ext_t type;
    int ordinal;
};

void requireUsableGpu(int ordinal) {
    const int available = platform::cudaDeviceCount();
    if (ordinal < 0 || ordinal >= available) {
        throw HipdnnException(
            HIPDNN_STATUS_BAD_PARAM,
            fmt::format("CUDA device {} requested but {} usable CUDA device(s) found", ordinal, available));
    }
}

// HIPDNN_DEVICE: "cpu", "gpu" (GPU 0) or "gpu:N"; unset: GPU 0 when usable, else the CPU.
DeviceBinding defaultBinding() {
    const char* value = std::getenv("HIPDNN_DEVICE");
    if (value == nullptr || *value == '\0') {
        return platform::cudaDeviceCount() > 0 ? DeviceBinding{HIPDNN_DEVICE_TYPE_GPU_EXT, 0}
                                               : DeviceBinding{HIPDNN_DEVICE_TYPE_CPU_EXT, 0};
    }
    const std::string_view text(value);
    if (text == "cpu") {
        return {HIPDNN_DEVICE_TYPE_CPU_EXT, 0};
    }
    if (text == "gpu") {
        return {HIPDNN_DEVICE_TYPE_GPU_EXT, 0};
    }
    if (text.starts_with("gpu:") && text.size() > 4 &&
        text.substr(4).find_first_not_of("0123456789") == std::string_view::npos && text.size() <= 13) {
        return {HIPDNN_DEVICE_TYPE_GPU_EXT, std::stoi(std::string(text.substr(4)))};
    }
    throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                          fmt::format("Invalid HIPDNN_DEVICE value '{}' (expected cpu, gpu or gpu:N)", text));
}

void createHandle(hipdnnHandle_t* handle, DeviceBinding binding) {
    if (binding.type == HIPDNN_DEVICE_TYPE_GPU_EXT) {
        requireUsableGpu(binding.ordinal);
    } else if (binding.type != HIPDNN_DEVICE_TYPE_CPU_EXT) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              fmt::format("Invalid device type {}", static_cast<int>(binding.type)));
    }
    const int ordinal = binding.type == HIPDNN_DEVICE_TYPE_CPU_EXT ? 0 : binding.ordinal;
    *handle = registerHandle(std::make_shared<plugin::HandleState>(binding.type, ordinal));
}

// BAD_PARAM naming `what` (for example "handles[1]") and the handle's device when it is not a GPU
// handle: an NCCL communicator lives on one GPU.
void requireGpuHandle(const plugin::HandleState& state, const std::string& what) {
    if (state.device() != HIPDNN_DEVICE_TYPE_GPU_EXT) {
        throw HipdnnException(HIPDNN_STATUS_BAD_PARAM,
                              fmt::format("{} is bound to device cpu; an NCCL communicator attaches only "
                                          "to a GPU handle",
                                          what));
    }
}

// The live handle at `index` of the caller's array, BAD_PARAM naming the index otherwise.
std::shared_ptr<plugin::HandleState> lookupHandleAt(const hipdnnHandle_t* handles, size_t index) {
    const std::string what = fmt::format("handles[{}]", index);
    requireNotNull(handles[index], what.c_str());
    std::shared_ptr<plugin::HandleState> state;
    try {
        state = lookupHandle(handles[index]);
    } catch (const HipdnnException& error) {
        throw HipdnnException(error.status(), what + ": " + error.what());
    }
    requireGpuHandle(*state, what);
    return state;
}

std::vector<platform::NcclCommunicator> createCommunicators(const std::vector<int>& ordinals) {
    try {
        return platform::createNcclCommunicators(ordinals);
    } catch (const platform::NcclUnavailable& error) {
        throw HipdnnException(HIPDNN_STATUS_NOT_SUPPORTED, error.what());
    } catch (const platform::NcclError& error) {
        throw HipdnnException(HIPDNN_STATUS_INTERNAL_ERROR,
                              fmt::format("Cannot create NCCL communicators over GPUs {}: {}",
                                          fmt::join(ordinals, ", "), error.what()));
    }
}

}  // namespace

}  // namespace hipdnn_backend::api

using namespace hipdnn_backend;
using namespace hipdnn_backend::api;

extern "C" {

hipdnnStatus_t hipdnnCreate(hipdnnHandle_t* handle) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        createHandle(handle, defaultBinding());
    });
}

hipdnnStatus_t hipdnnCreateForDevice_ext(hipdnnHandle_t* handle, hipdnnDeviceType_ext_t device_type,
                                         int ordinal) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        createHandle(handle, {device_type, ordinal});
    });
}

hipdnnStatus_t hipdnnGetDevice_ext(hipdnnHandle_t handle, hipdnnDeviceType_ext_t* device_type, int* ordinal) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        requireNotNull(device_type, "device_type");
        requireNotNull(ordinal, "ordinal");
        const auto state = lookupHandle(handle);
        *device_type = state->device();
        *ordinal = state->ordinal();
    });
}

hipdnnStatus_t hipdnnDestroy(hipdnnHandle_t handle) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        unregisterHandle(handle);
    });
}

hipdnnStatus_t hipdnnSetStream(hipdnnHandle_t handle, hipdnnStream_t stream) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        lookupHandle(handle)->setStream(stream);
    });
}

hipdnnStatus_t hipdnnGetStream(hipdnnHandle_t handle, hipdnnStream_t* stream) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        requireNotNull(stream, "stream");
        *stream = lookupHandle(handle)->stream();
    });
}

hipdnnStatus_t hipdnnSetCommunicator_ext(hipdnnHandle_t handle, void* communicator) {
    return guardedCall(__func__, [&] {
        requireNotNull(handle, "handle");
        const auto state = lookupHandle(handle);
        requireGpuHandle(*state, "The handle");
        state->setCommunicator(communicator);
    });
}

hipdnnStatus_t hipdnnCreateCommunicators_ext(size_t count, const hipdnnHandle_t* handles) {
    return guardedCall(__func__, [&] {
        if (count == 0) {
            throw HipdnnException(HIPDNN_STATUS_BAD_PARAM, "count is 0; give at least one handle");
        }
        requireNotNull(handles, "handles");
        std::vector<std::shared_ptr<plugin::HandleState>> states;
        std::vector<int> ordinals;
        for (size_t index = 0; index < count; ++index) {
            states.push_back(lookupHandleAt(handles, index));
            const int ordinal = states.back()->ordinal();
            for (size_t earlier = 0; earlier < index; ++earlier) {
                if (ordinals[earlier] == ordinal) {
                    throw HipdnnException(
                        HIPDNN_STATUS_BAD_PARAM,
                        fmt::format("handles[{}] and handles[{}] are both bound to GPU {}; NCCL takes one "
                                    "handle per GPU",
                                    earlier, index, ordinal));
                }
            }
            ordinals.push_back(ordinal);
        }
        std::vector<platform::NcclCommunicator> communicators = createCommunicators(ordinals);
        for (size_t index = 0; index < count; ++index) {
            states[index]->adoptCommunicator(std::move(communicators[index]));
        }
    });
}

}  // extern "C"
