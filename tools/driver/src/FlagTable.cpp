#include "FlagTable.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <sstream>

#include <CLI/CLI.hpp>

namespace hipdnn_driver {
namespace {

// Integer flags: CLI11's number validators print the full double range for a non-number.
CLI::Validator integerAtLeast(int64_t minimum, const std::string& what) {
    return CLI::Validator(
        [minimum, what](const std::string& value) {
            size_t used = 0;
            try {
                const long long number = std::stoll(value, &used);
                if (used == value.size() && number >= minimum) {
                    return std::string();
                }
            } catch (const std::exception&) {
                // reported below
            }
            return "'" + value + "' is not " + what;
        },
        what);
}

// Real flags must be finite numbers in range. CLI11's PositiveNumber and Range let NaN through
// (every comparison with NaN is false) and take inf: a NaN epsilon made NaN outputs that compared
// equal to NaN references.
CLI::Validator finiteNumber(double minimum, bool minimumAllowed, double maximum, const std::string& what) {
    return CLI::Validator(
        [=](const std::string& value) {
            size_t used = 0;
            try {
                const double number = std::stod(value, &used);
                if (used == value.size() && std::isfinite(number) &&
                    (minimumAllowed ? number >= minimum : number > minimum) && number <= maximum) {
                    return std::string();
                }
            } catch (const std::exception&) {
                // reported below
            }
            return "'" + value + "' is not " + what;
        },
        what);
}

const char* typeNameOf(const ValueRule& rule) {
    switch (rule.kind) {
        case ValueRule::Kind::Integer:
            return "INT";
        case ValueRule::Kind::Real:
            return "FLOAT";
        case ValueRule::Kind::Text:
        case ValueRule::Kind::Choice:
            break;
    }
    return "TEXT";
}

}  // namespace

namespace rules {

ValueRule text() {
    return ValueRule{};
}

ValueRule positiveInteger() {
    ValueRule rule;
    rule.kind = ValueRule::Kind::Integer;
    rule.what = "a positive integer";
    rule.minimum = 1;
    return rule;
}

ValueRule nonNegativeInteger() {
    ValueRule rule = positiveInteger();
    rule.what = "a non-negative integer";
    rule.minimum = 0;
    return rule;
}

ValueRule positiveFinite() {
    ValueRule rule;
    rule.kind = ValueRule::Kind::Real;
    rule.what = "a positive finite number";
    rule.low = 0.0;
    rule.high = std::numeric_limits<double>::max();
    return rule;
}

ValueRule unitInterval() {
    ValueRule rule;
    rule.kind = ValueRule::Kind::Real;
    rule.what = "a number in [0, 1]";
    rule.low = 0.0;
    rule.lowIncluded = true;
    rule.high = 1.0;
    return rule;
}

ValueRule oneOf(std::vector<std::string> names, bool ignoreCase) {
    ValueRule rule;
    rule.kind = ValueRule::Kind::Choice;
    rule.names = std::move(names);
    rule.ignoreCase = ignoreCase;
    return rule;
}

}  // namespace rules

CLI::Validator validatorOf(const ValueRule& rule) {
    switch (rule.kind) {
        case ValueRule::Kind::Integer:
            return integerAtLeast(rule.minimum, rule.what);
        case ValueRule::Kind::Real:
            return finiteNumber(rule.low, rule.lowIncluded, rule.high, rule.what);
        case ValueRule::Kind::Choice:
            return rule.ignoreCase ? CLI::IsMember(rule.names, CLI::ignore_case) : CLI::IsMember(rule.names);
        case ValueRule::Kind::Text:
            break;
    }
    return CLI::Validator();
}

int64_t integerValue(const std::string& word) {
    int64_t value = 0;
    if (!CLI::detail::lexical_cast(word, value)) {
        throw UsageError("'" + word + "' is not an integer");
    }
    return value;
}

double realValue(const std::string& word) {
    double value = 0.0;
    if (!CLI::detail::lexical_cast(word, value)) {
        throw UsageError("'" + word + "' is not a number");
    }
    return value;
}

std::string realWord(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

std::string joinList(const std::vector<int64_t>& values) {
    std::string text;
    for (size_t i = 0; i < values.size(); ++i) {
        text += (i == 0 ? "" : ",") + std::to_string(values[i]);
    }
    return text;
}

bool sameName(const std::string& a, const std::string& b, bool ignoreCase) {
    if (!ignoreCase) {
        return a == b;
    }
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](unsigned char x, unsigned char y) { return std::tolower(x) == std::tolower(y); });
}

namespace detail {

CLI::App* addBoundSubcommand(CLI::App& parent, const std::string& name, const std::string& description,
                             const std::vector<BoundFlag>& flags) {
    CLI::App* app = parent.add_subcommand(name, description);
    app->fallthrough();
    for (const auto& flag : flags) {
        CLI::Option* option = nullptr;
        if (flag.isSwitch) {
            app->add_flag_function(
                flag.name, [store = flag.store](std::int64_t) { store({kSwitchOn}); }, flag.help);
            continue;
        }
        if (flag.list) {
            option = app->add_option_function<std::vector<std::string>>(
                flag.name, [store = flag.store](const std::vector<std::string>& words) { store(words); },
                flag.help);
            option->delimiter(',');
        } else {
            option = app->add_option_function<std::string>(
                flag.name, [store = flag.store](const std::string& word) { store({word}); }, flag.help);
        }
        option->type_name(typeNameOf(flag.rule));
        if (flag.rule.kind != ValueRule::Kind::Text) {
            option->check(validatorOf(flag.rule));
        }
        if (flag.defaultText) {
            option->default_str(*flag.defaultText);
        }
        if (flag.required) {
            option->required();
        }
    }
    return app;
}

}  // namespace detail
}  // namespace hipdnn_driver
