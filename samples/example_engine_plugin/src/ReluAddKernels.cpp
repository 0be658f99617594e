#include "ReluAddKernels.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace example_plugin {

namespace {

std::string formatDims(const std::vector<int64_t>& dims) {
    std::string text = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) {
        text += (i == 0 ? "" : ", ") + std::to_string(dims[i]);
    }
    return text + "]";
}

// A broadcast dim is read with stride 0, so every output index along it reads the same element.
std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
                                      const std::vector<int64_t>& outputDims) {
    std::vector<int64_t> effective(outputDims.size());
    for (std::size_t d = 0; d < outputDims.size(); ++d) {
        effective[d] = dims[d] == outputDims[d] ? strides[d] : 0;
    }
    return effective;
}

// Calls body(offsets) for every index of `dims` in row-major order, where offsets[k] is the
// element offset of that index under strideSets[k]. The offsets are updated incrementally (an
// odometer) instead of recomputing a dot product per element.
template <std::size_t N, class Body>
void forEachOffset(const std::vector<int64_t>& dims, const std::vector<int64_t> (&strideSets)[N],
                   Body&& body) {
    if (std::any_of(dims.begin(), dims.end(), [](int64_t dim) { return dim <= 0; })) {
        return;
    }
    const std::size_t rank = dims.size();
    std::vector<int64_t> index(rank, 0);
    int64_t offsets[N] = {};
    while (true) {
        body(offsets);
        std::size_t d = rank;
        while (true) {
            if (d == 0) {
                return;  // every dim wrapped around: the index space is exhausted
            }
            --d;
            if (++index[d] < dims[d]) {
                for (std::size_t k = 0; k < N; ++k) {
                    offsets[k] += strideSets[k][d];
                }
                break;
            }
            for (std::size_t k = 0; k < N; ++k) {
                offsets[k] -= strideSets[k][d] * (dims[d] - 1);
            }
            index[d] = 0;
        }
    }
}

void requireWellFormed(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
                       const char* what) {
    if (dims.size() != strides.size()) {
        throw std::invalid_argument(std::string(what) + " has " + std::to_string(dims.size()) + " dims but " +
                                    std::to_string(strides.size()) + " strides");
    }
}

}  // namespace

bool broadcastsTo(const std::vector<int64_t>& input, const std::vector<int64_t>& output) {
    if (input.size() != output.size()) {
        return false;
    }
    for (std::size_t d = 0; d < input.size(); ++d) {
        if (input[d] != output[d] && input[d] != 1) {
            return false;
        }
    }
    return true;
}

void reluForward(const ConstTensorView& x, const TensorView& y) {
    requireWellFormed(x.dims, x.strides, "relu input");
    requireWellFormed(y.dims, y.strides, "relu output");
    if (x.dims != y.dims) {
        throw std::invalid_argument("relu input dims " + formatDims(x.dims) + " differ from output dims " +
                                    formatDims(y.dims));
    }
    const std::vector<int64_t> strideSets[2] = {x.strides, y.strides};
    forEachOffset(y.dims, strideSets,
                  [&](const int64_t* offsets) { y.data[offsets[1]] = std::max(x.data[offsets[0]], 0.0f); });
}

void addBroadcast(const ConstTensorView& a, const ConstTensorView& b, const TensorView& y) {
    requireWellFormed(a.dims, a.strides, "add input a");
    requireWellFormed(b.dims, b.strides, "add input b");
    requireWellFormed(y.dims, y.strides, "add output");
    for (const ConstTensorView* input : {&a, &b}) {
        if (!broadcastsTo(input->dims, y.dims)) {
            throw std::invalid_argument("add input dims " + formatDims(input->dims) +
                                        " do not broadcast to output dims " + formatDims(y.dims));
        }
    }
    const std::vector<int64_t> strideSets[3] = {broadcastStrides(a.dims, a.strides, y.dims),
                                                broadcastStrides(b.dims, b.strides, y.dims), y.strides};
    forEachOffset(y.dims, strideSets, [&](const int64_t* offsets) {
        y.data[offsets[2]] = a.data[offsets[0]] + b.data[offsets[1]];
    });
}

}  // namespace example_plugin
