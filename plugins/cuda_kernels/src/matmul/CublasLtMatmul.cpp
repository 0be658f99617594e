#include "CublasLtMatmul.hpp"

#include "CublasLt.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace hipdnn_cuda_kernels {

namespace {

using hipdnn_plugin_sdk::PluginError;

constexpr const char* kEngineName = "CUBLASLT_ENGINE";
// The pointer alignment cuBLASLt's heuristics assume unless a preference says less.
constexpr uint32_t kDefaultAlignment = 256;

[[noreturn]] void fail(hipdnnPluginStatus_t status, const std::string& message) {
    throw PluginError(status, std::string(kEngineName) + ": " + message);
}

cudaDataType_t cudaTypeOf(ElementType type) {
    switch (type) {
        case ElementType::Half:
            return CUDA_R_16F;
        case ElementType::BFloat16:
            return CUDA_R_16BF;
        case ElementType::Float:
            break;
    }
    return CUDA_R_32F;
}

cublasLtEpilogue_t epilogueOf(const MatmulProgram& program) {
    switch (program.activation) {
        case MatmulActivation::Relu:
            return program.bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
        case MatmulActivation::GeluTanh:
            return program.bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
        case MatmulActivation::None:
            break;
    }
    return program.bias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
}

// The largest power of two up to kDefaultAlignment that divides the address.
uint32_t alignmentOf(const void* pointer) {
    const auto address = reinterpret_cast<uintptr_t>(pointer);
    uint32_t alignment = kDefaultAlignment;
    while (alignment > 1 && address % alignment != 0) {
        alignment /= 2;
    }
    return alignment;
}

// One cuBLASLt object, destroyed with its destroy function.
template <class T>
class LtObject {
public:
    using Destroy = cublasStatus_t (*)(T);
    LtObject() = default;
    LtObject(T object, Destroy destroy) : _object(object), _destroy(destroy) {}
    ~LtObject() { reset(); }
    LtObject(LtObject&& other) noexcept
        : _object(std::exchange(other._object, nullptr)), _destroy(other._destroy) {}
    LtObject& operator=(LtObject&& other) noexcept {
        if (this != &other) {
            reset();
            _object = std::exchange(other._object, nullptr);
            _destroy = other._destroy;
        }
        return *this;
    }
    LtObject(const LtObject&) = delete;
    LtObject& operator=(const LtObject&) = delete;

    T get() const noexcept { return _object; }

private:
    void reset() noexcept {
        if (_object != nullptr) {
            _destroy(_object);
            _object = nullptr;
        }
    }

    T _object = nullptr;
    Destroy _destroy = nullptr;
};

// Alignments of A, B, D and the bias pointer.
using Alignments = std::array<uint32_t, 4>;

class CublasLtMatmulContext final : public hipdnn_plugin_sdk::IExecutionContext {
public:
    CublasLtMatmulContext(const CublasLt& library, const MatmulProgram& program,
                          const CublasLtSettings& settings)
        : _api(library.api()), _program(program) {
        cublasLtHandle_t handle = nullptr;
        check(_api.create(&handle), "cublasLtCreate");
        _handle = LtObject<cublasLtHandle_t>(handle, _api.destroy);

        // fp16 and bf16 inputs also accumulate in fp32; only fp32 inputs may take TF32.
        const cublasComputeType_t compute = program.a.type == ElementType::Float && settings.allowTf32
                                                ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                : CUBLAS_COMPUTE_32F;
        cublasLtMatmulDesc_t desc = nullptr;
        check(_api.matmulDescCreate(&desc, compute, CUDA_R_32F), "cublasLtMatmulDescCreate");
        _desc = LtObject<cublasLtMatmulDesc_t>(desc, _api.matmulDescDestroy);
        setDesc(CUBLASLT_MATMUL_DESC_TRANSA, program.a.transposed ? CUBLAS_OP_T : CUBLAS_OP_N);
        setDesc(CUBLASLT_MATMUL_DESC_TRANSB, program.b.transposed ? CUBLAS_OP_T : CUBLAS_OP_N);
        setDesc(CUBLASLT_MATMUL_DESC_EPILOGUE, epilogueOf(program));
        if (program.bias) {
            setDesc(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                    static_cast<int32_t>(cudaTypeOf(program.bias->type)));
            setDesc(CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, program.bias->batchStride);
        }
        _a = layout(program.a);
        _b = layout(program.b);
        _d = layout(program.d);

        const std::vector<cublasLtMatmulHeuristicResult_t> found =
            candidates(Alignments{kDefaultAlignment, kDefaultAlignment, kDefaultAlignment, kDefaultAlignment},
                       settings.workspaceBytes);
        if (found.empty()) {
            fail(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                 "cuBLASLt's heuristics returned no algorithm for " + describeMatmul(program));
        }
        if (settings.algorithm < 0 || static_cast<size_t>(settings.algorithm) >= found.size()) {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 std::string(kCublasLtAlgorithmKnob) + " = " + std::to_string(settings.algorithm) +
                     " is out of range: cuBLASLt's heuristics returned " + std::to_string(found.size()) +
                     " candidates (0 to " + std::to_string(found.size() - 1) + ") for " +
                     describeMatmul(program));
        }
        _algorithm = found[static_cast<size_t>(settings.algorithm)].algo;
        _workspaceBytes = found[static_cast<size_t>(settings.algorithm)].workspaceSize;
    }

    std::size_t workspaceSize() const override { return _workspaceBytes; }

    void execute(hipdnn_plugin_sdk::PluginHandleBase& handle, void* workspace,
                 const hipdnn_plugin_sdk::DeviceBuffers& buffers) override {
        const void* a = buffers.pointer(_program.a.uid);
        const void* b = buffers.pointer(_program.b.uid);
        void* d = buffers.pointer(_program.d.uid);
        const void* bias = _program.bias ? buffers.pointer(_program.bias->uid) : nullptr;
        // The descriptor holds the bias pointer between setting it and the call.
        const std::lock_guard lock(_mutex);
        if (_program.bias) {
            setDesc(CUBLASLT_MATMUL_DESC_BIAS_POINTER, bias);
        }
        const Alignments alignments{alignmentOf(a), alignmentOf(b), alignmentOf(d),
                                    bias != nullptr ? alignmentOf(bias) : kDefaultAlignment};
        const cublasLtMatmulAlgo_t& algorithm = algorithmFor(alignments);
        const float alpha = 1.0F;
        const float beta = 0.0F;
        check(_api.matmul(_handle.get(), _desc.get(), &alpha, a, _a.get(), b, _b.get(), &beta, d, _d.get(), d,
                          _d.get(), &algorithm, workspace, _workspaceBytes,
                          static_cast<cudaStream_t>(handle.stream())),
              "cublasLtMatmul");
    }

private:
    void check(cublasStatus_t status, const char* call) const {
        if (status != CUBLAS_STATUS_SUCCESS) {
            fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, std::string(call) +
                                                          " failed: " + _api.getStatusString(status) + " (" +
                                                          describeMatmul(_program) + ")");
        }
    }

    template <class T>
    void setDesc(cublasLtMatmulDescAttributes_t attribute, const T& value) {
        check(_api.matmulDescSetAttribute(_desc.get(), attribute, &value, sizeof(value)),
              "cublasLtMatmulDescSetAttribute");
    }

    LtObject<cublasLtMatrixLayout_t> layout(const MatmulOperand& operand) {
        cublasLtMatrixLayout_t created = nullptr;
        check(_api.matrixLayoutCreate(&created, cudaTypeOf(operand.type), static_cast<uint64_t>(operand.rows),
                                      static_cast<uint64_t>(operand.columns), operand.leadingDimension),
              "cublasLtMatrixLayoutCreate");
        LtObject<cublasLtMatrixLayout_t> owned(created, _api.matrixLayoutDestroy);
        if (_program.batchCount > 1) {
            const auto count = static_cast<int32_t>(_program.batchCount);
            check(_api.matrixLayoutSetAttribute(created, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                                                sizeof(count)),
                  "cublasLtMatrixLayoutSetAttribute(BATCH_COUNT)");
            check(_api.matrixLayoutSetAttribute(created, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                                &operand.batchStride, sizeof(operand.batchStride)),
                  "cublasLtMatrixLayoutSetAttribute(STRIDED_BATCH_OFFSET)");
        }
        return owned;
    }

    // The heuristics' candidates, best first, for pointers of `alignments` and at most
    // `workspaceBytes` of workspace.
    std::vector<cublasLtMatmulHeuristicResult_t> candidates(const Alignments& alignments,
                                                            size_t workspaceBytes) {
        cublasLtMatmulPreference_t created = nullptr;
        check(_api.matmulPreferenceCreate(&created), "cublasLtMatmulPreferenceCreate");
        const LtObject<cublasLtMatmulPreference_t> preference(created, _api.matmulPreferenceDestroy);
        const uint64_t maxWorkspace = workspaceBytes;
        check(_api.matmulPreferenceSetAttribute(created, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                &maxWorkspace, sizeof(maxWorkspace)),
              "cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES)");
        const std::array<std::pair<cublasLtMatmulPreferenceAttributes_t, uint32_t>, 4> minimumAlignments{{
            {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, alignments[0]},
            {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, alignments[1]},
            {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, alignments[2]},
            {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, alignments[2]},
        }};
        for (const auto& [attribute, bytes] : minimumAlignments) {
            check(_api.matmulPreferenceSetAttribute(created, attribute, &bytes, sizeof(bytes)),
                  "cublasLtMatmulPreferenceSetAttribute(MIN_ALIGNMENT)");
        }
        std::vector<cublasLtMatmulHeuristicResult_t> results(kCublasLtCandidates);
        int returned = 0;
        const cublasStatus_t status =
            _api.matmulAlgoGetHeuristic(_handle.get(), _desc.get(), _a.get(), _b.get(), _d.get(), _d.get(),
                                        created, kCublasLtCandidates, results.data(), &returned);
        // NOT_SUPPORTED: no algorithm fits the problem.
        if (status != CUBLAS_STATUS_NOT_SUPPORTED) {
            check(status, "cublasLtMatmulAlgoGetHeuristic");
        }
        results.resize(status == CUBLAS_STATUS_SUCCESS ? static_cast<size_t>(std::max(returned, 0)) : 0);
        return results;
    }

    // The planned algorithm where every pointer is as aligned as the heuristics assumed; else the
    // best candidate for these alignments within the planned workspace (asked once per alignment).
    const cublasLtMatmulAlgo_t& algorithmFor(const Alignments& alignments) {
        if (std::all_of(alignments.begin(), alignments.end(),
                        [](uint32_t alignment) { return alignment == kDefaultAlignment; })) {
            return _algorithm;
        }
        if (const auto known = _lessAligned.find(alignments); known != _lessAligned.end()) {
            return known->second;
        }
        const std::vector<cublasLtMatmulHeuristicResult_t> found = candidates(alignments, _workspaceBytes);
        if (found.empty()) {
            fail(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                 "cuBLASLt's heuristics returned no algorithm for pointers aligned to " +
                     std::to_string(alignments[0]) + " (A), " + std::to_string(alignments[1]) + " (B), " +
                     std::to_string(alignments[2]) + " (D) and " + std::to_string(alignments[3]) +
                     " (bias) bytes within " + std::to_string(_workspaceBytes) + " bytes of workspace for " +
                     describeMatmul(_program));
        }
        return _lessAligned.emplace(alignments, found.front().algo).first->second;
    }

    const CublasLt::Functions& _api;
    MatmulProgram _program;
    LtObject<cublasLtHandle_t> _handle;
    LtObject<cublasLtMatmulDesc_t> _desc;
    LtObject<cublasLtMatrixLayout_t> _a;
    LtObject<cublasLtMatrixLayout_t> _b;
    LtObject<cublasLtMatrixLayout_t> _d;
    cublasLtMatmulAlgo_t _algorithm{};
    size_t _workspaceBytes = 0;
    std::mutex _mutex;
    std::map<Alignments, cublasLtMatmulAlgo_t> _lessAligned;
};

}  // namespace

std::unique_ptr<hipdnn_plugin_sdk::IExecutionContext> makeCublasLtMatmul(const MatmulProgram& program,
                                                                         const CublasLtSettings& settings) {
    std::string reason;
    const CublasLt* library = CublasLt::instance(reason);
    if (library == nullptr) {
        fail(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, reason);
    }
    return std::make_unique<CublasLtMatmulContext>(*library, program, settings);
}

}  // namespace hipdnn_cuda_kernels
