// matmul: C[b, m, n] = A[b, m, k] x B[b, k, n] with an optional epilogue (bias over n). Flags in
// MatmulFlags.cpp, graph in MatmulProblem.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "FlagTable.hpp"
#include "SpecTypes.hpp"

namespace hipdnn_driver {

struct MatmulSpec {
    int64_t batch = 1, m = 512, n = 512, k = 512;
    DataType dataType = DataType::FLOAT;
    std::vector<EpilogueOp> epilogue;

    bool operator==(const MatmulSpec&) const = default;
};

template <>
const Subcommand<MatmulSpec>& subcommandOf<MatmulSpec>();

}  // namespace hipdnn_driver
