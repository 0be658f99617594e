// The pointwise nodes fused after a primary node (convolution, matmul): a bias, an activation and
// a residual binary, each present or not. The intermediates between them are virtual FLOAT
// tensors, as an engine's fusion matcher expects.
#pragma once

#include "Problem.hpp"

#include <optional>
#include <vector>

namespace hipdnn_differential {

/// An activation with its parameters, continuous so that a small error before it stays small.
struct Activation {
    fb::PointwiseMode mode;
    hipdnn_test_sdk::PointwiseOptions options;
    const char* name;
};
Activation pickActivation(Random& random);

class Epilogue {
public:
    /// Draws the chain and adds its tensors; the primary's output has `dims` and `strides`, the
    /// final output `outputType`. `biasDims` empty: no bias step.
    Epilogue(ProblemBuilder& builder, const Dims& dims, const Dims& strides, const Dims& biasDims,
             DataType outputType);

    /// The uid the primary node writes: the final output when the chain is empty.
    int64_t primaryOutput() const { return _primaryOutput; }

    /// Adds the chain's nodes; call after the primary node (engines fuse in node order).
    void addNodes(hipdnn_test_sdk::GraphBuilder& graph) const;

private:
    struct Step {
        std::string name;
        fb::PointwiseMode mode;
        int64_t in0;
        int64_t out;
        std::optional<int64_t> in1;
        hipdnn_test_sdk::PointwiseOptions options;
    };
    int64_t _primaryOutput = 0;
    std::vector<Step> _steps;
};

}  // namespace hipdnn_differential
