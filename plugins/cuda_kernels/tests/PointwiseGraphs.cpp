#include "PointwiseGraphs.hpp"

#include <hipdnn_flatbuffers_sdk/operations/Pointwise.hpp>

namespace cuda_kernels_test {

std::vector<fb::PointwiseMode> allPointwiseModes() {
    std::vector<fb::PointwiseMode> modes;
    for (const fb::PointwiseMode mode : fb::EnumValuesPointwiseMode()) {
        if (mode != fb::PointwiseMode::UNSET) {
            modes.push_back(mode);
        }
    }
    return modes;
}

hipdnn_test_sdk::GraphBuilder everyModeGraph(fb::DataType type, fb::DataType compute,
                                             const std::vector<int64_t>& dims, bool broadcastB) {
    hipdnn_test_sdk::GraphBuilder builder("every_mode");
    builder.setComputeDataType(compute);
    std::vector<int64_t> bDims(dims.size(), 1);
    bDims[1] = dims[1];
    builder.addTensor(1, "a", type, dims)
        .addTensor(2, "b", type, broadcastB ? bDims : dims)
        .addTensor(3, "c", type, dims);
    int64_t uid = 10;
    for (const fb::PointwiseMode mode : allPointwiseModes()) {
        const int inputs = hipdnn_flatbuffers_sdk::pointwiseInputCount(mode);
        const std::string name = fb::EnumNamePointwiseMode(mode);
        builder.addTensor(uid, name, type, dims);
        hipdnn_test_sdk::PointwiseOptions options;
        if (mode == fb::PointwiseMode::GEN_INDEX) {
            options.axis = 1;
        }
        builder.addPointwise(name, mode, 1, uid, inputs >= 2 ? std::optional<int64_t>(2) : std::nullopt,
                             inputs == 3 ? std::optional<int64_t>(3) : std::nullopt, options);
        ++uid;
    }
    return builder;
}

hipdnn_test_sdk::GraphBuilder scaleAddReluGraph(fb::DataType type, const std::vector<int64_t>& dims,
                                                const std::vector<int64_t>& strides) {
    hipdnn_test_sdk::GraphBuilder builder("scale_add_relu");
    builder.addTensor(1, "x", type, dims, strides)
        .addScalar(2, "alpha", fb::DataType::FLOAT, 1.5)
        .addTensor(3, "scaled", fb::DataType::FLOAT, dims, strides, true)
        .addTensor(4, "b", type, dims, strides)
        .addTensor(5, "sum", fb::DataType::FLOAT, dims, strides, true)
        .addTensor(6, "y", type, dims, strides)
        .addPointwise("scale", fb::PointwiseMode::MUL, 1, 3, 2)
        .addPointwise("add", fb::PointwiseMode::ADD, 3, 5, 4)
        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 5, 6);
    return builder;
}

}  // namespace cuda_kernels_test
