#include "CublasLt.hpp"

#include "../DynamicLibrary.hpp"

namespace hipdnn_cuda_kernels {

namespace {

constexpr const char* kUnavailable = "cuBLASLt is not available: ";

}  // namespace

CublasLt::~CublasLt() {
    dlclose(_library);
}

std::unique_ptr<CublasLt> CublasLt::load(const char* libraryName, std::string& reason) {
    Functions functions;
    void* library = openWithFunctions(
        libraryName, kUnavailable, functions,
        [](Functions& f, const auto& resolve) {
            return resolve("cublasLtGetVersion", f.getVersion) &&
                   resolve("cublasLtGetStatusString", f.getStatusString) &&
                   resolve("cublasLtCreate", f.create) && resolve("cublasLtDestroy", f.destroy) &&
                   resolve("cublasLtMatmulDescCreate", f.matmulDescCreate) &&
                   resolve("cublasLtMatmulDescDestroy", f.matmulDescDestroy) &&
                   resolve("cublasLtMatmulDescSetAttribute", f.matmulDescSetAttribute) &&
                   resolve("cublasLtMatrixLayoutCreate", f.matrixLayoutCreate) &&
                   resolve("cublasLtMatrixLayoutDestroy", f.matrixLayoutDestroy) &&
                   resolve("cublasLtMatrixLayoutSetAttribute", f.matrixLayoutSetAttribute) &&
                   resolve("cublasLtMatmulPreferenceCreate", f.matmulPreferenceCreate) &&
                   resolve("cublasLtMatmulPreferenceDestroy", f.matmulPreferenceDestroy) &&
                   resolve("cublasLtMatmulPreferenceSetAttribute", f.matmulPreferenceSetAttribute) &&
                   resolve("cublasLtMatmulAlgoGetHeuristic", f.matmulAlgoGetHeuristic) &&
                   resolve("cublasLtMatmul", f.matmul);
        },
        reason);
    return library != nullptr ? std::unique_ptr<CublasLt>(new CublasLt(library, functions)) : nullptr;
}

const CublasLt* CublasLt::instance(std::string& reason) {
    return loadOnce<CublasLt>(kCublasLtLibraryName, kCublasLtFallbackLibraryName, reason);
}

}  // namespace hipdnn_cuda_kernels
