// What the problem subcommands describe, as plain values: parsed by Options.cpp, turned into
// frontend graphs by the *Problem.cpp files, and turned back into command lines for reproducers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <hipdnn_frontend/Types.hpp>

namespace hipdnn_driver {

using hipdnn_frontend::DataType;

enum class Layout { ChannelsFirst, ChannelsLast };  // NCHW / NCDHW and NHWC / NDHWC

// Operations folded after the main operation, applied in the order given (--fuse bias,relu,add):
// bias adds a per-channel tensor, add adds a residual tensor of the output's shape, the others
// are unary activations.
enum class EpilogueOp { Bias, Add, Relu, Gelu, Sigmoid, Tanh, Swish };

struct ConvSpec {
    enum class Direction { Fprop, Dgrad, Wgrad };
    Direction direction = Direction::Fprop;
    int64_t n = 1, c = 64, h = 56, w = 56, k = 64;
    int64_t filterH = 3, filterW = 3;
    int64_t padH = 0, padW = 0;
    int64_t strideH = 1, strideW = 1;
    int64_t dilationH = 1, dilationW = 1;
    int64_t groups = 1;
    // 3-D when depth > 0: -D depth, -z filter depth, --pad-d, --stride-d, --dilation-d.
    int64_t depth = 0, filterD = 1, padD = 0, strideD = 1, dilationD = 1;
    DataType dataType = DataType::FLOAT;
    Layout layout = Layout::ChannelsFirst;
    std::vector<EpilogueOp> epilogue;  // fprop only
};

struct BnSpec {
    enum class Mode { Inference, Training, Backward };
    Mode mode = Mode::Inference;
    int64_t n = 8, c = 64, h = 56, w = 56, depth = 0;
    double epsilon = 1e-5;
    double momentum = 0.1;
    DataType dataType = DataType::FLOAT;
    Layout layout = Layout::ChannelsFirst;
    std::vector<EpilogueOp> epilogue;  // inference only: activations and add
};

struct PointwiseSpec {
    hipdnn_frontend::PointwiseMode mode = hipdnn_frontend::PointwiseMode::RELU_FWD;
    std::vector<int64_t> dims{8, 64, 56, 56};
    std::vector<int64_t> secondDims;  // empty: same as dims; else broadcast (1s repeat)
    DataType dataType = DataType::FLOAT;
    Layout layout = Layout::ChannelsFirst;  // only for rank 4 and 5
};

struct MatmulSpec {
    int64_t batch = 1, m = 512, n = 512, k = 512;
    DataType dataType = DataType::FLOAT;
    std::vector<EpilogueOp> epilogue;
};

struct NormSpec {
    enum class Kind { Layernorm, Rmsnorm };
    Kind kind = Kind::Layernorm;
    hipdnn_frontend::NormFwdPhase phase = hipdnn_frontend::NormFwdPhase::INFERENCE;
    std::vector<int64_t> dims{32, 1024};  // first dim is the batch; the rest are normalized
    double epsilon = 1e-5;
    DataType dataType = DataType::FLOAT;
};

struct PoolSpec {
    enum class Kind { Max, Avg, AvgIncludePadding };
    Kind kind = Kind::Max;
    int64_t n = 8, c = 64, h = 56, w = 56;
    int64_t windowH = 3, windowW = 3;
    int64_t padH = 1, padW = 1;
    int64_t strideH = 2, strideW = 2;
    DataType dataType = DataType::FLOAT;
    Layout layout = Layout::ChannelsFirst;
};

// A serialized graph read from a file (JSON, or a binary FlatBuffer), with optional inputs from a
// golden-data directory (hipdnn-driver --dump output).
struct GraphSpec {
    std::filesystem::path file;
    std::optional<std::filesystem::path> inputsDir;
};

// The demo's graphs (demo [--case NAME] [--dtype T] [--layout L]): every case in the device's
// natural types, or the ones named.
struct DemoCaseSpec {
    std::string name;  // empty: every case
    std::optional<DataType> dataType;
    std::optional<Layout> layout;
};

using ProblemSpec =
    std::variant<ConvSpec, BnSpec, PointwiseSpec, MatmulSpec, NormSpec, PoolSpec, GraphSpec, DemoCaseSpec>;

const char* dataTypeFlag(DataType type);  // "fp32", "fp16", "bf16"
const char* epilogueFlag(EpilogueOp op);  // "bias", "relu", ...

}  // namespace hipdnn_driver
