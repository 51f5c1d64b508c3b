#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/load_error.hpp>

#include "domain_tables.hpp"
#include "json_document.hpp"
#include "json_locator.hpp"
#include "json_values.hpp"
#include "number_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <unordered_map>

namespace gameplan::io {

namespace {

using Json = nlohmann::ordered_json;

// ---- JSON paths, printable text, positions: the loaders' shared helpers (json_locator.hpp) ----------

using Path = detail::JsonPath;
using PathElem = detail::JsonPathElem;
using detail::operator/;
using detail::number_text;
using detail::position_of;
using detail::printable;

std::string format_path(const Path& path) { return detail::format_json_path(path); }

// ---- the schema -------------------------------------------------------------------------------------

class Loader : public detail::JsonValueReader<Loader> {
public:
    Loader(std::string_view text, std::string_view file, const JsonLimits& limits)
        : m_text(text), m_file(file), m_limits(limits) {}

    DomainFile load() {
        if (m_text.size() > m_limits.max_bytes)
            throw LoadError(m_file, 0, 0, "", "larger than the limit of " + format_bytes(m_limits.max_bytes) + " (" +
                                                 std::to_string(m_limits.max_bytes) + " bytes) for a domain");
        if (m_text.find_first_not_of(" \t\r\n") == std::string_view::npos ||
            m_text == "\xEF\xBB\xBF")
            throw LoadError(m_file, 1, 1, "", "file is empty (expected a JSON object)");
        const std::size_t max_depth = std::clamp<std::size_t>(m_limits.max_depth, 1, kMaxJsonDepthCap);
        const Json root = detail::parse_checked_json(m_text, m_file, max_depth);
        return read(root);
    }

private:
    friend class detail::JsonValueReader<Loader>;  // its checks report through fail()

    [[noreturn]] void fail_at(std::size_t offset, const Path& path, const std::string& message) const {
        const detail::TextPosition p = position_of(m_text, offset);
        throw LoadError(m_file, p.line, p.column, format_path(path), message);
    }

    // Error at a field of a valid document: locate the deepest existing prefix of `path`.
    [[noreturn]] void fail(const Path& path, const std::string& message) const {
        fail_at(detail::field_error_offset(m_text, path), path, message);
    }

    goap::AtomId atom(const std::string& name, const Path& path) {
        if (name.empty()) fail(path, "atom name must not be empty");
        if (m_declared) {
            const goap::AtomId id = m_builder.find_atom(name);
            if (!id.valid()) fail(path, "unknown atom '" + printable(name) + "' (not listed in \"atoms\")");
            return id;
        }
        return m_builder.add_atom(name);
    }

    // An object atom -> bool, as literals.
    std::vector<goap::Literal> literals(const Json& j, const Path& path) {
        expect_type(j, Json::value_t::object, path, "an object mapping atom names to true/false");
        std::vector<goap::Literal> out;
        for (const auto& [key, value] : j.items()) {
            const goap::AtomId id = atom(key, path / key);
            if (!value.is_boolean()) fail(path / key, std::string("must be true or false (found ") + type_name(value) + ")");
            out.push_back(goap::Literal{id, value.get<bool>()});
        }
        return out;
    }

    goap::Condition condition(const std::vector<goap::Literal>& lits, const std::vector<goap::Comparison>& cmps,
                              std::size_t atoms) const {
        goap::Condition c(atoms);
        for (const goap::Literal& l : lits) c.set(l.atom, l.value);
        for (const goap::Comparison& x : cmps) c.require(x);
        return c;
    }

    // "start": atoms -> bool, variables -> a value (not a comparison).
    void condition_parts_start(const Json& j, const Path& path, std::vector<goap::Literal>& lits,
                               std::vector<goap::Comparison>& values) {
        expect_type(j, Json::value_t::object, path, "an object mapping atom names to true/false and variables to values");
        for (const auto& [key, value] : j.items()) {
            if (const VarInfo* v = variable(key)) {
                if (value.is_array()) fail(path / key, "a start value is a plain value, not [\"op\", value]");
                if (value.is_boolean()) fail(path / key, "'" + printable(key) + "' is a variable: expected a value (found a boolean)");
                values.push_back(goap::Comparison{v->id, goap::CompareOp::Eq, var_value(*v, key, value, path / key)});
                continue;
            }
            if (!value.is_boolean() && !m_vars.empty() && (value.is_array() || value.is_number() || value.is_string()))
                fail(path / key, "unknown variable '" + printable(key) + "' (not declared in \"variables\")");
            const goap::AtomId id = atom(key, path / key);
            if (!value.is_boolean()) fail(path / key, std::string("must be true or false (found ") + type_name(value) + ")");
            lits.push_back(goap::Literal{id, value.get<bool>()});
        }
    }

    // ---- numeric and enumerated variables ("variables", comparisons, numeric effects, goal extras) ----
    // Kept apart from the boolean reading above: a key of a condition or effect object is an atom when
    // its value is true/false, and a variable reference otherwise.

    using VarInfo = detail::VariableSpec;

    void read_variables(const Json& vars, const Path& p) {
        expect_type(vars, Json::value_t::object, p,
                    "an object mapping variable names to {\"min\": int, \"max\": int} or {\"values\": [names]}");
        for (const auto& [name, spec] : vars.items()) {
            const Path vp = p / name;
            if (name.empty()) fail(vp, "variable name must not be empty");
            if (m_builder.find_atom(name).valid()) fail(vp, "'" + printable(name) + "' is already an atom");
            expect_type(spec, Json::value_t::object, vp, "an object {\"min\": int, \"max\": int} or {\"values\": [names]}");
            check_keys(spec, vp, {"min", "max", "values", "shared"});
            bool shared = false;
            if (spec.contains("shared")) {
                if (!spec["shared"].is_boolean()) fail(vp / "shared", "must be true or false");
                shared = spec["shared"].get<bool>();
            }
            VarInfo info = variable_spec(spec, vp, name, shared, m_builder);
            m_vars.emplace(name, std::move(info));
        }
    }

    const VarInfo* variable(const std::string& name) const {
        const auto it = m_vars.find(name);
        return it == m_vars.end() ? nullptr : &it->second;
    }

    // A condition object (atoms -> bool, variables -> comparisons) or an effects object (atoms -> bool,
    // variables -> numeric effects): one reader, the variable part read by `read_var`.
    template <class Numeric, class ReadVar>
    void bool_and_numeric_parts(const Json& j, const Path& path, std::vector<goap::Literal>& lits,
                                std::vector<Numeric>& nums, ReadVar read_var) {
        expect_type(j, Json::value_t::object, path, "an object mapping atom names to true/false and variables to [\"op\", value]");
        for (const auto& [key, value] : j.items()) {
            if (const VarInfo* v = variable(key)) {
                nums.push_back(read_var(*v, key, value, path / key));
                continue;
            }
            if (!value.is_boolean() && !m_vars.empty() && (value.is_array() || value.is_number() || value.is_string()))
                fail(path / key, "unknown variable '" + printable(key) + "' (not declared in \"variables\")");
            const goap::AtomId id = atom(key, path / key);
            if (!value.is_boolean()) fail(path / key, std::string("must be true or false (found ") + type_name(value) + ")");
            lits.push_back(goap::Literal{id, value.template get<bool>()});
        }
    }
    void condition_parts(const Json& j, const Path& path, std::vector<goap::Literal>& lits, std::vector<goap::Comparison>& cmps) {
        bool_and_numeric_parts(j, path, lits, cmps, [this](const VarInfo& v, const std::string& key, const Json& value,
                                                           const Path& at) { return comparison(v, key, value, at); });
    }
    void effect_parts(const Json& j, const Path& path, std::vector<goap::Literal>& lits, std::vector<goap::NumericEffect>& effs) {
        bool_and_numeric_parts(j, path, lits, effs, [this](const VarInfo& v, const std::string& key, const Json& value,
                                                           const Path& at) { return numeric_effect(v, key, value, at); });
    }

    struct Priority {
        double value = 0;
        std::string variable;
        double scale = 1, offset = 0;
    };
    Priority priority(const Json& pr, const Path& path) const {
        Priority out;
        if (pr.is_number()) {
            if (!std::isfinite(pr.get<double>())) fail(path, "must be a finite number");
            out.value = pr.get<double>();
            return out;
        }
        if (!pr.is_object()) fail(path, "must be a finite number or {\"variable\": name, \"scale\": number, \"offset\": number}");
        check_keys(pr, path, {"variable", "scale", "offset"});
        if (!pr.contains("variable") || !pr["variable"].is_string())
            fail(path / "variable", "missing required field (the name of an integer variable)");
        out.variable = pr["variable"].get<std::string>();
        const VarInfo* v = variable(out.variable);
        if (!v) fail(path / "variable", "unknown variable '" + printable(out.variable) + "' (not declared in \"variables\")");
        if (v->is_enum) fail(path / "variable", "'" + printable(out.variable) + "' is an enumerated variable, not a number");
        for (const char* key : {"scale", "offset"}) {
            if (!pr.contains(key)) continue;
            if (!pr[key].is_number() || !std::isfinite(pr[key].get<double>())) fail(path / key, "must be a finite number");
            (std::string_view(key) == "scale" ? out.scale : out.offset) = pr[key].get<double>();
        }
        return out;
    }

    DomainFile read(const Json& root) {
        const Path top;
        expect_type(root, Json::value_t::object, top, "a JSON object");
        check_keys(root, top, {"atoms", "variables", "shared", "actions", "start", "goal", "goals"});

        if (root.contains("atoms")) {
            const Json& atoms = root["atoms"];
            const Path p = top / "atoms";
            expect_type(atoms, Json::value_t::array, p, "an array of atom names");
            for (std::size_t i = 0; i < atoms.size(); ++i) {
                if (!atoms[i].is_string()) fail(p / i, std::string("must be a string (found ") + type_name(atoms[i]) + ")");
                const std::string& name = atoms[i].get_ref<const std::string&>();
                if (name.empty()) fail(p / i, "atom name must not be empty");
                if (m_builder.find_atom(name).valid()) fail(p / i, "duplicate atom '" + printable(name) + "'");
                m_builder.add_atom(name);
            }
            m_declared = true;
        }
        if (root.contains("variables")) read_variables(root["variables"], top / "variables");
        if (root.contains("shared")) {
            const Json& shared = root["shared"];
            const Path p = top / "shared";
            expect_type(shared, Json::value_t::array, p, "an array of atom names");
            for (std::size_t i = 0; i < shared.size(); ++i) {
                if (!shared[i].is_string()) fail(p / i, std::string("must be a string (found ") + type_name(shared[i]) + ")");
                if (const VarInfo* v = variable(shared[i].get<std::string>())) {
                    m_builder.set_shared(v->id, true);
                    continue;
                }
                m_builder.set_shared(atom(shared[i].get<std::string>(), p / i), true);
            }
        }

        if (!root.contains("actions")) fail(top / "actions", "missing required field (an array of actions)");
        const Json& actions = root["actions"];
        const Path ap = top / "actions";
        expect_type(actions, Json::value_t::array, ap, "an array of actions");
        for (std::size_t i = 0; i < actions.size(); ++i) {
            const Json& a = actions[i];
            const Path p = ap / i;
            expect_type(a, Json::value_t::object, p, "an object with name, cost, preconditions, effects");
            check_keys(a, p, {"name", "cost", "preconditions", "effects", "retry"});
            if (!a.contains("name")) fail(p / "name", "missing required field (a non-empty string)");
            if (!a["name"].is_string() || a["name"].get_ref<const std::string&>().empty())
                fail(p / "name", std::string("must be a non-empty string (found ") +
                                     (a["name"].is_string() ? "an empty string" : type_name(a["name"])) + ")");
            const std::string& name = a["name"].get_ref<const std::string&>();
            if (!a.contains("cost")) fail(p / "cost", "missing required field (a finite number >= 0)");
            const Json& cost = a["cost"];
            if (!cost.is_number() || !std::isfinite(cost.get<double>()) || cost.get<double>() < 0)
                fail(p / "cost", "must be a finite number >= 0");
            const double max_cost = std::min(m_limits.max_action_cost, kMaxActionCost);
            const double max_total = std::min(m_limits.max_total_cost, kMaxTotalActionCost);
            if (!(cost.get<double>() <= max_cost))
                fail(p / "cost", "must be at most " + number_text(max_cost) +
                                     " (the largest action cost, so that plan costs cannot overflow)");
            m_total_cost += cost.get<double>();
            if (!(m_total_cost <= max_total))
                fail(p / "cost", "the action costs of the domain add up to more than " + number_text(max_total) +
                                     " (the limit per domain)");
            std::vector<goap::Literal> pre, eff;
            std::vector<goap::Comparison> cmps;
            std::vector<goap::NumericEffect> neff;
            if (a.contains("preconditions")) condition_parts(a["preconditions"], p / "preconditions", pre, cmps);
            if (a.contains("effects")) effect_parts(a["effects"], p / "effects", eff, neff);
            const goap::DomainError err = m_builder.add_action(name, cost.get<double>(), pre, eff, cmps, neff);
            if (err == goap::DomainError::DuplicateAction) {
                fail(p / "name", "duplicate action name '" + printable(name) + "' (also actions[" +
                                     std::to_string(m_action_index.at(name)) + "])");
            }
            if (err != goap::DomainError::None) fail(p, std::string(goap::to_string(err)));
            if (a.contains("retry")) (void)m_builder.set_retry(name, retry_policy(a["retry"], p / "retry"));
            m_action_index.emplace(name, i);
        }

        // Literals of start/goal/goals are collected first so that atoms they introduce exist before
        // the domain (and thus the atom count) is fixed.
        std::vector<goap::Literal> start, goal;
        std::vector<goap::Comparison> start_values, goal_cmps;  // start values as `==` comparisons
        if (root.contains("start")) condition_parts_start(root["start"], top / "start", start, start_values);
        const bool has_goal = root.contains("goal");
        if (has_goal) condition_parts(root["goal"], top / "goal", goal, goal_cmps);
        struct NamedGoal {
            std::string name;
            std::vector<goap::Literal> literals;
            double priority;
            std::vector<goap::Comparison> cmps;
            std::vector<goap::Literal> when;
            std::vector<goap::Comparison> when_cmps;
            Priority dynamic;
            goap::RetryPolicy retry{};
        };
        std::vector<NamedGoal> named;
        if (root.contains("goals")) {
            const Json& goals = root["goals"];
            const Path p = top / "goals";
            expect_type(goals, Json::value_t::object, p, "an object mapping goal names to {\"conditions\": ..., \"priority\": ...}");
            for (const auto& [name, g] : goals.items()) {
                const Path gp = p / name;
                if (name.empty()) fail(gp, "goal name must not be empty");
                expect_type(g, Json::value_t::object, gp, "an object {\"conditions\": {atom: bool}, \"priority\": number}");
                check_keys(g, gp, {"conditions", "priority", "when", "retry"});
                if (!g.contains("conditions")) fail(gp / "conditions", "missing required field (an object atom -> bool)");
                NamedGoal ng{name, {}, 0.0, {}, {}, {}, {}, {}};
                if (g.contains("retry")) ng.retry = retry_policy(g["retry"], gp / "retry");
                condition_parts(g["conditions"], gp / "conditions", ng.literals, ng.cmps);
                if (g.contains("when")) condition_parts(g["when"], gp / "when", ng.when, ng.when_cmps);
                if (g.contains("priority")) {
                    ng.dynamic = priority(g["priority"], gp / "priority");
                    ng.priority = ng.dynamic.value;
                }
                named.push_back(std::move(ng));
            }
        }

        // The domain stores two dense conditions (care and value bits over every atom) per action and
        // one per goal: refuse what would not fit the budget before building any of it.
        if (const std::string over = detail::table_budget_error(m_builder.atom_count(), m_builder.action_count(),
                                                                named.size() + (has_goal ? 1 : 0), m_limits.max_table_bytes,
                                                                "JsonLimits::max_table_bytes");
            !over.empty())
            fail(ap, over);

        DomainFile out;
        out.domain = m_builder.build();
        const std::size_t n = out.domain.atom_count();
        out.start = out.domain.make_state();
        for (const goap::Literal& l : start) out.start.set(l.atom, l.value);
        for (const goap::Comparison& c : start_values) out.start.set_value(c.var, c.value);
        if (has_goal) out.goal = condition(goal, goal_cmps, n);
        for (NamedGoal& g : named) {
            goap::Goal goal_out{std::move(g.name), condition(g.literals, g.cmps, n), g.priority, condition(g.when, g.when_cmps, n),
                                goap::VarId(), g.dynamic.scale, g.dynamic.offset};
            if (!g.dynamic.variable.empty()) goal_out.priority_var = out.domain.find_variable(g.dynamic.variable);
            goal_out.retry = g.retry;
            out.goals.push_back(std::move(goal_out));
        }
        return out;
    }

    std::string_view m_text;
    std::string m_file;
    JsonLimits m_limits;
    goap::DomainBuilder m_builder;
    bool m_declared = false;
    double m_total_cost = 0;
    std::unordered_map<std::string, std::size_t> m_action_index;
    std::unordered_map<std::string, VarInfo> m_vars;
};

}  // namespace

const goap::Goal* DomainFile::find_goal(std::string_view name) const noexcept {
    for (const goap::Goal& g : goals)
        if (g.name == name) return &g;
    return nullptr;
}

const goap::Condition* DomainFile::default_goal() const noexcept {
    if (goal) return &*goal;
    const goap::Goal* best = nullptr;
    double best_priority = 0;
    for (const goap::Goal& g : goals) {
        if (!g.when.empty() && !start.satisfies(g.when)) continue;  // conditional goal, inactive at the start
        const double pr = g.priority_in(start);
        if (!best || pr > best_priority) {
            best = &g;
            best_priority = pr;
        }
    }
    return best ? &best->condition : nullptr;
}

DomainFile parse_domain_json(std::string_view text, std::string_view file_name, const JsonLimits& limits) {
    return Loader(text, file_name, limits).load();
}

DomainFile load_domain_json(const std::filesystem::path& path, const JsonLimits& limits) {
    const std::string text = read_bounded_file(path, limits.max_bytes, "domain file");
    return parse_domain_json(text, path.string(), limits);
}

}  // namespace gameplan::io
