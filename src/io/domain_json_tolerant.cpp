// The JSON domain rules of domain_json.cpp, applied tolerantly: every error is collected and the valid
// parts are kept (for lint and for reporting all errors of one file).
#include <gameplan/io/domain_csv.hpp>
#include <gameplan/io/domain_json.hpp>

#include "domain_tolerant.hpp"
#include "json_locator.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <unordered_map>

namespace gameplan::io::detail {

namespace {

using Json = nlohmann::ordered_json;

class TolerantJson {
public:
    TolerantJson(std::string_view text, std::string_view file, TolerantDomain& out) : m_text(text), m_file(file), m_out(out) {}

    void read(const Json& root) {
        const JsonPath top;
        if (!root.is_object()) {
            m_out.readable = false;
            error(top, "must be a JSON object");
            return;
        }
        keys(root, top, {"atoms", "shared", "actions", "start", "goal", "goals"});
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
                keys(a, p, {"name", "cost", "preconditions", "effects"});
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
                std::vector<goap::Literal> pre, eff;
                if (a.contains("preconditions")) ok &= literals(a["preconditions"], p / "preconditions", pre);
                if (a.contains("effects")) ok &= literals(a["effects"], p / "effects", eff);
                if (!ok) continue;
                if (m_builder.add_action(name, cost, pre, eff) != goap::DomainError::None) continue;
                m_out.action_place.push_back(place(p / "name"));
            }
        }
        std::vector<goap::Literal> start, goal;
        if (root.contains("start")) (void)literals(root["start"], top / "start", start);
        const bool has_goal = root.contains("goal") && literals(root["goal"], top / "goal", goal);
        if (has_goal) m_out.goal_place = place(top / "goal");
        struct Named {
            std::string name;
            std::vector<goap::Literal> literals;
            double priority;
        };
        std::vector<Named> named;
        if (root.contains("goals")) {
            const JsonPath p = top / "goals";
            const Json& goals = root["goals"];
            if (!goals.is_object()) error(p, "must be an object mapping goal names to {\"conditions\": ..., \"priority\": ...}");
            else
                for (const auto& [name, g] : goals.items()) {
                    const JsonPath gp = p / name;
                    if (name.empty()) {
                        error(gp, "goal name must not be empty");
                        continue;
                    }
                    if (!g.is_object()) {
                        error(gp, "must be an object {\"conditions\": {atom: bool}, \"priority\": number}");
                        continue;
                    }
                    keys(g, gp, {"conditions", "priority"});
                    Named ng{name, {}, 0.0};
                    bool ok = true;
                    if (!g.contains("conditions")) {
                        error(gp / "conditions", "missing required field (an object atom -> bool)");
                        ok = false;
                    } else {
                        ok &= literals(g["conditions"], gp / "conditions", ng.literals);
                    }
                    if (g.contains("priority")) {
                        if (!g["priority"].is_number() || !std::isfinite(g["priority"].get<double>())) {
                            error(gp / "priority", "must be a finite number");
                            ok = false;
                        } else {
                            ng.priority = g["priority"].get<double>();
                        }
                    }
                    if (!ok) continue;
                    named.push_back(std::move(ng));
                    m_out.goals_place.push_back(place(gp));
                }
        }
        DomainFile& f = m_out.file;
        f.domain = m_builder.build();
        const std::size_t n = f.domain.atom_count();
        f.start = goap::WorldState(n);
        for (const goap::Literal& l : start) f.start.set(l.atom, l.value);
        if (has_goal) {
            goap::Condition c(n);
            for (const goap::Literal& l : goal) c.set(l.atom, l.value);
            f.goal = std::move(c);
        }
        for (Named& g : named) {
            goap::Condition c(n);
            for (const goap::Literal& l : g.literals) c.set(l.atom, l.value);
            f.goals.push_back(goap::Goal{std::move(g.name), std::move(c), g.priority});
        }
        m_out.atom_place.resize(n);
        for (std::size_t i = 0; i < n && i < m_atom_paths.size(); ++i) m_out.atom_place[i] = place(m_atom_paths[i]);
    }

private:
    Place place(const JsonPath& path) const {
        JsonPath probe = path;
        for (;;) {
            const JsonLocation loc = locate(m_text, probe);
            if (loc.found) {
                const std::size_t offset = loc.key != std::string_view::npos ? loc.key : loc.begin;
                const TextPosition p = position_of(m_text, offset);
                return Place{p.line, p.column, format_json_path(path)};
            }
            if (probe.empty()) return Place{0, 0, format_json_path(path)};
            probe.pop_back();
        }
    }

    void error(const JsonPath& path, const std::string& message) {
        const Place p = place(path);
        m_out.errors.emplace_back(m_file, p.line, p.column, p.field, message);
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

    bool literals(const Json& j, const JsonPath& path, std::vector<goap::Literal>& out) {
        if (!j.is_object()) {
            error(path, "must be an object mapping atom names to true/false");
            return false;
        }
        bool ok = true;
        for (const auto& [key, value] : j.items()) {
            const goap::AtomId id = atom(key, path / key);
            if (!value.is_boolean()) {
                error(path / key, "must be true or false");
                ok = false;
                continue;
            }
            if (!id.valid()) {
                ok = false;
                continue;
            }
            out.push_back(goap::Literal{id, value.get<bool>()});
        }
        return ok;
    }

    std::string_view m_text;
    std::string m_file;
    TolerantDomain& m_out;
    goap::DomainBuilder m_builder;
    bool m_declared = false;
    std::vector<std::string> m_declared_names;
    std::vector<JsonPath> m_atom_paths;
};

}  // namespace

TolerantDomain read_domain_json_tolerant(std::string_view text, std::string_view file_name) {
    TolerantDomain out;
    // Syntax, encoding and duplicate keys stop reading: the strict loader says where.
    try {
        (void)parse_domain_json(text, file_name);
    } catch (const LoadError& e) {
        Json root;
        bool parsed = false;
        try {
            root = Json::parse(text.begin(), text.end());
            parsed = !find_duplicate_key(text).found;
        } catch (const nlohmann::json::exception&) {
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
    const Json root = Json::parse(text.begin(), text.end());
    TolerantJson(text, file_name, out).read(root);
    return out;
}

}  // namespace gameplan::io::detail
