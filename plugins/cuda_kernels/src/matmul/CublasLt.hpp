// cuBLASLt, loaded at first use with dlopen so that the plugin loads (and CUBLASLT_ENGINE declines
// graphs with a reason) where libcublasLt is absent: it is large and often not installed.
#pragma once

#include <cublasLt.h>

#include <memory>
#include <string>

namespace hipdnn_cuda_kernels {

/// The file names dlopen is asked for, in order; the loader's search path finds them.
inline constexpr const char* kCublasLtLibraryName = "libcublasLt.so.13";
inline constexpr const char* kCublasLtFallbackLibraryName = "libcublasLt.so";

class CublasLt {
public:
    /// The functions the engine calls; only the declarations of cublasLt.h are used.
    struct Functions {
        decltype(&cublasLtGetVersion) getVersion = nullptr;
        decltype(&cublasLtGetStatusString) getStatusString = nullptr;
        decltype(&cublasLtCreate) create = nullptr;
        decltype(&cublasLtDestroy) destroy = nullptr;
        decltype(&cublasLtMatmulDescCreate) matmulDescCreate = nullptr;
        decltype(&cublasLtMatmulDescDestroy) matmulDescDestroy = nullptr;
        decltype(&cublasLtMatmulDescSetAttribute) matmulDescSetAttribute = nullptr;
        decltype(&cublasLtMatrixLayoutCreate) matrixLayoutCreate = nullptr;
        decltype(&cublasLtMatrixLayoutDestroy) matrixLayoutDestroy = nullptr;
        decltype(&cublasLtMatrixLayoutSetAttribute) matrixLayoutSetAttribute = nullptr;
        decltype(&cublasLtMatmulPreferenceCreate) matmulPreferenceCreate = nullptr;
        decltype(&cublasLtMatmulPreferenceDestroy) matmulPreferenceDestroy = nullptr;
        decltype(&cublasLtMatmulPreferenceSetAttribute) matmulPreferenceSetAttribute = nullptr;
        decltype(&cublasLtMatmulAlgoGetHeuristic) matmulAlgoGetHeuristic = nullptr;
        decltype(&cublasLtMatmul) matmul = nullptr;
    };

    /// The process-wide instance: kCublasLtLibraryName, else kCublasLtFallbackLibraryName, loaded
    /// on the first call; every later call returns the same outcome. Null when neither loads;
    /// `reason` then names the libraries and dlerror's text.
    static const CublasLt* instance(std::string& reason);

    /// Opens `libraryName` and resolves Functions; null with `reason` ("cuBLASLt is not available:
    /// ...") when the library or a function is missing.
    static std::unique_ptr<CublasLt> load(const char* libraryName, std::string& reason);

    const Functions& api() const { return _functions; }
    /// cublasLtGetVersion(), e.g. 130100.
    size_t version() const { return _functions.getVersion(); }

    ~CublasLt();
    CublasLt(const CublasLt&) = delete;
    CublasLt& operator=(const CublasLt&) = delete;

private:
    CublasLt(void* library, const Functions& functions) : _library(library), _functions(functions) {}

    void* _library;
    Functions _functions;
};

}  // namespace hipdnn_cuda_kernels
