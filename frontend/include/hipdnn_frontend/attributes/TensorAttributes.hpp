// A tensor of a frontend graph: a small value type with fluent setters, shared by the nodes that
// read and write it (nodes hold std::shared_ptr<TensorAttributes>).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "../Types.hpp"

namespace hipdnn_frontend::graph {

class TensorAttributes {
public:
    // A scalar baked into the graph instead of being passed in the variant pack.
    using PassByValue = std::variant<float, double, int32_t, int64_t>;

    TensorAttributes() = default;
    // A pass-by-value scalar (epsilon, momentum, a constant operand).
    template <typename T,
              typename = std::enable_if_t<std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                          std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>>>
    explicit TensorAttributes(T value) {
        set_value(value);
    }

    TensorAttributes& set_name(std::string name) {
        name_ = std::move(name);
        return *this;
    }
    TensorAttributes& set_uid(int64_t uid) {
        uid_ = uid;
        uidAssignedByGraph_ = false;
        return *this;
    }
    // Forgets the uid so that build_operation_graph assigns one.
    TensorAttributes& clear_uid() {
        uid_.reset();
        uidAssignedByGraph_ = false;
        return *this;
    }
    TensorAttributes& set_data_type(DataType type) {
        dataType_ = type;
        return *this;
    }
    TensorAttributes& set_dim(std::vector<int64_t> dims) {
        dims_ = std::move(dims);
        return *this;
    }
    TensorAttributes& set_stride(std::vector<int64_t> strides) {
        strides_ = std::move(strides);
        return *this;
    }
    TensorAttributes& set_is_virtual(bool isVirtual) {
        isVirtual_ = isVirtual;
        return *this;
    }
    // An output the caller provides memory for (a node output is virtual until this is called).
    TensorAttributes& set_output(bool isOutput) { return set_is_virtual(!isOutput); }

    template <typename T>
    TensorAttributes& set_value(T value) {
        static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int32_t> ||
                          std::is_same_v<T, int64_t>,
                      "pass-by-value scalars are float, double, int32_t or int64_t");
        value_ = value;
        if (dims_.empty()) {
            dims_ = {1};
            strides_ = {1};
        }
        if (dataType_ == DataType::NOT_SET) {
            if constexpr (std::is_same_v<T, float>)
                dataType_ = DataType::FLOAT;
            else if constexpr (std::is_same_v<T, double>)
                dataType_ = DataType::DOUBLE;
            else if constexpr (std::is_same_v<T, int32_t>)
                dataType_ = DataType::INT32;
            else
                dataType_ = DataType::INT64;
        }
        return *this;
    }

    [[nodiscard]] const std::string& get_name() const { return name_; }
    [[nodiscard]] bool has_uid() const { return uid_.has_value(); }
    [[nodiscard]] int64_t get_uid() const { return uid_.value_or(-1); }
    [[nodiscard]] DataType get_data_type() const { return dataType_; }
    [[nodiscard]] const std::vector<int64_t>& get_dim() const { return dims_; }
    [[nodiscard]] const std::vector<int64_t>& get_stride() const { return strides_; }
    [[nodiscard]] bool get_is_virtual() const { return isVirtual_; }
    [[nodiscard]] bool get_is_pass_by_value() const { return value_.has_value(); }
    [[nodiscard]] const std::optional<PassByValue>& get_pass_by_value() const { return value_; }
    [[nodiscard]] int64_t get_volume() const {
        int64_t volume = 1;
        for (int64_t dim : dims_) {
            volume *= dim;
        }
        return volume;
    }

    // True when build_operation_graph picked the uid; such uids are left out of Graph::key().
    [[nodiscard]] bool uid_assigned_by_graph() const { return uidAssignedByGraph_; }
    void assign_uid_from_graph(int64_t uid) {
        uid_ = uid;
        uidAssignedByGraph_ = true;
    }

private:
    std::string name_;
    std::optional<int64_t> uid_;
    bool uidAssignedByGraph_ = false;
    DataType dataType_ = DataType::NOT_SET;
    std::vector<int64_t> dims_;
    std::vector<int64_t> strides_;
    bool isVirtual_ = false;
    std::optional<PassByValue> value_;
};

using Tensor_attributes = TensorAttributes;

}  // namespace hipdnn_frontend::graph
