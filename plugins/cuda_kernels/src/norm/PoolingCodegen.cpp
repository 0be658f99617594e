// Pooling forward: a thread per output element.
#include "NormGenerator.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace hipdnn_cuda_kernels::detail {

// One thread per output element (grid-stride) walks its window over x through x's strides, in
// the CPU reference's order (first spatial dim outermost), so that sums round alike. y is
// dense: output e's coordinate along dim d is (e / stride_d) % extent_d.
bool NormGenerator::poolingForward(std::string& reason) {
    const PoolingWindow& pooling = *_program.pooling;
    const size_t rank = pooling.xDims.size();
    const size_t spatial = rank - 2;
    const bool max = pooling.mode == PoolingMode::Max;
    _result.vectorWidth = 1;
    _out << "constexpr hdnn_index kTotal = " << _program.elementCount << ";\nconstexpr int kW = 1;\n";
    bool ok = true;
    const std::string delivery = emitDelivery(1, reason, ok);
    if (!ok) {
        return false;
    }
    _out << header(kPoolingKernel, kNormBlockSize)
         << R"(    const hdnn_index step = (hdnn_index)gridDim.x * blockDim.x;
    for (hdnn_index e = (hdnn_index)blockIdx.x * blockDim.x + threadIdx.x; e < kTotal; e += step) {
)";
    for (size_t d = 0; d < rank; ++d) {
        _out << "        const hdnn_index o" << d << " = ";
        if (pooling.yDims[d] == 1) {
            _out << "0;\n";
        } else {
            _out << "(e / " << pooling.yStrides[d] << ") % " << pooling.yDims[d] << ";\n";
        }
    }
    const bool edge = max && pooling.padding == PoolingPadding::Edge;
    const bool includePadding = pooling.mode == PoolingMode::AverageIncludePadding;
    _out << "        const hdnn_index image = o0 * " << pooling.xStrides[0] << " + o1 * "
         << pooling.xStrides[1] << ";\n";
    if (max) {
        _out << "        float best = -__int_as_float(0x7f800000);\n";
    } else {
        _out << "        float sum = 0.0f;\n        int " << (includePadding ? "padded" : "inside")
             << " = 0;\n";
    }
    std::string indent = "        ";
    std::string offset = "image";
    std::string allInside;
    std::string allInPaddedExtent;
    for (size_t d = 0; d < spatial; ++d) {
        const std::string k = std::to_string(d);
        const int64_t extent = pooling.xDims[d + 2];
        _out << indent << "for (int w" << k << " = 0; w" << k << " < " << pooling.window[d] << "; ++w" << k
             << ") {\n";
        indent += "    ";
        _out << indent << (edge ? "" : "const ") << "long long i" << k << " = (long long)o" << d + 2 << " * "
             << pooling.stride[d] << " + w" << k << " - " << pooling.prePadding[d] << ";\n";
        if (edge) {
            _out << indent << "i" << k << " = i" << k << " < 0 ? 0 : (i" << k << " >= " << extent << " ? "
                 << extent - 1 << " : i" << k << ");\n";
        } else {
            _out << indent << "const bool in" << k << " = i" << k << " >= 0 && i" << k << " < " << extent
                 << ";\n";
            allInside += (d > 0 ? " && in" : "in") + k;
        }
        if (includePadding) {
            _out << indent << "const bool pe" << k << " = i" << k << " < " << extent + pooling.postPadding[d]
                 << ";\n";
            allInPaddedExtent += (d > 0 ? " && pe" : "pe") + k;
        }
        offset += " + (hdnn_index)i" + k + " * " + std::to_string(pooling.xStrides[d + 2]);
    }
    const std::string load = "hdnn_to_float<" + kind(_program.operand("x")->type) + ">(x[" + offset + "])";
    if (!max) {
        // Including padding, the divisor counts the positions inside x and its padding;
        // excluding it, those inside x.
        _out << indent << "if (" << allInside << ") { sum += " << load << ";"
             << (includePadding ? "" : " ++inside;") << " }\n";
        if (includePadding) {
            _out << indent << "padded += (" << allInPaddedExtent << ") ? 1 : 0;\n";
        }
    } else if (edge) {
        _out << indent << "const float v = " << load << ";\n" << indent << "if (v > best) { best = v; }\n";
    } else if (pooling.padding == PoolingPadding::Zero) {
        _out << indent << "const float v = (" << allInside << ") ? " << load << " : 0.0f;\n"
             << indent << "if (v > best) { best = v; }\n";
    } else {
        _out << indent << "if (" << allInside << ") { const float v = " << load
             << "; if (v > best) { best = v; } }\n";
    }
    for (size_t d = 0; d < spatial; ++d) {
        indent.resize(indent.size() - 4);
        _out << indent << "}\n";
    }
    const char* value = max ? "best" : includePadding ? "sum / (float)padded" : "sum / (float)inside";
    _out << "        float out[kW] = {" << value << "};\n        " << delivery << "\n    }\n}\n";
    _result.kernelNames = {kPoolingKernel};
    _result.launches.push_back(
        {kPoolingKernel,
         static_cast<unsigned>(std::min<int64_t>(
             (_program.elementCount + kNormBlockSize - 1) / kNormBlockSize, int64_t{1} << 30)),
         kNormBlockSize, NormGrid::Resident});
    return true;
}

}  // namespace hipdnn_cuda_kernels::detail
