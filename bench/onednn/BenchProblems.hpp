// The problems both onednn benchmarks time, and the direct-oneDNN implementation of each (no
// hipdnn stack): the same primitives the ONEDNN_ENGINE plan creates for the same graphs.
#pragma once

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <new>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace onednn_bench {

/// A 2-D convolution, fp32, activations NHWC, weights KRSC (OHWI); optionally + bias + ReLU.
struct ConvProblem {
    int64_t n, c, h, w, k, r, stride;
    bool biasRelu = false;

    int64_t pad() const { return r / 2; }
    /// The output length of a spatial dim of `input` elements (an r-tap window padded r / 2 on
    /// both sides, undilated).
    int64_t outputLength(int64_t input) const {
        return hipdnn_data_sdk::utilities::SlidingWindow{input, r, pad(), pad(), stride, 1}
            .outputLength()
            .value();
    }
    int64_t outH() const { return outputLength(h); }
    int64_t outW() const { return outputLength(w); }
    double flops() const { return 2.0 * n * k * outH() * outW() * c * r * r; }
    std::string name() const {
        return std::string(biasRelu ? "conv_bias_relu" : "conv") + "_nhwc_n" + std::to_string(n) + "_" +
               std::to_string(h) + "x" + std::to_string(w) + "_c" + std::to_string(c) + "_k" +
               std::to_string(k) + "_" + std::to_string(r) + "x" + std::to_string(r) + "_s" +
               std::to_string(stride);
    }
};

/// C[M, N] = A[M, K] x B[K, N], fp32 row-major.
struct MatmulProblem {
    int64_t m, n, k;
    double flops() const { return 2.0 * m * n * k; }
    std::string name() const {
        return "matmul_m" + std::to_string(m) + "_n" + std::to_string(n) + "_k" + std::to_string(k);
    }
};

/// ResNet-50's distinct 3x3 and 1x1 layers at N = 4, stride-2 ones included.
inline std::vector<ConvProblem> resnetConvProblems() {
    return {
        {4, 64, 56, 56, 64, 3, 1},   {4, 64, 56, 56, 256, 1, 1},  {4, 256, 56, 56, 64, 1, 1},
        {4, 128, 28, 28, 128, 3, 1}, {4, 256, 14, 14, 256, 3, 1}, {4, 512, 7, 7, 512, 3, 1},
        {4, 128, 56, 56, 128, 3, 2}, {4, 256, 28, 28, 256, 3, 2}, {4, 512, 14, 14, 512, 3, 2},
        {4, 256, 56, 56, 512, 1, 2},
    };
}

/// Every layer of resnetConvProblems() as conv + bias + ReLU, then every layer plain.
inline std::vector<ConvProblem> allConvProblems() {
    std::vector<ConvProblem> problems = resnetConvProblems();
    for (ConvProblem fused : resnetConvProblems()) {
        fused.biasRelu = true;
        problems.push_back(fused);
    }
    return problems;
}

inline std::vector<MatmulProblem> matmulProblems() {
    return {{1024, 1024, 1024}, {4, 1000, 2048}};
}

/// Allocates on 64-byte boundaries, as frameworks allocate tensors (PyTorch does): with malloc's
/// 16-byte alignment half of the AVX loads of a large buffer straddle two cache lines, which
/// costs up to 20% on some convolutions and would make the comparison with PyTorch unfair.
template <typename T>
struct CacheLineAllocator {
    using value_type = T;
    static constexpr std::align_val_t kAlignment{64};

    CacheLineAllocator() = default;
    template <typename U>
    explicit CacheLineAllocator(const CacheLineAllocator<U>& /*other*/) {}

    T* allocate(size_t count) { return static_cast<T*>(::operator new(count * sizeof(T), kAlignment)); }
    void deallocate(T* pointer, size_t /*count*/) { ::operator delete(pointer, kAlignment); }
    bool operator==(const CacheLineAllocator& /*other*/) const { return true; }
};

using Floats = std::vector<float, CacheLineAllocator<float>>;

inline Floats randomBuffer(size_t count, uint32_t seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> distribution(-1.0F, 1.0F);
    Floats values(count);
    for (float& v : values) {
        v = distribution(random);
    }
    return values;
}

/// Median wall time of `runs` calls after `warmup` calls, in milliseconds.
inline double medianMs(const std::function<void()>& body, int warmup, int runs) {
    for (int i = 0; i < warmup; ++i) {
        body();
    }
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        body();
        times.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::nth_element(times.begin(), times.begin() + runs / 2, times.end());
    return times[static_cast<size_t>(runs / 2)];
}

inline void printLine(const std::string& problem, const std::string& implementation, double ms,
                      double flops) {
    std::printf("%-48s %-22s median_ms=%9.3f  GFLOP/s=%8.1f\n", problem.c_str(), implementation.c_str(), ms,
                flops / (ms * 1e6));
    std::fflush(stdout);
}

/// One problem set up on oneDNN directly: user buffers in the plain layouts above, primitives
/// created once, with ONEDNN_ENGINE's layout rule: when oneDNN's AVX2 direct kernel ("jit:avx2")
/// would read NHWC, the blocked activation layout with reorders of x and y is used instead.
/// run() does what a hipdnn execute does: reorder the user's weights (and x) into the
/// primitive's layout, run the convolution, reorder y back. runComputeOnly() runs the
/// convolution alone (what a framework caching reordered weights would time).
class DirectConv {
public:
    DirectConv(const dnnl::engine& engine, const ConvProblem& p, const float* x, const float* w,
               const float* bias, float* y)
        : _stream(engine) {
        using md = dnnl::memory::desc;
        using tag = dnnl::memory::format_tag;
        const auto f32 = dnnl::memory::data_type::f32;
        const md xUser({p.n, p.c, p.h, p.w}, f32, tag::nhwc);
        const md yUser({p.n, p.k, p.outH(), p.outW()}, f32, tag::nhwc);
        const md wUser({p.k, p.c, p.r, p.r}, f32, tag::ohwi);
        const md bDesc({p.k}, f32, tag::a);
        dnnl::primitive_attr attr;
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        if (p.biasRelu) {
            dnnl::post_ops ops;
            ops.append_eltwise(1.0F, dnnl::algorithm::eltwise_relu, 0.0F, 0.0F);
            attr.set_post_ops(ops);
        }
        const dnnl::memory::dims strides{p.stride, p.stride}, pads{p.pad(), p.pad()};
        const auto makePd = [&](const md& src, const md& dst) {
            const md wAny({p.k, p.c, p.r, p.r}, f32, tag::any);
            const auto desc = p.biasRelu
                                  ? dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                                                    dnnl::algorithm::convolution_direct, src,
                                                                    wAny, bDesc, dst, strides, pads, pads)
                                  : dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                                                    dnnl::algorithm::convolution_direct, src,
                                                                    wAny, dst, strides, pads, pads);
            return dnnl::convolution_forward::primitive_desc(desc, attr, engine);
        };
        auto pd = makePd(xUser, yUser);
        if (std::string(pd.impl_info_str()) == "jit:avx2") {
            pd = makePd(md(xUser.dims(), f32, tag::any), md(yUser.dims(), f32, tag::any));
        }
        implementation = pd.impl_info_str();
        _scratchpad.resize(pd.scratchpad_desc().get_size() / sizeof(float) + 1);
        const dnnl::memory xMem = bind(engine, xUser, pd.src_desc(), const_cast<float*>(x), _x, _reorders);
        const dnnl::memory wMem =
            bind(engine, wUser, pd.weights_desc(), const_cast<float*>(w), _weights, _reorders);
        _convArgs = {{DNNL_ARG_SRC, xMem},
                     {DNNL_ARG_WEIGHTS, wMem},
                     {DNNL_ARG_SCRATCHPAD, dnnl::memory(pd.scratchpad_desc(), engine, _scratchpad.data())}};
        if (p.biasRelu) {
            _convArgs[DNNL_ARG_BIAS] = dnnl::memory(bDesc, engine, const_cast<float*>(bias));
        }
        const dnnl::memory yUserMem(yUser, engine, y);
        if (pd.dst_desc() == yUser) {
            _convArgs[DNNL_ARG_DST] = yUserMem;
        } else {
            _y.resize(pd.dst_desc().get_size() / sizeof(float) + 1);
            const dnnl::memory yMem(pd.dst_desc(), engine, _y.data());
            _convArgs[DNNL_ARG_DST] = yMem;
            _outputReorder = {dnnl::reorder(yMem, yUserMem),
                              {{DNNL_ARG_FROM, yMem}, {DNNL_ARG_TO, yUserMem}}};
        }
        _conv = dnnl::convolution_forward(pd);
    }

    void run() {
        for (auto& [reorder, args] : _reorders) {
            reorder.execute(_stream, args);
        }
        _conv.execute(_stream, _convArgs);
        if (_outputReorder) {
            _outputReorder->first.execute(_stream, _outputReorder->second);
        }
        _stream.wait();
    }

    void runComputeOnly() {
        _conv.execute(_stream, _convArgs);
        _stream.wait();
    }

    std::string implementation;

private:
    using Args = std::unordered_map<int, dnnl::memory>;

    /// The memory the primitive reads for a user buffer: the buffer itself when the layouts
    /// agree, else `storage` filled by a reorder appended to `reorders`.
    static dnnl::memory bind(const dnnl::engine& engine, const dnnl::memory::desc& user,
                             const dnnl::memory::desc& wanted, float* data, Floats& storage,
                             std::vector<std::pair<dnnl::primitive, Args>>& reorders) {
        const dnnl::memory userMem(user, engine, data);
        if (wanted == user) {
            return userMem;
        }
        storage.resize(wanted.get_size() / sizeof(float) + 1);
        const dnnl::memory wantedMem(wanted, engine, storage.data());
        reorders.emplace_back(dnnl::reorder(userMem, wantedMem),
                              Args{{DNNL_ARG_FROM, userMem}, {DNNL_ARG_TO, wantedMem}});
        return wantedMem;
    }

    dnnl::stream _stream;
    Floats _scratchpad, _weights, _x, _y;
    std::vector<std::pair<dnnl::primitive, Args>> _reorders;
    std::optional<std::pair<dnnl::primitive, Args>> _outputReorder;
    dnnl::primitive _conv;
    Args _convArgs;
};

class DirectMatmul {
public:
    DirectMatmul(const dnnl::engine& engine, const MatmulProblem& p, const float* a, const float* b, float* c)
        : _stream(engine) {
        using md = dnnl::memory::desc;
        using tag = dnnl::memory::format_tag;
        const auto f32 = dnnl::memory::data_type::f32;
        const md aDesc({p.m, p.k}, f32, tag::ab), bDesc({p.k, p.n}, f32, tag::ab),
            cDesc({p.m, p.n}, f32, tag::ab);
        dnnl::primitive_attr attr;
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        const dnnl::matmul::primitive_desc pd({aDesc, bDesc, cDesc}, attr, engine);
        implementation = pd.impl_info_str();
        _scratchpad.resize(pd.scratchpad_desc().get_size() / sizeof(float) + 1);
        _matmul = dnnl::matmul(pd);
        _args = {{DNNL_ARG_SRC, dnnl::memory(aDesc, engine, const_cast<float*>(a))},
                 {DNNL_ARG_WEIGHTS, dnnl::memory(bDesc, engine, const_cast<float*>(b))},
                 {DNNL_ARG_DST, dnnl::memory(cDesc, engine, c)},
                 {DNNL_ARG_SCRATCHPAD, dnnl::memory(pd.scratchpad_desc(), engine, _scratchpad.data())}};
    }

    void run() {
        _matmul.execute(_stream, _args);
        _stream.wait();
    }

    std::string implementation;

private:
    dnnl::stream _stream;
    Floats _scratchpad;
    dnnl::primitive _matmul;
    std::unordered_map<int, dnnl::memory> _args;
};

}  // namespace onednn_bench
