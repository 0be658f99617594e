// norm: a NormSpec to its graph, layer normalization or RMS normalization over every dim but the
// first, forward or backward.
#include "Problem.hpp"
#include "norm/NormSpec.hpp"

#include <array>
#include <memory>

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;

namespace {

// dx and dscale (and, for layer norm, dbias) from dy, x, scale and the forward pass's statistics
// (one per row): mean and inv_variance, or inv_rms.
void addBackward(fe::graph::Graph& graph, const NormSpec& s, const std::vector<int64_t>& paramDims) {
    std::vector<int64_t> statisticsDims(s.dims.size(), 1);
    statisticsDims[0] = s.dims[0];
    auto dy = detail::makeTensor(graph, "dy", s.dims, Layout::ChannelsFirst);
    auto x = detail::makeTensor(graph, "x", s.dims, Layout::ChannelsFirst);
    auto scale = detail::makeTensor(graph, "scale", paramDims, Layout::ChannelsFirst, DataType::FLOAT);
    auto statistic = [&](const char* name) {
        return detail::makeTensor(graph, name, statisticsDims, Layout::ChannelsFirst, DataType::FLOAT);
    };
    std::array<std::shared_ptr<fe::graph::TensorAttributes>, 3> outputs;
    if (s.kind == NormSpec::Kind::Layernorm) {
        outputs = graph.layernorm_backward(
            dy, x, scale,
            fe::graph::LayernormBackwardAttributes()
                .set_name("layernorm_bwd")
                .set_saved_mean_and_inv_variance(statistic("mean"), statistic("inv_variance")));
        outputs[2]->set_output(true).set_data_type(DataType::FLOAT);
    } else {
        outputs = graph.rmsnorm_backward(dy, x, scale, statistic("inv_rms"),
                                         fe::graph::RmsnormBackwardAttributes().set_name("rmsnorm_bwd"));
    }
    outputs[0]->set_output(true);
    outputs[1]->set_output(true).set_data_type(DataType::FLOAT);
}

}  // namespace

Problem makeNormProblem(const NormSpec& s) {
    const bool training = s.phase == fe::NormFwdPhase::TRAINING;
    const bool backward = s.direction == NormSpec::Direction::Backward;
    const std::string label = normKindName(s.kind) + " " +
                              (backward ? normDirectionName(s.direction) : normPhaseName(s.phase)) + " " +
                              dataTypeFlag(s.dataType) + " " + detail::joinDims(s.dims, 'x');
    fe::graph::Graph graph;
    graph.set_name(label)
        .set_io_data_type(s.dataType)
        .set_intermediate_data_type(DataType::FLOAT)
        .set_compute_data_type(DataType::FLOAT);
    std::vector<int64_t> paramDims = s.dims;
    paramDims[0] = 1;
    if (backward) {
        addBackward(graph, s, paramDims);
        return Problem{label, commandWordsFor(s), serializeGraph(graph), std::nullopt};
    }
    auto x = detail::makeTensor(graph, "x", s.dims, Layout::ChannelsFirst);
    auto scale = detail::makeTensor(graph, "scale", paramDims, Layout::ChannelsFirst, DataType::FLOAT);
    auto epsilon = detail::makeScalar(graph, "epsilon", static_cast<float>(s.epsilon));
    if (s.kind == NormSpec::Kind::Layernorm) {
        auto bias = detail::makeTensor(graph, "bias", paramDims, Layout::ChannelsFirst, DataType::FLOAT);
        auto outputs = graph.layernorm(x, scale, bias,
                                       fe::graph::LayernormAttributes()
                                           .set_name("layernorm")
                                           .set_forward_phase(s.phase)
                                           .set_epsilon(epsilon));
        outputs[0]->set_output(true);
        if (training) {
            outputs[1]->set_output(true).set_data_type(DataType::FLOAT);
            outputs[2]->set_output(true).set_data_type(DataType::FLOAT);
        }
    } else {
        auto outputs = graph.rmsnorm(
            x, scale,
            fe::graph::RmsnormAttributes().set_name("rmsnorm").set_forward_phase(s.phase).set_epsilon(
                epsilon));
        outputs[0]->set_output(true);
        if (training) {
            outputs[1]->set_output(true).set_data_type(DataType::FLOAT);
        }
    }
    return Problem{label, commandWordsFor(s), serializeGraph(graph), std::nullopt};
}

}  // namespace hipdnn_driver
