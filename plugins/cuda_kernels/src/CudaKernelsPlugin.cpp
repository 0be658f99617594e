// Entry point of the cuda_kernels plugin: its engines and the generated plugin API.
#include "CudaKernelsHandle.hpp"
#include "attention/AttentionEngine.hpp"
#include "graph/GraphEngine.hpp"
#include "matmul/CublasLtEngine.hpp"
#include "norm/NormEngine.hpp"
#include "pointwise/PointwiseEngine.hpp"

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_plugin_sdk/EngineManager.hpp>

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
};

}  // namespace hipdnn_cuda_kernels

#define HIPDNN_PLUGIN_NAME "cuda_kernels"
#define HIPDNN_PLUGIN_VERSION HIPDNN_CUDA_KERNELS_VERSION
#define HIPDNN_PLUGIN_CONTAINER_TYPE hipdnn_cuda_kernels::CudaKernelsPluginContainer
#define HIPDNN_PLUGIN_DEVICE_TYPE HIPDNN_DEVICE_TYPE_GPU_EXT
#include <hipdnn_plugin_sdk/EnginePluginImpl.inl>
