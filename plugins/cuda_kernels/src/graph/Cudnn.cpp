#include "Cudnn.hpp"

#include "../DynamicLibrary.hpp"

#include <array>

namespace hipdnn_cuda_kernels {

namespace {

constexpr const char* kUnavailable = "cuDNN is not available: ";

}  // namespace

Cudnn::~Cudnn() {
    dlclose(_library);
}

std::unique_ptr<Cudnn> Cudnn::load(const char* libraryName, std::string& reason) {
    Functions functions;
    void* library = openWithFunctions(
        libraryName, kUnavailable, functions,
        [](Functions& f, const auto& resolve) {
            return resolve("cudnnGetVersion", f.getVersion) &&
                   resolve("cudnnGetErrorString", f.getErrorString) &&
                   resolve("cudnnGetLastErrorString", f.getLastErrorString) &&
                   resolve("cudnnCreate", f.create) && resolve("cudnnDestroy", f.destroy) &&
                   resolve("cudnnSetStream", f.setStream) &&
                   resolve("cudnnBackendCreateDescriptor", f.createDescriptor) &&
                   resolve("cudnnBackendDestroyDescriptor", f.destroyDescriptor) &&
                   resolve("cudnnBackendSetAttribute", f.setAttribute) &&
                   resolve("cudnnBackendGetAttribute", f.getAttribute) &&
                   resolve("cudnnBackendFinalize", f.finalize) && resolve("cudnnBackendExecute", f.execute);
        },
        reason);
    return library != nullptr ? std::unique_ptr<Cudnn>(new Cudnn(library, functions)) : nullptr;
}

const Cudnn* Cudnn::instance(std::string& reason) {
    return loadOnce<Cudnn>(kCudnnLibraryName, kCudnnFallbackLibraryName, reason);
}

std::string Cudnn::describe(cudnnStatus_t status) const {
    std::string text = _functions.getErrorString(status);
    std::array<char, 1024> detail{};
    _functions.getLastErrorString(detail.data(), detail.size());
    if (detail[0] != '\0') {
        text += " (" + std::string(detail.data()) + ")";
    }
    return text;
}

}  // namespace hipdnn_cuda_kernels
