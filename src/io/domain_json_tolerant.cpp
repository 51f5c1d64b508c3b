// The JSON domain rules of domain_json.cpp, applied tolerantly: every error is collected and the valid
// parts are kept (for lint and for reporting all errors of one file). Variables, numeric conditions and
// effects, goals' "when", variable priorities and "retry" follow the strict loader's rules and messages.
#include <gameplan/io/domain_csv.hpp>
#include <gameplan/io/domain_json.hpp>

#include "domain_tables.hpp"
#include "domain_tolerant.hpp"
#include "json_locator.hpp"
#include "json_values.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace gameplan::io::detail {

namespace {

using Json = nlohmann::ordered_json;

// The value checks and messages are the strict loaders' (JsonValueReader); `fail` records the error
// and skips the item instead of ending the load.
class TolerantJson : JsonValueReader<TolerantJson> {
    friend class JsonValueReader<TolerantJson>;
    // Thrown after an error is recorded, to skip the rest of the item being read.
    struct Skip {};

    using VarInfo = VariableSpec;

    // A condition (atoms -> bool, variables -> comparisons) or effects (atoms -> bool, variables ->
    // numeric effects), as read.
    struct Parts {
        std::vector<goap::Literal> literals;
        std::vector<goap::Comparison> comparisons;
        std::vector<goap::NumericEffect> effects;
    };

public:
    TolerantJson(std::string_view text, std::string_view file, TolerantDomain& out) : m_text(text), m_file(file), m_out(out) {}

    // Reads the document, then places every recorded error and field in the text.
    void read(const Json& root) {
        read_fields(root);
        resolve_places();
    }

private:
    void read_fields(const Json& root) {
        const JsonPath top;
        if (!root.is_object()) {
            m_out.readable = false;
            error(top, "must be a JSON object");
            return;
        }
        keys(root, top, {"atoms", "variables", "shared", "actions", "start", "goal", "goals"});
        if (root.contains("atoms")) {
            const JsonPath p = top / "atoms";
            const Json& atoms = root["atoms"];
            if (!atoms.is_array()) {
                error(p, "must be an array of atom names");
            } else {
                m_declared = true;
                m_out.atoms_declared = true;
                for (std::size_t i = 0; i < atoms.size(); ++i) {
                    if (!atoms[i].is_string() || atoms[i].get_ref<const std::string&>().empty()) {
                        error(p / i, "must be a non-empty string");
                        continue;
                    }
                    const std::string& name = atoms[i].get_ref<const std::string&>();
                    if (m_builder.find_atom(name).valid()) {
                        error(p / i, "duplicate atom '" + printable(name) + "'");
                        continue;
                    }
                    note(m_builder.add_atom(name), p / i);
                    m_declared_names.push_back(name);
                }
            }
        }
        if (root.contains("variables")) read_variables(root["variables"], top / "variables");
        if (root.contains("shared")) {
            const JsonPath p = top / "shared";
            const Json& shared = root["shared"];
            if (!shared.is_array()) error(p, "must be an array of atom names");
            else
                for (std::size_t i = 0; i < shared.size(); ++i) {
                    if (!shared[i].is_string()) {
                        error(p / i, "must be a string");
                        continue;
                    }
                    if (const VarInfo* v = variable(shared[i].get<std::string>())) {
                        m_builder.set_shared(v->id, true);
                        continue;
                    }
                    if (const goap::AtomId id = atom(shared[i].get<std::string>(), p / i); id.valid()) m_builder.set_shared(id, true);
                }
        }
        if (!root.contains("actions")) error(top / "actions", "missing required field (an array of actions)");
        else if (!root["actions"].is_array()) error(top / "actions", "must be an array of actions");
        else {
            const Json& actions = root["actions"];
            std::unordered_map<std::string, std::size_t> seen;
            for (std::size_t i = 0; i < actions.size(); ++i) {
                const JsonPath p = top / "actions" / i;
                const Json& a = actions[i];
                if (!a.is_object()) {
                    error(p, "must be an object with name, cost, preconditions, effects");
                    continue;
                }
                keys(a, p, {"name", "cost", "preconditions", "effects", "retry"});
                bool ok = true;
                std::string name;
                if (!a.contains("name") || !a["name"].is_string() || a["name"].get_ref<const std::string&>().empty()) {
                    error(p / "name", a.contains("name") ? "must be a non-empty string" : "missing required field (a non-empty string)");
                    ok = false;
                } else {
                    name = a["name"].get<std::string>();
                    if (const auto it = seen.find(name); it != seen.end()) {
                        error(p / "name", "duplicate action name '" + printable(name) + "' (also actions[" + std::to_string(it->second) + "])");
                        ok = false;
                    } else {
                        seen.emplace(name, i);
                    }
                }
                double cost = 0;
                if (!a.contains("cost")) {
                    error(p / "cost", "missing required field (a finite number >= 0)");
                    ok = false;
                } else if (!a["cost"].is_number() || !std::isfinite(a["cost"].get<double>()) || a["cost"].get<double>() < 0) {
                    error(p / "cost", "must be a finite number >= 0");
                    ok = false;
                } else {
                    cost = a["cost"].get<double>();
                }
                Parts pre, eff;
                if (a.contains("preconditions")) ok &= parts(a["preconditions"], p / "preconditions", pre, false);
                if (a.contains("effects")) ok &= parts(a["effects"], p / "effects", eff, true);
                goap::RetryPolicy retry{};
                if (a.contains("retry")) ok &= attempt([&] { retry = retry_policy(a["retry"], p / "retry"); });
                if (!ok) continue;
                const goap::DomainError err = m_builder.add_action(name, cost, pre.literals, eff.literals, pre.comparisons, eff.effects);
                if (err != goap::DomainError::None) {
                    if (err != goap::DomainError::DuplicateAction) error(p, std::string(goap::to_string(err)));
                    continue;
                }
                if (a.contains("retry")) (void)m_builder.set_retry(name, retry);
                m_out.action_place.emplace_back();
                defer(p / "name", Target::Action, m_out.action_place.size() - 1);
            }
        }
        Parts start, goal;
        if (root.contains("start")) (void)start_parts(root["start"], top / "start", start);
        const bool has_goal = root.contains("goal") && parts(root["goal"], top / "goal", goal, false);
        if (has_goal) defer(top / "goal", Target::Goal, 0);
        struct Named {
            std::string name;
            Parts condition, when;
            double priority = 0;
            std::string priority_var;
            double scale = 1, offset = 0;
            goap::RetryPolicy retry{};
        };
        std::vector<Named> named;
        if (root.contains("goals")) {
            const JsonPath p = top / "goals";
            const Json& goals = root["goals"];
            if (!goals.is_object()) error(p, "must be an object mapping goal names to {\"conditions\": ..., \"priority\": ...}");
            else
                for (const auto& item : goals.items()) {  // named, not bound: lambdas below capture them
                    const std::string& name = item.key();
                    const Json& g = item.value();
                    const JsonPath gp = p / name;
                    if (name.empty()) {
                        error(gp, "goal name must not be empty");
                        continue;
                    }
                    if (!g.is_object()) {
                        error(gp, "must be an object {\"conditions\": {atom: bool}, \"priority\": number}");
                        continue;
                    }
                    keys(g, gp, {"conditions", "priority", "when", "retry"});
                    Named ng;
                    ng.name = name;
                    bool ok = true;
                    if (!g.contains("conditions")) {
                        error(gp / "conditions", "missing required field (an object atom -> bool)");
                        ok = false;
                    } else {
                        ok &= parts(g["conditions"], gp / "conditions", ng.condition, false);
                    }
                    if (g.contains("when")) ok &= parts(g["when"], gp / "when", ng.when, false);
                    if (g.contains("retry")) ok &= attempt([&] { ng.retry = retry_policy(g["retry"], gp / "retry"); });
                    if (g.contains("priority")) ok &= attempt([&] { priority(g["priority"], gp / "priority", ng); });
                    if (!ok) continue;
                    named.push_back(std::move(ng));
                    m_out.goals_place.emplace_back();
                    defer(gp, Target::Goals, m_out.goals_place.size() - 1);
                }
        }
        // The dense atom tables are refused past the loader's default budget before any is built (the
        // strict loader has said so too); nothing more can be read.
        if (const std::string over = table_budget_error(m_builder.atom_count(), m_builder.action_count(),
                                                        named.size() + (has_goal ? 1 : 0), kDefaultMaxTableBytes,
                                                        "JsonLimits::max_table_bytes");
            !over.empty()) {
            error(JsonPath{} / "actions", over);
            m_out.readable = false;
            return;
        }
        DomainFile& f = m_out.file;
        f.domain = m_builder.build();
        const std::size_t n = f.domain.atom_count();
        f.start = f.domain.make_state();
        for (const goap::Literal& l : start.literals) f.start.set(l.atom, l.value);
        for (const goap::Comparison& c : start.comparisons) f.start.set_value(c.var, c.value);
        const auto condition = [&](const Parts& parts) {
            goap::Condition c(n);
            for (const goap::Literal& l : parts.literals) c.set(l.atom, l.value);
            for (const goap::Comparison& x : parts.comparisons) c.require(x);
            return c;
        };
        if (has_goal) f.goal = condition(goal);
        for (Named& g : named) {
            goap::Goal out{std::move(g.name), condition(g.condition), g.priority, condition(g.when)};
            if (!g.priority_var.empty()) {
                out.priority_var = f.domain.find_variable(g.priority_var);
                out.priority_scale = g.scale;
                out.priority_offset = g.offset;
            }
            out.retry = g.retry;
            f.goals.push_back(std::move(out));
        }
        m_out.atom_place.resize(n);
        for (std::size_t i = 0; i < n && i < m_atom_paths.size(); ++i) defer(m_atom_paths[i], Target::Atom, i);
    }

    // Where errors and fields are in the text is found once, at the end, for all of them: one scan of the
    // text (a look-up of each alone scans the text from its start, quadratic in the number of fields).
    enum class Target : unsigned char { Action, Goal, Goals, Atom, Error };
    struct Pending {
        JsonPath path;
        Target target;
        std::size_t index;
    };
    void defer(JsonPath path, Target target, std::size_t index) { m_pending.push_back(Pending{std::move(path), target, index}); }

    // Each pending place: the field's key (or value), else its deepest enclosing field in the text.
    void resolve_places() {
        std::vector<JsonPath> paths;
        paths.reserve(m_pending.size());
        for (Pending& p : m_pending) paths.push_back(std::move(p.path));
        const std::vector<TextPosition> at = positions_of(m_text, locate_all(m_text, paths));
        for (std::size_t i = 0; i < m_pending.size(); ++i) {
            const Pending& p = m_pending[i];
            Place place{at[i].line, at[i].column, format_json_path(paths[i])};
            switch (p.target) {
                case Target::Action: m_out.action_place[p.index] = std::move(place); break;
                case Target::Goal: m_out.goal_place = std::move(place); break;
                case Target::Goals: m_out.goals_place[p.index] = std::move(place); break;
                case Target::Atom:
                    if (p.index < m_out.atom_place.size()) m_out.atom_place[p.index] = std::move(place);
                    break;
                case Target::Error: {
                    const LoadError& e = m_out.errors[p.index];
                    m_out.errors[p.index] = LoadError(m_file, place.line, place.column, place.field, e.message());
                    break;
                }
            }
        }
        m_pending.clear();
    }

    void error(const JsonPath& path, const std::string& message) {
        m_out.errors.emplace_back(m_file, 0, 0, format_json_path(path), message);
        defer(path, Target::Error, m_out.errors.size() - 1);
    }
    // Records the error and skips the rest of the item (caught by `attempt`).
    [[noreturn]] void fail(const JsonPath& path, const std::string& message) {
        error(path, message);
        throw Skip{};
    }
    // JsonValueReader's checks are const; the reader itself is never const, so this records the error too.
    [[noreturn]] void fail(const JsonPath& path, const std::string& message) const {
        const_cast<TolerantJson*>(this)->fail(path, message);
    }
    // Runs `fn`; false if it failed (its error recorded).
    template <class Fn>
    bool attempt(Fn&& fn) {
        try {
            fn();
            return true;
        } catch (const Skip&) {
            return false;
        }
    }

    void keys(const Json& object, const JsonPath& path, std::initializer_list<std::string_view> known) {
        std::vector<std::string> names(known.begin(), known.end());
        for (const auto& [key, value] : object.items()) {
            if (!key.empty() && key[0] == '_') continue;
            bool ok = false;
            for (const std::string_view k : known) ok |= key == k;
            if (ok) continue;
            std::string list;
            for (const std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
            const std::string guess = closest_name(key, names);
            error(path / key, "unknown field" + (guess.empty() ? std::string() : " (did you mean '" + guess + "'?)") +
                                  " (expected one of: " + list + "; keys starting with '_' are ignored)");
        }
    }

    void note(goap::AtomId id, const JsonPath& path) {
        if (m_atom_paths.size() <= id.value) m_atom_paths.resize(id.value + 1);
        if (m_atom_paths[id.value].empty() && !path.empty()) m_atom_paths[id.value] = path;
    }

    goap::AtomId atom(const std::string& name, const JsonPath& path) {
        if (name.empty()) {
            error(path, "atom name must not be empty");
            return {};
        }
        if (!m_declared) {
            const goap::AtomId id = m_builder.add_atom(name);
            note(id, path);
            return id;
        }
        const goap::AtomId id = m_builder.find_atom(name);
        if (!id.valid()) {
            const std::string guess = closest_name(name, m_declared_names);
            error(path, "unknown atom '" + printable(name) + "'" +
                            (guess.empty() ? std::string(" (not listed in \"atoms\")") : " (did you mean '" + printable(guess) + "'?)"));
        } else {
            note(id, path);
        }
        return id;
    }

    // ---- variables: the rules of domain_json.cpp, each error recorded and its item skipped ----------


    void read_variables(const Json& vars, const JsonPath& p) {
        if (!vars.is_object()) {
            error(p, "must be an object mapping variable names to {\"min\": int, \"max\": int} or {\"values\": [names]}");
            return;
        }
        for (const auto& item : vars.items()) attempt([&] {
            const std::string& name = item.key();
            const Json& spec = item.value();
            const JsonPath vp = p / name;
            if (name.empty()) fail(vp, "variable name must not be empty");
            if (m_builder.find_atom(name).valid()) fail(vp, "'" + printable(name) + "' is already an atom");
            if (!spec.is_object()) fail(vp, "must be an object {\"min\": int, \"max\": int} or {\"values\": [names]}");
            keys(spec, vp, {"min", "max", "values", "shared"});
            bool shared = false;
            if (spec.contains("shared")) {
                if (!spec["shared"].is_boolean()) fail(vp / "shared", "must be true or false");
                shared = spec["shared"].get<bool>();
            }
            VarInfo info = variable_spec(spec, vp, name, shared, m_builder);
            m_vars.emplace(name, std::move(info));
            m_var_names.push_back(name);
        });
    }

    const VarInfo* variable(const std::string& name) const {
        const auto it = m_vars.find(name);
        return it == m_vars.end() ? nullptr : &it->second;
    }

    // A key that is not a variable: an atom with true/false, or (when variables exist) an unknown variable.
    bool atom_part(const std::string& key, const Json& value, const JsonPath& at, Parts& out) {
        if (!value.is_boolean() && !m_vars.empty() && (value.is_array() || value.is_number() || value.is_string())) {
            const std::string guess = closest_name(key, m_var_names);
            error(at, "unknown variable '" + printable(key) + "'" +
                          (guess.empty() ? std::string(" (not declared in \"variables\")") : " (did you mean '" + printable(guess) + "'?)"));
            return false;
        }
        const goap::AtomId id = atom(key, at);
        if (!value.is_boolean()) {
            error(at, m_vars.empty() ? std::string("must be true or false")
                                     : std::string("must be true or false (found ") + type_name(value) + ")");
            return false;
        }
        if (!id.valid()) return false;
        out.literals.push_back(goap::Literal{id, value.get<bool>()});
        return true;
    }

    // An object of atoms -> true/false and variables -> what `read_variable(var, key, value, path)` reads
    // (described by `variables_to` in the message for a non-object); every key is checked, all errors
    // recorded.
    template <class ReadVariable>
    bool object_parts(const Json& j, const JsonPath& path, Parts& out, const char* variables_to, ReadVariable read_variable) {
        if (!j.is_object()) {
            error(path, m_vars.empty() ? std::string("must be an object mapping atom names to true/false")
                                       : std::string("must be an object mapping atom names to true/false and variables to ") + variables_to);
            return false;
        }
        bool ok = true;
        for (const auto& item : j.items()) {  // not a structured binding: lambdas capture key and value
            const std::string& key = item.key();
            const Json& value = item.value();
            if (const VarInfo* v = variable(key)) {
                ok &= attempt([&] { read_variable(*v, key, value, path / key); });
                continue;
            }
            ok &= atom_part(key, value, path / key, out);
        }
        return ok;
    }

    // A condition (effect = false) or effects object.
    bool parts(const Json& j, const JsonPath& path, Parts& out, bool effect) {
        return object_parts(j, path, out, "[\"op\", value]", [&](const VarInfo& v, const std::string& key, const Json& value, const JsonPath& at) {
            if (effect) out.effects.push_back(numeric_effect(v, key, value, at));
            else out.comparisons.push_back(comparison(v, key, value, at));
        });
    }

    // "start": atoms -> bool, variables -> a value (kept as `==` comparisons).
    bool start_parts(const Json& j, const JsonPath& path, Parts& out) {
        return object_parts(j, path, out, "values", [&](const VarInfo& v, const std::string& key, const Json& value, const JsonPath& at) {
            if (value.is_array()) fail(at, "a start value is a plain value, not [\"op\", value]");
            if (value.is_boolean()) fail(at, "'" + printable(key) + "' is a variable: expected a value (found a boolean)");
            out.comparisons.push_back(goap::Comparison{v.id, goap::CompareOp::Eq, var_value(v, key, value, at)});
        });
    }

    goap::RetryPolicy retry_policy(const Json& j, const JsonPath& path) {
        if (!j.is_object()) fail(path, std::string("must be an object {\"after_failures\": int, \"cooldown_ticks\": int} (found ") + type_name(j) + ")");
        keys(j, path, {"after_failures", "cooldown_ticks"});
        goap::RetryPolicy r = goap::kDefaultRetry;
        bool ok = true;
        for (const char* key : {"after_failures", "cooldown_ticks"}) {
            if (!j.contains(key)) continue;
            ok &= attempt([&] {
                const std::int32_t v = int32_at(j[key], path / key, "an integer >= 0");
                if (v < 0) fail(path / key, "must be an integer >= 0");
                (std::string_view(key) == "after_failures" ? r.after_failures : r.cooldown_ticks) = static_cast<std::uint32_t>(v);
            });
        }
        if (!ok) throw Skip{};
        return r;
    }

    template <class Goal>
    void priority(const Json& pr, const JsonPath& path, Goal& out) {
        if (pr.is_number()) {
            if (!std::isfinite(pr.get<double>())) fail(path, "must be a finite number");
            out.priority = pr.get<double>();
            return;
        }
        if (!pr.is_object()) fail(path, "must be a finite number or {\"variable\": name, \"scale\": number, \"offset\": number}");
        keys(pr, path, {"variable", "scale", "offset"});
        if (!pr.contains("variable") || !pr["variable"].is_string())
            fail(path / "variable", "missing required field (the name of an integer variable)");
        const std::string name = pr["variable"].get<std::string>();
        const VarInfo* v = variable(name);
        if (!v) {
            const std::string guess = closest_name(name, m_var_names);
            fail(path / "variable", "unknown variable '" + printable(name) + "'" +
                                        (guess.empty() ? std::string(" (not declared in \"variables\")") : " (did you mean '" + printable(guess) + "'?)"));
        }
        if (v->is_enum) fail(path / "variable", "'" + printable(name) + "' is an enumerated variable, not a number");
        for (const char* key : {"scale", "offset"}) {
            if (!pr.contains(key)) continue;
            if (!pr[key].is_number() || !std::isfinite(pr[key].get<double>())) fail(path / key, "must be a finite number");
            (std::string_view(key) == "scale" ? out.scale : out.offset) = pr[key].get<double>();
        }
        out.priority_var = name;
    }

    std::string_view m_text;
    std::string m_file;
    TolerantDomain& m_out;
    goap::DomainBuilder m_builder;
    bool m_declared = false;
    std::vector<std::string> m_declared_names;
    std::vector<JsonPath> m_atom_paths;
    std::unordered_map<std::string, VarInfo> m_vars;
    std::vector<std::string> m_var_names;  // in declaration order, for suggestions
    std::vector<Pending> m_pending;        // places to find at the end of read()
};

}  // namespace

TolerantDomain read_domain_json_tolerant(std::string_view text, std::string_view file_name) {
    TolerantDomain out;
    // The document is built as the strict loader builds it (parse_ordered_json: linear in the number of
    // keys, within the nesting limit); the JSON library's own parser inserts every object member by a
    // linear search, which made a file with one huge object take minutes.
    // Syntax, encoding, nesting and duplicate keys stop reading: the strict loader says where.
    try {
        (void)parse_domain_json(text, file_name);
    } catch (const LoadError& e) {
        Json root;
        bool parsed = false;
        try {
            root = parse_ordered_json(text, kDefaultMaxJsonDepth);
            parsed = !find_duplicate_key(text).found;
        } catch (const nlohmann::json::exception&) {
        } catch (const JsonTooDeep&) {
        } catch (const JsonNumberOverflow&) {
        }
        if (!parsed) {
            out.readable = false;
            out.errors.push_back(e);
            return out;
        }
        TolerantJson(text, file_name, out).read(root);
        if (out.errors.empty()) out.errors.push_back(e);  // a rule only the strict loader knows
        return out;
    }
    const Json root = parse_ordered_json(text, kDefaultMaxJsonDepth);
    TolerantJson(text, file_name, out).read(root);
    return out;
}

}  // namespace gameplan::io::detail
