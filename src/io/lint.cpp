#include <gameplan/goap/explain.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_csv.hpp>
#include <gameplan/io/lint.hpp>

#include "domain_tolerant.hpp"
#include "json_locator.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace gameplan::io {

std::string_view to_string(LintKind kind) noexcept {
    switch (kind) {
        case LintKind::Error: return "error";
        case LintKind::UnknownField: return "unknown_field";
        case LintKind::LikelyTypo: return "likely_typo";
        case LintKind::NeverSet: return "never_set";
        case LintKind::NeverApplies: return "never_applies";
        case LintKind::NoEffect: return "no_effect";
        case LintKind::DuplicateAction: return "duplicate_action";
        case LintKind::UnreachableGoal: return "unreachable_goal";
    }
    return "error";
}

namespace {

// Comparisons and numeric effects of an action as sorted numbers (order carries no meaning), so that
// actions differing only in their numbers are not duplicates.
std::vector<std::int64_t> numeric_key(std::span<const goap::Comparison> cmps, std::span<const goap::NumericEffect> effs) {
    std::vector<std::int64_t> c, e;
    for (const goap::Comparison& x : cmps)
        c.push_back((static_cast<std::int64_t>(x.var.value) << 36) | (static_cast<std::int64_t>(x.op) << 32) | static_cast<std::uint32_t>(x.value));
    for (const goap::NumericEffect& x : effs)
        e.push_back((static_cast<std::int64_t>(x.var.value) << 36) | (static_cast<std::int64_t>(x.op) << 32) | static_cast<std::uint32_t>(x.value));
    std::sort(c.begin(), c.end());
    std::sort(e.begin(), e.end());
    c.push_back(-1);  // separator: comparisons, then effects
    c.insert(c.end(), e.begin(), e.end());
    return c;
}

using detail::printable;

detail::TolerantDomain read_tolerant(std::string_view text, DomainFormat format, std::string_view file_name) {
    return format == DomainFormat::Csv ? detail::read_domain_csv_tolerant(text, file_name)
                                       : detail::read_domain_json_tolerant(text, file_name);
}

LintFinding finding(LintKind kind, const detail::Place& at, std::string message, std::string suggestion = {}) {
    return LintFinding{kind, at.line, at.column, at.field, std::move(message), std::move(suggestion)};
}

std::string quoted_list(const std::vector<std::string>& names, std::size_t max = 5) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < max; ++i) out += (i ? ", '" : "'") + printable(names[i]) + "'";
    if (names.size() > max) out += " and " + std::to_string(names.size() - max) + " more";
    return out;
}

std::string items(const goap::Domain& d, const std::vector<goap::Literal>& literals) {
    std::string out;
    for (const goap::Literal l : literals) out += (out.empty() ? "'" : ", '") + printable(goap::literal_text(d, l)) + "'";
    return out;
}

// A comparison in the cell syntax: `gold>=10`, `place==forest`.
std::string comparison_text(const goap::Domain& d, const goap::Comparison& c) {
    static const char* const ops[] = {"==", "!=", "<", "<=", ">", ">="};
    return d.variable_name(c.var) + ops[static_cast<int>(c.op)] +
           (d.variable_kind(c.var) == goap::VariableKind::Enumeration ? d.variable_values(c.var)[static_cast<std::size_t>(c.value)]
                                                                       : std::to_string(c.value));
}

std::string comparisons(const goap::Domain& d, const std::vector<goap::Comparison>& cs) {
    std::string out;
    for (const goap::Comparison& c : cs) out += (out.empty() ? "'" : ", '") + printable(comparison_text(d, c)) + "'";
    return out;
}

// True if some value of the relaxed range satisfies `c` (goap::relaxed_ranges over-approximates).
bool possible(const goap::RelaxedRange& r, const goap::Comparison& c) {
    switch (c.op) {
        case goap::CompareOp::Eq: return r.min <= c.value && c.value <= r.max;
        case goap::CompareOp::Ne: return !(r.min == c.value && r.max == c.value);
        case goap::CompareOp::Lt: return r.min < c.value;
        case goap::CompareOp::Le: return r.min <= c.value;
        case goap::CompareOp::Gt: return r.max > c.value;
        case goap::CompareOp::Ge: return r.max >= c.value;
    }
    return true;
}

void check_domain(const detail::TolerantDomain& t, const LintOptions& options, std::vector<LintFinding>& out) {
    const DomainFile& f = t.file;
    const goap::Domain& d = f.domain;
    const std::size_t atoms = d.atom_count();
    const std::size_t actions = d.action_count();
    const auto atom_at = [&](goap::AtomId a) { return a.value < t.atom_place.size() ? t.atom_place[a.value] : detail::Place{}; };
    const auto action_at = [&](std::uint32_t a) { return a < t.action_place.size() ? t.action_place[a] : detail::Place{}; };

    // Who reads and who sets each literal (index 2 * atom + value).
    std::vector<std::vector<std::string>> readers(2 * atoms);
    std::vector<bool> set(2 * atoms, false), read_atom(atoms, false), set_atom(atoms, false);
    for (std::uint32_t i = 0; i < actions; ++i) {
        const goap::ActionId a(i);
        for (const goap::Literal l : d.precondition_literals(a)) {
            readers[goap::literal_index(l)].push_back(d.action_name(a));
            read_atom[l.atom.value] = true;
        }
        for (const goap::Literal l : d.effect_literals(a)) {
            set[goap::literal_index(l)] = true;
            set_atom[l.atom.value] = true;
        }
    }
    const auto read_by_goal = [&](const goap::Condition& c, const std::string& name) {
        c.for_each([&](goap::Literal l) {
            readers[goap::literal_index(l)].push_back(name);
            read_atom[l.atom.value] = true;
        });
    };
    if (f.goal) read_by_goal(*f.goal, "the goal");
    for (const goap::Goal& g : f.goals) read_by_goal(g.condition, "goal '" + g.name + "'");

    // Typos and atoms needed but never given.
    std::vector<std::string> names;
    for (std::uint32_t i = 0; i < atoms; ++i) names.push_back(d.atom_name(goap::AtomId(i)));
    for (std::uint32_t i = 0; i < atoms; ++i) {
        const goap::AtomId a(i);
        std::vector<goap::Literal> starved;  // literals read, never set, not given by the start
        for (const bool v : {true, false}) {
            const goap::Literal l{a, v};
            if (!readers[goap::literal_index(l)].empty() && !set[goap::literal_index(l)] && f.start.get(a) != v)
                starved.push_back(l);
        }
        const bool only_read = read_atom[i] && !set_atom[i] && !f.start.get(a);
        const bool only_set = set_atom[i] && !read_atom[i];
        if (only_read || only_set) {
            const std::string guess = closest_name(names[i], names);
            if (!guess.empty()) {
                const goap::AtomId g = d.find_atom(guess);
                // A typo is the odd one out: the suggestion is used the other way (or both ways).
                const bool other_used = only_read ? (set_atom[g.value] || f.start.get(g)) : read_atom[g.value];
                // Read-only 'sees_playr' beside set-only 'sees_player': said once, at the reading side.
                const bool said_there = only_set && read_atom[g.value] && !set_atom[g.value] && !f.start.get(g);
                if (said_there) continue;
                if (other_used) {
                    out.push_back(finding(LintKind::LikelyTypo, atom_at(a),
                                          "atom '" + printable(names[i]) + "' is " +
                                              (only_read ? "read but never set" : "set but never read") + "; did you mean '" +
                                              printable(guess) + "'?",
                                          guess));
                    continue;
                }
            }
        }
        for (const goap::Literal l : starved)
            out.push_back(finding(LintKind::NeverSet, atom_at(a),
                                  std::string("'") + printable(goap::literal_text(d, l)) + "' is needed by " +
                                      quoted_list(readers[goap::literal_index(l)]) + " but no action sets it and the start " +
                                      (l.value ? "does not make it true" : "makes it true")));
    }

    // Actions that can never apply, effects that change nothing, duplicates.
    const std::vector<bool> reached = goap::relaxed_reachable(d, f.start);
    const std::vector<goap::RelaxedRange> ranges = goap::relaxed_ranges(d, f.start);
    std::map<std::tuple<std::vector<std::uint64_t>, std::vector<std::uint64_t>, std::vector<std::uint64_t>, std::vector<std::uint64_t>,
                        std::vector<std::int64_t>>,
             std::uint32_t>
        seen;
    for (std::uint32_t i = 0; i < actions; ++i) {
        const goap::ActionId a(i);
        const std::string name = printable(d.action_name(a));
        std::vector<goap::Literal> blocked;
        for (const goap::Literal l : d.precondition_literals(a))
            if (!reached[goap::literal_index(l)]) blocked.push_back(l);
        std::vector<goap::Comparison> never;
        for (const goap::Comparison& c : d.preconditions(a).comparisons())
            if (!possible(ranges[c.var.value], c)) never.push_back(c);
        if (!blocked.empty() || !never.empty())
            out.push_back(finding(LintKind::NeverApplies, action_at(i),
                                  "action '" + name + "' can never apply from the start state: nothing makes " +
                                      items(d, blocked) + (blocked.empty() || never.empty() ? "" : ", ") +
                                      comparisons(d, never) + " hold"));
        if (d.effect_literals(a).empty() && d.numeric_effects(a).empty()) {
            out.push_back(finding(LintKind::NoEffect, action_at(i), "action '" + name + "' has no effects"));
        } else {
            std::vector<goap::Literal> idle;
            for (const goap::Literal e : d.effect_literals(a)) {
                const goap::Condition& pre = d.preconditions(a);
                if (pre.cares(e.atom) && pre.value(e.atom) == e.value) idle.push_back(e);
            }
            if (!idle.empty())
                out.push_back(finding(LintKind::NoEffect, action_at(i),
                                      "action '" + name + "': effect" + (idle.size() > 1 ? "s " : " ") + items(d, idle) +
                                          " change" + (idle.size() > 1 ? "" : "s") +
                                          " nothing (the action's preconditions already demand " +
                                          (idle.size() > 1 ? "them)" : "it)") +
                                          (idle.size() == d.effect_literals(a).size() && d.numeric_effects(a).empty() ? "; the action does nothing" : "")));
        }
        const goap::Condition& pre = d.preconditions(a);
        const goap::Condition& eff = d.effects(a);
        const auto key = std::make_tuple(std::vector<std::uint64_t>(pre.care().words().begin(), pre.care().words().end()),
                                         std::vector<std::uint64_t>(pre.values().words().begin(), pre.values().words().end()),
                                         std::vector<std::uint64_t>(eff.care().words().begin(), eff.care().words().end()),
                                         std::vector<std::uint64_t>(eff.values().words().begin(), eff.values().words().end()),
                                         numeric_key(pre.comparisons(), d.numeric_effects(a)));
        const auto [it, fresh] = seen.emplace(key, i);
        // Same conditions at another cost is a choice (costs may be overridden per call), not a copy.
        if (!fresh && d.action_cost(a) == d.action_cost(goap::ActionId(it->second))) {
            const detail::Place first = action_at(it->second);
            out.push_back(finding(LintKind::DuplicateAction, action_at(i),
                                  "action '" + name + "' has the same preconditions and effects as '" +
                                      printable(d.action_name(goap::ActionId(it->second))) + "'" +
                                      (first.line ? " (line " + std::to_string(first.line) + ")" : std::string()) +
                                      " and the same cost"));
        }
    }

    // Goals no plan reaches.
    goap::Planner planner(d);
    const auto check_goal = [&](const goap::Condition& c, const std::string& label, const detail::Place& at) {
        const goap::NoPlanAnalysis a = goap::analyze_no_plan(d, f.start, c);
        if (!a.unreachable.empty() || !a.unreachable_comparisons.empty()) {
            std::string m = label + " can never be reached: nothing reaches " + items(d, a.unreachable) +
                            (a.unreachable.empty() || a.unreachable_comparisons.empty() ? "" : ", ") +
                            comparisons(d, a.unreachable_comparisons);
            if (!a.root_causes.empty()) m += "; root cause" + std::string(a.root_causes.size() > 1 ? "s " : " ") +
                                             items(d, a.root_causes) + " (not true at the start, and no action sets " +
                                             (a.root_causes.size() > 1 ? "them)" : "it)");
            for (const goap::NumericBlock& b : a.numeric)
                if (b.root_cause())
                    m += "; root cause '" + printable(comparison_text(d, b.condition)) + "' (no action changes '" +
                         printable(d.variable_name(b.condition.var)) + "' that way" +
                         (d.variable_kind(b.condition.var) == goap::VariableKind::Enumeration
                              ? std::string()
                              : "; it reaches " + std::to_string(b.reachable_min) + ".." + std::to_string(b.reachable_max)) +
                         ")";
            for (const auto& cycle : a.cycles) m += "; " + items(d, cycle) + " only need each other";
            out.push_back(finding(LintKind::UnreachableGoal, at, m));
            return;
        }
        goap::PlanOptions o;
        o.budget.max_expansions = options.plan_budget;
        o.budget.max_memory_bytes = options.plan_memory_bytes;
        o.measure_time = false;
        if (planner.plan(f.start, c, o).status == Status::NoPath)
            out.push_back(finding(LintKind::UnreachableGoal, at,
                                  label + " has no plan: each of its items can be reached, but not all together (reaching "
                                          "one undoes another)"));
    };
    if (f.goal) check_goal(*f.goal, "the goal", t.goal_place);
    for (std::size_t i = 0; i < f.goals.size(); ++i)
        check_goal(f.goals[i].condition, "goal '" + printable(f.goals[i].name) + "'",
                   i < t.goals_place.size() ? t.goals_place[i] : detail::Place{});
}

}  // namespace

LintReport lint_domain_text(std::string_view text, DomainFormat format, std::string_view file_name, const LintOptions& options) {
    LintReport report;
    report.file = std::string(file_name);
    const detail::TolerantDomain t = read_tolerant(text, format, file_name);
    report.readable = t.readable;
    for (const LoadError& e : t.errors) {
        const bool unknown_field = e.message().rfind("unknown field", 0) == 0 || e.message().rfind("unknown column", 0) == 0;
        report.findings.push_back(LintFinding{unknown_field ? LintKind::UnknownField : LintKind::Error, e.line(), e.column(),
                                              e.field(), e.message(), {}});
        const std::size_t mean = e.message().find("did you mean '");
        if (mean != std::string::npos) {
            const std::size_t b = mean + 14, end = e.message().find('\'', b);
            if (end != std::string::npos) report.findings.back().suggestion = e.message().substr(b, end - b);
        }
    }
    if (!t.readable) return report;
    check_domain(t, options, report.findings);
    std::stable_sort(report.findings.begin(), report.findings.end(), [](const LintFinding& a, const LintFinding& b) {
        const std::size_t la = a.line ? a.line : SIZE_MAX, lb = b.line ? b.line : SIZE_MAX;
        return la != lb ? la < lb : a.column < b.column;
    });
    return report;
}

LintReport lint_domain_file(const std::filesystem::path& path, const LintOptions& options) {
    std::string text;
    try {
        text = read_text_input(path);
    } catch (const LoadError& e) {
        LintReport r;
        r.file = input_name(path);
        r.readable = false;
        r.findings.push_back(LintFinding{LintKind::Error, e.line(), e.column(), e.field(), e.message(), {}});
        return r;
    }
    return lint_domain_text(text, domain_format_of(path, text), input_name(path), options);
}

std::vector<LoadError> domain_load_errors(std::string_view text, DomainFormat format, std::string_view file_name) {
    return read_tolerant(text, format, file_name).errors;
}

std::string format_finding(const LintReport& report, const LintFinding& f) {
    std::string out = report.file;
    if (f.line) {
        out += ':' + std::to_string(f.line);
        if (f.column) out += ':' + std::to_string(f.column);
    }
    out += ": ";
    if (!f.field.empty()) out += f.field + ": ";
    out += std::string(to_string(f.kind)) + ": " + f.message;
    return out;
}

}  // namespace gameplan::io
