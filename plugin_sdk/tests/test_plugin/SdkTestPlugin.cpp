// A small CPU engine plugin built with the plugin SDK scaffolding; the SDK tests dlopen it.
//
// Engines:
//   SDK_TEST_SCALE_ENGINE    out = in * multiplier + bias for one float IDENTITY pointwise node;
//                            int, float and string knobs; supports plan serialization (a
//                            GraphConfigSerializedEngine: the plan depends on its knobs).
//   SDK_TEST_BUILDER_ENGINE  a PlanBuilderEngine with an ABS and a NEG plan builder.
//   SDK_TEST_FAULTY_ENGINE   not registered (its name is the hex id); fails on purpose in ways
//                            chosen by the graph name and the knob sdk_test.faulty.failure.

#include <hipdnn_data_sdk/logging/CallbackLogger.hpp>
#include <hipdnn_data_sdk/utilities/EngineNames.hpp>
#include <hipdnn_flatbuffers_sdk/Builders.hpp>
#include <hipdnn_flatbuffers_sdk/EngineConfigWrapper.hpp>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_plugin_sdk/EngineManager.hpp>
#include <hipdnn_plugin_sdk/GraphContextSerialization.hpp>
#include <hipdnn_plugin_sdk/IEngine.hpp>
#include <hipdnn_plugin_sdk/IExecutionContext.hpp>
#include <hipdnn_plugin_sdk/IPlanBuilder.hpp>
#include <hipdnn_plugin_sdk/PlanBuilderEngine.hpp>
#include <hipdnn_plugin_sdk/PluginError.hpp>
#include <hipdnn_plugin_sdk/PluginHandleBase.hpp>
#include <hipdnn_plugin_sdk/Roofline.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

HIPDNN_REGISTER_ENGINE(SDK_TEST_SCALE_ENGINE)
HIPDNN_REGISTER_ENGINE(SDK_TEST_BUILDER_ENGINE)

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_flatbuffers_sdk::EngineConfigWrapper;
using hipdnn_flatbuffers_sdk::GraphWrapper;
using hipdnn_flatbuffers_sdk::KnobDescription;
using hipdnn_plugin_sdk::DeviceBuffers;
using hipdnn_plugin_sdk::IExecutionContext;
using hipdnn_plugin_sdk::PluginError;
using hipdnn_plugin_sdk::PluginHandleBase;

const int64_t kFaultyEngineId = hipdnn_data_sdk::utilities::engineNameToId("SDK_TEST_FAULTY_ENGINE");

class SdkTestHandle : public PluginHandleBase {
public:
    SdkTestHandle() {
        if (std::getenv("SDK_TEST_PLUGIN_FAIL_CREATE") != nullptr) {
            throw std::runtime_error("SDK_TEST_PLUGIN_FAIL_CREATE is set, refusing to create a handle");
        }
    }

    // Logs what communicator() answers once the base class stored the value, so that the tests
    // read it back through the C exports.
    void setCommunicator(void* communicator) override {
        PluginHandleBase::setCommunicator(communicator);
        HIPDNN_SDK_LOG_INFO("sdk_test_plugin", "communicator " << this->communicator());
    }
};

// The tensors of a graph made of one float unary pointwise node over packed, same-shape tensors.
struct UnaryPointwise {
    fb::PointwiseMode mode;
    int64_t inputUid;
    int64_t outputUid;
    int64_t elementCount;
};

bool isPackedRowMajor(const fb::TensorAttributes& tensor) {
    int64_t expected = 1;
    for (flatbuffers::uoffset_t i = tensor.dims()->size(); i-- > 0;) {
        if (tensor.strides()->Get(i) != expected) {
            return false;
        }
        expected *= tensor.dims()->Get(i);
    }
    return true;
}

std::optional<UnaryPointwise> matchUnaryPointwise(const GraphWrapper& graph, std::string& reason) {
    if (graph.nodeCount() != 1) {
        reason = "needs exactly one node, the graph has " + std::to_string(graph.nodeCount());
        return std::nullopt;
    }
    const auto* pointwise = graph.node(0).attributesAs<fb::PointwiseAttributes>();
    if (pointwise == nullptr) {
        reason = "node 0 is " + std::string(graph.node(0).typeName()) + ", not a pointwise node";
        return std::nullopt;
    }
    const fb::TensorAttributes& input = graph.tensor(pointwise->in_0_tensor_uid());
    const fb::TensorAttributes& output = graph.tensor(pointwise->out_0_tensor_uid());
    if (input.data_type() != fb::DataType::FLOAT || output.data_type() != fb::DataType::FLOAT) {
        reason = "only float tensors are supported";
        return std::nullopt;
    }
    const bool sameDims =
        std::equal(input.dims()->begin(), input.dims()->end(), output.dims()->begin(), output.dims()->end());
    if (!sameDims || !isPackedRowMajor(input) || !isPackedRowMajor(output)) {
        reason = "input and output must have the same dims and packed row-major strides";
        return std::nullopt;
    }
    int64_t count = 1;
    for (int64_t dim : *input.dims()) {
        count *= dim;
    }
    return UnaryPointwise{pointwise->operation(), input.uid(), output.uid(), count};
}

// ---- SDK_TEST_SCALE_ENGINE -------------------------------------------------------------------

struct ScaleParameters {
    int64_t inputUid;
    int64_t outputUid;
    int64_t elementCount;
    int64_t multiplier;
    double bias;
    int64_t workspaceBytes;
};

class ScaleContext : public IExecutionContext {
public:
    explicit ScaleContext(const ScaleParameters& parameters) : _parameters(parameters) {}

    std::size_t workspaceSize() const override {
        return static_cast<std::size_t>(_parameters.workspaceBytes);
    }

    void execute(PluginHandleBase& /*handle*/, void* workspace, const DeviceBuffers& buffers) override {
        const auto* input = static_cast<const float*>(buffers.pointer(_parameters.inputUid));
        auto* output = static_cast<float*>(buffers.pointer(_parameters.outputUid));
        // Proves the backend handed over writable workspace of the announced size (none: null).
        if (workspaceSize() > 0) {
            std::memset(workspace, 0xA5, workspaceSize());
        }
        HIPDNN_SDK_LOG_INFO("sdk_test_plugin",
                            "scale executed on " << _parameters.elementCount << " elements");
        for (int64_t i = 0; i < _parameters.elementCount; ++i) {
            output[i] = static_cast<float>(static_cast<double>(input[i]) *
                                               static_cast<double>(_parameters.multiplier) +
                                           _parameters.bias);
        }
    }

private:
    ScaleParameters _parameters;
};

class ScaleEngine : public hipdnn_plugin_sdk::GraphConfigSerializedEngine<SdkTestHandle> {
public:
    ScaleEngine() : GraphConfigSerializedEngine(SDK_TEST_SCALE_ENGINE_ID) {}

    bool isApplicable(SdkTestHandle& /*handle*/, const GraphWrapper& graph,
                      std::string& reason) const override {
        const std::optional<UnaryPointwise> match = matchUnaryPointwise(graph, reason);
        if (match && match->mode != fb::PointwiseMode::IDENTITY) {
            reason =
                "pointwise mode " + std::string(fb::EnumNamePointwiseMode(match->mode)) + " is not IDENTITY";
            return false;
        }
        return match.has_value();
    }

    std::vector<KnobDescription> knobs(SdkTestHandle& /*handle*/,
                                       const GraphWrapper& /*graph*/) const override {
        using namespace hipdnn_flatbuffers_sdk;
        return {
            KnobDescription{"sdk_test.scale.multiplier", "integer factor", int64_t{2},
                            IntKnobConstraint{.min = 1, .max = 8, .step = 1, .validValues = {}}, false},
            KnobDescription{"sdk_test.scale.bias", "added after scaling", 0.0,
                            FloatKnobConstraint{.min = -10.0, .max = 10.0, .validValues = {}}, false},
            KnobDescription{"sdk_test.scale.label", "free text", std::string(),
                            StringKnobConstraint{.maxLength = 8, .validValues = {}}, false},
            KnobDescription{
                "sdk_test.scale.workspace_bytes", "workspace to request", int64_t{0},
                IntKnobConstraint{.min = 0, .max = 4096, .step = 256, .validValues = {0, 256, 4096}}, false},
        };
    }

    std::vector<fb::BehaviorNote> behaviorNotes() const override {
        return {fb::BehaviorNote::SUPPORTS_EXECUTION_PLAN_SERIALIZATION, fb::BehaviorNote::DETERMINISTIC};
    }

    // A device of 1 GB/s and 1 µs per launch, of which the engine reaches half the bandwidth.
    std::optional<double> estimatedSeconds(SdkTestHandle& /*handle*/,
                                           const GraphWrapper& graph) const override {
        hipdnn_plugin_sdk::DeviceCeilings ceilings;
        ceilings.bytesPerSecond = 1e9;
        ceilings.launchSeconds = 1e-6;
        return hipdnn_plugin_sdk::rooflineSeconds(graph, ceilings,
                                                  {.memory = 0.5, .compute = 0.0, .launches = 1});
    }

    std::size_t workspaceSize(SdkTestHandle& /*handle*/, const EngineConfigWrapper& config,
                              const GraphWrapper& /*graph*/) const override {
        return static_cast<std::size_t>(config.intKnob("sdk_test.scale.workspace_bytes").value_or(0));
    }

protected:
    std::unique_ptr<IExecutionContext> contextForConfig(SdkTestHandle& /*handle*/,
                                                        const EngineConfigWrapper& config,
                                                        const GraphWrapper& graph) const override {
        std::string reason;
        const UnaryPointwise match = matchUnaryPointwise(graph, reason).value();
        return std::make_unique<ScaleContext>(
            ScaleParameters{match.inputUid, match.outputUid, match.elementCount,
                            config.intKnob("sdk_test.scale.multiplier").value_or(2),
                            config.floatKnob("sdk_test.scale.bias").value_or(0.0),
                            config.intKnob("sdk_test.scale.workspace_bytes").value_or(0)});
    }
};

// ---- SDK_TEST_BUILDER_ENGINE -----------------------------------------------------------------

class UnaryContext : public IExecutionContext {
public:
    UnaryContext(const UnaryPointwise& match, float (*function)(float))
        : _match(match), _function(function) {}

    std::size_t workspaceSize() const override { return 0; }

    void execute(PluginHandleBase& /*handle*/, void* /*workspace*/, const DeviceBuffers& buffers) override {
        const auto* input = static_cast<const float*>(buffers.pointer(_match.inputUid));
        auto* output = static_cast<float*>(buffers.pointer(_match.outputUid));
        for (int64_t i = 0; i < _match.elementCount; ++i) {
            output[i] = _function(input[i]);
        }
    }

private:
    UnaryPointwise _match;
    float (*_function)(float);
};

class UnaryBuilder : public hipdnn_plugin_sdk::IPlanBuilder<SdkTestHandle> {
public:
    UnaryBuilder(std::string name, fb::PointwiseMode mode, float (*function)(float))
        : _name(std::move(name)), _mode(mode), _function(function) {}

    std::string name() const override { return _name; }

    bool isApplicable(SdkTestHandle& /*handle*/, const GraphWrapper& graph,
                      std::string& reason) const override {
        const std::optional<UnaryPointwise> match = matchUnaryPointwise(graph, reason);
        if (match && match->mode != _mode) {
            reason = "pointwise mode " + std::string(fb::EnumNamePointwiseMode(match->mode)) + " is not " +
                     fb::EnumNamePointwiseMode(_mode);
            return false;
        }
        return match.has_value();
    }

    std::size_t workspaceSize(SdkTestHandle& /*handle*/, const EngineConfigWrapper& /*config*/,
                              const GraphWrapper& /*graph*/) const override {
        return 0;
    }

    std::unique_ptr<IExecutionContext> buildExecutionContext(SdkTestHandle& /*handle*/,
                                                             const EngineConfigWrapper& /*config*/,
                                                             const GraphWrapper& graph) const override {
        std::string reason;
        return std::make_unique<UnaryContext>(matchUnaryPointwise(graph, reason).value(), _function);
    }

private:
    std::string _name;
    fb::PointwiseMode _mode;
    float (*_function)(float);
};

std::unique_ptr<hipdnn_plugin_sdk::IEngine<SdkTestHandle>> makeBuilderEngine() {
    std::vector<std::unique_ptr<hipdnn_plugin_sdk::IPlanBuilder<SdkTestHandle>>> builders;
    builders.push_back(std::make_unique<UnaryBuilder>("abs_builder", fb::PointwiseMode::ABS,
                                                      [](float x) { return std::fabs(x); }));
    builders.push_back(
        std::make_unique<UnaryBuilder>("neg_builder", fb::PointwiseMode::NEG, [](float x) { return -x; }));
    return std::make_unique<hipdnn_plugin_sdk::PlanBuilderEngine<SdkTestHandle>>(SDK_TEST_BUILDER_ENGINE_ID,
                                                                                 std::move(builders));
}

// ---- SDK_TEST_FAULTY_ENGINE ------------------------------------------------------------------

// Values of sdk_test.faulty.failure.
enum class Failure : int64_t {
    PluginErrorInvalidValue = 0,
    BadAlloc = 1,
    RuntimeError = 2,
    NonStandardException = 3,
    NullContext = 4,
    LargeWorkspace = 5,
};

constexpr std::size_t kLargeWorkspaceBytes = 1 << 20;

class LargeWorkspaceContext : public IExecutionContext {
public:
    std::size_t workspaceSize() const override { return kLargeWorkspaceBytes; }
    void execute(PluginHandleBase& /*handle*/, void* /*workspace*/,
                 const DeviceBuffers& /*buffers*/) override {}
};

class FaultyEngine : public hipdnn_plugin_sdk::IEngine<SdkTestHandle> {
public:
    FaultyEngine() : IEngine(kFaultyEngineId) {}

    bool isApplicable(SdkTestHandle& /*handle*/, const GraphWrapper& graph,
                      std::string& reason) const override {
        const std::string name =
            graph.graph().name() != nullptr ? graph.graph().name()->str() : std::string();
        if (name == "faulty_is_applicable") {
            throw std::runtime_error("isApplicable failed on purpose\nsecond line");
        }
        if (name != "faulty") {
            reason = "graph name '" + name + "' is not 'faulty'";
            return false;
        }
        return true;
    }

    std::vector<KnobDescription> knobs(SdkTestHandle& /*handle*/,
                                       const GraphWrapper& /*graph*/) const override {
        return {KnobDescription{
            "sdk_test.faulty.failure", "how to fail", int64_t{0},
            hipdnn_flatbuffers_sdk::IntKnobConstraint{.min = 0, .max = 5, .step = 1, .validValues = {}},
            false}};
    }

    std::size_t workspaceSize(SdkTestHandle& /*handle*/, const EngineConfigWrapper& config,
                              const GraphWrapper& /*graph*/) const override {
        return failureOf(config) == Failure::LargeWorkspace ? kLargeWorkspaceBytes : 0;
    }

    std::unique_ptr<IExecutionContext> createExecutionContext(SdkTestHandle& /*handle*/,
                                                              const EngineConfigWrapper& config,
                                                              const GraphWrapper& /*graph*/) const override {
        switch (failureOf(config)) {
            case Failure::PluginErrorInvalidValue:
                throw PluginError(HIPDNN_PLUGIN_STATUS_INVALID_VALUE, "PluginError on purpose");
            case Failure::BadAlloc:
                throw std::bad_alloc();
            case Failure::RuntimeError:
                throw std::runtime_error("runtime_error on purpose");
            case Failure::NonStandardException:
                throw 42;
            case Failure::NullContext:
                return nullptr;
            case Failure::LargeWorkspace:
                return std::make_unique<LargeWorkspaceContext>();
        }
        throw std::logic_error("unhandled failure kind");
    }

private:
    static Failure failureOf(const EngineConfigWrapper& config) {
        return static_cast<Failure>(config.intKnob("sdk_test.faulty.failure").value_or(0));
    }
};

class SdkTestPluginContainer {
public:
    using Handle = SdkTestHandle;

    static hipdnn_plugin_sdk::EngineManager<Handle>& getEngineManager() {
        static hipdnn_plugin_sdk::EngineManager<Handle> manager = [] {
            hipdnn_plugin_sdk::EngineManager<Handle> engines;
            engines.addEngine(std::make_unique<ScaleEngine>());
            engines.addEngine(makeBuilderEngine());
            engines.addEngine(std::make_unique<FaultyEngine>());
            return engines;
        }();
        return manager;
    }
#ifndef SDK_TEST_PLUGIN_DEFAULTS_VARIANT
    static std::string libraryVersions() {
        return "testlib 4.5.6";
    }
#endif
};

}  // namespace

#define HIPDNN_PLUGIN_NAME "sdk_test_plugin"
#define HIPDNN_PLUGIN_VERSION "1.2.3"
#define HIPDNN_PLUGIN_CONTAINER_TYPE SdkTestPluginContainer
// The "defaults" build of this file leaves the device type at its default (GPU), reports no
// library versions and reports an explicit API version instead.
#ifdef SDK_TEST_PLUGIN_DEFAULTS_VARIANT
#define HIPDNN_PLUGIN_API_VERSION "1.1.0"
#else
#define HIPDNN_PLUGIN_DEVICE_TYPE HIPDNN_DEVICE_TYPE_CPU_EXT
#endif
#include <hipdnn_plugin_sdk/EnginePluginImpl.inl>
