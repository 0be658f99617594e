// Padding, stride, dilation and mode shared by the three convolution attribute classes.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "../Types.hpp"

namespace hipdnn_frontend::graph {

template <typename Derived>
class ConvolutionParameters {
public:
    // Symmetric padding: sets pre- and post-padding alike.
    Derived& set_padding(std::vector<int64_t> padding) {
        prePadding_ = padding;
        postPadding_ = std::move(padding);
        return self();
    }
    Derived& set_pre_padding(std::vector<int64_t> padding) {
        prePadding_ = std::move(padding);
        return self();
    }
    Derived& set_post_padding(std::vector<int64_t> padding) {
        postPadding_ = std::move(padding);
        return self();
    }
    Derived& set_stride(std::vector<int64_t> stride) {
        stride_ = std::move(stride);
        return self();
    }
    Derived& set_dilation(std::vector<int64_t> dilation) {
        dilation_ = std::move(dilation);
        return self();
    }
    Derived& set_convolution_mode(ConvolutionMode mode) {
        mode_ = mode;
        return self();
    }

    [[nodiscard]] const std::vector<int64_t>& get_pre_padding() const { return prePadding_; }
    [[nodiscard]] const std::vector<int64_t>& get_post_padding() const { return postPadding_; }
    [[nodiscard]] const std::vector<int64_t>& get_stride() const { return stride_; }
    [[nodiscard]] const std::vector<int64_t>& get_dilation() const { return dilation_; }
    [[nodiscard]] ConvolutionMode get_convolution_mode() const { return mode_; }

private:
    Derived& self() { return static_cast<Derived&>(*this); }

    std::vector<int64_t> prePadding_;
    std::vector<int64_t> postPadding_;
    std::vector<int64_t> stride_;
    std::vector<int64_t> dilation_;
    ConvolutionMode mode_ = ConvolutionMode::CROSS_CORRELATION;
};

}  // namespace hipdnn_frontend::graph
