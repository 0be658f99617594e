// The value types the problem specs share (data type, layout, epilogue) and their names on the
// command line. Each name is written once, in SpecTypes.cpp: the flag tables parse and print
// with these tables, and labels use them too.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <hipdnn_frontend/Types.hpp>

namespace hipdnn_driver {

using hipdnn_frontend::DataType;

enum class Layout { ChannelsFirst, ChannelsLast };  // NCHW / NCDHW and NHWC / NDHWC

// Operations folded after the main operation, applied in the order given (--fuse bias,relu,add):
// bias adds a per-channel tensor, add adds a residual tensor of the output's shape, the others
// are unary activations.
enum class EpilogueOp { Bias, Add, Relu, Gelu, Sigmoid, Tanh, Swish };

// Names of an enum's values on the command line. Several names may stand for one value; the
// first of them is the one printed.
template <typename Enum>
using NameTable = std::vector<std::pair<std::string, Enum>>;

// The first name of `value`, or nullptr.
template <typename Enum>
const std::string* findName(const NameTable<Enum>& names, Enum value) {
    for (const auto& [name, named] : names) {
        if (named == value) {
            return &name;
        }
    }
    return nullptr;
}

// The first name of `value`; the table's first name for a value without one.
template <typename Enum>
const std::string& nameOrFirst(const NameTable<Enum>& names, Enum value) {
    const std::string* name = findName(names, value);
    return name != nullptr ? *name : names.front().first;
}

const NameTable<DataType>& dataTypeNames();    // bf16, fp16, fp32
const NameTable<Layout>& layoutNames();        // NCHW, NHWC, NCDHW, NDHWC (any case)
const NameTable<EpilogueOp>& epilogueNames();  // add, bias, gelu, relu, sigmoid, swish, tanh

const char* dataTypeFlag(DataType type);  // "fp32", "fp16", "bf16" (another type: "fp32")
const char* epilogueFlag(EpilogueOp op);  // "bias", "relu", ...
// "bias,relu,add"; empty for no epilogue.
std::string epilogueList(const std::vector<EpilogueOp>& epilogue);

}  // namespace hipdnn_driver
