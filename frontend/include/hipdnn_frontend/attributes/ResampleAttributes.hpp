// Attributes of forward resampling (pooling) over the spatial dims of (N, C, [D,] H, W):
// out = (in + pre + post - window) / stride + 1. MAXPOOL can also write the INDEX of each maximum.
#pragma once

#include <vector>

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace resample_ports {
enum class InputNames { X };
enum class OutputNames { Y, INDEX };
}  // namespace resample_ports

class ResampleAttributes
    : public AttributesBase<ResampleAttributes, resample_ports::InputNames, resample_ports::OutputNames> {
public:
    ResampleAttributes& set_resampling_mode(ResampleMode mode) {
        mode_ = mode;
        return *this;
    }
    ResampleAttributes& set_padding_mode(PaddingMode mode) {
        paddingMode_ = mode;
        return *this;
    }
    ResampleAttributes& set_window(std::vector<int64_t> window) {
        window_ = std::move(window);
        return *this;
    }
    ResampleAttributes& set_stride(std::vector<int64_t> stride) {
        stride_ = std::move(stride);
        return *this;
    }
    ResampleAttributes& set_padding(std::vector<int64_t> padding) {
        prePadding_ = padding;
        postPadding_ = std::move(padding);
        return *this;
    }
    ResampleAttributes& set_pre_padding(std::vector<int64_t> padding) {
        prePadding_ = std::move(padding);
        return *this;
    }
    ResampleAttributes& set_post_padding(std::vector<int64_t> padding) {
        postPadding_ = std::move(padding);
        return *this;
    }
    ResampleAttributes& set_generate_index(bool value) {
        generateIndex_ = value;
        return *this;
    }

    [[nodiscard]] ResampleMode get_resampling_mode() const { return mode_; }
    [[nodiscard]] PaddingMode get_padding_mode() const { return paddingMode_; }
    [[nodiscard]] const std::vector<int64_t>& get_window() const { return window_; }
    [[nodiscard]] const std::vector<int64_t>& get_stride() const { return stride_; }
    [[nodiscard]] const std::vector<int64_t>& get_pre_padding() const { return prePadding_; }
    [[nodiscard]] const std::vector<int64_t>& get_post_padding() const { return postPadding_; }
    [[nodiscard]] bool get_generate_index() const { return generateIndex_; }

private:
    ResampleMode mode_ = ResampleMode::NOT_SET;
    PaddingMode paddingMode_ = PaddingMode::NOT_SET;
    std::vector<int64_t> window_;
    std::vector<int64_t> stride_;
    std::vector<int64_t> prePadding_;
    std::vector<int64_t> postPadding_;
    bool generateIndex_ = false;
};

using Resample_attributes = ResampleAttributes;

}  // namespace hipdnn_frontend::graph
