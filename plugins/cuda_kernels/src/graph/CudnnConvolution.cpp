#include "CudnnConvolution.hpp"

#include "Cudnn.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace hipdnn_cuda_kernels {

namespace {

// Device pointers are at least this aligned (cudaMalloc, the workspace layout), as cuDNN's
// plugin also assumes.
constexpr int64_t kTensorAlignment = 16;

class CudnnFailure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A cudnnBackendDescriptor_t, destroyed with it; every failing call throws CudnnFailure naming
// the call and cuDNN's message.
class Descriptor {
public:
    Descriptor(const Cudnn& library, cudnnBackendDescriptorType_t type) : _library(&library) {
        check(api().createDescriptor(type, &_descriptor), "cudnnBackendCreateDescriptor");
    }
    ~Descriptor() {
        if (_descriptor != nullptr) {
            api().destroyDescriptor(_descriptor);
        }
    }
    Descriptor(Descriptor&& other) noexcept
        : _library(other._library), _descriptor(std::exchange(other._descriptor, nullptr)) {}
    Descriptor& operator=(Descriptor&& other) noexcept {
        if (this != &other) {
            if (_descriptor != nullptr) {
                api().destroyDescriptor(_descriptor);
            }
            _library = other._library;
            _descriptor = std::exchange(other._descriptor, nullptr);
        }
        return *this;
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;

    cudnnBackendDescriptor_t get() const noexcept { return _descriptor; }

    void set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, int64_t count,
             const void* values) {
        check(api().setAttribute(_descriptor, name, type, count, values),
              "cudnnBackendSetAttribute(" + std::to_string(static_cast<int>(name)) + ")");
    }
    template <class T>
    void setScalar(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, T value) {
        set(name, type, 1, &value);
    }
    void setInts(cudnnBackendAttributeName_t name, const std::vector<int64_t>& values) {
        set(name, CUDNN_TYPE_INT64, static_cast<int64_t>(values.size()), values.data());
    }
    void setDescriptor(cudnnBackendAttributeName_t name, const Descriptor& descriptor) {
        cudnnBackendDescriptor_t raw = descriptor.get();
        set(name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw);
    }
    void finalize(const std::string& what) {
        check(api().finalize(_descriptor), "cudnnBackendFinalize(" + what + ")");
    }

    int64_t get(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, int64_t count,
                void* values) const {
        int64_t written = 0;
        check(api().getAttribute(_descriptor, name, type, count, &written, values),
              "cudnnBackendGetAttribute(" + std::to_string(static_cast<int>(name)) + ")");
        return written;
    }

    // Up to `count` descriptors of `type` that cuDNN fills from attribute `name`.
    std::vector<Descriptor> getDescriptors(cudnnBackendAttributeName_t name,
                                           cudnnBackendDescriptorType_t type, int64_t count) const {
        std::vector<Descriptor> descriptors;
        std::vector<cudnnBackendDescriptor_t> raw;
        for (int64_t i = 0; i < count; ++i) {
            raw.push_back(descriptors.emplace_back(*_library, type).get());
        }
        const int64_t written = get(name, CUDNN_TYPE_BACKEND_DESCRIPTOR, count, raw.data());
        descriptors.erase(descriptors.begin() + std::min(written, count), descriptors.end());
        return descriptors;
    }

private:
    const Cudnn::Functions& api() const { return _library->api(); }
    void check(cudnnStatus_t status, const std::string& call) const {
        if (status != CUDNN_STATUS_SUCCESS) {
            throw CudnnFailure(call + " failed: " + _library->describe(status));
        }
    }

    const Cudnn* _library;
    cudnnBackendDescriptor_t _descriptor = nullptr;
};

cudnnDataType_t cudnnTypeOf(ElementType type) {
    switch (type) {
        case ElementType::Half:
            return CUDNN_DATA_HALF;
        case ElementType::BFloat16:
            return CUDNN_DATA_BFLOAT16;
        case ElementType::Float:
            break;
    }
    return CUDNN_DATA_FLOAT;
}

struct Ports {
    cudnnBackendDescriptorType_t operation;
    cudnnBackendAttributeName_t x, w, y, convolution, alpha, beta;
};

Ports portsOf(ConvolutionDirection direction) {
    switch (direction) {
        case ConvolutionDirection::BackwardData:
            return {CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
                    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX,
                    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W,
                    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY,
                    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC,
                    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA,
                    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA};
        case ConvolutionDirection::BackwardFilter:
            return {CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
                    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X,
                    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW,
                    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY,
                    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC,
                    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA,
                    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA};
        case ConvolutionDirection::Forward:
            break;
    }
    return {CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
            CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X,
            CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W,
            CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y,
            CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC,
            CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA,
            CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA};
}

// The type of the operands cuDNN reads (the output may differ).
ElementType operandType(const ConvolutionProgram& program) {
    return program.direction == ConvolutionDirection::Forward ? program.x.type : program.y.type;
}

class CudnnConvolutionContext final : public hipdnn_plugin_sdk::IExecutionContext {
public:
    CudnnConvolutionContext(const Cudnn& library, cudnnHandle_t handle, const ConvolutionProgram& program)
        : _library(library), _program(program), _graph(library, CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR) {
        std::vector<Descriptor> tensors;
        for (const ConvolutionTensor* tensor : {&program.x, &program.w, &program.y}) {
            Descriptor& descriptor = tensors.emplace_back(library, CUDNN_BACKEND_TENSOR_DESCRIPTOR);
            descriptor.setScalar(CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE,
                                 cudnnTypeOf(tensor->type));
            descriptor.setInts(CUDNN_ATTR_TENSOR_DIMENSIONS, tensor->dims);
            descriptor.setInts(CUDNN_ATTR_TENSOR_STRIDES, tensor->strides);
            descriptor.setScalar(CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, tensor->uid);
            descriptor.setScalar(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, kTensorAlignment);
            descriptor.setScalar(CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, false);
            descriptor.finalize("TENSOR uid " + std::to_string(tensor->uid));
            _uids.push_back(tensor->uid);
        }
        Descriptor convolution(library, CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
        convolution.setScalar(CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, CUDNN_DATA_FLOAT);
        convolution.setScalar(CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE,
                              program.crossCorrelation ? CUDNN_CROSS_CORRELATION : CUDNN_CONVOLUTION);
        convolution.setScalar(CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64,
                              static_cast<int64_t>(program.padding.size()));
        convolution.setInts(CUDNN_ATTR_CONVOLUTION_DILATIONS, program.dilation);
        convolution.setInts(CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, program.stride);
        convolution.setInts(CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, program.padding);
        convolution.setInts(CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, program.padding);
        convolution.finalize("CONVOLUTION");

        const Ports ports = portsOf(program.direction);
        Descriptor operation(library, ports.operation);
        operation.setDescriptor(ports.x, tensors[0]);
        operation.setDescriptor(ports.w, tensors[1]);
        operation.setDescriptor(ports.y, tensors[2]);
        operation.setDescriptor(ports.convolution, convolution);
        // alpha = 1, beta = 0: the output is overwritten.
        operation.setScalar(ports.alpha, CUDNN_TYPE_FLOAT, 1.0F);
        operation.setScalar(ports.beta, CUDNN_TYPE_FLOAT, 0.0F);
        operation.finalize("OPERATION");

        // Deprecated in cuDNN 9.19's headers but required by earlier cuDNN 9 releases.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        _graph.setScalar(CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, handle);
#pragma GCC diagnostic pop
        cudnnBackendDescriptor_t raw = operation.get();
        _graph.set(CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw);
        _graph.finalize("OPERATIONGRAPH");
        _parts = std::move(tensors);
        _parts.push_back(std::move(convolution));
        _parts.push_back(std::move(operation));

        const bool strictFloat = operandType(program) == ElementType::Float;
        std::string tried;
        for (const cudnnBackendHeurMode_t mode : {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_FALLBACK}) {
            for (Descriptor& config : heuristics(mode)) {
                if (strictFloat && reducesFloatPrecision(config)) {
                    continue;
                }
                try {
                    Descriptor plan(library, CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
                    plan.setScalar(CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, handle);
#pragma GCC diagnostic pop
                    plan.setDescriptor(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, config);
                    plan.finalize("EXECUTION_PLAN");
                    plan.get(CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &_workspaceBytes);
                    _plan.emplace(std::move(plan));
                    return;
                } catch (const CudnnFailure& failure) {
                    tried = failure.what();
                }
            }
        }
        throw CudnnFailure("cuDNN has no engine for " + describeConvolution(program) +
                           (strictFloat ? " in strict fp32" : "") +
                           (tried.empty() ? "" : " (last: " + tried + ")"));
    }

    std::size_t workspaceSize() const override {
        return static_cast<std::size_t>(_workspaceBytes);
    }

    void execute(hipdnn_plugin_sdk::PluginHandleBase& handle, void* workspace,
                 const hipdnn_plugin_sdk::DeviceBuffers& buffers) override {
        std::string reason;
        cudnnHandle_t cudnn = static_cast<CudaKernelsHandle&>(handle).cudnn(reason);
        if (cudnn == nullptr) {
            throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, reason);
        }
        std::vector<void*> pointers;
        for (const int64_t uid : _uids) {
            pointers.push_back(buffers.pointer(uid));
        }
        try {
            Descriptor pack(_library, CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
            pack.setInts(CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, _uids);
            pack.set(CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR,
                     static_cast<int64_t>(pointers.size()), pointers.data());
            pack.set(CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace);
            pack.finalize("VARIANT_PACK");
            const cudnnStatus_t status = _library.api().execute(cudnn, _plan->get(), pack.get());
            if (status != CUDNN_STATUS_SUCCESS) {
                throw CudnnFailure("cudnnBackendExecute failed: " + _library.describe(status));
            }
        } catch (const CudnnFailure& failure) {
            throw hipdnn_plugin_sdk::PluginError(
                HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                std::string(failure.what()) + " (" + describeConvolution(_program) + ")");
        }
    }

private:
    std::vector<Descriptor> heuristics(cudnnBackendHeurMode_t mode) {
        try {
            Descriptor heuristics(_library, CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
            heuristics.setDescriptor(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, _graph);
            heuristics.setScalar(CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, mode);
            heuristics.finalize("ENGINEHEUR");
            const int64_t count =
                heuristics.get(CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, nullptr);
            return heuristics.getDescriptors(CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                             CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, count);
        } catch (const CudnnFailure&) {
            return {};  // this mode has no candidates for the graph
        }
    }

    // Whether the configuration's engine may compute fp32 in TF32 or down-convert its inputs.
    bool reducesFloatPrecision(const Descriptor& config) const {
        try {
            std::vector<Descriptor> engine =
                config.getDescriptors(CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_BACKEND_ENGINE_DESCRIPTOR, 1);
            std::array<cudnnBackendNumericalNote_t, CUDNN_NUMERICAL_NOTE_TYPE_COUNT> notes{};
            const int64_t count =
                engine.at(0).get(CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE,
                                 static_cast<int64_t>(notes.size()), notes.data());
            const auto end = notes.begin() + std::min<int64_t>(count, static_cast<int64_t>(notes.size()));
            return std::find(notes.begin(), end, CUDNN_NUMERICAL_NOTE_TENSOR_CORE) != end ||
                   std::find(notes.begin(), end, CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS) != end;
        } catch (const CudnnFailure&) {
            return true;  // an engine that cannot say is not trusted with strict fp32
        }
    }

    const Cudnn& _library;
    ConvolutionProgram _program;
    // The tensors, the convolution and the operation, which the graph and the plan refer to.
    std::vector<Descriptor> _parts;
    Descriptor _graph;
    std::optional<Descriptor> _plan;
    std::vector<int64_t> _uids;
    int64_t _workspaceBytes = 0;
};

}  // namespace

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> makeCudnnConvolution(CudaKernelsHandle& handle,
                                                                           const ConvolutionProgram& program,
                                                                           std::string& reason) {
    const Cudnn* library = Cudnn::instance(reason);
    if (library == nullptr) {
        return nullptr;
    }
    cudnnHandle_t cudnn = handle.cudnn(reason);
    if (cudnn == nullptr) {
        return nullptr;
    }
    try {
        return std::make_unique<CudnnConvolutionContext>(*library, cudnn, program);
    } catch (const CudnnFailure& failure) {
        reason = failure.what();
        return nullptr;
    }
}

}  // namespace hipdnn_cuda_kernels
