#include "Epilogue.hpp"

namespace hipdnn_differential {

using Mode = fb::PointwiseMode;

Activation pickActivation(Random& random) {
    hipdnn_test_sdk::PointwiseOptions clipped;
    clipped.reluLowerClip = 0.0F;
    clipped.reluUpperClip = static_cast<float>(random.real(0.25, 2.0));
    hipdnn_test_sdk::PointwiseOptions leaky;
    leaky.reluLowerClipSlope = static_cast<float>(random.real(0.01, 0.5));
    hipdnn_test_sdk::PointwiseOptions elu;
    elu.eluAlpha = static_cast<float>(random.real(0.5, 1.5));
    hipdnn_test_sdk::PointwiseOptions swish;
    swish.swishBeta = 1.0F;
    hipdnn_test_sdk::PointwiseOptions softplus;
    softplus.softplusBeta = 1.0F;
    const std::vector<Activation> activations{
        {Mode::RELU_FWD, {}, "relu"},
        {Mode::RELU_FWD, clipped, "clipped_relu"},
        {Mode::RELU_FWD, leaky, "leaky_relu"},
        {Mode::ABS, {}, "abs"},
        {Mode::ELU_FWD, elu, "elu"},
        {Mode::GELU_FWD, {}, "gelu"},
        {Mode::GELU_APPROX_TANH_FWD, {}, "gelu_tanh"},
        {Mode::IDENTITY, {}, "identity"},
        {Mode::NEG, {}, "neg"},
        {Mode::SIGMOID_FWD, {}, "sigmoid"},
        {Mode::SOFTPLUS_FWD, softplus, "softplus"},
        {Mode::SWISH_FWD, swish, "swish"},
        {Mode::TANH_FWD, {}, "tanh"},
    };
    return random.pick(activations);
}

Epilogue::Epilogue(ProblemBuilder& builder, const Dims& dims, const Dims& strides, const Dims& biasDims,
                   DataType outputType) {
    Random& random = builder.random();
    const bool bias = !biasDims.empty() && random.chance(0.5);
    const bool activate = random.chance(0.5);
    const Activation activation = pickActivation(random);
    const bool residual = random.chance(0.4);
    const int stepCount = static_cast<int>(bias) + static_cast<int>(activate) + static_cast<int>(residual);
    if (stepCount == 0) {
        _primaryOutput = builder.tensor("y", outputType, dims, strides);
        return;
    }
    _primaryOutput = builder.intermediate("primary_out", dims, strides);
    int64_t current = _primaryOutput;
    int remaining = stepCount;
    // Each step reads `current` and writes a fresh intermediate, or the real output when last.
    const auto next = [&](const std::string& name) {
        --remaining;
        return remaining == 0 ? builder.tensor("y", outputType, dims, strides)
                              : builder.intermediate(name + "_out", dims, strides);
    };
    if (bias) {
        const int64_t operand = builder.tensor("bias", outputType, biasDims);
        const int64_t out = next("bias");
        _steps.push_back({"bias", Mode::ADD, current, out, operand, {}});
        builder.addToFamily("bias");
        current = out;
    }
    if (activate) {
        const int64_t out = next(activation.name);
        _steps.push_back({activation.name, activation.mode, current, out, std::nullopt, activation.options});
        builder.addToFamily(activation.name);
        current = out;
    }
    if (residual) {
        static const std::vector<std::pair<Mode, const char*>> binaries{{Mode::ADD, "add"},
                                                                        {Mode::SUB, "sub"},
                                                                        {Mode::MUL, "mul"},
                                                                        {Mode::MAX_OP, "max"},
                                                                        {Mode::MIN_OP, "min"}};
        const auto& [mode, name] = random.pick(binaries);
        int64_t operand = 0;
        const int64_t shape = random.between(0, 2);
        if (shape == 0) {
            // A full residual, in its own layout.
            operand =
                builder.tensor("residual", outputType, dims, activationStrides(dims, random.chance(0.5)));
        } else if (shape == 1 && !biasDims.empty()) {
            operand = builder.tensor("residual", outputType, biasDims);
        } else {
            operand = builder.scalar("residual", random.real(-1.0, 1.0));
        }
        const int64_t out = next(name);
        _steps.push_back({name, mode, current, out, operand, {}});
        builder.addToFamily(std::string("residual_") + name);
    }
}

void Epilogue::addNodes(hipdnn_test_sdk::GraphBuilder& graph) const {
    for (const Step& step : _steps) {
        graph.addPointwise(step.name, step.mode, step.in0, step.out, step.in1, std::nullopt, step.options);
    }
}

}  // namespace hipdnn_differential
