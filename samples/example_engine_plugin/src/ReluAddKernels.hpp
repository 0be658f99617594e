// The example's compute kernels: fp32 RELU_FWD and ADD with broadcast over tensors of any
// strides. Plain functions over strided views, so the unit tests can check them without a graph.
#pragma once

#include <cstdint>
#include <vector>

namespace example_plugin {

/// fp32 elements laid out by `strides` (in elements, one per dim); `data` points at element 0.
struct ConstTensorView {
    const float* data = nullptr;
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
};

struct TensorView {
    float* data = nullptr;
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
};

/// True when a tensor of dims `input` broadcasts to `output`: same rank, and every dim of
/// `input` equals the output's or is 1.
bool broadcastsTo(const std::vector<int64_t>& input, const std::vector<int64_t>& output);

/// y = max(x, 0); x and y have the same dims. Throws std::invalid_argument otherwise.
void reluForward(const ConstTensorView& x, const TensorView& y);

/// y = a + b, where a and b broadcast to y's dims. Throws std::invalid_argument otherwise.
void addBroadcast(const ConstTensorView& a, const ConstTensorView& b, const TensorView& y);

}  // namespace example_plugin
