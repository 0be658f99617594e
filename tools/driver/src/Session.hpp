// The backend handles a run uses: one bound to the device under test and, for validation, one
// bound to the CPU (the same handle when the device is the CPU).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <hipdnn_backend.h>

#include "Ceilings.hpp"

namespace hipdnn_driver {

// The environment cannot run what was asked (no such device, backend failure).
class DriverError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct EngineInfo {
    int64_t id = 0;
    std::string name;
    std::string pluginName;
    std::string pluginPath;
};

class Session {
public:
    // device: "" (hipdnnCreate's choice; the CPU when the driver is built without CUDA), "cpu",
    // "gpu", "gpu:N". Throws DriverError.
    explicit Session(const std::string& device);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // CUDA devices the driver can place buffers on; 0 when built without CUDA or none is usable.
    [[nodiscard]] static int gpuCount();

    [[nodiscard]] hipdnnHandle_t handle() const { return handle_; }
    // A CPU handle for CPU_REFERENCE_ENGINE; created on first use when the device is a GPU.
    hipdnnHandle_t referenceHandle();
    [[nodiscard]] bool isGpu() const { return isGpu_; }
    [[nodiscard]] int ordinal() const { return ordinal_; }
    // "CPU (2 threads)" / "GPU 0 (NVIDIA H200)".
    [[nodiscard]] std::string deviceDescription() const;
    // The engines of the handle's device, as the backend lists them.
    [[nodiscard]] std::vector<EngineInfo> engines() const;
    // Every plugin the backend loaded, whatever device it serves.
    [[nodiscard]] std::vector<std::string> loadedPluginPaths() const;
    // Measured once, on first use.
    const Ceilings& ceilings();

private:
    hipdnnHandle_t handle_ = nullptr;
    hipdnnHandle_t cpuHandle_ = nullptr;  // only when the device is a GPU
    bool isGpu_ = false;
    int ordinal_ = 0;
    std::optional<Ceilings> ceilings_;
};

// The backend's last error after a failing call, as "<what>: <status>: <message>".
std::string backendFailure(const std::string& what, hipdnnStatus_t status);

}  // namespace hipdnn_driver
