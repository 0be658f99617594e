// Batched matmul (batch broadcast from 1, transposed operands through strides) with an epilogue.
#include "Epilogue.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <utility>

namespace hipdnn_differential {

namespace {

// Row-major, or with the last two dims swapped in memory (a transposed operand).
Dims matrixStrides(const Dims& dims, bool transposed) {
    const size_t rank = dims.size();
    Dims order(rank);
    for (size_t dim = 0; dim < rank; ++dim) {
        order[dim] = static_cast<int64_t>(rank - 1 - dim);
    }
    if (transposed) {
        std::swap(order[rank - 1], order[rank - 2]);
    }
    return hipdnn_data_sdk::utilities::generatePackedStrides(dims, order);
}

}  // namespace

Problem generateMatmul(Random& random) {
    ProblemBuilder builder(random, "matmul", hipdnn_test_sdk::ToleranceOp::Matmul);
    const size_t rank = static_cast<size_t>(random.between(2, 4));
    const int64_t m = random.between(1, 16);
    const int64_t k = random.chance(0.2) ? random.between(17, 96) : random.between(1, 16);
    const int64_t n = random.between(1, 16);
    Dims aDims;
    Dims bDims;
    Dims cDims;
    for (size_t dim = 0; dim + 2 < rank; ++dim) {
        const int64_t batch = random.between(1, 3);
        const int64_t broadcast = random.between(0, 3);  // 0: A from 1, 1: B from 1, else both full
        aDims.push_back(broadcast == 0 ? 1 : batch);
        bDims.push_back(broadcast == 1 ? 1 : batch);
        cDims.push_back(batch);
    }
    aDims.insert(aDims.end(), {m, k});
    bDims.insert(bDims.end(), {k, n});
    cDims.insert(cDims.end(), {m, n});

    const DataType type = pickIoType(random);
    const int64_t a = builder.tensor("a", type, aDims, matrixStrides(aDims, random.chance(0.3)));
    const int64_t b = builder.tensor("b", type, bDims, matrixStrides(bDims, random.chance(0.3)));
    Dims biasDims(rank, 1);
    biasDims.back() = n;
    const Epilogue epilogue(builder, cDims, matrixStrides(cDims, false), biasDims, type);
    auto& graph = builder.problem().graph;
    graph.addMatmul("matmul", a, b, epilogue.primaryOutput());
    epilogue.addNodes(graph);
    builder.problem().reductionTerms = k;
    return std::move(builder.problem());
}

}  // namespace hipdnn_differential
