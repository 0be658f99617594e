#include "SpecTypes.hpp"

namespace hipdnn_driver {

const NameTable<DataType>& dataTypeNames() {
    static const NameTable<DataType> names{
        {"bf16", DataType::BFLOAT16}, {"fp16", DataType::HALF}, {"fp32", DataType::FLOAT}};
    return names;
}

const NameTable<Layout>& layoutNames() {
    static const NameTable<Layout> names{{"NCHW", Layout::ChannelsFirst},
                                         {"NHWC", Layout::ChannelsLast},
                                         {"NCDHW", Layout::ChannelsFirst},
                                         {"NDHWC", Layout::ChannelsLast}};
    return names;
}

const NameTable<EpilogueOp>& epilogueNames() {
    static const NameTable<EpilogueOp> names{{"add", EpilogueOp::Add},         {"bias", EpilogueOp::Bias},
                                             {"gelu", EpilogueOp::Gelu},       {"relu", EpilogueOp::Relu},
                                             {"sigmoid", EpilogueOp::Sigmoid}, {"swish", EpilogueOp::Swish},
                                             {"tanh", EpilogueOp::Tanh}};
    return names;
}

const char* dataTypeFlag(DataType type) {
    const std::string* name = findName(dataTypeNames(), type);
    return name != nullptr ? name->c_str() : "fp32";
}

const char* epilogueFlag(EpilogueOp op) {
    const std::string* name = findName(epilogueNames(), op);
    return name != nullptr ? name->c_str() : "?";
}

std::string epilogueList(const std::vector<EpilogueOp>& epilogue) {
    std::string text;
    for (size_t i = 0; i < epilogue.size(); ++i) {
        text += (i == 0 ? "" : ",") + std::string(epilogueFlag(epilogue[i]));
    }
    return text;
}

}  // namespace hipdnn_driver
