// Batched matrix product with broadcasting batch dims.
#pragma once

#include "../attributes/MatmulAttributes.hpp"
#include "../detail/TensorLookup.hpp"
#include "INode.hpp"

namespace hipdnn_frontend::graph {

class MatmulNode : public NodeBase<MatmulNode, MatmulAttributes> {
public:
    static constexpr NodeType kType = NodeType::MATMUL;
    using Schema = fbs::MatmulAttributes;
    using NodeBase::NodeBase;

    static std::string_view portName(InputNames port) { return port == InputNames::A ? "A" : "B"; }
    static std::string_view portName(OutputNames) { return "C"; }

    Error inferAndValidateNode() {
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::A));
        HIPDNN_CHECK_FRONTEND_ERROR(requireInput(InputNames::B));
        const auto& a = *in(InputNames::A);
        const auto& b = *in(InputNames::B);
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireRank(name(), "A", a, 2));
        HIPDNN_CHECK_FRONTEND_ERROR(detail::requireSameRank(name(), "A", a, "B", b));
        const auto& aDims = a.get_dim();
        const auto& bDims = b.get_dim();
        const size_t rank = aDims.size();
        HIPDNN_RETURN_FRONTEND_ERROR_IF(
            aDims[rank - 1] != bDims[rank - 2], ErrorCode::INVALID_VALUE,
            detail::nodePrefix(name()) + "inner dims differ: " + detail::describeTensor("A", a) + " " +
                detail::formatDims(aDims) + " has K = " + std::to_string(aDims[rank - 1]) + ", " +
                detail::describeTensor("B", b) + " " + detail::formatDims(bDims) +
                " has K = " + std::to_string(bDims[rank - 2]));
        std::vector<int64_t> cDims(rank);
        for (size_t i = 0; i + 2 < rank; ++i) {
            const int64_t larger = std::max(aDims[i], bDims[i]);
            const int64_t smaller = std::min(aDims[i], bDims[i]);
            HIPDNN_RETURN_FRONTEND_ERROR_IF(smaller <= 0 || larger % smaller != 0, ErrorCode::INVALID_VALUE,
                                            detail::nodePrefix(name()) + "batch dim " + std::to_string(i) +
                                                " cannot broadcast: A has " + std::to_string(aDims[i]) +
                                                ", B has " + std::to_string(bDims[i]));
            cDims[i] = larger;
        }
        cDims[rank - 2] = aDims[rank - 2];
        cDims[rank - 1] = bDims[rank - 1];
        return inferOutput(OutputNames::C, cDims, InputNames::A);
    }

    flatbuffers::Offset<Schema> packAttributes(flatbuffers::FlatBufferBuilder& b, const UidMap& uids) const {
        auto offset = fbs::CreateMatmulAttributes(b, detail::uidOf(uids, in(InputNames::A)),
                                                  detail::uidOf(uids, in(InputNames::B)),
                                                  detail::uidOf(uids, out(OutputNames::C)));
        return offset;
    }

    static MatmulAttributes unpack(const Schema& source, const detail::TensorLookup& tensors) {
        MatmulAttributes result;
        result.inputs[InputNames::A] = tensors(source.a_tensor_uid());
        result.inputs[InputNames::B] = tensors(source.b_tensor_uid());
        result.outputs[OutputNames::C] = tensors(source.c_tensor_uid());
        return result;
    }
};

}  // namespace hipdnn_frontend::graph
