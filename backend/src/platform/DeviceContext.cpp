#include "platform/DeviceContext.hpp"

namespace hipdnn_backend::platform {

DeviceContext::DeviceContext(int ordinal) : _ordinal(ordinal) {
    const CudaDriverApi& api = CudaDriverApi::instance();
    api.check(api.deviceGet(&_device, ordinal), "cuDeviceGet");
    api.check(api.primaryContextRetain(&_context, _device), "cuDevicePrimaryCtxRetain");
}

DeviceContext::~DeviceContext() {
    (void)CudaDriverApi::instance().primaryContextRelease(_device);
}

CurrentDevice::CurrentDevice(const DeviceContext* device) : _device(device) {
    if (_device != nullptr) {
        const CudaDriverApi& api = CudaDriverApi::instance();
        api.check(api.contextPush(_device->context()), "cuCtxPushCurrent");
    }
}

CurrentDevice::~CurrentDevice() {
    if (_device != nullptr) {
        DriverHandle popped = nullptr;
        (void)CudaDriverApi::instance().contextPop(&popped);
    }
}

}  // namespace hipdnn_backend::platform
