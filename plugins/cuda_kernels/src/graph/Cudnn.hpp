// cuDNN, loaded at first use with dlopen so that the plugin neither links it nor needs it to load:
// without it CUDA_GRAPH_ENGINE declines convolutions naming the library. Only the backend
// (descriptor) API is used, through the declarations of cudnn_graph.h.
#pragma once

#include <cudnn_graph.h>

#include <memory>
#include <string>

namespace hipdnn_cuda_kernels {

/// The file names dlopen is asked for, in order; the loader's search path finds them.
inline constexpr const char* kCudnnLibraryName = "libcudnn.so.9";
inline constexpr const char* kCudnnFallbackLibraryName = "libcudnn.so";

class Cudnn {
public:
    struct Functions {
        decltype(&cudnnGetVersion) getVersion = nullptr;
        decltype(&cudnnGetErrorString) getErrorString = nullptr;
        decltype(&cudnnGetLastErrorString) getLastErrorString = nullptr;
        decltype(&cudnnCreate) create = nullptr;
        decltype(&cudnnDestroy) destroy = nullptr;
        decltype(&cudnnSetStream) setStream = nullptr;
        decltype(&cudnnBackendCreateDescriptor) createDescriptor = nullptr;
        decltype(&cudnnBackendDestroyDescriptor) destroyDescriptor = nullptr;
        decltype(&cudnnBackendSetAttribute) setAttribute = nullptr;
        decltype(&cudnnBackendGetAttribute) getAttribute = nullptr;
        decltype(&cudnnBackendFinalize) finalize = nullptr;
        decltype(&cudnnBackendExecute) execute = nullptr;
    };

    /// The process-wide instance: kCudnnLibraryName, else kCudnnFallbackLibraryName, loaded on the
    /// first call; every later call returns the same outcome. Null when neither loads; `reason`
    /// then names the libraries and dlerror's text.
    static const Cudnn* instance(std::string& reason);

    /// Opens `libraryName` and resolves Functions; null with `reason` ("cuDNN is not available:
    /// ...") when the library or a function is missing.
    static std::unique_ptr<Cudnn> load(const char* libraryName, std::string& reason);

    const Functions& api() const { return _functions; }

    /// "CUDNN_STATUS_NOT_SUPPORTED (<cuDNN's last error message, when it has one>)".
    std::string describe(cudnnStatus_t status) const;

    ~Cudnn();
    Cudnn(const Cudnn&) = delete;
    Cudnn& operator=(const Cudnn&) = delete;

private:
    Cudnn(void* library, const Functions& functions) : _library(library), _functions(functions) {}

    void* _library;
    Functions _functions;
};

}  // namespace hipdnn_cuda_kernels
