// What every operation's attribute class has: a node name, a compute data type, and the tensors
// on its input and output ports, keyed by the class's InputNames / OutputNames enums.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "../Types.hpp"
#include "TensorAttributes.hpp"

namespace hipdnn_frontend::graph {

template <typename Derived, typename InputNamesT, typename OutputNamesT>
class AttributesBase {
public:
    using InputNames = InputNamesT;
    using OutputNames = OutputNamesT;

    std::map<InputNames, std::shared_ptr<TensorAttributes>> inputs;
    std::map<OutputNames, std::shared_ptr<TensorAttributes>> outputs;

    Derived& set_name(std::string name) {
        name_ = std::move(name);
        return self();
    }
    // The accumulation type; NOT_SET takes the graph's compute data type.
    Derived& set_compute_data_type(DataType type) {
        computeDataType_ = type;
        return self();
    }

    [[nodiscard]] const std::string& get_name() const { return name_; }
    [[nodiscard]] DataType get_compute_data_type() const { return computeDataType_; }

    [[nodiscard]] std::shared_ptr<TensorAttributes> input(InputNames port) const {
        auto it = inputs.find(port);
        return it == inputs.end() ? nullptr : it->second;
    }
    [[nodiscard]] std::shared_ptr<TensorAttributes> output(OutputNames port) const {
        auto it = outputs.find(port);
        return it == outputs.end() ? nullptr : it->second;
    }

private:
    Derived& self() { return static_cast<Derived&>(*this); }

    std::string name_;
    DataType computeDataType_ = DataType::NOT_SET;
};

}  // namespace hipdnn_frontend::graph
