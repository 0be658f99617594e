// One table of flags per subcommand, from which both its CLI11 options (Options.cpp wires them)
// and its printed command line (the reproducer) are generated: a flag's name, the syntax of its
// value and its default are written once. Each <problem>/<Problem>Flags.cpp holds one table;
// CLI11 itself is used only in FlagTable.cpp and Options.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "SpecTypes.hpp"

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace hipdnn_driver {

// A command line the driver cannot run; the message names the flag (and, from batch files, the
// line).
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What a flag's value must be. CLI11 checks each value before it is stored; the message names the
// flag and the value ("-c: 'abc' is not a positive integer").
struct ValueRule {
    enum class Kind { Text, Integer, Real, Choice };
    Kind kind = Kind::Text;
    std::string what;              // Integer, Real: "a positive integer", in messages and help
    int64_t minimum = 0;           // Integer
    double low = 0.0, high = 0.0;  // Real: finite, in (low, high], or [low, high] with lowIncluded
    bool lowIncluded = false;
    std::vector<std::string> names;  // Choice
    bool ignoreCase = false;         // Choice
};

namespace rules {
ValueRule text();
ValueRule positiveInteger();
ValueRule nonNegativeInteger();
ValueRule positiveFinite();  // a finite real > 0
ValueRule unitInterval();    // a finite real in [0, 1]
ValueRule oneOf(std::vector<std::string> names, bool ignoreCase = false);
template <typename Enum>
ValueRule oneOf(const NameTable<Enum>& names, bool ignoreCase = false) {
    std::vector<std::string> keys;
    for (const auto& entry : names) {
        keys.push_back(entry.first);
    }
    return oneOf(std::move(keys), ignoreCase);
}
}  // namespace rules

// The CLI11 validator of a rule (Options.cpp checks the global options with these too).
CLI::Validator validatorOf(const ValueRule& rule);

// Values of words their rule accepted, converted as CLI11 converts into integers and reals.
int64_t integerValue(const std::string& word);
double realValue(const std::string& word);
std::string realWord(double value);                        // as an ostream writes it: "1e-05", "0.1"
std::string joinList(const std::vector<int64_t>& values);  // "8,64,56,56"
bool sameName(const std::string& a, const std::string& b, bool ignoreCase);

// The value `word` names (a word the flag's rule accepted).
template <typename Enum>
Enum valueNamed(const NameTable<Enum>& names, const std::string& word, bool ignoreCase) {
    for (const auto& [name, value] : names) {
        if (sameName(name, word, ignoreCase)) {
            return value;
        }
    }
    throw UsageError("'" + word + "' is not one of the flag's names");
}

// What a switch's format gives when it is set (and what its parse receives).
inline const std::string kSwitchOn = "on";

// One flag of a subcommand: how its words are read into a spec and how the spec prints it.
template <typename Spec>
struct Flag {
    std::string name;  // "-n", "--dims"; without a leading '-', a positional argument ("file")
    std::string help;
    ValueRule rule;
    bool list = false;      // comma-separated values ("--dims 8,64,56,56")
    bool isSwitch = false;  // takes no value ("--causal"); printed alone when set
    bool mustBeGiven = false;
    bool showDefault = true;   // --help shows the default spec's value
    bool printAlways = false;  // else printed only where it differs from the default spec's
    std::function<void(Spec&, const std::vector<std::string>&)> parse;  // checked words -> spec
    std::function<std::string(const Spec&)> format;                     // spec -> the printed value
    std::function<bool(const Spec&)> printedWhen;                       // empty: whenever it differs

    bool positional() const { return name.empty() || name.front() != '-'; }

    // Printed every time (shapes, so that a reproducer does not depend on today's defaults).
    Flag always() && {
        printAlways = true;
        return std::move(*this);
    }
    // Printed only for specs where it means something (the 3-D flags of a 2-D conv are not).
    Flag when(std::function<bool(const Spec&)> condition) && {
        printedWhen = std::move(condition);
        return std::move(*this);
    }
    Flag required() && {
        mustBeGiven = true;
        showDefault = false;
        return std::move(*this);
    }
    Flag noDefaultShown() && {
        showDefault = false;
        return std::move(*this);
    }
    Flag formattedBy(std::function<std::string(const Spec&)> formatter) && {
        format = std::move(formatter);
        return std::move(*this);
    }
};

// A subcommand: its name, its flags in the order they are printed (and listed by --help), and
// the checks that involve several flags.
template <typename Spec>
struct Subcommand {
    std::string name;
    std::string description;
    std::vector<Flag<Spec>> flags;
    std::function<void(const Spec&)> check;  // after parsing; throws UsageError naming a flag

    // {"conv", "-n", "4", ...}: the words that parse back into `spec`.
    std::vector<std::string> words(const Spec& spec) const {
        const Spec defaults{};
        std::vector<std::string> words{name};
        for (const auto& flag : flags) {
            if (flag.printedWhen && !flag.printedWhen(spec)) {
                continue;
            }
            std::string value = flag.format(spec);
            if (!flag.printAlways && value == flag.format(defaults)) {
                continue;
            }
            if (flag.isSwitch) {
                if (value == kSwitchOn) {
                    words.push_back(flag.name);
                }
                continue;
            }
            if (!flag.positional()) {
                words.push_back(flag.name);
            }
            words.push_back(std::move(value));
        }
        return words;
    }
};

// The subcommand of each spec, defined in its folder's *Flags.cpp.
template <typename Spec>
const Subcommand<Spec>& subcommandOf();

namespace detail {
// A flag bound to the spec its values are stored in.
struct BoundFlag {
    std::string name;
    std::string help;
    ValueRule rule;
    bool list = false;
    bool isSwitch = false;
    bool required = false;
    std::optional<std::string> defaultText;
    std::function<void(const std::vector<std::string>&)> store;
};
CLI::App* addBoundSubcommand(CLI::App& parent, const std::string& name, const std::string& description,
                             const std::vector<BoundFlag>& flags);
}  // namespace detail

// Registers `subcommand` on `parent`: its flags store into `target`, which must outlive parsing.
template <typename Spec>
CLI::App* addSubcommand(CLI::App& parent, const Subcommand<Spec>& subcommand, Spec& target) {
    const Spec defaults{};
    std::vector<detail::BoundFlag> bound;
    for (const auto& flag : subcommand.flags) {
        std::optional<std::string> defaultText;
        if (flag.showDefault) {
            defaultText = flag.list ? "[" + flag.format(defaults) + "]" : flag.format(defaults);
        }
        bound.push_back(
            {flag.name, flag.help, flag.rule, flag.list, flag.isSwitch, flag.mustBeGiven,
             std::move(defaultText),
             [&target, parse = flag.parse](const std::vector<std::string>& words) { parse(target, words); }});
    }
    return detail::addBoundSubcommand(parent, subcommand.name, subcommand.description, bound);
}

// Builders of the kinds of flag the tables use.
namespace flags {

template <typename Spec>
Flag<Spec> integer(std::string name, int64_t Spec::*field, ValueRule rule, std::string help) {
    Flag<Spec> flag;
    flag.name = std::move(name);
    flag.help = std::move(help);
    flag.rule = std::move(rule);
    flag.parse = [field](Spec& spec, const std::vector<std::string>& words) {
        spec.*field = integerValue(words.at(0));
    };
    flag.format = [field](const Spec& spec) { return std::to_string(spec.*field); };
    return flag;
}

template <typename Spec>
Flag<Spec> positive(std::string name, int64_t Spec::*field, std::string help) {
    return integer(std::move(name), field, rules::positiveInteger(), std::move(help));
}

template <typename Spec>
Flag<Spec> nonNegative(std::string name, int64_t Spec::*field, std::string help) {
    return integer(std::move(name), field, rules::nonNegativeInteger(), std::move(help));
}

template <typename Spec>
Flag<Spec> real(std::string name, double Spec::*field, ValueRule rule, std::string help) {
    Flag<Spec> flag;
    flag.name = std::move(name);
    flag.help = std::move(help);
    flag.rule = std::move(rule);
    flag.parse = [field](Spec& spec, const std::vector<std::string>& words) {
        spec.*field = realValue(words.at(0));
    };
    flag.format = [field](const Spec& spec) { return realWord(spec.*field); };
    return flag;
}

// An enum by its names; a value without a name prints as the default's.
template <typename Spec, typename Enum>
Flag<Spec> choice(std::string name, Enum Spec::*field, NameTable<Enum> names, std::string help,
                  bool ignoreCase = false) {
    Flag<Spec> flag;
    flag.name = std::move(name);
    flag.help = std::move(help);
    flag.rule = rules::oneOf(names, ignoreCase);
    flag.parse = [field, names, ignoreCase](Spec& spec, const std::vector<std::string>& words) {
        spec.*field = valueNamed(names, words.at(0), ignoreCase);
    };
    flag.format = [field, names](const Spec& spec) {
        const std::string* named = findName(names, spec.*field);
        if (named == nullptr) {
            named = findName(names, Spec{}.*field);
        }
        return named != nullptr ? *named : std::string();
    };
    return flag;
}

// An enum that may be left unset (then the flag is not printed), by its names.
template <typename Spec, typename Enum>
Flag<Spec> optionalChoice(std::string name, std::optional<Enum> Spec::*field, NameTable<Enum> names,
                          std::string help, bool ignoreCase = false) {
    Flag<Spec> flag;
    flag.name = std::move(name);
    flag.help = std::move(help);
    flag.rule = rules::oneOf(names, ignoreCase);
    flag.showDefault = false;
    flag.printAlways = true;
    flag.parse = [field, names, ignoreCase](Spec& spec, const std::vector<std::string>& words) {
        spec.*field = valueNamed(names, words.at(0), ignoreCase);
    };
    flag.format = [field, names](const Spec& spec) {
        const std::string* named = (spec.*field) ? findName(names, *(spec.*field)) : nullptr;
        return named != nullptr ? *named : names.front().first;
    };
    flag.printedWhen = [field](const Spec& spec) { return (spec.*field).has_value(); };
    return flag;
}

// A switch: set by its name alone, printed only when set.
template <typename Spec>
Flag<Spec> toggle(std::string name, bool Spec::*field, std::string help) {
    Flag<Spec> flag;
    flag.name = std::move(name);
    flag.help = std::move(help);
    flag.rule = rules::text();
    flag.isSwitch = true;
    flag.showDefault = false;
    flag.parse = [field](Spec& spec, const std::vector<std::string>& words) {
        spec.*field = words.at(0) == kSwitchOn;
    };
    flag.format = [field](const Spec& spec) { return spec.*field ? kSwitchOn : std::string("off"); };
    return flag;
}

template <typename Spec>
Flag<Spec> dims(std::string name, std::vector<int64_t> Spec::*field, std::string help) {
    Flag<Spec> flag;
    flag.name = std::move(name);
    flag.help = std::move(help);
    flag.rule = rules::positiveInteger();
    flag.list = true;
    flag.parse = [field](Spec& spec, const std::vector<std::string>& words) {
        auto& values = spec.*field;
        values.clear();
        for (const auto& word : words) {
            values.push_back(integerValue(word));
        }
    };
    flag.format = [field](const Spec& spec) { return joinList(spec.*field); };
    return flag;
}

template <typename Spec>
Flag<Spec> dataType(DataType Spec::*field) {
    return choice("--dtype", field, dataTypeNames(), "fp32 | fp16 | bf16");
}

template <typename Spec>
Flag<Spec> layout(Layout Spec::*field) {
    return choice("--layout", field, layoutNames(), "NCHW | NHWC (NCDHW / NDHWC in 3-D)", true);
}

template <typename Spec>
Flag<Spec> fuse(std::vector<EpilogueOp> Spec::*field, std::string help) {
    Flag<Spec> flag;
    flag.name = "--fuse";
    flag.help = std::move(help);
    flag.rule = rules::oneOf(epilogueNames());
    flag.list = true;
    flag.showDefault = false;
    flag.parse = [field](Spec& spec, const std::vector<std::string>& words) {
        auto& ops = spec.*field;
        ops.clear();
        for (const auto& word : words) {
            for (const auto& [name, op] : epilogueNames()) {
                if (name == word) {
                    ops.push_back(op);
                }
            }
        }
    };
    flag.format = [field](const Spec& spec) { return epilogueList(spec.*field); };
    return flag;
}

// Anything else: the table's file says how its words are read and printed.
template <typename Spec>
Flag<Spec> custom(std::string name, ValueRule rule, std::string help,
                  std::function<void(Spec&, const std::vector<std::string>&)> parse,
                  std::function<std::string(const Spec&)> format) {
    Flag<Spec> flag;
    flag.name = std::move(name);
    flag.help = std::move(help);
    flag.rule = std::move(rule);
    flag.parse = std::move(parse);
    flag.format = std::move(format);
    return flag;
}

}  // namespace flags
}  // namespace hipdnn_driver
