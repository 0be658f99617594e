// What the CPU references do not implement of a valid node. The node's contract (shapes, modes,
// required ports) is checked once for every reader, when its GraphWrapper is built
// (hipdnn_flatbuffers_sdk/Operations.hpp); only the references' own limits are left here.
#include "ExecutorSupport.hpp"

namespace hipdnn_test_sdk::detail {

namespace {

using hipdnn_flatbuffers_sdk::NodeWrapper;

std::optional<std::string> peerStatsLimit(const NodeWrapper& node,
                                          const flatbuffers::Vector<int64_t>* peerStats) {
    if (peerStats != nullptr && peerStats->size() > 0) {
        return node.describe() +
               ": unsupported mode: peer_stats (multi-device batch statistics) has no CPU reference";
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> referenceLimit(const NodeWrapper& node) {
    if (const auto* a = node.attributesAs<fb::BatchnormAttributes>()) {
        return peerStatsLimit(node, a->peer_stats_tensor_uid());
    }
    if (const auto* a = node.attributesAs<fb::BatchnormBackwardAttributes>()) {
        return peerStatsLimit(node, a->peer_stats_tensor_uid());
    }
    if (const auto* a = node.attributesAs<fb::ResampleFwdAttributes>()) {
        using Mode = fb::ResampleMode;
        const Mode mode = a->resample_mode();
        if (mode != Mode::MAXPOOL && mode != Mode::AVGPOOL_EXCLUDE_PADDING &&
            mode != Mode::AVGPOOL_INCLUDE_PADDING) {
            return node.describe() + ": unsupported mode: resample_mode " + fb::EnumNameResampleMode(mode) +
                   " (the CPU reference implements MAXPOOL, AVGPOOL_EXCLUDE_PADDING and "
                   "AVGPOOL_INCLUDE_PADDING)";
        }
    }
    return std::nullopt;
}

}  // namespace hipdnn_test_sdk::detail
