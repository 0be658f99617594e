// bn: batch normalization inference and training with running statistics (each with an optional
// epilogue on y), and backward with the saved statistics.
#include "Epilogue.hpp"
#include "Problem.hpp"
#include "bn/BnSpec.hpp"

namespace hipdnn_driver {

namespace fe = hipdnn_frontend;

Problem makeBnProblem(const BnSpec& s) {
    const std::vector<int64_t> dims = s.depth > 0 ? std::vector<int64_t>{s.n, s.c, s.depth, s.h, s.w}
                                                  : std::vector<int64_t>{s.n, s.c, s.h, s.w};
    std::vector<int64_t> channelDims(dims.size(), 1);
    channelDims[1] = s.c;

    std::string label = "bn " + bnModeName(s.mode) + " " + dataTypeFlag(s.dataType) + " " +
                        detail::layoutName(s.layout, dims.size()) + " " + detail::joinDims(dims, 'x');
    if (!s.epilogue.empty()) {
        label += " +" + epilogueList(s.epilogue);
    }
    fe::graph::Graph graph;
    graph.set_name(label)
        .set_io_data_type(s.dataType)
        .set_intermediate_data_type(DataType::FLOAT)
        .set_compute_data_type(DataType::FLOAT);
    // Statistics and affine parameters stay in fp32 whatever the activations' type, as in cuDNN.
    auto channelTensor = [&](const std::string& name) {
        return detail::makeTensor(graph, name, channelDims, s.layout, DataType::FLOAT);
    };
    auto x = detail::makeTensor(graph, "x", dims, s.layout);
    auto scale = channelTensor("scale");
    switch (s.mode) {
        case BnSpec::Mode::Inference: {
            auto y = graph.batchnorm_inference(x, channelTensor("mean"), channelTensor("inv_variance"), scale,
                                               channelTensor("bias"),
                                               fe::graph::BatchnormInferenceAttributes().set_name("bn"));
            appendEpilogue(graph, y, dims, 1, s.layout, s.epilogue)->set_output(true);
            break;
        }
        case BnSpec::Mode::Training: {
            auto attributes = fe::graph::BatchnormAttributes().set_name("bn");
            attributes.set_epsilon(detail::makeScalar(graph, "epsilon", static_cast<float>(s.epsilon)));
            attributes.set_previous_running_stats(
                channelTensor("running_mean"), channelTensor("running_variance"),
                detail::makeScalar(graph, "momentum", static_cast<float>(s.momentum)));
            auto outputs = graph.batchnorm(x, scale, channelTensor("bias"), attributes);
            for (size_t k = 1; k < outputs.size(); ++k) {
                outputs[k]->set_output(true).set_data_type(DataType::FLOAT);
            }
            if (s.epilogue.empty()) {
                outputs[0]->set_output(true).set_data_type(s.dataType);
            } else {
                appendEpilogue(graph, outputs[0], dims, 1, s.layout, s.epilogue)->set_output(true);
            }
            break;
        }
        case BnSpec::Mode::Backward: {
            auto attributes = fe::graph::BatchnormBackwardAttributes().set_name("bn_backward");
            attributes.set_saved_mean_and_inv_variance(channelTensor("saved_mean"),
                                                       channelTensor("saved_inv_variance"));
            auto dy = detail::makeTensor(graph, "dy", dims, s.layout);
            auto outputs = graph.batchnorm_backward(dy, x, scale, attributes);
            outputs[0]->set_output(true);
            outputs[1]->set_output(true).set_data_type(DataType::FLOAT);
            outputs[2]->set_output(true).set_data_type(DataType::FLOAT);
            break;
        }
    }
    return Problem{label, commandWordsFor(s), serializeGraph(graph), std::nullopt};
}

}  // namespace hipdnn_driver
