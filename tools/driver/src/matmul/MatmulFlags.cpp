// The matmul subcommand's flags, in the order they are printed.
#include "matmul/MatmulSpec.hpp"

namespace hipdnn_driver {

template <>
const Subcommand<MatmulSpec>& subcommandOf<MatmulSpec>() {
    using S = MatmulSpec;
    static const Subcommand<S> subcommand{
        "matmul",
        "batched matrix product C = A x B",
        {
            flags::positive("-b", &S::batch, "batch"),
            flags::positive("-m", &S::m, "rows of A and C").always(),
            flags::positive("-n", &S::n, "columns of B and C").always(),
            flags::positive("-k", &S::k, "columns of A, rows of B").always(),
            flags::dataType(&S::dataType),
            flags::fuse(&S::epilogue, "epilogue, applied in order: bias,add,relu,gelu,sigmoid,tanh,swish"),
        },
        {}};
    return subcommand;
}

}  // namespace hipdnn_driver
