// A port of an operation: one tensor field of its schema attributes table, described once in the
// operation's traits block (Operations.hpp) and read from there by every layer.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace hipdnn_flatbuffers_sdk::operations {

enum class PortDirection { Input, Output };

// What the tensor is to its operation. An operand has an element type of its own; the parameters
// (scale, bias) and statistics (mean, variance, their running values) of a normalization are
// small tensors that share one element type; a scalar (epsilon, momentum) is a single value,
// usually passed by value in the graph. Metadata are integer tensors that steer the operation
// rather than feed its arithmetic (attention's sequence lengths, random seed and offset).
enum class PortRole { Operand, Parameter, Statistic, Scalar, Metadata };

// Follows from the schema field's type: `long` is required, `long = null` optional, `[long]` a
// list of any length (peer statistics).
enum class PortPresence { Required, Optional, List };

namespace detail {

template <class Getter>
struct GetterTraits;

template <class Attributes, class Result>
struct GetterTraits<Result (Attributes::*)() const> {
    using AttributesType = Attributes;
    static constexpr PortPresence presence = std::is_same_v<Result, int64_t> ? PortPresence::Required
                                             : std::is_same_v<Result, flatbuffers::Optional<int64_t>>
                                                 ? PortPresence::Optional
                                                 : PortPresence::List;
    static_assert(std::is_same_v<Result, int64_t> || std::is_same_v<Result, flatbuffers::Optional<int64_t>> ||
                      std::is_same_v<Result, const flatbuffers::Vector<int64_t>*>,
                  "a port reads a `long`, `long = null` or `[long]` tensor uid field");
};

}  // namespace detail

template <class Getter>
struct Port {
    using Attributes = typename detail::GetterTraits<Getter>::AttributesType;
    static constexpr PortPresence presence = detail::GetterTraits<Getter>::presence;

    // The schema field without its "_tensor_uid" suffix.
    std::string_view name;
    Getter uidOf;
    PortDirection direction;
    PortRole role;

    constexpr bool isOutput() const { return direction == PortDirection::Output; }
};

template <class Getter>
constexpr Port<Getter> input(std::string_view name, Getter uidOf, PortRole role = PortRole::Operand) {
    return {name, uidOf, PortDirection::Input, role};
}

template <class Getter>
constexpr Port<Getter> output(std::string_view name, Getter uidOf, PortRole role = PortRole::Operand) {
    return {name, uidOf, PortDirection::Output, role};
}

// Calls visit(port, uid, element) for every tensor the port names in `attributes`: once for a
// required port, once or not at all for an optional one, once per element of a list (element
// counts from 0; it is -1 for ports that are not lists).
template <class Getter, class Visitor>
void forEachUid(const Port<Getter>& port, const typename Port<Getter>::Attributes& attributes,
                Visitor&& visit) {
    const auto value = (attributes.*port.uidOf)();
    if constexpr (Port<Getter>::presence == PortPresence::Required) {
        visit(port, value, -1);
    } else if constexpr (Port<Getter>::presence == PortPresence::Optional) {
        if (value.has_value()) {
            visit(port, *value, -1);
        }
    } else if (value != nullptr) {
        for (flatbuffers::uoffset_t i = 0; i < value->size(); ++i) {
            visit(port, value->Get(i), static_cast<int>(i));
        }
    }
}

// Calls visit(port) for each port of a traits block's `ports` tuple, in schema order.
template <class Ports, class Visitor>
constexpr void forEachPort(const Ports& ports, Visitor&& visit) {
    std::apply([&](const auto&... port) { (visit(port), ...); }, ports);
}

}  // namespace hipdnn_flatbuffers_sdk::operations
