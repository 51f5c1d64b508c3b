// Scenario JSON loader (docs/formats.md, "Scenario JSON").
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/scenario_json.hpp>

#include "json_document.hpp"
#include "json_locator.hpp"
#include "json_values.hpp"
#include "number_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <unordered_map>

namespace gameplan::io {

namespace {

using Json = nlohmann::ordered_json;
using detail::JsonPath;
using detail::operator/;
using detail::number_text;
using detail::printable;

// At most this many names are listed as alternatives in a message.
constexpr std::size_t kMaxListedNames = 5;

// "a, b, c, d, e and 9,995 more": a short, printable list of names.
template <class Names>
std::string name_list(const Names& names, std::size_t count) {
    std::string out;
    std::size_t listed = 0;
    for (const auto& n : names) {
        if (listed == kMaxListedNames) break;
        out += (listed ? ", " : "") + printable(n, 40);
        ++listed;
    }
    if (count > listed) out += " and " + std::to_string(count - listed) + " more";
    return out;
}

// Rebuilds `domain` with the atoms in `extra` (and the variables in `extra_vars`) marked shared as well
// (ids, variables, actions and their back-off policies unchanged).
goap::Domain with_shared(const goap::Domain& domain, const std::vector<goap::AtomId>& extra,
                         const std::vector<goap::VarId>& extra_vars) {
    goap::DomainBuilder b;
    std::vector<bool> shared(domain.atom_count(), false);
    for (const goap::AtomId a : extra) shared[a.value] = true;
    std::vector<bool> shared_vars(domain.variable_count(), false);
    for (const goap::VarId v : extra_vars) shared_vars[v.value] = true;
    for (std::uint32_t i = 0; i < domain.atom_count(); ++i)
        b.add_atom(domain.atom_name(goap::AtomId(i)), shared[i] || domain.is_shared(goap::AtomId(i)));
    for (std::uint32_t i = 0; i < domain.variable_count(); ++i) {
        const goap::VarId v(i);
        const bool sh = shared_vars[i] || domain.is_shared(v);
        if (domain.variable_kind(v) == goap::VariableKind::Enumeration) {
            const auto values = domain.variable_values(v);
            const std::vector<std::string> copy(values.begin(), values.end());
            (void)b.add_enum_variable(domain.variable_name(v), copy, sh);
        } else {
            (void)b.add_integer_variable(domain.variable_name(v), domain.variable_min(v), domain.variable_max(v), sh);
        }
    }
    for (std::uint32_t i = 0; i < domain.action_count(); ++i) {
        const goap::ActionId a(i);
        (void)b.add_action(domain.action_name(a), domain.action_cost(a), domain.precondition_literals(a),
                           domain.effect_literals(a), domain.preconditions(a).comparisons(), domain.numeric_effects(a));
        (void)b.set_retry(domain.action_name(a), domain.retry_policy(a));
    }
    return b.build();
}

class Loader : public detail::JsonValueReader<Loader> {
public:
    Loader(std::string_view text, std::string_view file, const ScenarioParseOptions& options)
        : m_text(text), m_file(file), m_options(options) {}

    goap::Scenario load() {
        const JsonLimits& limits = m_options.limits;
        if (m_text.size() > limits.max_bytes)
            throw LoadError(m_file, 0, 0, "", "larger than the limit of " + format_bytes(limits.max_bytes) + " (" +
                                                 std::to_string(limits.max_bytes) + " bytes) for a scenario");
        bool blank = true;
        for (const char c : m_text) blank &= std::isspace(static_cast<unsigned char>(c)) != 0;
        if (blank) throw LoadError(m_file, 0, 0, "", "empty file (expected a JSON object describing a scenario)");
        const std::size_t max_depth = std::clamp<std::size_t>(limits.max_depth, 1, kMaxJsonDepthCap);
        const Json root = detail::parse_checked_json(m_text, m_file, max_depth);
        return read(root);
    }

private:
    friend class detail::JsonValueReader<Loader>;  // its checks report through fail()

    // ---- errors -----------------------------------------------------------------------------------

    [[noreturn]] void fail_at(std::size_t offset, const JsonPath& path, const std::string& message) const {
        const detail::TextPosition p = detail::position_of(m_text, offset);
        throw LoadError(m_file, p.line, p.column, detail::format_json_path(path), message);
    }

    // Error at a field of a valid document: point at the deepest existing prefix of `path` (a member's
    // key, or an element's value).
    [[noreturn]] void fail(const JsonPath& path, const std::string& message) const {
        fail_at(detail::field_error_offset(m_text, path), path, message);
    }

    std::uint64_t integer(const Json& j, const JsonPath& path, std::uint64_t min) const {
        std::uint64_t v = 0;
        if (j.is_number_unsigned()) v = j.get<std::uint64_t>();
        else if (j.is_number_integer() && j.get<std::int64_t>() >= 0) v = static_cast<std::uint64_t>(j.get<std::int64_t>());
        else fail(path, "must be an integer >= " + std::to_string(min) + " (found " + type_name(j) + ")");
        if (v < min) fail(path, "must be an integer >= " + std::to_string(min));
        return v;
    }

    void check_cost(double cost, const JsonPath& path) const {
        const double max_cost = std::min(m_options.limits.max_action_cost, kMaxActionCost);
        if (!(cost <= max_cost))
            fail(path, "must be at most " + number_text(max_cost) +
                           " (the largest action cost, so that plan costs cannot overflow)");
    }

    std::string string(const Json& j, const JsonPath& path, const char* what) const {
        if (!j.is_string() || j.get_ref<const std::string&>().empty())
            fail(path, std::string("must be ") + what + " (found " + (j.is_string() ? "an empty string" : type_name(j)) + ")");
        return j.get<std::string>();
    }

    // ---- names ------------------------------------------------------------------------------------

    goap::AtomId atom(const std::string& name, const JsonPath& path) const {
        const goap::AtomId id = m_domain->find_atom(name);
        if (!id.valid()) fail(path, "unknown atom '" + printable(name) + "' (the domain has no such atom)");
        return id;
    }

    goap::ActionId action(const std::string& name, const JsonPath& path) const {
        const goap::ActionId id = m_domain->find_action(name);
        if (!id.valid()) {
            std::vector<std::string> names;
            for (std::uint32_t i = 0; i < m_domain->action_count() && i < kMaxListedNames; ++i)
                names.push_back(m_domain->action_name(goap::ActionId(i)));
            fail(path, "unknown action '" + printable(name) + "' (the domain's actions: " +
                           name_list(names, m_domain->action_count()) + ")");
        }
        return id;
    }

    enum class Owner { Any, Shared, Private };

    // ---- variables -------------------------------------------------------------------------------

    goap::VarId variable(const std::string& name) const { return m_domain->find_variable(name); }

    bool is_enum(goap::VarId v) const { return m_domain->variable_kind(v) == goap::VariableKind::Enumeration; }

    // A value of `v`: an integer within its bounds, or one of the enumeration's value names.
    std::int32_t var_value(goap::VarId v, const std::string& name, const Json& j, const JsonPath& path) const {
        if (is_enum(v)) return enum_value(j, path, name, m_domain->variable_values(v), true);
        if (j.is_boolean()) fail(path, "'" + printable(name) + "' is a variable: expected an integer (found a boolean)");
        return integer_value(j, path, name, m_domain->variable_min(v), m_domain->variable_max(v));
    }

    // `"var": [op, value]` (a bare value means ==).
    goap::Comparison comparison(goap::VarId v, const std::string& name, const Json& j, const JsonPath& path) const {
        return comparison_of(v, name, is_enum(v), j, path, "; to change a variable use \"set\" or \"add\"",
                             [&](const Json& value, const JsonPath& at) { return var_value(v, name, value, at); });
    }

    void check_owner(bool shared, const std::string& kind, const std::string& key, const JsonPath& path, Owner owner) const {
        if (owner == Owner::Shared && !shared)
            fail(path, kind + " '" + printable(key) +
                           "' is private (agent-owned): set it in an agent's \"state\" or a timeline entry with \"agent\"");
        if (owner == Owner::Private && shared)
            fail(path, kind + " '" + printable(key) +
                           "' is shared (world-owned): set it in \"world\" or a timeline entry without \"agent\"");
    }

    [[noreturn]] void unknown_name(const std::string& key, const JsonPath& path) const {
        fail(path, "unknown atom '" + printable(key) + "' (the domain has no such atom" +
                       (m_domain->has_variables() ? " or variable)" : ")"));
    }

    // Assignments: atoms -> true/false, variables -> a value (an integer, or an enumeration's value name).
    void assignments(const Json& j, const JsonPath& path, Owner owner, std::vector<goap::Literal>& lits,
                     std::vector<goap::NumericEffect>& values) const {
        expect_type(j, Json::value_t::object, path, "an object mapping atom names to true/false and variables to values");
        for (const auto& [key, value] : j.items()) {
            if (const goap::VarId v = variable(key); v.valid()) {
                check_owner(m_domain->is_shared(v), "variable", key, path / key, owner);
                values.push_back(goap::NumericEffect{v, goap::EffectOp::Set, var_value(v, key, value, path / key)});
                continue;
            }
            const goap::AtomId id = m_domain->find_atom(key);
            if (!id.valid()) unknown_name(key, path / key);
            if (!value.is_boolean()) fail(path / key, std::string("must be true or false (found ") + type_name(value) + ")");
            check_owner(m_domain->is_shared(id), "atom", key, path / key, owner);
            lits.push_back(goap::Literal{id, value.get<bool>()});
        }
    }

    std::vector<goap::Literal> literals(const Json& j, const JsonPath& path, Owner owner) const {
        std::vector<goap::Literal> lits;
        std::vector<goap::NumericEffect> values;
        assignments(j, path, owner, lits, values);
        if (!values.empty()) fail(path / m_domain->variable_name(values.front().var), "a variable is not allowed here");
        return lits;
    }

    // `"add": {var: amount}`: signed integer amounts on integer variables.
    std::vector<goap::NumericEffect> additions(const Json& j, const JsonPath& path, Owner owner) const {
        expect_type(j, Json::value_t::object, path, "an object mapping integer variables to signed amounts");
        std::vector<goap::NumericEffect> out;
        for (const auto& [key, value] : j.items()) {
            const goap::VarId v = variable(key);
            if (!v.valid()) {
                if (m_domain->find_atom(key).valid())
                    fail(path / key, "'" + printable(key) + "' is an atom: atoms are changed with \"set\"");
                fail(path / key, "unknown variable '" + printable(key) + "' (the domain has no such variable)");
            }
            if (is_enum(v)) fail(path / key, "'" + printable(key) + "' is an enumerated variable: only \"set\" changes it");
            check_owner(m_domain->is_shared(v), "variable", key, path / key, owner);
            out.push_back(goap::NumericEffect{v, goap::EffectOp::Add, int32_at(value, path / key, "an integer amount")});
        }
        return out;
    }

    // A condition: atoms -> true/false, variables -> [op, value] or a value (==).
    goap::Condition condition(const Json& j, const JsonPath& path) const {
        expect_type(j, Json::value_t::object, path, "an object mapping atom names to true/false and variables to [\"op\", value]");
        goap::Condition c = m_domain->make_condition();
        for (const auto& [key, value] : j.items()) {
            if (const goap::VarId v = variable(key); v.valid()) {
                c.require(comparison(v, key, value, path / key));
                continue;
            }
            const goap::AtomId id = m_domain->find_atom(key);
            if (!id.valid()) unknown_name(key, path / key);
            if (!value.is_boolean()) fail(path / key, std::string("must be true or false (found ") + type_name(value) + ")");
            c.set(id, value.get<bool>());
        }
        return c;
    }

    // ---- domain -----------------------------------------------------------------------------------

    DomainFile read_domain(const Json& root) {
        const JsonPath path = JsonPath{} / "domain";
        if (!root.contains("domain")) fail(path, "missing required field (a domain file name or an inline domain object)");
        const Json& d = root["domain"];
        if (d.is_string()) {
            if (!m_options.allow_domain_files) fail(path, "domain files are not allowed here (use an inline domain object)");
            const std::string name = d.get<std::string>();
            if (name.empty()) fail(path, "must be a domain file name (found an empty string)");
            const std::filesystem::path file = m_options.base_dir / std::filesystem::path(name);
            std::error_code ec;
            if (!std::filesystem::is_regular_file(file, ec))
                fail(path, "cannot open domain file '" + printable(file.string()) + "': " +
                               (std::filesystem::exists(file, ec) ? "not a regular file" : "no such file"));
            return load_domain(file, m_options.limits);  // JSON or CSV by extension; its errors name the domain file itself
        }
        if (!d.is_object()) fail(path, std::string("must be a domain file name or a domain object (found ") + type_name(d) + ")");
        const detail::JsonLocation loc = detail::locate(m_text, path);
        if (!loc.found || loc.end == std::string_view::npos) fail(path, "cannot locate the inline domain");
        const std::string_view sub = m_text.substr(loc.begin, loc.end - loc.begin);
        try {
            return parse_domain_json(sub, m_file, m_options.limits);
        } catch (const LoadError& e) {
            // Translate positions inside the sub-document to positions in this file.
            const detail::TextPosition base = detail::position_of(m_text, loc.begin);
            std::size_t line = base.line, column = base.column;
            if (e.line() > 0) {
                line = base.line + e.line() - 1;
                column = e.line() == 1 ? base.column + e.column() - 1 : e.column();
            }
            std::string field = "domain";
            if (!e.field().empty()) field += (e.field()[0] == '[' ? "" : ".") + e.field();
            throw LoadError(m_file, line, column, field, e.message());
        }
    }

    // ---- parts --------------------------------------------------------------------------------------

    goap::ScenarioType read_type(const std::string& name, const Json& t, const JsonPath& path) const {
        expect_type(t, Json::value_t::object, path, "an object {\"actions\": {...}, \"exclude\": [...]}");
        check_keys(t, path, {"actions", "exclude"});
        goap::ScenarioType type;
        type.name = name;
        std::set<std::uint32_t> bound, excluded;
        if (t.contains("exclude")) {
            const JsonPath p = path / "exclude";
            expect_type(t["exclude"], Json::value_t::array, p, "an array of action names");
            for (std::size_t i = 0; i < t["exclude"].size(); ++i) {
                const std::string a = string(t["exclude"][i], p / i, "an action name");
                if (!excluded.insert(action(a, p / i).value).second) fail(p / i, "action '" + printable(a) + "' is excluded twice");
                type.excluded.push_back(a);
            }
        }
        if (t.contains("actions")) {
            const JsonPath p = path / "actions";
            expect_type(t["actions"], Json::value_t::object, p, "an object mapping action names to behaviours");
            for (const auto& [key, value] : t["actions"].items()) {
                const JsonPath ap = p / key;
                const goap::ActionId id = action(key, ap);
                if (excluded.count(id.value)) fail(ap, "action '" + printable(key) + "' is both bound and excluded");
                bound.insert(id.value);
                goap::ScenarioAction sa;
                sa.action = key;
                if (value.is_number()) {
                    sa.ticks = static_cast<std::uint32_t>(std::min<std::uint64_t>(integer(value, ap, 1), UINT32_MAX));
                } else {
                    expect_type(value, Json::value_t::object, ap,
                                "a number of ticks or an object {\"ticks\", \"behaviour\", \"succeeds\", \"cost\", \"enabled\"}");
                    check_keys(value, ap, {"ticks", "behaviour", "succeeds", "cost", "enabled"});
                    if (value.contains("ticks"))
                        sa.ticks = static_cast<std::uint32_t>(std::min<std::uint64_t>(integer(value["ticks"], ap / "ticks", 1), UINT32_MAX));
                    if (value.contains("behaviour")) sa.behaviour = string(value["behaviour"], ap / "behaviour", "a behaviour name");
                    if (value.contains("succeeds")) {
                        if (!value["succeeds"].is_boolean()) fail(ap / "succeeds", "must be true or false");
                        sa.succeeds = value["succeeds"].get<bool>();
                    }
                    if (value.contains("cost")) {
                        const Json& c = value["cost"];
                        if (!c.is_number() || !std::isfinite(c.get<double>()) || c.get<double>() < 0)
                            fail(ap / "cost", "must be a finite number >= 0");
                        check_cost(c.get<double>(), ap / "cost");
                        sa.cost = c.get<double>();
                    }
                    if (value.contains("enabled")) {
                        if (!value["enabled"].is_boolean()) fail(ap / "enabled", "must be true or false");
                        sa.enabled = value["enabled"].get<bool>();
                    }
                }
                type.actions.push_back(std::move(sa));
            }
        }
        // Bind-time validation: every action the type may plan needs a behaviour.
        for (std::uint32_t a = 0; a < m_domain->action_count(); ++a)
            if (!bound.count(a) && !excluded.count(a))
                fail(t.contains("actions") ? path / "actions" : path,
                     "action '" + printable(m_domain->action_name(goap::ActionId(a))) +
                         "' is not bound (bind it here or list it in \"exclude\")");
        return type;
    }

    goap::ScenarioGoal read_goal(const Json& g, const JsonPath& path) const {
        if (g.is_string()) {
            const std::string name = g.get<std::string>();
            const goap::Goal* goal = m_domain_file->find_goal(name);
            if (!goal) {
                std::vector<std::string> names;
                for (const goap::Goal& x : m_domain_file->goals) {
                    if (names.size() == kMaxListedNames) break;
                    names.push_back(x.name);
                }
                fail(path, "no goal named '" + printable(name) + "' in the domain's \"goals\"" +
                               (names.empty() ? std::string(" (it has none)")
                                              : " (available: " + name_list(names, m_domain_file->goals.size()) + ")"));
            }
            return goap::ScenarioGoal{goal->name, goal->condition,    goal->priority,       {},        goal->when,
                                      goal->priority_var, goal->priority_scale, goal->priority_offset, goal->retry};
        }
        expect_type(g, Json::value_t::object, path, "a goal name or an object {\"name\", \"conditions\", \"priority\"}");
        check_keys(g, path, {"name", "conditions", "priority", "when", "retry"});
        goap::ScenarioGoal goal;
        if (!g.contains("name")) fail(path / "name", "missing required field (a non-empty string)");
        goal.name = string(g["name"], path / "name", "a non-empty string");
        if (!g.contains("conditions")) fail(path / "conditions", "missing required field (an object atom -> bool)");
        goal.condition = condition(g["conditions"], path / "conditions");
        if (g.contains("when")) goal.when = condition(g["when"], path / "when");
        if (g.contains("retry")) goal.retry = retry_policy(g["retry"], path / "retry");
        if (g.contains("priority")) {
            const Json& p = g["priority"];
            const JsonPath pp = path / "priority";
            if (p.is_number()) {
                if (!std::isfinite(p.get<double>())) fail(pp, "must be a finite number");
                goal.priority = p.get<double>();
            } else if (p.is_array()) {
                if (p.empty()) fail(pp, "must hold at least one rule {\"if\": {...}, \"value\": number}");
                for (std::size_t i = 0; i < p.size(); ++i) {
                    const Json& r = p[i];
                    expect_type(r, Json::value_t::object, pp / i, "a rule {\"if\": {atom: bool}, \"value\": number}");
                    check_keys(r, pp / i, {"if", "value"});
                    goap::PriorityRule rule;
                    rule.when = m_domain->make_condition();  // no "if": always holds
                    if (r.contains("if")) rule.when = condition(r["if"], pp / i / "if");
                    if (!r.contains("value")) fail(pp / i / "value", "missing required field (a finite number)");
                    if (!r["value"].is_number() || !std::isfinite(r["value"].get<double>()))
                        fail(pp / i / "value", "must be a finite number");
                    rule.value = r["value"].get<double>();
                    goal.rules.push_back(std::move(rule));
                }
            } else if (p.is_object()) {
                check_keys(p, pp, {"variable", "scale", "offset"});
                if (!p.contains("variable") || !p["variable"].is_string())
                    fail(pp / "variable", "missing required field (the name of an integer variable)");
                const std::string name = p["variable"].get<std::string>();
                goal.priority_var = variable(name);
                if (!goal.priority_var.valid())
                    fail(pp / "variable", "unknown variable '" + printable(name) + "' (the domain has no such variable)");
                if (is_enum(goal.priority_var)) fail(pp / "variable", "'" + printable(name) + "' is an enumerated variable, not a number");
                for (const char* key : {"scale", "offset"}) {
                    if (!p.contains(key)) continue;
                    if (!p[key].is_number() || !std::isfinite(p[key].get<double>())) fail(pp / key, "must be a finite number");
                    (std::string_view(key) == "scale" ? goal.priority_scale : goal.priority_offset) = p[key].get<double>();
                }
            } else {
                fail(pp, std::string("must be a number, an array of rules or {\"variable\", \"scale\", \"offset\"} (found ") +
                             type_name(p) + ")");
            }
        }
        return goal;
    }

    goap::ScenarioAgent read_agent(const Json& a, const JsonPath& path, const std::set<std::string>& types,
                                   std::set<std::string>& names) const {
        expect_type(a, Json::value_t::object, path, "an object {\"name\", \"type\", \"state\", \"goals\"}");
        check_keys(a, path, {"name", "type", "state", "goals", "max_expansions_per_tick"});
        goap::ScenarioAgent agent;
        if (!a.contains("name")) fail(path / "name", "missing required field (a non-empty string)");
        agent.name = string(a["name"], path / "name", "a non-empty string");
        if (agent.name == "world") fail(path / "name", "the name 'world' is reserved (traces use it for world events)");
        if (!names.insert(agent.name).second) fail(path / "name", "duplicate agent name '" + printable(agent.name) + "'");
        if (!a.contains("type")) fail(path / "type", "missing required field (a type name from \"types\")");
        agent.type = string(a["type"], path / "type", "a type name");
        if (!types.count(agent.type)) fail(path / "type", "unknown type '" + printable(agent.type) + "' (not in \"types\")");
        agent.state = m_domain_file->start;  // the domain's start; the runtime ignores its shared part
        if (a.contains("state")) {
            std::vector<goap::Literal> lits;
            std::vector<goap::NumericEffect> values;
            assignments(a["state"], path / "state", Owner::Private, lits, values);
            for (const goap::Literal l : lits) agent.state.set(l.atom, l.value);
            for (const goap::NumericEffect& v : values) agent.state.set_value(v.var, v.value);
        }
        if (a.contains("goals")) {
            const JsonPath gp = path / "goals";
            expect_type(a["goals"], Json::value_t::array, gp, "an array of goals");
            std::set<std::string> goal_names;
            for (std::size_t i = 0; i < a["goals"].size(); ++i) {
                goap::ScenarioGoal g = read_goal(a["goals"][i], gp / i);
                if (!goal_names.insert(g.name).second) fail(gp / i, "duplicate goal name '" + printable(g.name) + "'");
                agent.goals.push_back(std::move(g));
            }
        }
        if (a.contains("max_expansions_per_tick"))
            agent.max_expansions_per_tick = integer(a["max_expansions_per_tick"], path / "max_expansions_per_tick", 1);
        return agent;
    }

    void read_event(const Json& e, const JsonPath& path, const std::set<std::string>& agents,
                    std::vector<goap::ScenarioEvent>& out) const {
        expect_type(e, Json::value_t::object, path, "an object {\"tick\", \"agent\", and one of set/add/expect/fail/abort/cost/enable}");
        check_keys(e, path, {"tick", "agent", "set", "add", "expect", "fail", "abort", "cost", "enable"});
        if (!e.contains("tick")) fail(path / "tick", "missing required field (an integer >= 0)");
        goap::ScenarioEvent base;
        base.tick = integer(e["tick"], path / "tick", 0);
        if (e.contains("agent")) {
            base.agent = string(e["agent"], path / "agent", "an agent name");
            if (!agents.count(base.agent)) fail(path / "agent", "unknown agent '" + printable(base.agent) + "'");
        }
        int kinds = 0;
        for (const char* k : {"set", "add", "expect", "fail", "abort", "cost", "enable"}) kinds += e.contains(k) ? 1 : 0;
        if (kinds != 1) fail(path, "a timeline entry holds exactly one of: set, add, expect, fail, abort, cost, enable");
        const auto need_agent = [&](const char* kind) {
            if (base.agent.empty()) fail(path / kind, std::string("\"") + kind + "\" needs an \"agent\"");
        };
        if (e.contains("set")) {
            base.kind = goap::ScenarioEventKind::Set;
            assignments(e["set"], path / "set", base.agent.empty() ? Owner::Shared : Owner::Private, base.literals, base.values);
            out.push_back(std::move(base));
        } else if (e.contains("add")) {
            base.kind = goap::ScenarioEventKind::Add;
            base.values = additions(e["add"], path / "add", base.agent.empty() ? Owner::Shared : Owner::Private);
            out.push_back(std::move(base));
        } else if (e.contains("expect")) {
            base.kind = goap::ScenarioEventKind::Expect;
            base.expect = condition(e["expect"], path / "expect");
            if (base.agent.empty()) {  // the world holds shared atoms and variables only
                base.expect.for_each([&](goap::Literal l) {
                    if (!m_domain->is_shared(l.atom))
                        fail(path / "expect" / m_domain->atom_name(l.atom),
                             "atom '" + printable(m_domain->atom_name(l.atom)) + "' is private (agent-owned): name the \"agent\" to check");
                });
                for (const goap::Comparison& c : base.expect.comparisons())
                    if (!m_domain->is_shared(c.var))
                        fail(path / "expect" / m_domain->variable_name(c.var), "variable '" + printable(m_domain->variable_name(c.var)) +
                                                                                  "' is private (agent-owned): name the \"agent\" to check");
            }
            out.push_back(std::move(base));
        } else if (e.contains("fail")) {
            need_agent("fail");
            base.kind = goap::ScenarioEventKind::Fail;
            base.action = string(e["fail"], path / "fail", "an action name");
            (void)action(base.action, path / "fail");
            out.push_back(std::move(base));
        } else if (e.contains("abort")) {
            need_agent("abort");
            if (!e["abort"].is_boolean() || !e["abort"].get<bool>()) fail(path / "abort", "must be true");
            base.kind = goap::ScenarioEventKind::Abort;
            out.push_back(std::move(base));
        } else if (e.contains("cost")) {
            need_agent("cost");
            const JsonPath p = path / "cost";
            expect_type(e["cost"], Json::value_t::object, p, "an object mapping action names to costs");
            for (const auto& [key, value] : e["cost"].items()) {
                (void)action(key, p / key);
                if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
                    fail(p / key, "must be a finite number >= 0");
                check_cost(value.get<double>(), p / key);
                goap::ScenarioEvent ev = base;
                ev.kind = goap::ScenarioEventKind::Cost;
                ev.action = key;
                ev.value = value.get<double>();
                out.push_back(std::move(ev));
            }
        } else {
            need_agent("enable");
            const JsonPath p = path / "enable";
            expect_type(e["enable"], Json::value_t::object, p, "an object mapping action names to true/false");
            for (const auto& [key, value] : e["enable"].items()) {
                (void)action(key, p / key);
                if (!value.is_boolean()) fail(p / key, "must be true or false");
                goap::ScenarioEvent ev = base;
                ev.kind = goap::ScenarioEventKind::Enable;
                ev.action = key;
                ev.enabled = value.get<bool>();
                out.push_back(std::move(ev));
            }
        }
    }

    goap::Scenario read(const Json& root) {
        const JsonPath top;
        expect_type(root, Json::value_t::object, top, "a JSON object");
        check_keys(root, top, {"domain", "shared", "world", "ticks", "direction", "types", "agents", "timeline"});

        DomainFile file = read_domain(root);
        goap::Scenario s;
        s.name = m_file;
        s.domain = std::move(file.domain);
        m_domain = &s.domain;
        m_domain_file = &file;
        if (root.contains("shared")) {
            const JsonPath p = top / "shared";
            expect_type(root["shared"], Json::value_t::array, p, "an array of atom names");
            std::vector<goap::AtomId> extra;
            std::vector<goap::VarId> extra_vars;
            for (std::size_t i = 0; i < root["shared"].size(); ++i) {
                const std::string name = string(root["shared"][i], p / i, "an atom or variable name");
                if (const goap::VarId v = variable(name); v.valid()) extra_vars.push_back(v);
                else extra.push_back(atom(name, p / i));
            }
            s.domain = with_shared(s.domain, extra, extra_vars);
        }

        s.world = file.start;
        if (root.contains("world")) {
            std::vector<goap::Literal> lits;
            std::vector<goap::NumericEffect> values;
            assignments(root["world"], top / "world", Owner::Shared, lits, values);
            for (const goap::Literal l : lits) s.world.set(l.atom, l.value);
            for (const goap::NumericEffect& v : values) s.world.set_value(v.var, v.value);
        }
        if (root.contains("ticks")) {
            s.ticks = integer(root["ticks"], top / "ticks", 1);
            if (s.ticks > kMaxScenarioTicks)
                fail(top / "ticks", "must be at most " + std::to_string(kMaxScenarioTicks) + " (the longest run a scenario may ask for)");
        }
        if (root.contains("direction")) {
            const std::string d = string(root["direction"], top / "direction", "\"forward\" or \"backward\"");
            if (d != "forward" && d != "backward") fail(top / "direction", "must be \"forward\" or \"backward\"");
            s.direction = d == "forward" ? goap::Direction::Forward : goap::Direction::Backward;
        }

        std::set<std::string> type_names;
        if (!root.contains("types")) fail(top / "types", "missing required field (an object of agent types)");
        expect_type(root["types"], Json::value_t::object, top / "types", "an object mapping type names to types");
        for (const auto& [name, t] : root["types"].items()) {
            s.types.push_back(read_type(name, t, top / "types" / name));
            type_names.insert(name);
        }

        std::set<std::string> agent_names;
        if (!root.contains("agents")) fail(top / "agents", "missing required field (an array of agents)");
        expect_type(root["agents"], Json::value_t::array, top / "agents", "an array of agents");
        // Every agent holds dense states and conditions over all atoms, here and in the runtime (its
        // state, view and scratch state, and each goal and priority rule twice): refuse a scenario whose
        // tables would not fit the budget, at the agent that crosses it, before allocating further.
        const std::uint64_t words = (s.domain.atom_count() + 63) / 64;
        long double table_bytes = 0;
        for (std::size_t i = 0; i < root["agents"].size(); ++i) {
            const Json& a = root["agents"][i];
            std::uint64_t conditions = 0;
            if (a.is_object() && a.contains("goals") && a["goals"].is_array())
                for (const Json& g : a["goals"]) {
                    ++conditions;
                    if (g.is_object() && g.contains("priority") && g["priority"].is_array()) conditions += g["priority"].size();
                }
            table_bytes += static_cast<long double>(words) * 32.0L * static_cast<long double>(1 + conditions);
            if (table_bytes > static_cast<long double>(m_options.limits.max_table_bytes))
                fail(top / "agents" / i,
                     "the agents' atom tables would need more than " + format_bytes(m_options.limits.max_table_bytes) +
                         " (" + std::to_string(root["agents"].size()) + " agents x " + std::to_string(s.domain.atom_count()) +
                         " atoms, about " + format_bytes(static_cast<std::uint64_t>(
                                                table_bytes / static_cast<long double>(i + 1) *
                                                static_cast<long double>(root["agents"].size()))) +
                         " in all); the limit is JsonLimits::max_table_bytes");
            s.agents.push_back(read_agent(a, top / "agents" / i, type_names, agent_names));
        }

        if (root.contains("timeline")) {
            const JsonPath p = top / "timeline";
            expect_type(root["timeline"], Json::value_t::array, p, "an array of events");
            for (std::size_t i = 0; i < root["timeline"].size(); ++i) read_event(root["timeline"][i], p / i, agent_names, s.timeline);
        }
        m_domain_file = nullptr;
        return s;
    }

    std::string_view m_text;
    std::string m_file;
    ScenarioParseOptions m_options;
    const goap::Domain* m_domain = nullptr;
    const DomainFile* m_domain_file = nullptr;
};

}  // namespace

goap::Scenario parse_scenario_json(std::string_view text, std::string_view file_name, const ScenarioParseOptions& options) {
    return Loader(text, file_name, options).load();
}

goap::Scenario load_scenario_json(const std::filesystem::path& path, const JsonLimits& limits) {
    const std::string text = read_bounded_file(path, limits.max_bytes, "scenario file");
    ScenarioParseOptions options;
    options.base_dir = path.parent_path();
    options.limits = limits;
    return parse_scenario_json(text, path.string(), options);
}

}  // namespace gameplan::io
