// bn: batch normalization inference and training with running statistics (each with an optional
// epilogue on y), and backward with the saved statistics. Flags in BnFlags.cpp, graph in
// BnProblem.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "FlagTable.hpp"
#include "SpecTypes.hpp"

namespace hipdnn_driver {

struct BnSpec {
    enum class Mode { Inference, Training, Backward };
    Mode mode = Mode::Inference;
    int64_t n = 8, c = 64, h = 56, w = 56, depth = 0;
    double epsilon = 1e-5;
    double momentum = 0.1;  // training only
    DataType dataType = DataType::FLOAT;
    Layout layout = Layout::ChannelsFirst;
    std::vector<EpilogueOp> epilogue;  // on y, inference and training: activations and add

    bool operator==(const BnSpec&) const = default;
};

// "inference", "training", "backward": the --mode names, also used in labels.
const std::string& bnModeName(BnSpec::Mode mode);

template <>
const Subcommand<BnSpec>& subcommandOf<BnSpec>();

}  // namespace hipdnn_driver
