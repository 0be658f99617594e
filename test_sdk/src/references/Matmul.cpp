#include <hipdnn_test_sdk/references/Matmul.hpp>

#include "Common.hpp"

#include <algorithm>

namespace hipdnn_test_sdk::references {
namespace {

using detail::require;
using detail::toString;

// Offsets of an operand's matrix for each batch index of C (row-major over C's batch dims).
template <class T>
std::vector<int64_t> batchOffsets(const TensorView<T>& operand, const std::vector<int64_t>& batchDims,
                                  const std::string& name) {
    const size_t batchRank = batchDims.size();
    std::vector<int64_t> groupSize(batchRank);
    for (size_t d = 0; d < batchRank; ++d) {
        const int64_t dim = operand.dims[d];
        require(dim > 0 && batchDims[d] % dim == 0,
                "matmul: batch dim " + std::to_string(d) + " of " + name + " (" + std::to_string(dim) +
                    ") does not divide C's (" + std::to_string(batchDims[d]) + ")");
        groupSize[d] = batchDims[d] / dim;
    }
    std::vector<int64_t> offsets(static_cast<size_t>(elementCount(batchDims)));
    std::vector<int64_t> coord(batchRank, 0);
    for (size_t batch = 0; batch < offsets.size(); ++batch) {
        int64_t remaining = static_cast<int64_t>(batch);
        int64_t offset = 0;
        for (size_t d = batchRank; d-- > 0;) {
            coord[d] = remaining % batchDims[d];
            remaining /= batchDims[d];
            offset += (coord[d] / groupSize[d]) * operand.strides[d];
        }
        offsets[batch] = offset;
    }
    return offsets;
}

}  // namespace

template <class In, class Out, class C>
void matmul(const TensorView<const In>& a, const TensorView<const In>& b, const TensorView<Out>& c) {
    detail::checkView(a, "matmul A");
    detail::checkView(b, "matmul B");
    detail::checkView(c, "matmul C");
    const size_t rank = c.dims.size();
    require(rank >= 2 && a.dims.size() == rank && b.dims.size() == rank,
            "matmul: A " + toString(a.dims) + ", B " + toString(b.dims) + " and C " + toString(c.dims) +
                " must have the same rank >= 2");
    const int64_t m = a.dims[rank - 2];
    const int64_t k = a.dims[rank - 1];
    const int64_t n = b.dims[rank - 1];
    require(b.dims[rank - 2] == k && c.dims[rank - 2] == m && c.dims[rank - 1] == n,
            "matmul: A " + toString(a.dims) + " x B " + toString(b.dims) + " does not give C " +
                toString(c.dims));
    const std::vector<int64_t> batchDims(c.dims.begin(), c.dims.end() - 2);
    const std::vector<int64_t> aBatch = batchOffsets(a, batchDims, "A");
    const std::vector<int64_t> bBatch = batchOffsets(b, batchDims, "B");
    const std::vector<int64_t> cBatch = batchOffsets(c, batchDims, "C");
    const int64_t aRow = a.strides[rank - 2];
    const int64_t aCol = a.strides[rank - 1];
    const int64_t bRow = b.strides[rank - 2];
    const int64_t bCol = b.strides[rank - 1];
    const int64_t cRow = c.strides[rank - 2];
    const int64_t cCol = c.strides[rank - 1];
    const int64_t batches = elementCount(batchDims);

    parallelFor(batches * m, [&](int64_t begin, int64_t end) {
        std::vector<C> row(static_cast<size_t>(n));
        for (int64_t item = begin; item < end; ++item) {
            const auto batch = static_cast<size_t>(item / m);
            const int64_t i = item % m;
            const In* aRowData = a.data + aBatch[batch] + i * aRow;
            const In* bData = b.data + bBatch[batch];
            // Accumulate a whole row of C at once so that B is read row by row; each element
            // still sums over k in order.
            std::fill(row.begin(), row.end(), C(0));
            for (int64_t p = 0; p < k; ++p) {
                const C aValue = detail::load<C>(aRowData[p * aCol]);
                const In* bRowData = bData + p * bRow;
                for (int64_t j = 0; j < n; ++j) {
                    row[static_cast<size_t>(j)] += aValue * detail::load<C>(bRowData[j * bCol]);
                }
            }
            Out* cRowData = c.data + cBatch[batch] + i * cRow;
            for (int64_t j = 0; j < n; ++j) {
                cRowData[j * cCol] = detail::store<Out>(row[static_cast<size_t>(j)]);
            }
        }
    });
}

#define HIPDNN_INSTANTIATE_MATMUL(In, Out, C)                                                  \
    template void matmul<In, Out, C>(const TensorView<const In>&, const TensorView<const In>&, \
                                     const TensorView<Out>&);

#define HIPDNN_INSTANTIATE_MATMUL_FOR_OUT(In, C)   \
    HIPDNN_INSTANTIATE_MATMUL(In, float, C)        \
    HIPDNN_INSTANTIATE_MATMUL(In, detail::half, C) \
    HIPDNN_INSTANTIATE_MATMUL(In, detail::bfloat16, C)

HIPDNN_INSTANTIATE_MATMUL_FOR_OUT(float, float)
HIPDNN_INSTANTIATE_MATMUL_FOR_OUT(float, double)
HIPDNN_INSTANTIATE_MATMUL_FOR_OUT(detail::half, float)
HIPDNN_INSTANTIATE_MATMUL_FOR_OUT(detail::half, double)
HIPDNN_INSTANTIATE_MATMUL_FOR_OUT(detail::bfloat16, float)
HIPDNN_INSTANTIATE_MATMUL_FOR_OUT(detail::bfloat16, double)

}  // namespace hipdnn_test_sdk::references
