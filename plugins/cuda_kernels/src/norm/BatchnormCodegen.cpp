// Batch norm: inference, training in three kernels (statistics, finalize, apply), backward and
// the synchronized finalize.
#include "NormGenerator.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels::detail {

namespace {

// Channels whose coefficients (mean, scale, bias: three floats each) fit in static shared memory.
constexpr int64_t kMaxSharedChannels = 2048;
// Loads each statistics thread issues before it accumulates them, and vectors each streaming
// thread loads before it computes.
constexpr int kStatsBatch = 4;
constexpr int kApplyUnroll = 2;
// Threads per block of the synchronized finalize: one per channel.
constexpr unsigned kSynchronizedFinalizeBlock = 128;

}  // namespace

// The vector width of the batch norm kernels: a vector never spans two channels' segments
// (channel stride a multiple of the width) or holds consecutive channels (channels last).
int NormGenerator::batchnormWidth() const {
    int width = widestVector();
    while (width > 1) {
        const bool channelsLast = _program.channelStride == 1 && _program.channels % width == 0;
        const bool segments = _program.channelStride % width == 0;
        if (channelsLast || segments) {
            break;
        }
        width /= 2;
    }
    return width;
}

std::string NormGenerator::perChannel(const char* name, const char* fallback) const {
    if (!has(name)) {
        return fallback;
    }
    return read(name, "c * " + std::to_string(_program.operand(name)->stride));
}

bool NormGenerator::batchnorm(std::string& reason) {
    const int64_t channels = _program.channels;
    if (channels > kMaxSharedChannels) {
        return decline(reason, "batch norm over " + std::to_string(channels) +
                                   " channels; the engine keeps at most " +
                                   std::to_string(kMaxSharedChannels) + " channels' coefficients on chip");
    }
    const int width = batchnormWidth();
    _result.vectorWidth = width;
    _out << "constexpr hdnn_index kTotal = " << _program.elementCount << ";\nconstexpr int kC = " << channels
         << ";\nconstexpr hdnn_index kChanStride = " << _program.channelStride
         << ";\nconstexpr int kW = " << width << ";\nconstexpr int kNormBlockSize = " << kNormBlockSize
         << ";\n";
    if (persistentTraining()) {
        return emitPersistentTraining(width, reason);
    }
    // Workspace: two per-channel coefficients, three per-channel doubles when the statistics are
    // synchronized, then the parts' two sums per channel.
    const int64_t momentFloats = _program.isSynchronized() ? 6 * channels : 0;
    if (_program.hasStatisticsPass()) {
        _out << "constexpr hdnn_index kMoments = 2 * kC;\nconstexpr hdnn_index kPartials = "
             << 2 * channels + momentFloats << ";\n";
        if (!emitStatistics(width, reason)) {
            return false;
        }
        if (_program.isSynchronized()) {
            emitSynchronizedFinalize(_program.elementCount / channels);
        } else {
            emitFinalize(_program.elementCount / channels);
        }
    }
    bool ok = true;
    const std::string delivery = emitDelivery(width, reason, ok);
    if (!ok) {
        return false;
    }
    emitApply(_program.channelStride == 1, delivery);
    _result.launches.push_back(
        {kBatchnormApplyKernel,
         static_cast<unsigned>(std::min<int64_t>(
             (_program.elementCount / width + kNormBlockSize - 1) / kNormBlockSize, int64_t{1} << 30)),
         kNormBlockSize, NormGrid::Resident});
    _result.kernelNames.push_back(kBatchnormApplyKernel);
    if (_program.hasStatisticsPass()) {
        _result.workspaceBytes =
            (static_cast<size_t>(2 * _result.maxParts + 2) * static_cast<size_t>(channels) +
             static_cast<size_t>(momentFloats)) *
            sizeof(float);
    }
    return true;
}

// The statistics pass sums two values per channel and part. Training: x - shift and its
// square, the shift being the channel's first element (so the variance does not cancel for
// large means). Backward: dy, and dy * (x - mean) with the saved mean. `ref` names the
// per-lane shift or mean, `v` x and `g` dy.
std::string NormGenerator::accumulate(const std::string& v, const std::string& g, const std::string& ref,
                                      const std::string& s, const std::string& q) const {
    if (backward()) {
        return "{ const float d = " + v + " - " + ref + "; " + s + " += " + g + "; " + q + " += " + g +
               " * d; }";
    }
    return "{ const float d = " + v + " - " + ref + "; " + s + " += d; " + q + " += d * d; }";
}

// Loads vector `u` of x (and dy) at element offset `offset`, or sets it to contribute nothing.
std::string NormGenerator::loadOrNeutral(const std::string& offset, const std::string& ref,
                                         const std::string& inRange) const {
    const std::string xKind = kind(_program.operand("x")->type);
    std::string text = "if (" + inRange + ") { hdnn_load<" + xKind + ", kW>(x, " + offset + ", v[u]);";
    if (backward()) {
        text += " hdnn_load<" + kind(_program.operand("dy")->type) + ", kW>(dy, " + offset + ", g[u]);";
    }
    text += " } else {\n#pragma unroll\n                    for (int l = 0; l < kW; ++l) { v[u][l] = " + ref +
            ";" + (backward() ? " g[u][l] = 0.0f;" : "") + " }\n                }";
    return text;
}

// The per-channel value the statistics are taken around, for channel expression `c`.
std::string NormGenerator::reference(const std::string& c) const {
    if (backward()) {
        return read("mean", "(" + c + ") * " + std::to_string(_program.operand("mean")->stride));
    }
    return "hdnn_to_float<" + kind(_program.operand("x")->type) + ">(x[(hdnn_index)(" + c +
           ") * kChanStride])";
}

// The number of parts (hdnn_parts) is chosen at run time from the kernel's occupancy, up to
// maxParts. False when the layout is not one the pass reads.
bool NormGenerator::emitStatistics(int width, std::string& reason) {
    const int64_t channels = _program.channels;
    const int64_t maxParts =
        static_cast<int64_t>(std::max(1, _device.multiprocessorCount)) * kMaxStatsBlocksPerMultiprocessor;
    const char* gradients = backward() ? "float g[kBatch][kW];\n" : "";
    if (_program.channelStride == 1) {
        const int64_t groups = channels / width;
        if (groups > kNormBlockSize) {
            return decline(reason, "channels-last batch norm over " + std::to_string(channels) +
                                       " channels: more than " + std::to_string(kNormBlockSize * width) +
                                       " are not supported");
        }
        const int64_t rowsPerIteration = kNormBlockSize / groups;
        const int64_t rows = _program.elementCount / channels;
        _result.maxParts = static_cast<unsigned>(
            std::max<int64_t>(1, std::min(maxParts, (rows + rowsPerIteration - 1) / rowsPerIteration)));
        _out << "constexpr int kBatch = " << kStatsBatch << ";\nconstexpr int kG = " << groups
             << ";\nconstexpr int kRB = " << rowsPerIteration
             << ";\nconstexpr hdnn_index kStatRows = " << rows << ";\n"
             << header(kBatchnormStatsKernel, kNormBlockSize) << R"(    __shared__ float hdnn_s[kRB * kC];
    __shared__ float hdnn_q[kRB * kC];
    const int group = threadIdx.x % kG;
    const int r = threadIdx.x / kG;
    float s[kW], q[kW], ref[kW];
#pragma unroll
    for (int l = 0; l < kW; ++l) { s[l] = 0.0f; q[l] = 0.0f; ref[l] = )"
             << reference("group * kW + l") << R"(; }
    if (r < kRB) {
        const hdnn_index rowStride = (hdnn_index)gridDim.x * kRB;
        for (hdnn_index first = (hdnn_index)blockIdx.x * kRB + r; first < kStatRows; first += kBatch * rowStride) {
            // kBatch loads in flight before any arithmetic; rows past the end contribute nothing.
            float v[kBatch][kW];
            )"
             << gradients << R"(#pragma unroll
            for (int u = 0; u < kBatch; ++u) {
                const hdnn_index row = first + u * rowStride;
                )"
             << loadOrNeutral("row * kC + group * kW", "ref[l]", "row < kStatRows") << R"(
            }
#pragma unroll
            for (int u = 0; u < kBatch; ++u) {
#pragma unroll
                for (int l = 0; l < kW; ++l) )"
             << accumulate("v[u][l]", "g[u][l]", "ref[l]", "s[l]", "q[l]") << R"(
            }
        }
#pragma unroll
        for (int l = 0; l < kW; ++l) { hdnn_s[r * kC + group * kW + l] = s[l]; hdnn_q[r * kC + group * kW + l] = q[l]; }
    }
    __syncthreads();
    for (int c = threadIdx.x; c < kC; c += blockDim.x) {
        float sum = 0.0f, second = 0.0f;
        for (int k = 0; k < kRB; ++k) { sum += hdnn_s[k * kC + c]; second += hdnn_q[k * kC + c]; }
        hdnn_ws[kPartials + (hdnn_index)blockIdx.x * kC + c] = sum;
        hdnn_ws[kPartials + (hdnn_index)(gridDim.x + blockIdx.x) * kC + c] = second;
    }
}
)";
        _result.kernelNames.push_back(kBatchnormStatsKernel);
        _result.launches.push_back({kBatchnormStatsKernel, 1, kNormBlockSize, NormGrid::PerPart});
        return true;
    }
    // Channel segments: element (outer, c, inner) at outer * kC * kChanStride + c * kChanStride + inner.
    const int64_t perChannelVectors = _program.elementCount / channels / width;
    _result.maxParts = static_cast<unsigned>(
        std::max<int64_t>(1, std::min((maxParts + channels - 1) / channels,
                                      (perChannelVectors + kNormBlockSize - 1) / kNormBlockSize)));
    _out << "constexpr int kBatch = " << kStatsBatch
         << ";\nconstexpr hdnn_index kSegmentVectors = " << _program.channelStride / width
         << ";\nconstexpr hdnn_index kChannelVectors = " << perChannelVectors << ";\n"
         << header(kBatchnormStatsKernel, kNormBlockSize)
         << R"(    __shared__ float hdnn_s[kNormBlockSize / 32];
    __shared__ float hdnn_q[kNormBlockSize / 32];
    const int c = blockIdx.x % kC;
    const unsigned part = blockIdx.x / kC;
    const float ref = )"
         << reference("c") << R"(;
    float s = 0.0f, q = 0.0f;
    const hdnn_index step = (hdnn_index)hdnn_parts * blockDim.x;
    for (hdnn_index first = (hdnn_index)part * blockDim.x + threadIdx.x; first < kChannelVectors; first += kBatch * step) {
        float v[kBatch][kW];
        )"
         << gradients << R"(#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
            const hdnn_index j = first + u * step;
            )"
         << loadOrNeutral("((j / kSegmentVectors) * kC + c) * kChanStride + (j % kSegmentVectors) * kW",
                          "ref", "j < kChannelVectors")
         << R"(
        }
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
#pragma unroll
            for (int l = 0; l < kW; ++l) )"
         << accumulate("v[u][l]", "g[u][l]", "ref", "s", "q") << R"(
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o /= 2) { s += __shfl_xor_sync(0xffffffffu, s, o); q += __shfl_xor_sync(0xffffffffu, q, o); }
    if (threadIdx.x % 32 == 0) { hdnn_s[threadIdx.x / 32] = s; hdnn_q[threadIdx.x / 32] = q; }
    __syncthreads();
    if (threadIdx.x == 0) {
        float sum = 0.0f, second = 0.0f;
        for (int w = 0; w < kNormBlockSize / 32; ++w) { sum += hdnn_s[w]; second += hdnn_q[w]; }
        hdnn_ws[kPartials + (hdnn_index)part * kC + c] = sum;
        hdnn_ws[kPartials + (hdnn_index)(hdnn_parts + part) * kC + c] = second;
    }
}
)";
    _result.kernelNames.push_back(kBatchnormStatsKernel);
    _result.launches.push_back(
        {kBatchnormStatsKernel, static_cast<unsigned>(channels), kNormBlockSize, NormGrid::PerPart});
    return true;
}

// One block per channel: its threads sum the channel's parts in double into s and q, which
// thread 0 holds afterwards (the other threads return).
std::string NormGenerator::sumParts() const {
    return R"(    __shared__ double hdnn_s[kNormBlockSize / 32];
    __shared__ double hdnn_q[kNormBlockSize / 32];
    const int c = blockIdx.x;
    double s = 0.0, q = 0.0;
    for (unsigned p = threadIdx.x; p < hdnn_parts; p += blockDim.x) { s += hdnn_ws[kPartials + (hdnn_index)p * kC + c]; q += hdnn_ws[kPartials + (hdnn_index)(hdnn_parts + p) * kC + c]; }
#pragma unroll
    for (int o = 16; o > 0; o /= 2) { s += __shfl_xor_sync(0xffffffffu, s, o); q += __shfl_xor_sync(0xffffffffu, q, o); }
    if (threadIdx.x % 32 == 0) { hdnn_s[threadIdx.x / 32] = s; hdnn_q[threadIdx.x / 32] = q; }
    __syncthreads();
    if (threadIdx.x != 0) { return; }
    s = 0.0;
    q = 0.0;
    for (int w = 0; w < kNormBlockSize / 32; ++w) { s += hdnn_s[w]; q += hdnn_q[w]; }
)";
}

// This GPU's statistics: thread 0 of each channel's block finalizes from its parts.
void NormGenerator::emitFinalize(int64_t perChannelCount) {
    _out << header(kBatchnormFinalizeKernel, kNormBlockSize) << sumParts()
         << "    const double n = " << perChannelCount << ".0;\n";
    emitFinalizeFromSums(reference("c"), bessel(perChannelCount));
    _out << "}\n";
    _result.kernelNames.push_back(kBatchnormFinalizeKernel);
    _result.launches.push_back({kBatchnormFinalizeKernel, static_cast<unsigned>(_program.channels),
                                kNormBlockSize, NormGrid::Fixed});
}

// The group's statistics. A moments kernel writes this GPU's count and two sums per channel as
// doubles (training: Σx and Σx², taken back from around the local shift, which differs between
// GPUs; backward: Σdy and Σdy·(x - mean) around the saved, already common, mean); the engine
// sums them across the communicator in place; then one thread per channel finalizes from the
// totals. Doubles keep Σx² - n·mean² from cancelling the variance away.
void NormGenerator::emitSynchronizedFinalize(int64_t perChannelCount) {
    _out << header(kBatchnormMomentsKernel, kNormBlockSize) << sumParts()
         << "    double* hdnn_moments = (double*)(hdnn_ws + kMoments);\n    const double n = "
         << perChannelCount << ".0;\n    hdnn_moments[c] = n;\n";
    if (backward()) {
        _out << "    hdnn_moments[kC + c] = s;\n    hdnn_moments[2 * kC + c] = q;\n";
    } else {
        _out << "    const double shift = (double)" << reference("c") << R"(;
    hdnn_moments[kC + c] = s + n * shift;
    hdnn_moments[2 * kC + c] = q + shift * (2.0 * s + n * shift);
)";
    }
    _out << "}\n";
    _result.kernelNames.push_back(kBatchnormMomentsKernel);
    _result.launches.push_back(
        {kBatchnormMomentsKernel, static_cast<unsigned>(_program.channels), kNormBlockSize, NormGrid::Fixed});
    _result.allReduce =
        NormAllReduce{_result.launches.size(), 2 * static_cast<size_t>(_program.channels) * sizeof(float),
                      3 * static_cast<size_t>(_program.channels)};
    _out << header(kBatchnormFinalizeKernel, kSynchronizedFinalizeBlock)
         << R"(    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= kC) { return; }
    const double* hdnn_moments = (const double*)(hdnn_ws + kMoments);
    const double n = hdnn_moments[c];
    const double s = hdnn_moments[kC + c];
    const double q = hdnn_moments[2 * kC + c];
)";
    emitFinalizeFromSums("0.0", "(n > 1.0 ? (float)(n / (n - 1.0)) : 1.0f)");
    _out << "}\n";
    _result.kernelNames.push_back(kBatchnormFinalizeKernel);
    _result.launches.push_back({kBatchnormFinalizeKernel,
                                static_cast<unsigned>((_program.channels + kSynchronizedFinalizeBlock - 1) /
                                                      kSynchronizedFinalizeBlock),
                                kSynchronizedFinalizeBlock, NormGrid::Fixed});
}

// Bessel's correction of the running variance; one element per channel has no spread to correct.
std::string NormGenerator::bessel(int64_t perChannelCount) {
    return floatLiteral(perChannelCount > 1
                            ? static_cast<double>(perChannelCount) / static_cast<double>(perChannelCount - 1)
                            : 1.0);
}

// From a channel's count n and sums s and q (taken around `shift`), the channel's outputs and
// the two coefficients the apply pass reads (ws[c], ws[kC + c]).
void NormGenerator::emitFinalizeFromSums(const std::string& shift, const std::string& besselFactor) {
    if (backward()) {
        const std::string inv = perChannel("inv_variance", "1.0f");
        _out << "    const float hdnn_inv = " << inv << ";\n"
             << "    const float hdnn_dscale = (float)(q * (double)hdnn_inv);\n"
             << "    hdnn_ws[c] = (float)(s / n);\n    hdnn_ws[kC + c] = (float)(q * (double)hdnn_inv / "
                "n);\n";
        writePerChannel("dbias", "(float)s");
        writePerChannel("dscale", "hdnn_dscale");
    } else {
        _out << R"(    const double shifted = s / n;
    double hdnn_var = q / n - shifted * shifted;
    if (hdnn_var < 0.0) { hdnn_var = 0.0; }
    const float hdnn_mu = (float)((double))"
             << shift << R"( + shifted);
    const float hdnn_inv = 1.0f / sqrtf((float)hdnn_var + )"
             << scalar(_program.epsilon) << R"();
    hdnn_ws[c] = hdnn_mu;
    hdnn_ws[kC + c] = hdnn_inv;
)";
        writePerChannel("mean", "hdnn_mu");
        writePerChannel("inv_variance", "hdnn_inv");
        if (has("next_running_mean")) {
            _out << "    const float hdnn_momentum = " << scalar(_program.momentum) << ";\n";
            writePerChannel("next_running_mean", "(1.0f - hdnn_momentum) * " +
                                                     perChannel("prev_running_mean", "0.0f") +
                                                     " + hdnn_momentum * hdnn_mu");
            writePerChannel("next_running_variance",
                            "(1.0f - hdnn_momentum) * " + perChannel("prev_running_variance", "0.0f") +
                                " + hdnn_momentum * (float)hdnn_var * " + besselFactor);
        }
    }
}

void NormGenerator::writePerChannel(const char* name, const std::string& value) {
    if (const NormOperand* operand = _program.operand(name)) {
        _out << "    " << name << "[c * " << operand->stride << "] = hdnn_from_float<" << kind(operand->type)
             << ">(" << value << ");\n";
    }
}

// Forward: y = (x - mean) * gain + shift, gain = inv_std * scale, shift = bias. Backward:
// dx = gain * (dy - mean_dy - (x - mean) * slope), slope = inv_std * mean(dy * xhat).
std::vector<NormGenerator::Coefficient> NormGenerator::applyCoefficients() const {
    if (backward()) {
        const std::string inv = perChannel("inv_variance", "1.0f");
        return {{"mean", perChannel("mean", "0.0f")},
                {"gain", inv + " * " + perChannel("scale", "1.0f")},
                {"mean_dy", "hdnn_ws[c]"},
                {"slope", inv + " * hdnn_ws[kC + c]"}};
    }
    std::string inv;
    if (_program.kind == NormKind::BatchnormTraining) {
        inv = "hdnn_ws[kC + c]";
    } else if (_program.kind == NormKind::BatchnormInferenceVariance) {
        inv = "1.0f / sqrtf(" + perChannel("variance", "1.0f") + " + " + scalar(_program.epsilon) + ")";
    } else {
        inv = perChannel("inv_variance", "1.0f");
    }
    const std::string mean =
        _program.kind == NormKind::BatchnormTraining ? "hdnn_ws[c]" : perChannel("mean", "0.0f");
    return {{"mean", mean},
            {"gain", inv + " * " + perChannel("scale", "1.0f")},
            {"shift", perChannel("bias", "0.0f")}};
}

// The output of lane l from x (v[u][l]), dy (g[u][l]) and coefficients at index `k` of the
// arrays named `prefix` and the coefficient's name.
std::string NormGenerator::applyFormula(const std::string& k, const std::string& prefix) const {
    const auto at = [&](const char* name) { return prefix + name + "[" + k + "]"; };
    if (backward()) {
        return at("gain") + " * (g[u][l] - " + at("mean_dy") + " - (v[u][l] - " + at("mean") + ") * " +
               at("slope") + ")";
    }
    return "(v[u][l] - " + at("mean") + ") * " + at("gain") + " + " + at("shift");
}

// The coefficients sit in shared memory (registers per thread would cost occupancy, and with
// it the loads in flight). The training pass walks x backwards, so that what the statistics
// pass left in L2 is read there.
void NormGenerator::emitApply(bool channelsLast, const std::string& delivery) {
    const bool reverse = _program.kind == NormKind::BatchnormTraining;
    const char* index = reverse ? "vectors - 1 - vi" : "vi";
    const std::vector<Coefficient> coefficients = applyCoefficients();
    _out << header(kBatchnormApplyKernel, kNormBlockSize)
         << "    constexpr hdnn_index vectors = kTotal / kW;\n";
    for (const Coefficient& coefficient : coefficients) {
        _out << "    __shared__ __align__(16) float hdnn_" << coefficient.name << "[kC];\n";
    }
    _out << "    for (int c = threadIdx.x; c < kC; c += blockDim.x) {\n";
    for (const Coefficient& coefficient : coefficients) {
        _out << "        hdnn_" << coefficient.name << "[c] = " << coefficient.value << ";\n";
    }
    _out << "    }\n    __syncthreads();\n    constexpr int kUnroll = " << kApplyUnroll << R"(;
    const hdnn_index stride = (hdnn_index)gridDim.x * blockDim.x;
    for (hdnn_index base = (hdnn_index)blockIdx.x * blockDim.x + threadIdx.x; base < vectors; base += kUnroll * stride) {
        float v[kUnroll][kW];
)" << (backward() ? "        float g[kUnroll][kW];\n" : "")
         << R"(#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const hdnn_index vi = base + u * stride;
            if (vi < vectors) {
                hdnn_load<)"
         << kind(_program.operand("x")->type) << ", kW>(x, (" << index << ") * kW, v[u]);\n";
    if (backward()) {
        _out << "                hdnn_load<" << kind(_program.operand("dy")->type) << ", kW>(dy, (" << index
             << ") * kW, g[u]);\n";
    }
    _out << R"(            }
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const hdnn_index vi = base + u * stride;
            if (vi >= vectors) { break; }
            const hdnn_index e = ()"
         << index << R"() * kW;
            float out[kW];
)";
    if (channelsLast) {
        // A vector's kW channels are consecutive: each coefficient is one vector load from
        // shared memory (scalar loads of channels kW apart would conflict on the banks).
        _out << "            const int c0 = (int)(e % kC);\n";
        for (const Coefficient& coefficient : coefficients) {
            _out << "            float hdnn_c_" << coefficient.name
                 << "[kW];\n            hdnn_load<0, kW>(hdnn_" << coefficient.name << ", c0, hdnn_c_"
                 << coefficient.name << ");\n";
        }
        _out << "#pragma unroll\n            for (int l = 0; l < kW; ++l) { out[l] = "
             << applyFormula("l", "hdnn_c_") << "; }\n";
    } else {
        _out << "            const int c = (int)((e / kChanStride) % kC);\n#pragma unroll\n            "
                "for (int l = "
                "0; l < kW; ++l) { out[l] = "
             << applyFormula("c") << "; }\n";
    }
    _out << "            " << delivery << "\n        }\n    }\n}\n";
}

}  // namespace hipdnn_cuda_kernels::detail
