#pragma once
// Private helper of the JSON loaders of domains and scenarios (domain_json.cpp, scenario_json.cpp): the
// checks and readers of values they share, with their messages. Type checks, unknown keys, 32-bit
// integers, values of integer and enumerated variables (an unknown enumeration value gets a "did you
// mean" suggestion), comparisons and numeric effects `"var": [op, value]`, and retry policies.
//
// `JsonValueReader<Loader>` is a base of the loader (CRTP). Errors go to the loader's
// `[[noreturn]] void fail(const JsonPath&, const std::string&) const`, which throws a LoadError pointing at
// the field in the text; a loader that keeps it private befriends `JsonValueReader<Loader>`.

#include <gameplan/goap/domain.hpp>
#include <gameplan/io/domain_csv.hpp>
#include <gameplan/goap/world_state.hpp>

#include "json_document.hpp"
#include "json_locator.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gameplan::io::detail {

/// A declared integer or enumerated variable as the loaders keep it.
struct VariableSpec {
    goap::VarId id;
    bool is_enum = false;
    std::int32_t min = 0, max = 0;
    std::vector<std::string> values;  // an enumeration's value names
};

template <class Loader>
class JsonValueReader {
protected:
    /// The type of a JSON value in a message: "null", "an object", "an array", "a string", "a boolean",
    /// "a number" (the parser makes no other kinds).
    static const char* type_name(const OrderedJson& j) noexcept {
        switch (j.type()) {
            case OrderedJson::value_t::null: return "null";
            case OrderedJson::value_t::object: return "an object";
            case OrderedJson::value_t::array: return "an array";
            case OrderedJson::value_t::string: return "a string";
            case OrderedJson::value_t::boolean: return "a boolean";
            default: return j.is_number() ? "a number" : "an unsupported value";
        }
    }

    /// "must be <what> (found <type>)" unless `j` has type `type`.
    void expect_type(const OrderedJson& j, OrderedJson::value_t type, const JsonPath& path, std::string_view what) const {
        if (j.type() != type) raise(path, "must be " + std::string(what) + " (found " + type_name(j) + ")");
    }

    /// "unknown field (expected one of: ...)" at the first key of `object` not in `known` (nor starting with '_').
    void check_keys(const OrderedJson& object, const JsonPath& path, std::initializer_list<std::string_view> known) const {
        if (const std::optional<std::string> key = first_unknown_key(object, known))
            raise(path / *key, unknown_field_message(known));
    }

    /// An integer that fits in 32 bits; the messages say it "must be <what>".
    std::int32_t int32_at(const OrderedJson& j, const JsonPath& path, const char* what) const {
        if (!j.is_number()) raise(path, std::string("must be ") + what + " (found " + type_name(j) + ")");
        if (!j.is_number_integer()) raise(path, std::string("must be ") + what + " (found a non-integer number)");
        if (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(INT32_MAX))
            raise(path, std::string("must be ") + what + " (out of the 32-bit range)");
        const std::int64_t v = j.get<std::int64_t>();
        if (v < INT32_MIN || v > INT32_MAX) raise(path, std::string("must be ") + what + " (out of the 32-bit range)");
        return static_cast<std::int32_t>(v);
    }

    /// A value of the integer variable `name`: an integer within [min, max].
    std::int32_t integer_value(const OrderedJson& j, const JsonPath& path, const std::string& name, std::int32_t min,
                               std::int32_t max) const {
        if (j.is_string()) raise(path, "'" + printable(name) + "' is an integer variable (found a string)");
        const std::int32_t x = int32_at(j, path, "an integer");
        if (x < min || x > max)
            raise(path, "value " + std::to_string(x) + " is outside the bounds [" + std::to_string(min) + ", " +
                            std::to_string(max) + "] of '" + printable(name) + "'");
        return x;
    }

    /// A value of the enumerated variable `name`: the index of one of its `values` (names, each once),
    /// given by name. With `list_when_not_a_string` the message for a value that is not a string lists them.
    template <class Values>
    std::int32_t enum_value(const OrderedJson& j, const JsonPath& path, const std::string& name, const Values& values,
                            bool list_when_not_a_string) const {
        const auto list = [&] {  // "a, b, c", for messages
            std::string out;
            for (const std::string& x : values) out += (out.empty() ? "" : ", ") + x;
            return printable(out);
        };
        if (!j.is_string())
            raise(path, "must be one of the values of '" + printable(name) + "' (" +
                            (list_when_not_a_string ? list() + "; " : std::string()) + "found " + type_name(j) + ")");
        const std::string& s = j.get_ref<const std::string&>();
        const auto it = std::find(std::begin(values), std::end(values), s);
        if (it == std::end(values)) {
            const std::string guess = closest_name(s, std::vector<std::string>(std::begin(values), std::end(values)));
            raise(path, "'" + printable(s) + "' is not a value of '" + printable(name) + "'" +
                            (guess.empty() ? std::string() : " (did you mean '" + printable(guess) + "'?)") +
                            " (values: " + list() + ")");
        }
        return static_cast<std::int32_t>(it - std::begin(values));
    }

    /// A value of the declared variable `v` named `name`: an integer within its bounds, or one of its
    /// enumeration's names.
    std::int32_t var_value(const VariableSpec& v, const std::string& name, const OrderedJson& j, const JsonPath& path) const {
        if (v.is_enum) return enum_value(j, path, name, v.values, false);
        return integer_value(j, path, name, v.min, v.max);
    }

    /// `"var": [op, value]` in a condition (a bare value means ==) for the declared variable `v`.
    goap::Comparison comparison(const VariableSpec& v, const std::string& name, const OrderedJson& j, const JsonPath& path) const {
        return comparison_of(v.id, name, v.is_enum, j, path, "; '=', '+' and '-' are effects",
                             [&](const OrderedJson& value, const JsonPath& at) { return var_value(v, name, value, at); });
    }

    /// `"var": [op, value]` in effects (a bare value means =) for the declared variable `v`: op one of
    /// =, + and - (only = for an enumerated variable), the amount of + and - an integer >= 0.
    goap::NumericEffect numeric_effect(const VariableSpec& v, const std::string& name, const OrderedJson& j,
                                       const JsonPath& path) const {
        if (j.is_boolean()) raise(path, "'" + printable(name) + "' is a variable: expected [\"op\", value] (found a boolean)");
        if (!j.is_array()) return goap::NumericEffect{v.id, goap::EffectOp::Set, var_value(v, name, j, path)};
        if (j.size() != 2 || !j[0].is_string()) raise(path, "must be [\"op\", value] with op one of =, +, -");
        const std::string& op = j[0].template get_ref<const std::string&>();
        goap::EffectOp e = goap::EffectOp::Set;
        if (op == "=") e = goap::EffectOp::Set;
        else if (op == "+") e = goap::EffectOp::Add;
        else if (op == "-") e = goap::EffectOp::Sub;
        else
            raise(path / 0, "unknown effect '" + printable(op) + "' (expected =, +, -" +
                                (op.find_first_of("<>!") != std::string::npos || op == "==" ? "; comparisons belong in conditions" : "") + ")");
        if (e == goap::EffectOp::Set) return goap::NumericEffect{v.id, e, var_value(v, name, j[1], path / 1)};
        if (v.is_enum) raise(path / 0, "'" + printable(name) + "' is an enumerated variable: only = sets it");
        const std::int32_t amount = int32_at(j[1], path / 1, "an integer amount");
        if (amount < 0)
            raise(path / 1, "must be an integer amount >= 0 (use '" + std::string(op == "+" ? "-" : "+") + "' to go the other way)");
        return goap::NumericEffect{v.id, e, amount};
    }

    /// `"var": [op, value]` (a bare value means ==) for the variable `var` named `name`. `read_value(j,
    /// path)` reads a value of the variable; `effect_hint` ends the message of an unknown operator that
    /// is an effect's ('=', '+', '-').
    template <class ReadValue>
    goap::Comparison comparison_of(goap::VarId var, const std::string& name, bool is_enum, const OrderedJson& j,
                                   const JsonPath& path, const char* effect_hint, ReadValue read_value) const {
        if (j.is_boolean()) raise(path, "'" + printable(name) + "' is a variable: expected [\"op\", value] (found a boolean)");
        if (!j.is_array()) return goap::Comparison{var, goap::CompareOp::Eq, read_value(j, path)};
        if (j.size() != 2 || !j[0].is_string()) raise(path, "must be [\"op\", value] with op one of ==, !=, <, <=, >, >=");
        static const std::pair<std::string_view, goap::CompareOp> ops[] = {
            {"==", goap::CompareOp::Eq}, {"!=", goap::CompareOp::Ne}, {"<", goap::CompareOp::Lt},
            {"<=", goap::CompareOp::Le}, {">", goap::CompareOp::Gt},  {">=", goap::CompareOp::Ge}};
        const std::string& op = j[0].get_ref<const std::string&>();
        const auto* it = std::find_if(std::begin(ops), std::end(ops), [&](const auto& o) { return o.first == op; });
        if (it == std::end(ops))
            raise(path / 0, "unknown comparison '" + printable(op) + "' (expected ==, !=, <, <=, >, >=" +
                                (op == "=" || op == "+" || op == "-" ? effect_hint : "") + ")");
        if (is_enum && it->second != goap::CompareOp::Eq && it->second != goap::CompareOp::Ne)
            raise(path / 0, "'" + printable(name) + "' is an enumerated variable: only == and != compare it");
        return goap::Comparison{var, it->second, read_value(j[1], path / 1)};
    }

    /// `{"after_failures": int, "cooldown_ticks": int}` (each >= 0; a missing one keeps kDefaultRetry's).
    goap::RetryPolicy retry_policy(const OrderedJson& j, const JsonPath& path) const {
        expect_type(j, OrderedJson::value_t::object, path, "an object {\"after_failures\": int, \"cooldown_ticks\": int}");
        check_keys(j, path, {"after_failures", "cooldown_ticks"});
        goap::RetryPolicy r = goap::kDefaultRetry;
        for (const char* key : {"after_failures", "cooldown_ticks"}) {
            if (!j.contains(key)) continue;
            const std::int32_t v = int32_at(j[key], path / key, "an integer >= 0");
            if (v < 0) raise(path / key, "must be an integer >= 0");
            (std::string_view(key) == "after_failures" ? r.after_failures : r.cooldown_ticks) = static_cast<std::uint32_t>(v);
        }
        return r;
    }

    /// The body of a variable declaration (`{"min", "max"}` or `{"values": [names]}`; the caller has
    /// checked its keys and read "shared"), added to `builder` as `name`.
    VariableSpec variable_spec(const OrderedJson& spec, const JsonPath& vp, const std::string& name, bool shared,
                               goap::DomainBuilder& builder) const {
        VariableSpec info;
        if (spec.contains("values")) {
            if (spec.contains("min") || spec.contains("max"))
                raise(vp / (spec.contains("min") ? "min" : "max"), "an enumerated variable has \"values\", not bounds");
            const OrderedJson& values = spec["values"];
            expect_type(values, OrderedJson::value_t::array, vp / "values", "a non-empty array of value names");
            if (values.empty()) raise(vp / "values", "must not be empty");
            for (std::size_t i = 0; i < values.size(); ++i) {
                if (!values[i].is_string() || values[i].template get_ref<const std::string&>().empty())
                    raise(vp / "values" / i, "must be a non-empty string");
                const std::string& v = values[i].template get_ref<const std::string&>();
                if (std::find(info.values.begin(), info.values.end(), v) != info.values.end())
                    raise(vp / "values" / i, "duplicate value '" + printable(v) + "'");
                info.values.push_back(v);
            }
            info.is_enum = true;
            info.max = static_cast<std::int32_t>(info.values.size() - 1);
            info.id = builder.add_enum_variable(name, info.values, shared);
        } else {
            if (!spec.contains("max")) raise(vp / "max", "missing required field (an integer; \"min\" defaults to 0)");
            info.max = int32_at(spec["max"], vp / "max", "an integer");
            if (spec.contains("min")) info.min = int32_at(spec["min"], vp / "min", "an integer");
            if (info.max < info.min)
                raise(vp / "max", "max (" + std::to_string(info.max) + ") is less than min (" + std::to_string(info.min) + ")");
            info.id = builder.add_integer_variable(name, info.min, info.max, shared);
        }
        if (!info.id.valid()) raise(vp, "invalid variable");
        return info;
    }

private:
    [[noreturn]] void raise(const JsonPath& path, const std::string& message) const {
        static_cast<const Loader&>(*this).fail(path, message);
    }
};

}  // namespace gameplan::io::detail
