// sdpa: an SdpaSpec to its graph. Forward is inference (O only); backward reads Q, K, V, O, dO
// and the FLOAT statistics and writes dQ, dK and dV. The scale is 1 / sqrt(D).
#include "Problem.hpp"
#include "sdpa/SdpaSpec.hpp"

#include <cmath>

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;

namespace {

std::vector<int64_t> attentionStrides(const std::vector<int64_t>& dims, SdpaSpec::MemoryOrder order) {
    if (order == SdpaSpec::MemoryOrder::Bhsd) {
        return hipdnn_data_sdk::utilities::packedStrides(dims);
    }
    return {dims[1] * dims[2] * dims[3], dims[3], dims[1] * dims[3], 1};
}

}  // namespace

Problem makeSdpaProblem(const SdpaSpec& s) {
    const int64_t kvHeads = s.effectiveKvHeads();
    const int64_t seqKv = s.effectiveSeqKv();
    const std::string label = "sdpa " + sdpaDirectionName(s.direction) + " " + dataTypeFlag(s.dataType) +
                              " " + sdpaOrderName(s.order) + " b" + std::to_string(s.batch) + " h" +
                              std::to_string(s.heads) + "/" + std::to_string(kvHeads) + " sq" +
                              std::to_string(s.seqQ) + " skv" + std::to_string(seqKv) + " d" +
                              std::to_string(s.headDim) + (s.causal ? " causal" : "");
    fe::graph::Graph graph;
    graph.set_name(label)
        .set_io_data_type(s.dataType)
        .set_intermediate_data_type(DataType::FLOAT)
        .set_compute_data_type(DataType::FLOAT);
    const auto operand = [&](const std::string& name, std::vector<int64_t> dims) {
        auto strides = attentionStrides(dims, s.order);
        return graph.tensor(fe::graph::TensorAttributes()
                                .set_name(name)
                                .set_dim(std::move(dims))
                                .set_stride(std::move(strides)));
    };
    const std::vector<int64_t> qDims{s.batch, s.heads, s.seqQ, s.headDim};
    const std::vector<int64_t> kvDims{s.batch, kvHeads, seqKv, s.headDim};
    auto q = operand("q", qDims);
    auto k = operand("k", kvDims);
    auto v = operand("v", kvDims);
    const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(s.headDim)));
    if (s.direction == SdpaSpec::Direction::Forward) {
        auto outputs = graph.sdpa(q, k, v,
                                  fe::graph::SdpaAttributes()
                                      .set_name("sdpa")
                                      .set_is_inference(true)
                                      .set_attn_scale(scale)
                                      .set_causal_mask(s.causal));
        outputs[0]->set_output(true);
    } else {
        auto o = operand("o", qDims);
        auto dO = operand("do", qDims);
        auto stats = detail::makeTensor(graph, "stats", {s.batch, s.heads, s.seqQ, 1}, Layout::ChannelsFirst,
                                        DataType::FLOAT);
        auto gradients = graph.sdpa_backward(q, k, v, o, dO, stats,
                                             fe::graph::SdpaBackwardAttributes()
                                                 .set_name("sdpa_backward")
                                                 .set_attn_scale(scale)
                                                 .set_causal_mask(s.causal));
        for (const auto& gradient : gradients) {
            gradient->set_output(true);
        }
    }
    return Problem{label, commandWordsFor(s), serializeGraph(graph), std::nullopt};
}

}  // namespace hipdnn_driver
