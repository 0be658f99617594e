// Attributes of an elementwise operation: OUT_0 = mode(IN_0[, IN_1[, IN_2]]). IN_1 and IN_2
// broadcast against IN_0 (dims of 1 repeat). Parameters apply to the modes that name them.
#pragma once

#include <optional>

#include "AttributesBase.hpp"

namespace hipdnn_frontend::graph {

namespace pointwise_ports {
enum class InputNames { IN_0, IN_1, IN_2 };
enum class OutputNames { OUT_0 };
}  // namespace pointwise_ports

class PointwiseAttributes
    : public AttributesBase<PointwiseAttributes, pointwise_ports::InputNames, pointwise_ports::OutputNames> {
public:
    PointwiseAttributes& set_mode(PointwiseMode mode) {
        mode_ = mode;
        return *this;
    }
    // RELU_FWD / RELU_BWD: clamp below and above, and the slope under the lower clip (leaky relu).
    PointwiseAttributes& set_relu_lower_clip(float value) {
        reluLowerClip_ = value;
        return *this;
    }
    PointwiseAttributes& set_relu_upper_clip(float value) {
        reluUpperClip_ = value;
        return *this;
    }
    PointwiseAttributes& set_relu_lower_clip_slope(float value) {
        reluLowerClipSlope_ = value;
        return *this;
    }
    // GEN_INDEX: the dim whose index is generated.
    PointwiseAttributes& set_axis(int64_t axis) {
        axis_ = axis;
        return *this;
    }
    PointwiseAttributes& set_swish_beta(float value) {
        swishBeta_ = value;
        return *this;
    }
    PointwiseAttributes& set_elu_alpha(float value) {
        eluAlpha_ = value;
        return *this;
    }
    PointwiseAttributes& set_softplus_beta(float value) {
        softplusBeta_ = value;
        return *this;
    }

    [[nodiscard]] PointwiseMode get_mode() const { return mode_; }
    [[nodiscard]] std::optional<float> get_relu_lower_clip() const { return reluLowerClip_; }
    [[nodiscard]] std::optional<float> get_relu_upper_clip() const { return reluUpperClip_; }
    [[nodiscard]] std::optional<float> get_relu_lower_clip_slope() const { return reluLowerClipSlope_; }
    [[nodiscard]] std::optional<int64_t> get_axis() const { return axis_; }
    [[nodiscard]] std::optional<float> get_swish_beta() const { return swishBeta_; }
    [[nodiscard]] std::optional<float> get_elu_alpha() const { return eluAlpha_; }
    [[nodiscard]] std::optional<float> get_softplus_beta() const { return softplusBeta_; }

private:
    PointwiseMode mode_ = PointwiseMode::NOT_SET;
    std::optional<float> reluLowerClip_;
    std::optional<float> reluUpperClip_;
    std::optional<float> reluLowerClipSlope_;
    std::optional<int64_t> axis_;
    std::optional<float> swishBeta_;
    std::optional<float> eluAlpha_;
    std::optional<float> softplusBeta_;
};

using Pointwise_attributes = PointwiseAttributes;

}  // namespace hipdnn_frontend::graph
