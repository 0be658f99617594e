#include <hipdnn_test_sdk/references/Reduction.hpp>

#include "Common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hipdnn_test_sdk::references {

template <class In, class Out, class C>
void reduction(ReductionMode mode, const TensorView<const In>& in, const TensorView<Out>& out) {
    using detail::require;
    using detail::toString;
    detail::checkView(in, "reduction in");
    detail::checkView(out, "reduction out");
    require(in.dims.size() == out.dims.size(), "reduction: in " + toString(in.dims) + " and out " +
                                                   toString(out.dims) + " must have the same rank");
    // The reduced dims form the inner iteration space of each output element.
    std::vector<int64_t> reducedDims;
    std::vector<int64_t> reducedStrides;
    for (size_t d = 0; d < in.dims.size(); ++d) {
        require(out.dims[d] == in.dims[d] || out.dims[d] == 1, "reduction: out dims " + toString(out.dims) +
                                                                   " must equal in's " + toString(in.dims) +
                                                                   " or be 1");
        if (out.dims[d] == 1 && in.dims[d] != 1) {
            reducedDims.push_back(in.dims[d]);
            reducedStrides.push_back(in.strides[d]);
        }
    }
    require(mode >= ReductionMode::ADD && mode <= ReductionMode::MUL_NO_ZEROS,
            "reduction: unknown mode " + std::to_string(static_cast<int>(mode)));
    const int64_t reducedCount = elementCount(reducedDims);
    // An output element's own offset in `in`: the output coordinate times in's strides (the
    // reduced dims contribute coordinate 0).
    const std::vector<int64_t>& inStrides = in.strides;

    parallelFor(out.elementCount(), [&](int64_t begin, int64_t end) {
        detail::forEachOffset<2>(out.dims, {&inStrides, &out.strides}, begin, end,
                                 [&](int64_t, const std::array<int64_t, 2>& offsets, const auto&) {
                                     const In* base = in.data + offsets[0];
                                     C result = 0;
                                     switch (mode) {
                                         case ReductionMode::MUL:
                                         case ReductionMode::MUL_NO_ZEROS:
                                             result = 1;
                                             break;
                                         case ReductionMode::MIN_OP:
                                             result = std::numeric_limits<C>::infinity();
                                             break;
                                         case ReductionMode::MAX_OP:
                                             result = -std::numeric_limits<C>::infinity();
                                             break;
                                         default:
                                             break;
                                     }
                                     detail::forEachOffset<1>(
                                         reducedDims, {&reducedStrides}, 0, reducedCount,
                                         [&](int64_t, const std::array<int64_t, 1>& inner, const auto&) {
                                             const C value = detail::load<C>(base[inner[0]]);
                                             switch (mode) {
                                                 case ReductionMode::ADD:
                                                 case ReductionMode::AVG:
                                                     result += value;
                                                     break;
                                                 case ReductionMode::MUL:
                                                     result *= value;
                                                     break;
                                                 case ReductionMode::MUL_NO_ZEROS:
                                                     result *= value == C(0) ? C(1) : value;
                                                     break;
                                                 case ReductionMode::MIN_OP:
                                                     result = std::min(result, value);
                                                     break;
                                                 case ReductionMode::MAX_OP:
                                                     result = std::max(result, value);
                                                     break;
                                                 case ReductionMode::AMAX:
                                                     result = std::max(result, std::abs(value));
                                                     break;
                                                 case ReductionMode::NORM1:
                                                     result += std::abs(value);
                                                     break;
                                                 case ReductionMode::NORM2:
                                                     result += value * value;
                                                     break;
                                                 case ReductionMode::NOT_SET:
                                                     break;  // rejected above
                                             }
                                         });
                                     if (mode == ReductionMode::AVG) {
                                         result /= static_cast<C>(reducedCount);
                                     } else if (mode == ReductionMode::NORM2) {
                                         result = std::sqrt(result);
                                     }
                                     out.data[offsets[1]] = detail::store<Out>(result);
                                 });
    });
}

#define HIPDNN_INSTANTIATE_REDUCTION(In, Out, C) \
    template void reduction<In, Out, C>(ReductionMode, const TensorView<const In>&, const TensorView<Out>&);

#define HIPDNN_INSTANTIATE_REDUCTION_FOR_OUT(In, C)   \
    HIPDNN_INSTANTIATE_REDUCTION(In, float, C)        \
    HIPDNN_INSTANTIATE_REDUCTION(In, detail::half, C) \
    HIPDNN_INSTANTIATE_REDUCTION(In, detail::bfloat16, C)

HIPDNN_INSTANTIATE_REDUCTION_FOR_OUT(float, float)
HIPDNN_INSTANTIATE_REDUCTION_FOR_OUT(float, double)
HIPDNN_INSTANTIATE_REDUCTION_FOR_OUT(detail::half, float)
HIPDNN_INSTANTIATE_REDUCTION_FOR_OUT(detail::half, double)
HIPDNN_INSTANTIATE_REDUCTION_FOR_OUT(detail::bfloat16, float)
HIPDNN_INSTANTIATE_REDUCTION_FOR_OUT(detail::bfloat16, double)

}  // namespace hipdnn_test_sdk::references
