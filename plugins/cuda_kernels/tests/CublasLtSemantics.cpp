#include "CublasLtSemantics.hpp"

#include <algorithm>
#include <cstdint>

namespace cuda_kernels_test {

using hipdnn_cuda_kernels::MatmulActivation;
using hipdnn_cuda_kernels::MatmulOperand;
using hipdnn_cuda_kernels::MatmulProgram;

void runAsCublasLt(const MatmulProgram& program, const std::vector<float>& a, const std::vector<float>& b,
                   const std::vector<float>* bias, std::vector<float>& d) {
    const auto element = [](const MatmulOperand& operand, const std::vector<float>& values, int64_t batch,
                            int64_t row, int64_t column) {
        // op(X)(row, column): the stored matrix is the transpose where `transposed`.
        const int64_t offset =
            batch * operand.batchStride + (operand.transposed ? column + row * operand.leadingDimension
                                                              : row + column * operand.leadingDimension);
        return values[static_cast<size_t>(offset)];
    };
    for (int64_t batch = 0; batch < program.batchCount; ++batch) {
        for (int64_t row = 0; row < program.m; ++row) {
            for (int64_t column = 0; column < program.n; ++column) {
                float sum = 0;
                for (int64_t p = 0; p < program.k; ++p) {
                    sum += element(program.a, a, batch, row, p) * element(program.b, b, batch, p, column);
                }
                if (bias != nullptr) {
                    sum += (*bias)[static_cast<size_t>(batch * program.bias->batchStride + row)];
                }
                if (program.activation == MatmulActivation::Relu) {
                    sum = std::max(sum, 0.0F);
                }
                d[static_cast<size_t>(batch * program.d.batchStride + row +
                                      column * program.d.leadingDimension)] = sum;
            }
        }
    }
}

}  // namespace cuda_kernels_test
