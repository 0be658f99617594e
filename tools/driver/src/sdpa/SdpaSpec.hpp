// sdpa: scaled dot-product attention, forward or backward, with grouped-query heads and an
// optional causal mask, in BHSD or BSHD memory order. Flags in SdpaFlags.cpp, graph in
// SdpaProblem.cpp.
#pragma once

#include <cstdint>

#include "FlagTable.hpp"
#include "SpecTypes.hpp"

namespace hipdnn_driver {

struct SdpaSpec {
    enum class Direction { Forward, Backward };
    // Memory order of Q, K, V and O; their dims are (B, H, S, D) either way.
    enum class MemoryOrder { Bhsd, Bshd };

    int64_t batch = 1;
    int64_t heads = 8;
    int64_t kvHeads = 0;  // 0: as many as --heads
    int64_t seqQ = 512;
    int64_t seqKv = 0;  // 0: --seq-q
    int64_t headDim = 64;
    bool causal = false;
    Direction direction = Direction::Forward;
    MemoryOrder order = MemoryOrder::Bhsd;
    DataType dataType = DataType::FLOAT;

    int64_t effectiveKvHeads() const { return kvHeads != 0 ? kvHeads : heads; }
    int64_t effectiveSeqKv() const { return seqKv != 0 ? seqKv : seqQ; }

    bool operator==(const SdpaSpec&) const = default;
};

// The --dir and --layout names ("fwd", "bshd"), also used in labels.
const std::string& sdpaDirectionName(SdpaSpec::Direction direction);
const std::string& sdpaOrderName(SdpaSpec::MemoryOrder order);

template <>
const Subcommand<SdpaSpec>& subcommandOf<SdpaSpec>();

}  // namespace hipdnn_driver
