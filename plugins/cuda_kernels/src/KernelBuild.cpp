#include "KernelBuild.hpp"

#include "KernelCache.hpp"

#include <hipdnn_data_sdk/logging/CallbackLogger.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>

#include <chrono>

namespace hipdnn_cuda_kernels {

const Nvrtc* nvrtcFor(const DeviceInfo& device, std::string& reason) {
    const Nvrtc* nvrtc = Nvrtc::instance(reason);
    if (nvrtc == nullptr) {
        return nullptr;
    }
    if (!nvrtc->supportsArchitecture(device.computeCapability)) {
        reason = "NVRTC " + nvrtc->version() + " cannot compile for sm_" +
                 std::to_string(device.computeCapability);
        return nullptr;
    }
    return nvrtc;
}

std::shared_ptr<const KernelModule> buildKernelModule(const char* engine, const DeviceInfo& device,
                                                      const std::string& source,
                                                      const std::vector<std::string>& kernelNames) {
    const auto started = std::chrono::steady_clock::now();
    std::string reason;
    const Nvrtc* nvrtc = nvrtcFor(device, reason);
    if (nvrtc == nullptr) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                                             std::string(engine) + " cannot run this graph: " + reason);
    }
    std::string key;
    const KernelCache::Entry entry =
        obtainCubin(KernelCache::process(), *nvrtc, source, device.computeCapability, key);
    if (entry.cubin == nullptr) {
        throw hipdnn_plugin_sdk::PluginError(
            HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
            std::string(engine) + ": kernel " + key + " failed to compile: " + entry.error);
    }
    auto module = KernelModule::load(key, *entry.cubin, kernelNames);
    const double milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    const char* origin = entry.origin == KernelCache::Origin::Memory ? "memory"
                         : entry.origin == KernelCache::Origin::Disk ? "the disk cache"
                                                                     : "NVRTC";
    HIPDNN_SDK_LOG_INFO("cuda_kernels", engine << " kernel " << key << " for sm_" << device.computeCapability
                                               << " from " << origin << " in " << milliseconds << " ms");
    return module;
}

}  // namespace hipdnn_cuda_kernels
