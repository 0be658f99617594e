// A minimal CPU plugin: MY_CUSTOM_ENGINE copies the input of a single float IDENTITY pointwise
// node to its output.
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_plugin_sdk/EngineManager.hpp>
#include <hipdnn_plugin_sdk/IEngine.hpp>
#include <hipdnn_plugin_sdk/IExecutionContext.hpp>
#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

HIPDNN_REGISTER_ENGINE(MY_CUSTOM_ENGINE)

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_flatbuffers_sdk::EngineConfigWrapper;
using hipdnn_flatbuffers_sdk::GraphWrapper;

class MyHandle : public hipdnn_plugin_sdk::PluginHandleBase {};

class CopyContext : public hipdnn_plugin_sdk::IExecutionContext {
public:
    CopyContext(int64_t inputUid, int64_t outputUid, std::size_t bytes)
        : _inputUid(inputUid), _outputUid(outputUid), _bytes(bytes) {}

    std::size_t workspaceSize() const override { return 0; }

    void execute(hipdnn_plugin_sdk::PluginHandleBase& /*handle*/, void* /*workspace*/,
                 const hipdnn_plugin_sdk::DeviceBuffers& buffers) override {
        std::memcpy(buffers.pointer(_outputUid), buffers.pointer(_inputUid), _bytes);
    }

private:
    int64_t _inputUid;
    int64_t _outputUid;
    std::size_t _bytes;
};

class MyCustomEngine : public hipdnn_plugin_sdk::IEngine<MyHandle> {
public:
    explicit MyCustomEngine(int64_t id) : IEngine(id) {}

    bool isApplicable(MyHandle& /*handle*/, const GraphWrapper& graph, std::string& reason) const override {
        if (identityNode(graph) == nullptr) {
            reason = "only a single float IDENTITY pointwise node over packed tensors is supported";
            return false;
        }
        return true;
    }

    std::size_t workspaceSize(MyHandle& /*handle*/, const EngineConfigWrapper& /*config*/,
                              const GraphWrapper& /*graph*/) const override {
        return 0;
    }

    std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> createExecutionContext(
        MyHandle& /*handle*/, const EngineConfigWrapper& /*config*/,
        const GraphWrapper& graph) const override {
        const fb::PointwiseAttributes* node = identityNode(graph);
        std::size_t elements = 1;
        for (int64_t dim : *graph.tensor(node->in_0_tensor_uid()).dims()) {
            elements *= static_cast<std::size_t>(dim);
        }
        return std::make_unique<CopyContext>(node->in_0_tensor_uid(), node->out_0_tensor_uid(),
                                             elements * sizeof(float));
    }

private:
    static const fb::PointwiseAttributes* identityNode(const GraphWrapper& graph) {
        if (graph.nodeCount() != 1) {
            return nullptr;
        }
        const auto* node = graph.node(0).attributesAs<fb::PointwiseAttributes>();
        if (node == nullptr || node->operation() != fb::PointwiseMode::IDENTITY) {
            return nullptr;
        }
        const auto& input = graph.tensor(node->in_0_tensor_uid());
        const auto& output = graph.tensor(node->out_0_tensor_uid());
        const bool floats =
            input.data_type() == fb::DataType::FLOAT && output.data_type() == fb::DataType::FLOAT;
        const bool sameLayout = std::equal(input.dims()->begin(), input.dims()->end(), output.dims()->begin(),
                                           output.dims()->end()) &&
                                std::equal(input.strides()->begin(), input.strides()->end(),
                                           output.strides()->begin(), output.strides()->end());
        return floats && sameLayout ? node : nullptr;
    }
};

class MyPluginContainer {
public:
    using Handle = MyHandle;

    static hipdnn_plugin_sdk::EngineManager<Handle>& getEngineManager() {
        static hipdnn_plugin_sdk::EngineManager<Handle> manager = [] {
            hipdnn_plugin_sdk::EngineManager<Handle> engines;
            engines.addEngine(std::make_unique<MyCustomEngine>(MY_CUSTOM_ENGINE_ID));
            return engines;
        }();
        return manager;
    }
};

}  // namespace

#define HIPDNN_PLUGIN_NAME "my_custom_plugin"
#define HIPDNN_PLUGIN_VERSION "0.1.0"
#define HIPDNN_PLUGIN_CONTAINER_TYPE MyPluginContainer
#define HIPDNN_PLUGIN_DEVICE_TYPE HIPDNN_DEVICE_TYPE_CPU_EXT
#include <hipdnn_plugin_sdk/EnginePluginImpl.inl>
