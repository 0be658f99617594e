#include "PointwiseCodegen.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <sstream>

namespace hipdnn_cuda_kernels {

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using Mode = fb::PointwiseMode;

// Conversions and helpers every kernel may use. bf16 rounding needs sm_80's cvt.rn.bf16.f32;
// older devices round in integer arithmetic (NaN stays a quiet NaN).
constexpr const char* kPrelude = R"(struct __align__(16) hdnn_w4 { unsigned int x, y, z, w; };
struct __align__(8) hdnn_w2 { unsigned int x, y; };
__forceinline__ float hdnn_h2f(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__forceinline__ unsigned short hdnn_f2h(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
__forceinline__ float hdnn_b2f(unsigned short b) { return __uint_as_float(((unsigned int)b) << 16); }
__forceinline__ float hdnn_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }
__forceinline__ double hdnn_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
)";

constexpr const char* kBf16RoundSm80 =
    "__forceinline__ unsigned short hdnn_f2b(float f) { unsigned short b; asm(\"cvt.rn.bf16.f32 %0, %1;\" : "
    "\"=h\"(b) : \"f\"(f)); return b; }\n";
constexpr const char* kBf16RoundSoftware = R"(__forceinline__ unsigned short hdnn_f2b(float f) {
    unsigned int u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) { return (unsigned short)((u >> 16) | 0x40u); }
    u += 0x7fffu + ((u >> 16) & 1u);
    return (unsigned short)(u >> 16);
}
)";

// Vector accesses of W elements of kind K (0 float, 1 half, 2 bfloat16) in the widest words the
// access size allows; the offset is a multiple of W, so the words are aligned.
constexpr const char* kVectorAccess =
    R"(template <int K> struct hdnn_storage { typedef unsigned short type; };
template <> struct hdnn_storage<0> { typedef float type; };
template <int K> __forceinline__ float hdnn_to_float(typename hdnn_storage<K>::type v) {
    if constexpr (K == 0) { return v; } else if constexpr (K == 1) { return hdnn_h2f(v); } else { return hdnn_b2f(v); }
}
template <int K> __forceinline__ typename hdnn_storage<K>::type hdnn_from_float(float v) {
    if constexpr (K == 0) { return v; } else if constexpr (K == 1) { return hdnn_f2h(v); } else { return hdnn_f2b(v); }
}
// The W elements of kind K as stored, as the widest words their size allows (the word arrays
// have at least one element, so small vectors use t alone).
template <int K, int W> union hdnn_vec {
    typedef typename hdnn_storage<K>::type T;
    static constexpr int kBytes = W * (int)sizeof(T);
    T t[W];
    hdnn_w4 w4[kBytes / 16 > 0 ? kBytes / 16 : 1];
    hdnn_w2 w2[kBytes / 8 > 0 ? kBytes / 8 : 1];
};
// Global word accesses with cache hint H: 0 normal, 1 streaming (evict first: data this kernel
// touches once, so that it does not push out of L2 what is read again).
template <int H, class V> __forceinline__ V hdnn_read_word(const V* p) {
    if constexpr (H == 0) {
        return *p;
    } else if constexpr (sizeof(V) == 16) {
        V v;
        asm("ld.global.cs.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
        return v;
    } else {
        V v;
        asm("ld.global.cs.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
        return v;
    }
}
template <int H, class V> __forceinline__ void hdnn_write_word(V* p, const V& v) {
    if constexpr (H == 0) {
        *p = v;
    } else if constexpr (sizeof(V) == 16) {
        asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
    } else {
        asm volatile("st.global.cs.v2.u32 [%0], {%1, %2};" :: "l"(p), "r"(v.x), "r"(v.y) : "memory");
    }
}
template <int K, int W, int H = 0, class I> __forceinline__ void hdnn_read_vec(const typename hdnn_storage<K>::type* p, I e, hdnn_vec<K, W>& v) {
    typedef hdnn_vec<K, W> V;
    if constexpr (V::kBytes % 16 == 0) {
#pragma unroll
        for (int k = 0; k < V::kBytes / 16; ++k) { v.w4[k] = hdnn_read_word<H>(reinterpret_cast<const hdnn_w4*>(p + e) + k); }
    } else if constexpr (V::kBytes % 8 == 0) {
#pragma unroll
        for (int k = 0; k < V::kBytes / 8; ++k) { v.w2[k] = hdnn_read_word<H>(reinterpret_cast<const hdnn_w2*>(p + e) + k); }
    } else {
#pragma unroll
        for (int lane = 0; lane < W; ++lane) { v.t[lane] = p[e + lane]; }
    }
}
template <int K, int W, int H = 0, class I> __forceinline__ void hdnn_write_vec(typename hdnn_storage<K>::type* p, I e, const hdnn_vec<K, W>& v) {
    typedef hdnn_vec<K, W> V;
    if constexpr (V::kBytes % 16 == 0) {
#pragma unroll
        for (int k = 0; k < V::kBytes / 16; ++k) { hdnn_write_word<H>(reinterpret_cast<hdnn_w4*>(p + e) + k, v.w4[k]); }
    } else if constexpr (V::kBytes % 8 == 0) {
#pragma unroll
        for (int k = 0; k < V::kBytes / 8; ++k) { hdnn_write_word<H>(reinterpret_cast<hdnn_w2*>(p + e) + k, v.w2[k]); }
    } else {
#pragma unroll
        for (int lane = 0; lane < W; ++lane) { p[e + lane] = v.t[lane]; }
    }
}
template <int K, int W> __forceinline__ void hdnn_unpack(const hdnn_vec<K, W>& v, float (&o)[W]) {
#pragma unroll
    for (int lane = 0; lane < W; ++lane) { o[lane] = hdnn_to_float<K>(v.t[lane]); }
}
template <int K, int W, int H = 0, class I> __forceinline__ void hdnn_load(const typename hdnn_storage<K>::type* p, I e, float (&o)[W]) {
    hdnn_vec<K, W> v;
    hdnn_read_vec<K, W, H>(p, e, v);
    hdnn_unpack(v, o);
}
template <int K, int W, int H = 0, class I> __forceinline__ void hdnn_store(typename hdnn_storage<K>::type* p, I e, const float (&o)[W]) {
    hdnn_vec<K, W> v;
#pragma unroll
    for (int lane = 0; lane < W; ++lane) { v.t[lane] = hdnn_from_float<K>(o[lane]); }
    hdnn_write_vec<K, W, H>(p, e, v);
}
)";

// Spells values and math calls in one compute type.
struct Typed {
    ComputeType compute;

    std::string type() const { return compute == ComputeType::Float ? "float" : "double"; }
    std::string call(const char* function, const std::string& argument) const {
        return std::string(function) + (compute == ComputeType::Float ? "f(" : "(") + argument + ")";
    }
    // Bit-exact: the value rounded to the compute type, spelled by its bits.
    std::string literal(double value) const {
        char text[64];
        if (compute == ComputeType::Float) {
            std::snprintf(text, sizeof(text), "__int_as_float(0x%08x)",
                          std::bit_cast<uint32_t>(static_cast<float>(value)));
        } else {
            std::snprintf(text, sizeof(text), "__longlong_as_double((long long)0x%016llxULL)",
                          static_cast<unsigned long long>(std::bit_cast<uint64_t>(value)));
        }
        return text;
    }
};

// The statement that sets `r` from a, b, c for one mode, the CPU reference's formula in the same
// evaluation order; nullopt for a mode without a formula here.
std::optional<std::string> modeStatement(const PointwiseStep& step) {
    const Typed t{step.compute};
    const std::string zero = t.literal(0);
    const std::string one = t.literal(1);
    const std::string half = t.literal(0.5);
    const std::string sqrtHalf = t.literal(0.70710678118654752440);
    const std::string invSqrtTwoPi = t.literal(0.39894228040143267794);
    const std::string tanhScale = t.literal(0.79788456080286535588);
    const std::string tanhCubic = t.literal(0.044715);
    const std::string lower = t.literal(step.reluLowerClip);
    const std::string upper = t.literal(step.reluUpperClip);
    const std::string slope = t.literal(step.reluLowerClipSlope);
    const std::string swish = t.literal(step.swishBeta);
    const std::string alpha = t.literal(step.eluAlpha);
    const std::string beta = t.literal(step.softplusBeta);
    const std::string T = t.type();
    const auto flag = [&](const std::string& condition) {
        return "r = (" + condition + ") ? " + one + " : " + zero + ";";
    };
    switch (step.mode) {
        case Mode::ABS:
            return "r = " + t.call("fabs", "a") + ";";
        case Mode::CEIL:
            return "r = " + t.call("ceil", "a") + ";";
        case Mode::COS:
            return "r = " + t.call("cos", "a") + ";";
        case Mode::ERF:
            return "r = " + t.call("erf", "a") + ";";
        case Mode::EXP:
            return "r = " + t.call("exp", "a") + ";";
        case Mode::FLOOR:
            return "r = " + t.call("floor", "a") + ";";
        case Mode::IDENTITY:
            return std::string("r = a;");
        case Mode::LOG:
            return "r = " + t.call("log", "a") + ";";
        case Mode::LOGICAL_NOT:
            return flag("a == " + zero);
        case Mode::NEG:
            return std::string("r = -a;");
        case Mode::RECIPROCAL:
            return "r = " + one + " / a;";
        case Mode::RSQRT:
            return "r = " + one + " / " + t.call("sqrt", "a") + ";";
        case Mode::SIN:
            return "r = " + t.call("sin", "a") + ";";
        case Mode::SQRT:
            return "r = " + t.call("sqrt", "a") + ";";
        case Mode::TAN:
            return "r = " + t.call("tan", "a") + ";";
        case Mode::RELU_FWD:
            return "r = a <= " + lower + " ? " + lower + " + " + slope + " * (a - " + lower + ") : (" +
                   upper + " < a ? " + upper + " : a);";
        case Mode::SIGMOID_FWD:
            return std::string("r = hdnn_sigmoid(a);");
        case Mode::TANH_FWD:
            return "r = " + t.call("tanh", "a") + ";";
        case Mode::ELU_FWD:
            return "r = a > " + zero + " ? a : " + alpha + " * " + t.call("expm1", "a") + ";";
        case Mode::GELU_FWD:
            return "r = " + half + " * a * (" + one + " + " + t.call("erf", "a * " + sqrtHalf) + ");";
        case Mode::GELU_APPROX_TANH_FWD:
            return "r = " + half + " * a * (" + one + " + " +
                   t.call("tanh", tanhScale + " * (a + " + tanhCubic + " * a * a * a)") + ");";
        case Mode::SOFTPLUS_FWD:
            return "const " + T + " z = " + beta + " * a; r = ((z < " + zero + " ? " + zero + " : z) + " +
                   t.call("log1p", t.call("exp", "-" + t.call("fabs", "z"))) + ") / " + beta + ";";
        case Mode::SWISH_FWD:
            return "r = a * hdnn_sigmoid(" + swish + " * a);";
        case Mode::ADD:
            return std::string("r = a + b;");
        case Mode::ADD_SQUARE:
            return std::string("r = a + b * b;");
        case Mode::SUB:
            return std::string("r = a - b;");
        case Mode::MUL:
            return std::string("r = a * b;");
        case Mode::DIV:
            return std::string("r = a / b;");
        case Mode::MAX_OP:
            return std::string("r = a < b ? b : a;");
        case Mode::MIN_OP:
            return std::string("r = b < a ? b : a;");
        case Mode::MOD:
            return "r = " + t.call("fmod", "a, b") + ";";
        case Mode::POW:
            return "r = " + t.call("pow", "a, b") + ";";
        case Mode::CMP_EQ:
            return flag("a == b");
        case Mode::CMP_NEQ:
            return flag("a != b");
        case Mode::CMP_GT:
            return flag("a > b");
        case Mode::CMP_GE:
            return flag("a >= b");
        case Mode::CMP_LT:
            return flag("a < b");
        case Mode::CMP_LE:
            return flag("a <= b");
        case Mode::LOGICAL_AND:
            return flag("a != " + zero + " && b != " + zero);
        case Mode::LOGICAL_OR:
            return flag("a != " + zero + " || b != " + zero);
        case Mode::BINARY_SELECT:
            return "r = c != " + zero + " ? a : b;";
        // Backward activations: a = dy, b = x (the forward input).
        case Mode::RELU_BWD:
            return "r = b <= " + lower + " ? " + slope + " * a : (b < " + upper + " ? a : " + zero + ");";
        case Mode::SIGMOID_BWD:
            return "const " + T + " s = hdnn_sigmoid(b); r = a * s * (" + one + " - s);";
        case Mode::TANH_BWD:
            return "const " + T + " h = " + t.call("tanh", "b") + "; r = a * (" + one + " - h * h);";
        case Mode::ELU_BWD:
            return "r = b > " + zero + " ? a : a * " + alpha + " * " + t.call("exp", "b") + ";";
        case Mode::GELU_BWD:
            return "r = a * (" + half + " * (" + one + " + " + t.call("erf", "b * " + sqrtHalf) + ") + b * " +
                   invSqrtTwoPi + " * " + t.call("exp", t.literal(-0.5) + " * b * b") + ");";
        case Mode::GELU_APPROX_TANH_BWD:
            return "const " + T + " inner = " + tanhScale + " * (b + " + tanhCubic + " * b * b * b); const " +
                   T + " h = " + t.call("tanh", "inner") + "; const " + T + " d = " + tanhScale + " * (" +
                   one + " + " + t.literal(3) + " * " + tanhCubic + " * b * b); r = a * (" + half + " * (" +
                   one + " + h) + " + half + " * b * (" + one + " - h * h) * d);";
        case Mode::SOFTPLUS_BWD:
            return "r = a * hdnn_sigmoid(" + beta + " * b);";
        case Mode::SWISH_BWD:
            return "const " + T + " s = hdnn_sigmoid(" + swish + " * b); r = a * (s + " + swish +
                   " * b * s * (" + one + " - s));";
        case Mode::GEN_INDEX:
            return step.indexDim ? "r = (" + T + ")c" + std::to_string(*step.indexDim) + ";"
                                 : "r = " + zero + ";";
        case Mode::UNSET:
            break;
    }
    return std::nullopt;
}

// prefix followed by n ("v3"); appended because GCC 12 raises a false -Wrestrict on
// "literal" + std::string.
std::string numbered(const char* prefix, size_t n) {
    std::string text(prefix);
    text += std::to_string(n);
    return text;
}

std::string storageType(ElementType type) {
    return type == ElementType::Float ? "float" : "unsigned short";
}

std::string loadConversion(ElementType type, const std::string& element) {
    switch (type) {
        case ElementType::Float:
            return element;
        case ElementType::Half:
            return "hdnn_h2f(" + element + ")";
        case ElementType::BFloat16:
            return "hdnn_b2f(" + element + ")";
    }
    return element;
}

std::string storeConversion(ElementType type, const std::string& value) {
    switch (type) {
        case ElementType::Float:
            return value;
        case ElementType::Half:
            return "hdnn_f2h(" + value + ")";
        case ElementType::BFloat16:
            return "hdnn_f2b(" + value + ")";
    }
    return value;
}

// Vector iterations whose loads a thread issues together: more bytes in flight per thread.
constexpr int kVectorUnroll = 2;

class Generator {
public:
    Generator(const PointwiseProgram& program, int computeCapability)
        : _program(program), _computeCapability(computeCapability) {}

    std::optional<PointwiseSource> run(std::string& reason) {
        if (!prepareStatements(reason)) {
            return std::nullopt;
        }
        chooseIndexType();
        PointwiseSource result;
        std::ostringstream out;
        out << "// hipDNN fused pointwise kernel, " << _program.steps.size() << " steps over "
            << _program.elementCount() << " elements\n"
            << kPrelude << (_computeCapability >= 80 ? kBf16RoundSm80 : kBf16RoundSoftware) << "typedef "
            << _index << " hdnn_index;\n";
        emitScalarKernel(out);
        result.kernelNames.push_back(kPointwiseScalarKernel);
        if (_program.contiguous) {
            result.vectorWidth = vectorWidth();
            emitVectorKernel(out, result.vectorWidth);
            result.kernelNames.push_back(kPointwiseVectorKernel);
        }
        result.source = out.str();
        return result;
    }

    std::optional<std::string> fragment(const std::string& name, int width, AccessHint storeHint,
                                        std::string& reason) {
        if (!prepareStatements(reason)) {
            return std::nullopt;
        }
        std::ostringstream out;
        out << "__device__ __forceinline__ void " << name << "(hdnn_index e, float (&r)[" << width << "]";
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            const MemoryOperand& operand = _program.operands[k];
            if (!operand.inRegister) {
                out << ", " << (operand.isOutput ? "" : "const ") << storageType(operand.type)
                    << "* __restrict__ p" << k;
            }
        }
        out << ") {\n    (void)e;\n";
        const auto inMemory = [](const MemoryOperand& operand) { return !operand.inRegister; };
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            const MemoryOperand& operand = _program.operands[k];
            if (!inMemory(operand)) {
                continue;
            }
            const std::string kind = std::to_string(elementKind(operand.type));
            if (operand.isSingleElement) {
                out << "    const float m" << k << " = "
                    << loadConversion(operand.type, numbered("p", k) + "[0]") << ";\n";
            } else {
                out << "    float e" << k << "[" << width << "];\n";
                if (!operand.isOutput) {
                    out << "    hdnn_load<" << kind << ", " << width << ">(p" << k << ", e, e" << k << ");\n";
                }
            }
        }
        out << "#pragma unroll\n    for (int lane = 0; lane < " << width << "; ++lane) {\n";
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            const MemoryOperand& operand = _program.operands[k];
            if (!operand.isOutput && !operand.isSingleElement) {
                out << "        const float m" << k << " = " << (operand.inRegister ? "r" : numbered("e", k))
                    << "[lane];\n";
            }
        }
        emitSteps(out, "        ", [&](size_t k, const std::string& value) {
            return (_program.operands[k].inRegister ? std::string("r") : numbered("e", k)) +
                   "[lane] = " + value + ";";
        });
        out << "    }\n";
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            const MemoryOperand& operand = _program.operands[k];
            if (operand.isOutput && inMemory(operand)) {
                out << "    hdnn_store<" << elementKind(operand.type) << ", " << width << ", "
                    << static_cast<int>(storeHint) << ">(p" << k << ", e, e" << k << ");\n";
            }
        }
        out << "}\n";
        return out.str();
    }

private:
    bool prepareStatements(std::string& reason) {
        for (const PointwiseStep& step : _program.steps) {
            auto statement = modeStatement(step);
            if (!statement) {
                reason = std::string("pointwise mode ") + fb::EnumNamePointwiseMode(step.mode) +
                         " has no kernel formula";
                return false;
            }
            _statements.push_back(std::move(*statement));
        }
        return true;
    }

    void chooseIndexType() {
        int64_t largest = _program.elementCount();
        for (const MemoryOperand& operand : _program.operands) {
            int64_t reach = 0;
            for (size_t d = 0; d < _program.dims.size(); ++d) {
                reach += operand.strides[d] * (_program.dims[d] - 1);
            }
            largest = std::max(largest, reach + 1);
        }
        // 32-bit index arithmetic is markedly cheaper; offsets must stay below 2^31 for it.
        _index = largest < (int64_t{1} << 31) ? "unsigned int" : "unsigned long long";
    }

    int vectorWidth() const {
        size_t widest = 2;
        for (const MemoryOperand& operand : _program.operands) {
            if (!operand.isSingleElement) {
                widest = std::max(widest, elementSize(operand.type));
            }
        }
        return static_cast<int>(16 / widest);
    }

    std::string parameters() const {
        std::string text;
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            const MemoryOperand& operand = _program.operands[k];
            text += std::string(k == 0 ? "" : ", ") + (operand.isOutput ? "" : "const ") +
                    storageType(operand.type) + "* __restrict__ p" + std::to_string(k);
        }
        return text;
    }

    std::string kernelHeader(const char* name) const {
        return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kPointwiseBlockSize) +
               ") " + name + "(" + parameters() +
               ") {\n    const hdnn_index total = " + std::to_string(_program.elementCount()) +
               ";\n    const hdnn_index stride = (hdnn_index)gridDim.x * blockDim.x;\n"
               "    const hdnn_index first = (hdnn_index)blockIdx.x * blockDim.x + threadIdx.x;\n";
    }

    std::string inputValue(const StepInput& input, const Typed& t) const {
        switch (input.kind) {
            case StepInput::Kind::Memory:
                return "(" + t.type() + ")m" + std::to_string(input.index);
            case StepInput::Kind::Step:
                return "(" + t.type() + ")v" + std::to_string(input.index);
            case StepInput::Kind::Constant:
                return t.literal(input.constant);
        }
        return {};
    }

    // The steps for one element, given m<k> (float values of the inputs); `store(k, value)`
    // writes a float value to output operand k.
    template <class Store>
    void emitSteps(std::ostringstream& out, const std::string& indent, Store&& store) const {
        static constexpr const char* names[] = {"a", "b", "c"};
        for (size_t i = 0; i < _program.steps.size(); ++i) {
            const PointwiseStep& step = _program.steps[i];
            const Typed t{step.compute};
            const std::string v = numbered("v", i);
            out << indent << t.type() << " " << v << ";\n" << indent << "{\n";
            if (step.mode != Mode::GEN_INDEX) {
                for (size_t input = 0; input < step.inputs.size(); ++input) {
                    out << indent << "    const " << t.type() << " " << names[input] << " = "
                        << inputValue(step.inputs[input], t) << ";\n";
                }
            }
            out << indent << "    " << t.type() << " r;\n"
                << indent << "    " << _statements[i] << "\n"
                << indent << "    " << v << " = r;\n"
                << indent << "}\n";
            if (step.roundTo) {
                const std::string narrowed = "(float)" + v;
                const std::string rounded =
                    *step.roundTo == ElementType::Float
                        ? narrowed
                        : loadConversion(*step.roundTo, storeConversion(*step.roundTo, narrowed));
                out << indent << v << " = (" << t.type() << ")" << rounded << ";\n";
            }
            if (step.storeOperand) {
                out << indent << store(*step.storeOperand, "(float)" + v) << "\n";
            }
        }
    }

    // The element offset of operand k at linear index i: coordinates from the output dims and the
    // operand's strides, all constants so that divisions become multiplications.
    void emitCoordinates(std::ostringstream& out, const std::string& indent) const {
        const size_t rank = _program.dims.size();
        out << indent << "hdnn_index rest = i;\n";
        for (size_t back = 0; back < rank; ++back) {
            const size_t d = rank - 1 - back;
            const std::string dim = std::to_string(_program.dims[d]);
            if (d == 0) {
                out << indent << "const hdnn_index c0 = rest;\n";
            } else {
                out << indent << "const hdnn_index c" << d << " = rest % " << dim << "; rest /= " << dim
                    << ";\n";
            }
        }
        out << indent << "(void)rest;\n";
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            std::string offset;
            for (size_t d = 0; d < rank; ++d) {
                const int64_t stride = _program.operands[k].strides[d];
                if (stride != 0 && _program.dims[d] > 1) {
                    offset += (offset.empty() ? "" : " + ") + std::string("c") + std::to_string(d) +
                              (stride == 1 ? "" : " * " + std::to_string(stride));
                }
            }
            out << indent << "const hdnn_index o" << k << " = " << (offset.empty() ? "0" : offset) << ";\n";
        }
    }

    // The element loop of the scalar kernel and the vector kernel's tail: `offsetOf(k)` spells
    // operand k's offset at index i.
    template <class Offset>
    void emitElement(std::ostringstream& out, const std::string& indent, Offset&& offsetOf) const {
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            const MemoryOperand& operand = _program.operands[k];
            if (!operand.isOutput) {
                out << indent << "const float m" << k << " = "
                    << loadConversion(operand.type, numbered("p", k) + "[" + offsetOf(k) + "]") << ";\n";
            }
        }
        emitSteps(out, indent, [&](size_t k, const std::string& value) {
            return numbered("p", k) + "[" + offsetOf(k) +
                   "] = " + storeConversion(_program.operands[k].type, value) + ";";
        });
    }

    void emitScalarKernel(std::ostringstream& out) const {
        out << kernelHeader(kPointwiseScalarKernel)
            << "    for (hdnn_index i = first; i < total; i += stride) {\n";
        if (_program.contiguous) {
            emitElement(out, "        ", [&](size_t k) -> std::string {
                return _program.operands[k].isSingleElement ? "0" : "i";
            });
        } else {
            emitCoordinates(out, "        ");
            emitElement(out, "        ", [](size_t k) { return numbered("o", k); });
        }
        out << "    }\n}\n";
    }

    // The 32-bit words a vector access of operand k moves.
    size_t wordsOf(const MemoryOperand& operand, int width) const {
        return static_cast<size_t>(width) * elementSize(operand.type) / 4;
    }

    // Issues every vectorized load of kVectorUnroll iterations before any arithmetic, so that each
    // thread has that many 16-byte loads per input in flight.
    void emitVectorLoads(std::ostringstream& out, const std::string& indent, int width) const {
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            const MemoryOperand& operand = _program.operands[k];
            if (operand.isOutput || operand.isSingleElement) {
                continue;
            }
            out << indent << numbered("hdnn_w", wordsOf(operand, width)) << " w" << k << "[" << kVectorUnroll
                << "];\n";
        }
        out << indent << "#pragma unroll\n"
            << indent << "for (int u = 0; u < " << kVectorUnroll << "; ++u) {\n"
            << indent << "    const hdnn_index vi = base + u * stride;\n"
            << indent << "    if (vi < vectors) {\n";
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            const MemoryOperand& operand = _program.operands[k];
            if (operand.isOutput || operand.isSingleElement) {
                continue;
            }
            out << indent << "        w" << k << "[u] = reinterpret_cast<const "
                << numbered("hdnn_w", wordsOf(operand, width)) << "*>(p" << k << ")[vi];\n";
        }
        out << indent << "    }\n" << indent << "}\n";
    }

    // Words of iteration u to the float elements e<k>[lane] of each vectorized input.
    void emitVectorUnpack(std::ostringstream& out, const std::string& indent, int width) const {
        const char* fields[] = {"x", "y", "z", "w"};
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            const MemoryOperand& operand = _program.operands[k];
            if (operand.isSingleElement) {
                continue;
            }
            const std::string id = std::to_string(k);
            out << indent << "float e" << id << "[" << width << "];\n";
            if (operand.isOutput) {
                continue;
            }
            for (size_t w = 0; w < wordsOf(operand, width); ++w) {
                const std::string word = "w" + id + "[u]." + fields[w];
                if (operand.type == ElementType::Float) {
                    out << indent << "e" << id << "[" << w << "] = __uint_as_float(" << word << ");\n";
                } else {
                    out << indent << "e" << id << "[" << 2 * w
                        << "] = " << loadConversion(operand.type, "(unsigned short)(" + word + " & 0xffffu)")
                        << ";\n"
                        << indent << "e" << id << "[" << 2 * w + 1
                        << "] = " << loadConversion(operand.type, "(unsigned short)(" + word + " >> 16)")
                        << ";\n";
                }
            }
        }
    }

    // The output elements e<k>[lane] packed into words and stored with one vector access each.
    void emitVectorStores(std::ostringstream& out, const std::string& indent, int width) const {
        const char* fields[] = {"x", "y", "z", "w"};
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            const MemoryOperand& operand = _program.operands[k];
            if (!operand.isOutput) {
                continue;
            }
            const std::string wordType = numbered("hdnn_w", wordsOf(operand, width));
            const std::string id = std::to_string(k);
            out << indent << wordType << " s" << id << ";\n";
            for (size_t w = 0; w < wordsOf(operand, width); ++w) {
                out << indent << "s" << id << "." << fields[w] << " = ";
                if (operand.type == ElementType::Float) {
                    out << "__float_as_uint(e" << id << "[" << w << "]);\n";
                } else {
                    out << "(unsigned int)"
                        << storeConversion(operand.type, numbered("e", k) + "[" + std::to_string(2 * w) + "]")
                        << " | ((unsigned int)"
                        << storeConversion(operand.type,
                                           numbered("e", k) + "[" + std::to_string(2 * w + 1) + "]")
                        << " << 16);\n";
                }
            }
            out << indent << "reinterpret_cast<" << wordType << "*>(p" << id << ")[vi] = s" << id << ";\n";
        }
    }

    void emitVectorKernel(std::ostringstream& out, int width) const {
        out << kernelHeader(kPointwiseVectorKernel) << "    const hdnn_index vectors = total / " << width
            << ";\n";
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            const MemoryOperand& operand = _program.operands[k];
            if (!operand.isOutput && operand.isSingleElement) {
                out << "    const float m" << k << " = "
                    << loadConversion(operand.type, numbered("p", k) + "[0]") << ";\n";
            }
        }
        out << "    for (hdnn_index base = first; base < vectors; base += " << kVectorUnroll
            << " * stride) {\n";
        emitVectorLoads(out, "        ", width);
        out << "        #pragma unroll\n"
            << "        for (int u = 0; u < " << kVectorUnroll << "; ++u) {\n"
            << "            const hdnn_index vi = base + u * stride;\n"
            << "            if (vi >= vectors) {\n"
            << "                break;\n"
            << "            }\n";
        const std::string indent = "            ";
        emitVectorUnpack(out, indent, width);
        out << indent << "#pragma unroll\n"
            << indent << "for (int lane = 0; lane < " << width << "; ++lane) {\n";
        const std::string inner = indent + "    ";
        for (size_t k = 0; k < _program.operands.size(); ++k) {
            const MemoryOperand& operand = _program.operands[k];
            if (!operand.isOutput && !operand.isSingleElement) {
                out << inner << "const float m" << k << " = e" << k << "[lane];\n";
            }
        }
        emitSteps(out, inner, [](size_t k, const std::string& value) {
            return numbered("e", k) + "[lane] = " + value + ";";
        });
        out << indent << "}\n";
        emitVectorStores(out, indent, width);
        out << "        }\n    }\n    for (hdnn_index i = vectors * " << width
            << " + first; i < total; i += stride) {\n";
        emitElement(out, "        ", [&](size_t k) -> std::string {
            return _program.operands[k].isSingleElement ? "0" : "i";
        });
        out << "    }\n}\n";
    }

    const PointwiseProgram& _program;
    int _computeCapability;
    std::vector<std::string> _statements;
    std::string _index;
};

}  // namespace

std::optional<PointwiseSource> generatePointwiseSource(const PointwiseProgram& program, int computeCapability,
                                                       std::string& reason) {
    return Generator(program, computeCapability).run(reason);
}

std::string kernelPrelude(int computeCapability) {
    return std::string(kPrelude) + (computeCapability >= 80 ? kBf16RoundSm80 : kBf16RoundSoftware) +
           kVectorAccess;
}

int elementKind(ElementType type) {
    switch (type) {
        case ElementType::Float:
            return 0;
        case ElementType::Half:
            return 1;
        case ElementType::BFloat16:
            return 2;
    }
    return 0;
}

std::optional<std::string> generatePointwiseFragment(const PointwiseProgram& program, const std::string& name,
                                                     int width, std::string& reason, AccessHint storeHint) {
    return Generator(program, 0).fragment(name, width, storeHint, reason);
}

}  // namespace hipdnn_cuda_kernels
