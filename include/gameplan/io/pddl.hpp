#pragma once
/// @file pddl.hpp
/// PDDL (the International Planning Competition's Planning Domain Definition Language): reading a
/// domain and a problem file, and grounding them into a `goap::Domain`.
///
/// Overview
/// --------
/// The reader accepts the STRIPS fragment and what commonly comes with it: `:strips`, `:typing`
/// (type hierarchies; `either` is refused), `:negative-preconditions`, `:equality`, `:constants`, and
/// `:action-costs` (`(increase (total-cost) N)` with N a number or a static numeric fluent whose value
/// the problem's `:init` gives, and `(:metric minimize (total-cost))`). Every other requirement and
/// construct (`or`, `forall`, `when`, derived predicates, ...) is refused with a `LoadError` naming it,
/// never read as something else. Tokens are case-insensitive (everything is lower-cased), `;` starts a
/// comment.
///
/// `ground_pddl` instantiates the actions that relaxed reachability can reach from the initial state
/// (an action is instantiated only if all its positive preconditions can become true when delete
/// effects are ignored), compiles static facts (those of predicates no action changes) and equality
/// away, and builds a `goap::Domain` whose atoms are named like `(on a b)` and whose actions are named
/// like `(pick-up a)`, lower case. Negative preconditions and negative goals become conditions
/// requiring an atom to be false. Delete-then-add semantics: an atom an action both deletes and adds
/// stays true. Without `(:metric minimize (total-cost))` every action costs 1 (plan length is
/// minimised, as in the planning competitions); with it an action costs the sum of its increases,
/// which may be 0.
///
/// Errors: `LoadError` naming file, line and column. Limits (`PddlLimits`, docs/limits.md) bound the
/// input size, nesting, tokens, parameters, and the ground task's size and grounding work.

#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/world_state.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::io {

/// Limits of the PDDL reader and grounder. Defaults accept every planning-competition task of the
/// STRIPS track that grounds to a few hundred thousand actions.
struct PddlLimits {
    /// Largest domain or problem file, in bytes (16 MiB).
    std::uint64_t max_bytes = std::uint64_t{16} << 20;
    /// Deepest nesting of parentheses (real files nest fewer than 10 levels).
    std::size_t max_depth = 64;
    /// Most tokens (names, numbers, parentheses) of one file.
    std::size_t max_tokens = 4'000'000;
    /// Most parameters of one action schema.
    std::size_t max_parameters = 16;
    /// Most ground atoms of the grounded task.
    std::size_t max_atoms = 1'000'000;
    /// Most ground actions of the grounded task.
    std::size_t max_actions = 1'000'000;
    /// Most candidate bindings the grounder may try in total (bounds its time: about 10-50 ns each).
    std::uint64_t max_grounding_steps = 200'000'000;
    /// Budget for the dense condition tables of the ground domain (32 bytes per action per 64 atoms).
    std::uint64_t max_table_bytes = std::uint64_t{256} << 20;
};

/// A typed name: an action parameter (`?x`), a constant or an object, with its type (`object` when
/// untyped).
struct PddlTypedName {
    std::string name;
    std::string type = "object";
    std::size_t line = 0, column = 0;
};

/// An atom or its negation: `(pred arg...)` or `(not (pred arg...))`. Arguments are variables (`?x`)
/// or constants. The predicate `=` is equality.
struct PddlLiteral {
    std::string predicate;
    std::vector<std::string> args;
    bool positive = true;
    std::size_t line = 0, column = 0;
};

/// A numeric term: a number, or a function applied to arguments (`(road-length ?a ?b)`).
struct PddlNumber {
    bool is_constant = true;
    double constant = 0;
    std::string function;
    std::vector<std::string> args;
    std::size_t line = 0, column = 0;
};

/// An action schema.
struct PddlAction {
    std::string name;
    std::vector<PddlTypedName> parameters;
    std::vector<PddlLiteral> preconditions;
    std::vector<PddlLiteral> add;     ///< positive effects
    std::vector<PddlLiteral> del;     ///< `(not ...)` effects
    std::vector<PddlNumber> increases;  ///< `(increase (total-cost) X)` amounts
    std::size_t line = 0, column = 0;
};

/// A predicate or function declaration.
struct PddlSignature {
    std::string name;
    std::vector<PddlTypedName> parameters;
    std::size_t line = 0, column = 0;
};

/// A parsed domain file.
struct PddlDomain {
    std::string file;  ///< the name errors are reported under
    std::string name;
    std::vector<std::string> requirements;  ///< e.g. ":strips"
    std::vector<PddlTypedName> types;       ///< each type with its parent type
    std::vector<PddlTypedName> constants;
    std::vector<PddlSignature> predicates;
    std::vector<PddlSignature> functions;
    std::vector<PddlAction> actions;
};

/// A ground numeric fluent's value from a problem's `:init`: `(= (f a b) 5)`.
struct PddlFluentValue {
    std::string function;
    std::vector<std::string> args;
    double value = 0;
    std::size_t line = 0, column = 0;
};

/// A parsed problem file.
struct PddlProblem {
    std::string file;  ///< the name errors are reported under
    std::string name;
    std::string domain_name;
    std::vector<PddlTypedName> objects;
    std::vector<PddlLiteral> init;  ///< ground atoms (all positive)
    std::vector<PddlFluentValue> init_values;
    std::vector<PddlLiteral> goal;  ///< ground literals
    bool minimize_total_cost = false;  ///< `(:metric minimize (total-cost))`
};

/// A grounded task, ready for `goap::Planner`.
struct PddlTask {
    goap::Domain domain;      ///< atoms `(on a b)`, actions `(pick-up a)`
    goap::WorldState start;   ///< the initial state
    goap::Condition goal;     ///< the goal
    bool general_cost = false;  ///< the problem minimises total-cost (otherwise every action costs 1)
    std::size_t static_facts = 0;     ///< true static facts of the initial state, compiled away
    std::uint64_t grounding_steps = 0;  ///< candidate bindings tried
};

/// Parses a domain file's text. @throws LoadError (file, line, column) on malformed or unsupported input.
[[nodiscard]] PddlDomain parse_pddl_domain(std::string_view text, std::string_view file, const PddlLimits& limits = {});
/// Parses a problem file's text. @throws LoadError on malformed or unsupported input.
[[nodiscard]] PddlProblem parse_pddl_problem(std::string_view text, std::string_view file, const PddlLimits& limits = {});
/// Grounds a parsed domain and problem (see the file overview). @throws LoadError on names that do not
/// match (unknown predicate, object, type, wrong arity), a missing fluent value, or a limit.
[[nodiscard]] PddlTask ground_pddl(const PddlDomain& domain, const PddlProblem& problem, const PddlLimits& limits = {});
/// Reads, parses and grounds a domain and a problem file.
[[nodiscard]] PddlTask load_pddl(const std::filesystem::path& domain, const std::filesystem::path& problem,
                                 const PddlLimits& limits = {});

}  // namespace gameplan::io
