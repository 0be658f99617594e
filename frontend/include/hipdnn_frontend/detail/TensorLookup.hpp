// Resolves the uids of a serialized graph to the frontend tensors made for them while
// deserializing, remembering any uid that names no tensor.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include <flatbuffers/flatbuffers.h>

#include "../attributes/TensorAttributes.hpp"

namespace hipdnn_frontend::detail {

class TensorLookup {
public:
    void add(int64_t uid, std::shared_ptr<graph::TensorAttributes> tensor) {
        tensors_[uid] = std::move(tensor);
    }

    std::shared_ptr<graph::TensorAttributes> operator()(int64_t uid) const {
        auto it = tensors_.find(uid);
        if (it == tensors_.end()) {
            missing_.push_back(uid);
            return nullptr;
        }
        return it->second;
    }
    std::shared_ptr<graph::TensorAttributes> operator()(const flatbuffers::Optional<int64_t>& uid) const {
        return uid.has_value() ? (*this)(*uid) : nullptr;
    }
    std::vector<std::shared_ptr<graph::TensorAttributes>> operator()(
        const flatbuffers::Vector<int64_t>* uids) const {
        std::vector<std::shared_ptr<graph::TensorAttributes>> result;
        if (uids != nullptr) {
            for (int64_t uid : *uids) {
                result.push_back((*this)(uid));
            }
        }
        return result;
    }

    [[nodiscard]] const std::vector<int64_t>& missing() const { return missing_; }

private:
    std::unordered_map<int64_t, std::shared_ptr<graph::TensorAttributes>> tensors_;
    mutable std::vector<int64_t> missing_;
};

inline std::vector<int64_t> toVector(const flatbuffers::Vector<int64_t>* values) {
    return values == nullptr ? std::vector<int64_t>{} : std::vector<int64_t>(values->begin(), values->end());
}

}  // namespace hipdnn_frontend::detail
