// Helpers shared by the frontend tests.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_frontend.hpp>

namespace hipdnn_frontend_tests {

namespace fe = hipdnn_frontend;
using fe::graph::Graph;
using fe::graph::TensorAttributes;
using fe::graph::TensorPtr;

inline std::vector<int64_t> nchwStrides(const std::vector<int64_t>& dims) {
    return hipdnn_data_sdk::utilities::packedStrides(dims);
}

inline std::vector<int64_t> nhwcStrides(const std::vector<int64_t>& dims) {
    return hipdnn_data_sdk::utilities::generatePackedStrides(
        dims, hipdnn_data_sdk::utilities::TensorLayout::NHWC.strideOrder);
}

inline TensorPtr input(Graph& graph, const std::string& name, const std::vector<int64_t>& dims) {
    return graph.tensor(TensorAttributes().set_name(name).set_dim(dims).set_stride(nchwStrides(dims)));
}

inline Graph floatGraph(const std::string& name = "test") {
    Graph graph;
    graph.set_name(name)
        .set_io_data_type(fe::DataType::FLOAT)
        .set_intermediate_data_type(fe::DataType::FLOAT)
        .set_compute_data_type(fe::DataType::FLOAT);
    return graph;
}

inline fe::graph::ConvFpropAttributes conv3x3() {
    return fe::graph::ConvFpropAttributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1});
}

}  // namespace hipdnn_frontend_tests

// Asserts the error code and that the message mentions every given fragment.
#define EXPECT_FE_ERROR(expr, expectedCode, ...)                                             \
    do {                                                                                     \
        const ::hipdnn_frontend::Error feTestError_ = (expr);                                \
        EXPECT_EQ(feTestError_.code, expectedCode) << feTestError_.message;                  \
        for (const std::string& feFragment_ : std::vector<std::string>{__VA_ARGS__}) {       \
            EXPECT_NE(feTestError_.message.find(feFragment_), std::string::npos)             \
                << "message '" << feTestError_.message << "' lacks '" << feFragment_ << "'"; \
        }                                                                                    \
    } while (false)

#define ASSERT_FE_OK(expr)                                    \
    do {                                                      \
        const ::hipdnn_frontend::Error feTestError_ = (expr); \
        ASSERT_TRUE(feTestError_.is_good()) << feTestError_;  \
    } while (false)
