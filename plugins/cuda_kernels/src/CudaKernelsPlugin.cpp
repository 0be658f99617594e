// Entry point of the cuda_kernels plugin: its engines and the generated plugin API.
#include "CudaKernelsHandle.hpp"
#include "Nvrtc.hpp"
#include "attention/AttentionEngine.hpp"
#include "graph/Cudnn.hpp"
#include "graph/GraphEngine.hpp"
#include "matmul/CublasLt.hpp"
#include "matmul/CublasLtEngine.hpp"
#include "norm/NormEngine.hpp"
#include "pointwise/PointwiseEngine.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_plugin_sdk/EngineManager.hpp>
#include <hipdnn_plugin_sdk/LibraryVersions.hpp>

#include <string>

namespace hipdnn_cuda_kernels {

struct CudaKernelsPluginContainer {
    using Handle = CudaKernelsHandle;

    static hipdnn_plugin_sdk::EngineManager<Handle>& getEngineManager() {
        static hipdnn_plugin_sdk::EngineManager<Handle> manager = [] {
            hipdnn_plugin_sdk::EngineManager<Handle> engines;
            engines.addEngine(std::make_unique<PointwiseEngine>());
            engines.addEngine(std::make_unique<NormEngine>());
            engines.addEngine(std::make_unique<CublasLtEngine>());
            engines.addEngine(std::make_unique<AttentionEngine>());
            // Last: it runs, node by node, the graphs the fused engines above decline.
            engines.addEngine(std::make_unique<GraphEngine>());
            return engines;
        }();
        return manager;
    }

    // The libraries the engines run on, those this process can load: cuBLASLt (matmuls), cuDNN (the
    // graph engine's convolutions) and NVRTC (every generated kernel).
    static std::string libraryVersions() {
        std::string versions;
        std::string reason;
        if (const CublasLt* cublasLt = CublasLt::instance(reason)) {
            hipdnn_plugin_sdk::appendLibraryVersion(versions, "cublasLt",
                                                    hipdnn_plugin_sdk::decimalVersion(cublasLt->version()));
        }
        if (const Cudnn* cudnn = Cudnn::instance(reason)) {
            hipdnn_plugin_sdk::appendLibraryVersion(
                versions, "cudnn", hipdnn_plugin_sdk::decimalVersion(cudnn->api().getVersion()));
        }
        if (const Nvrtc* nvrtc = Nvrtc::instance(reason)) {
            hipdnn_plugin_sdk::appendLibraryVersion(versions, "nvrtc", nvrtc->version());
        }
        return versions;
    }
};

}  // namespace hipdnn_cuda_kernels

#define HIPDNN_PLUGIN_NAME "cuda_kernels"
#define HIPDNN_PLUGIN_VERSION HIPDNN_CUDA_KERNELS_VERSION
#define HIPDNN_PLUGIN_CONTAINER_TYPE hipdnn_cuda_kernels::CudaKernelsPluginContainer
#define HIPDNN_PLUGIN_DEVICE_TYPE HIPDNN_DEVICE_TYPE_GPU_EXT
#include <hipdnn_plugin_sdk/EnginePluginImpl.inl>
