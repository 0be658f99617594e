// The sdpa subcommand's flags, in the order they are printed.
#include "sdpa/SdpaSpec.hpp"

namespace hipdnn_driver {
namespace {

using S = SdpaSpec;

const NameTable<S::Direction> kDirections{{"fwd", S::Direction::Forward}, {"bwd", S::Direction::Backward}};
const NameTable<S::MemoryOrder> kOrders{{"bhsd", S::MemoryOrder::Bhsd}, {"bshd", S::MemoryOrder::Bshd}};

void check(const S& s) {
    if (s.heads % s.effectiveKvHeads() != 0) {
        throw UsageError("--kv-heads: " + std::to_string(s.effectiveKvHeads()) + " does not divide --heads " +
                         std::to_string(s.heads));
    }
}

}  // namespace

const std::string& sdpaDirectionName(SdpaSpec::Direction direction) {
    return nameOrFirst(kDirections, direction);
}

const std::string& sdpaOrderName(SdpaSpec::MemoryOrder order) {
    return nameOrFirst(kOrders, order);
}

template <>
const Subcommand<SdpaSpec>& subcommandOf<SdpaSpec>() {
    static const Subcommand<S> subcommand{
        "sdpa",
        "scaled dot-product attention O = softmax(Q K^T / sqrt(D)) V, forward or backward",
        {
            flags::choice("--dir", &S::direction, kDirections, "fwd | bwd"),
            flags::positive("-b", &S::batch, "batch").always(),
            flags::positive("--heads", &S::heads, "query heads").always(),
            flags::positive("--kv-heads", &S::kvHeads,
                            "key / value heads (default: --heads); divides --heads")
                .when([](const S& s) { return s.kvHeads != 0; })
                .noDefaultShown(),
            flags::positive("--seq-q", &S::seqQ, "query sequence length").always(),
            flags::positive("--seq-kv", &S::seqKv, "key / value sequence length (default: --seq-q)")
                .when([](const S& s) { return s.seqKv != 0; })
                .noDefaultShown(),
            flags::positive("--head-dim", &S::headDim, "head dim of Q, K and V").always(),
            flags::toggle("--causal", &S::causal, "causal mask (query i sees keys j <= i)"),
            flags::choice("--layout", &S::order, kOrders, "bhsd | bshd (memory order; dims stay B, H, S, D)",
                          true),
            flags::dataType(&S::dataType),
        },
        check};
    return subcommand;
}

}  // namespace hipdnn_driver
