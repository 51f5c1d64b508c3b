#include <gameplan/goap/planner.hpp>

#include "numeric_planner.hpp"
#include "plan_cost.hpp"
#include "state_registry.hpp"
#include "word_search.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace gameplan::goap {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
using detail::PlanCost;
using Clock = std::chrono::steady_clock;

double micros_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}
}  // namespace

// All per-query state. Vectors are sized (or reserved) to the domain's maxima at construction, so a
// query only writes into existing storage; the registry and the search context grow with the largest
// search seen and then stay.
//
// Index spaces: "domain" atoms/literals/actions as in Domain; "compact" atoms c in [0, R) are the
// relevant atoms of the current query (compact literal = 2c + value); "relevant" actions k in [0, K)
// are the relevant enabled actions in declaration order; "search" actions s in [0, S) are the
// relevant actions whose preconditions are reachable from the start.
struct detail::PlannerImpl {
    explicit PlannerImpl(const Domain& d);

    const Domain* domain;
    // Domains with variables are planned by the numeric engine (numeric_planner.hpp); the rest of this
    // struct then stays unused.
    std::unique_ptr<NumericPlanner> numeric;
    std::size_t atoms = 0;
    std::size_t actions = 0;

    // Relevance analysis (domain index space), generation-stamped.
    std::uint32_t generation = 0;
    std::vector<std::uint32_t> literal_stamp;  // 2 * atoms
    std::vector<std::uint32_t> atom_stamp;     // atoms
    std::vector<std::uint32_t> action_stamp;   // actions
    std::vector<std::uint32_t> worklist;       // domain literals
    std::vector<std::uint32_t> compact_of_atom;
    std::vector<std::uint32_t> atom_of_compact;
    std::vector<Literal> goal_literals;

    // Compact model of the query.
    std::size_t relevant_atoms = 0;  // R
    std::size_t words = 1;           // W = max(1, ceil(R / 64))
    std::vector<std::uint32_t> relevant_actions;  // domain ids, sorted
    std::vector<double> relevant_cost;
    std::vector<std::uint32_t> pre_offset, pre_list;  // compact literals, CSR by relevant action
    std::vector<std::uint32_t> eff_offset, eff_list;
    std::vector<std::uint32_t> pre_count;
    std::vector<std::uint32_t> consumer_offset, consumer_list;  // relevant actions, CSR by compact literal
    std::vector<std::uint32_t> consumer_fill;
    std::vector<std::uint32_t> no_pre_actions;
    std::vector<std::uint8_t> goal_literal;  // 2R flags
    std::size_t goal_count = 0;
    std::vector<std::uint64_t> goal_care, goal_values, start_words;  // W each

    // h_max.
    struct HeapEntry {
        double cost;
        std::uint32_t literal;
    };
    std::vector<double> h_start;    // 2R: h_max of each compact literal from the start
    std::vector<double> h_scratch;  // 2R: per-state h_max (forward)
    std::vector<std::uint32_t> remaining;
    std::vector<HeapEntry> heap;

    // Relevant actions as words laid out [pre_care | pre_values | eff_care | eff_values], W each.
    std::vector<std::uint64_t> action_words;
    // The same restricted to actions whose preconditions are reachable from the start; only filled
    // when some relevant action is not (otherwise the search reads the relevant arrays directly).
    std::vector<std::uint32_t> filtered_id;
    std::vector<double> filtered_cost;
    std::vector<std::uint64_t> filtered_words;
    // What the search iterates: either the relevant or the filtered arrays.
    const std::uint32_t* search_id = nullptr;
    const double* search_cost = nullptr;
    const std::uint64_t* search_words = nullptr;
    std::size_t search_count = 0;

    // Bitset form of the relaxed problem, used by h_max_word() when the relevant atoms fit in one word
    // and there are at most 64 relevant actions (K bits): per relevant action its precondition and
    // effect literals as (true atoms, false atoms) masks, and per compact literal the mask of actions
    // it is a precondition of.
    bool word_hmax = false;
    std::uint64_t atom_mask = 0;    // the R relevant atoms
    std::uint64_t action_mask = 0;  // the K relevant actions
    std::uint64_t goal_true = 0, goal_false = 0;
    std::vector<std::uint64_t> pre_true, pre_false, eff_true, eff_false;  // K each
    std::vector<std::uint64_t> consumer_mask;                             // 2R
    // Backward word search with at most 64 search actions: per compact atom, the search actions that
    // set it (bit s = search action s), so a sub-goal is regressed only through actions that touch it.
    // relevant_achievers indexes relevant actions (the search actions when all are reachable);
    // filtered_achievers the filtered list; search_achievers points at the one in use, or is null.
    std::vector<std::uint64_t> relevant_achievers, filtered_achievers;
    const std::uint64_t* search_achievers = nullptr;

    // Start memo (word path): everything compile_start() derives (h_max table, reachable literals and
    // actions, the search action list) is a function of the compiled goal and the start's projection
    // onto the relevant atoms, so when a query repeats both it is reused as is. Exact by construction:
    // the key is the whole projection; compile_goal() and the generic path invalidate it, and a
    // NoPath outcome is never memoised.
    bool start_memo_valid = false;
    std::uint64_t start_memo = 0;
    std::size_t start_memo_search_count = 0;

    // Set by h_max_word<false> from the start: the literals it reaches, the actions that fire.
    std::uint64_t reachable_true = 0, reachable_false = 0, reachable_actions = 0;

    // The goal-dependent part of the compiled query is kept for the next query when goal, enable
    // mask and costs are unchanged (an agent replanning the same goal); only the start-dependent
    // part (start projection, h_max from the start, reachability) is redone.
    bool cache_valid = false;
    Condition cached_goal;
    bool cached_has_enabled = false;
    bool cached_has_costs = false;
    std::vector<std::uint8_t> cached_enabled;
    std::vector<double> cached_costs;

    // Search: states of one word (forward) or one care + one values word (backward) use the word
    // engine; wider states (or force_generic_representation) use the registry and the generic engine.
    detail::WordSearch word_search;
    detail::StateRegistry registry;
    search::SearchContext<PlanCost> context;
    std::vector<std::uint64_t> scratch;  // 4 * max words: current + successor state
    Direction direction = kDefaultDirection;
    Heuristic heuristic = Heuristic::HMax;
    bool one_word = true;
    // LM-cut breaks ties among equal f toward deeper nodes: besides the cost bound h it bounds the
    // remaining number of actions by h / (largest relevant action cost), which keeps the (cost, actions)
    // order admissible. 0 = no length bound (h_max and blind keep the bound 0, as before).
    double length_scale = 0;
    [[nodiscard]] std::uint32_t length_bound(double h) const noexcept {
        if (length_scale == 0 || !(h < kInf)) return 0;
        const double n = std::ceil(h * length_scale - 1e-9);
        return n <= 0 ? 0u : n >= 4e9 ? 4000000000u : static_cast<std::uint32_t>(n);
    }

    // LM-cut (compact index space; facts are the 2R compact literals plus the artificial goal fact 2R;
    // actions are the K relevant actions plus the artificial goal action K whose preconditions are the
    // goal literals).
    std::vector<std::uint32_t> ach_offset, ach_list;  // achievers (relevant actions), CSR by compact literal
    // Effects that matter to LM-cut: literals some relevant action needs or the goal names (others never
    // reach the goal nor the zone), CSR by relevant action.
    std::vector<std::uint32_t> lm_eff_offset, lm_eff_list;
    std::vector<double> lm_cost;                      // K + 1: remaining costs this evaluation
    std::vector<double> lm_value;                     // 2R + 1: h_max of each fact this round
    std::vector<std::uint32_t> lm_pcf;                // K + 1: precondition choice (a fact) or kNoPcf
    std::vector<std::uint8_t> lm_zone;                // 2R + 1: in the goal zone
    std::vector<std::uint8_t> lm_reached;             // 2R + 1: reached before the zone
    std::vector<std::uint8_t> lm_in_cut;              // K + 1
    std::vector<std::uint32_t> lm_remaining;          // K + 1: unsettled preconditions
    std::vector<std::uint32_t> lm_cut, lm_stack;
    std::vector<std::uint32_t> lm_goal;               // goal facts of this evaluation
    std::vector<std::uint32_t> goal_list;             // the query's compact goal literals
    double lm_cut_value(const std::uint64_t* state, const std::uint32_t* goal, std::size_t goal_n,
                        double* landmark_cost = nullptr, double stop_above = kInf, std::uint32_t max_cuts = UINT32_MAX);
    // Deferred LM-cut (either direction on the generic engine): a successor made by action a first gets
    // the parent's landmarks that do not contain a as its h (the parent's cuts stay landmarks of it,
    // with the same cost partition), and its own LM-cut only when it reaches the top of the open list
    // (lm_refine, the spaces' refine_heuristic). Most successors of a node on the optimal cost layer
    // never get there.
    bool lm_defer = false;
    std::vector<std::uint8_t> lm_final;      // per state id: h is the state's own LM-cut value
    std::vector<double> lm_action_share;     // K + 1: cost of the last evaluation's cuts holding the action
    std::vector<std::uint32_t> search_relevant;  // search action -> relevant action index
    std::uint32_t lm_share_node = UINT32_MAX;    // the state lm_action_share and lm_share_h belong to
    double lm_share_h = 0;
    double lm_child_h = 0;                       // the deferred h of the successor being generated
    bool lm_in_expand = false;
    void lm_share(std::uint32_t node);
    // The generic spaces' side of deferral. lm_deferred: called by heuristic() for a new state; true
    // (and lm_child_h is its estimate) when the state is a successor being generated, else the state
    // is marked final and gets its full value. lm_refine: the engine's refine_heuristic. lm_successor:
    // hands the successor made by search action s to `sink` with its estimate set.
    bool lm_deferred(std::uint32_t node) {
        if (node >= lm_final.size()) lm_final.resize(std::max<std::size_t>(2 * lm_final.size(), node + 1u));
        lm_final[node] = lm_in_expand ? 0 : 1;
        return lm_in_expand;
    }
    PlanCost lm_refine(std::uint32_t node, const PlanCost& h) {
        if (!lm_defer || lm_final[node]) return h;
        lm_final[node] = 1;
        lm_share(node);
        if (!(lm_share_h > h.cost)) return h;
        return PlanCost{lm_share_h, length_bound(lm_share_h)};
    }
    template <class Sink>
    void lm_successor(std::size_t s, Sink&& sink) {
        if (!lm_defer) return sink();
        lm_child_h = std::max(0.0, lm_share_h - lm_action_share[search_relevant[s]]);
        lm_in_expand = true;
        sink();
        lm_in_expand = false;
    }
    double lm_cut_regression(const std::uint64_t* g, double* landmark_cost);
    void lm_hmax(const std::uint64_t* state, std::size_t goal_n);

    // Strong stubborn sets (forward search, PlanOptions::pruning). Built per query over the search
    // actions (index s < search_count): their precondition and effect literals (compact literals
    // 2c + value), and per literal the search actions achieving it and those requiring it (CSR).
    // stubborn_set() marks the set of a state (ss_mark[s] == ss_stamp).
    bool prune = false;
    std::vector<std::uint32_t> ss_pre_offset, ss_pre, ss_eff_offset, ss_eff;
    std::vector<std::uint32_t> ss_ach_offset, ss_ach, ss_con_offset, ss_con;
    std::vector<std::uint32_t> ss_mark, ss_work, ss_goal;
    std::uint32_t ss_stamp = 0;
    void build_stubborn();
    bool stubborn_set(const std::uint64_t* state);
    [[nodiscard]] bool pruned(std::size_t s) const noexcept { return ss_mark[s] != ss_stamp; }

    // Set by compile_goal(): some relevant action costs more than kMaxActionCost.
    bool cost_too_large = false;

    // Result.
    Status status = Status::InvalidQuery;
    search::BudgetLimit limit = search::BudgetLimit::None;
    search::SearchStats stats;
    double cost = 0;
    double micros = 0;
    bool measure_time = true;  // the current query's PlanOptions::measure_time
    std::vector<ActionId> plan;
    std::vector<Literal> unreachable;

    Status begin(const WorldState& start, const Condition& goal, const PlanOptions& options);
    Status step(std::uint64_t slice);
    bool cache_hit(const Condition& goal, const PlanOptions& options) const noexcept;
    void compile_goal(const Condition& goal, const PlanOptions& options);
    bool compile_start(const WorldState& start, bool word_path);
    void remember_start(bool by_word) noexcept {
        start_memo_valid = by_word;
        start_memo = start_words[0];
        start_memo_search_count = search_count;
    }
    double h_max(const std::uint64_t* state, double* literal_cost, bool stop_at_goal);
    template <bool kStopAtGoal>
    double h_max_word(std::uint64_t state, double* literal_cost);
    void extract_plan();

    template <class Fn>
    decltype(auto) with_space(Fn&& fn);
};

namespace {

inline bool bit(const std::uint64_t* words, std::size_t i) noexcept { return (words[i >> 6] >> (i & 63)) & 1u; }
inline void set_bit(std::uint64_t* words, std::size_t i) noexcept { words[i >> 6] |= std::uint64_t{1} << (i & 63); }

// The generic engine's spaces (search::SearchContext over registry ids). Only the runtime-width form
// (kW = 0) is instantiated: one-word queries use the word engine's spaces below unless
// force_generic_representation sends them here.
//
// Forward search space: states are complete assignments of the compact atoms (W words).
template <std::size_t kW>
struct ForwardSpace {
    detail::PlannerImpl& p;

    [[nodiscard]] std::size_t width() const noexcept { return kW ? kW : p.words; }
    [[nodiscard]] std::size_t node_bound() const noexcept { return p.registry.size(); }
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return p.registry.budget_bytes(); }

    [[nodiscard]] bool is_goal(search::NodeIndex node) const noexcept {
        const std::uint64_t* s = p.registry.state(node);
        for (std::size_t w = 0; w < width(); ++w)
            if ((s[w] & p.goal_care[w]) != p.goal_values[w]) return false;
        return true;
    }

    [[nodiscard]] PlanCost heuristic(search::NodeIndex node) {
        if (p.heuristic == Heuristic::LmCut) {
            if (p.lm_defer && p.lm_deferred(node)) return PlanCost{p.lm_child_h, p.length_bound(p.lm_child_h)};
            const double h = p.lm_cut_value(p.registry.state(node), p.goal_list.data(), p.goal_list.size());
            return PlanCost{h, p.length_bound(h)};
        }
        if (p.heuristic == Heuristic::Blind) return PlanCost{0, 0};
        return PlanCost{p.h_max(p.registry.state(node), p.h_scratch.data(), true), 0};
    }

    [[nodiscard]] PlanCost refine_heuristic(search::NodeIndex node, const PlanCost& h) { return p.lm_refine(node, h); }

    template <class Sink>
    void expand(search::NodeIndex node, Sink&& sink) {
        const std::size_t W = width();
        if (p.lm_defer && p.lm_share_node != node) p.lm_share(node);  // the start, or a re-expansion
        std::uint64_t* cur = p.scratch.data();
        std::uint64_t* next = cur + W;
        std::memcpy(cur, p.registry.state(node), W * sizeof(std::uint64_t));
        const std::size_t count = p.search_count;
        const std::uint64_t* a = p.search_words;
        const bool prune = p.prune && p.stubborn_set(cur);
        for (std::size_t s = 0; s < count; ++s, a += 4 * W) {
            if (prune && p.pruned(s)) continue;
            bool applicable = true;
            for (std::size_t w = 0; w < W; ++w)
                if ((cur[w] & a[w]) != a[W + w]) {
                    applicable = false;
                    break;
                }
            if (!applicable) continue;
            bool changed = false;
            for (std::size_t w = 0; w < W; ++w) {
                next[w] = (cur[w] & ~a[2 * W + w]) | a[3 * W + w];
                changed |= next[w] != cur[w];
            }
            if (!changed) continue;  // a self-loop never improves a path
            const std::uint32_t id = p.registry.intern<kW>(next);
            if (id == detail::StateRegistry::kFull) return;  // out of memory: the engine stops
            p.lm_successor(s, [&] { sink(id, PlanCost{p.search_cost[s], 1}, p.search_id[s]); });
        }
    }
};

// Backward search space: states are sub-goals, [care | values] (2W words), values within care.
template <std::size_t kW>
struct BackwardSpace {
    detail::PlannerImpl& p;

    [[nodiscard]] std::size_t width() const noexcept { return kW ? kW : p.words; }
    [[nodiscard]] std::size_t node_bound() const noexcept { return p.registry.size(); }
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return p.registry.budget_bytes(); }

    [[nodiscard]] bool is_goal(search::NodeIndex node) const noexcept {
        const std::size_t W = width();
        const std::uint64_t* g = p.registry.state(node);
        for (std::size_t w = 0; w < W; ++w)
            if ((p.start_words[w] & g[w]) != g[W + w]) return false;
        return true;
    }

    [[nodiscard]] PlanCost heuristic(search::NodeIndex node) {
        const std::size_t W = width();
        const std::uint64_t* g = p.registry.state(node);
        if (p.heuristic == Heuristic::Blind) return PlanCost{0, 0};
        if (p.heuristic == Heuristic::LmCut) {
            if (p.lm_defer && p.lm_deferred(node)) return PlanCost{p.lm_child_h, p.length_bound(p.lm_child_h)};
            const double h = p.lm_cut_regression(g, nullptr);
            return PlanCost{h, p.length_bound(h)};
        }
        const double* h = p.h_start.data();
        double best = 0;
        for (std::size_t w = 0; w < W; ++w)
            for (std::uint64_t bits = g[w]; bits; bits &= bits - 1) {
                const std::size_t b = static_cast<std::size_t>(std::countr_zero(bits));
                const std::size_t literal = 2 * (w * 64 + b) + ((g[W + w] >> b) & 1u);
                best = std::max(best, h[literal]);
            }
        return PlanCost{best, 0};
    }

    [[nodiscard]] PlanCost refine_heuristic(search::NodeIndex node, const PlanCost& h) { return p.lm_refine(node, h); }

    template <class Sink>
    void expand(search::NodeIndex node, Sink&& sink) {
        const std::size_t W = width();
        if (p.lm_defer && p.lm_share_node != node) p.lm_share(node);  // the root, or a re-expansion
        std::uint64_t* cur = p.scratch.data();
        std::uint64_t* next = cur + 2 * W;
        std::memcpy(cur, p.registry.state(node), 2 * W * sizeof(std::uint64_t));
        const std::uint64_t* care = cur;
        const std::uint64_t* values = cur + W;
        const std::size_t count = p.search_count;
        const std::uint64_t* a = p.search_words;
        for (std::size_t s = 0; s < count; ++s, a += 4 * W) {
            // Relevance and consistency first: most actions set no literal of the sub-goal, and the
            // one-word case then costs two ANDs.
            std::uint64_t achieved = 0;
            bool ok = true;
            for (std::size_t w = 0; w < W; ++w) {
                const std::uint64_t common = a[2 * W + w] & care[w];
                if (common & (a[3 * W + w] ^ values[w])) {  // the action undoes a sub-goal literal
                    ok = false;
                    break;
                }
                achieved |= common;
            }
            if (!ok || achieved == 0) continue;
            bool changed = false;
            for (std::size_t w = 0; w < W; ++w) {
                const std::uint64_t pre_care = a[w], pre_values = a[W + w], eff_care = a[2 * W + w];
                const std::uint64_t rest = care[w] & ~eff_care;  // sub-goal literals the action leaves alone
                if (pre_care & rest & (pre_values ^ values[w])) {  // precondition contradicts what must persist
                    ok = false;
                    break;
                }
                next[w] = rest | pre_care;
                next[W + w] = (values[w] & rest) | pre_values;
                changed |= next[w] != care[w] || next[W + w] != values[w];
            }
            if (!ok || !changed) continue;
            const std::uint32_t id = p.registry.intern<kW ? 2 * kW : 0>(next);
            if (id == detail::StateRegistry::kFull) return;  // out of memory: the engine stops
            p.lm_successor(s, [&] { sink(id, PlanCost{p.search_cost[s], 1}, p.search_id[s]); });
        }
    }
};

// The word engine's spaces (see word_search.hpp): the same successor order and heuristics as the
// generic spaces above, on keys held in registers.
struct ForwardWordSpace {
    detail::PlannerImpl& p;
    std::uint64_t goal_care, goal_values;

    [[nodiscard]] bool is_goal(std::uint64_t s, std::uint64_t) const noexcept { return (s & goal_care) == goal_values; }
    [[nodiscard]] std::uint32_t length_bound(double h) const noexcept { return p.length_bound(h); }

    [[nodiscard]] double heuristic(std::uint64_t s, std::uint64_t) {
        if (p.heuristic == Heuristic::LmCut) return p.lm_cut_value(&s, p.goal_list.data(), p.goal_list.size());
        if (p.heuristic == Heuristic::Blind) return 0;
        return p.word_hmax ? p.h_max_word<true>(s, p.h_scratch.data()) : p.h_max(&s, p.h_scratch.data(), true);
    }

    template <class Sink>
    void expand(std::uint64_t s, std::uint64_t, Sink&& sink) const {
        const std::size_t count = p.search_count;
        const std::uint64_t* a = p.search_words;
        const bool prune = p.prune && p.stubborn_set(&s);
        for (std::size_t k = 0; k < count; ++k, a += 4) {
            if (prune && p.pruned(k)) continue;
            if ((s & a[0]) != a[1]) continue;
            const std::uint64_t next = (s & ~a[2]) | a[3];
            if (next == s) continue;  // a self-loop never improves a path
            sink(next, std::uint64_t{0}, p.search_cost[k], p.search_id[k]);
        }
    }
};

struct BackwardWordSpace {
    detail::PlannerImpl& p;
    std::uint64_t start;

    [[nodiscard]] bool is_goal(std::uint64_t care, std::uint64_t values) const noexcept { return (start & care) == values; }
    [[nodiscard]] std::uint32_t length_bound(double h) const noexcept { return p.length_bound(h); }

    // Only literals the start does not satisfy can raise the maximum (the others cost 0), and those are
    // all reached by h_max from the start (goal literals were checked, the others are preconditions of
    // reachable actions), so h_start holds their costs.
    [[nodiscard]] double heuristic(std::uint64_t care, std::uint64_t values) const noexcept {
        if (p.heuristic == Heuristic::Blind) return 0;
        if (p.heuristic == Heuristic::LmCut) {
            p.lm_goal.clear();
            for (std::uint64_t bits = care; bits; bits &= bits - 1) {
                const unsigned b = static_cast<unsigned>(std::countr_zero(bits));
                p.lm_goal.push_back(2 * b + static_cast<std::uint32_t>((values >> b) & 1u));
            }
            return p.lm_cut_value(p.start_words.data(), p.lm_goal.data(), p.lm_goal.size());
        }
        const double* h = p.h_start.data();
        double best = 0;
        for (std::uint64_t bits = care & (start ^ values); bits; bits &= bits - 1) {
            const unsigned b = static_cast<unsigned>(std::countr_zero(bits));
            best = std::max(best, h[2 * b + ((values >> b) & 1u)]);
        }
        return best;
    }

    template <class Sink>
    void expand(std::uint64_t care, std::uint64_t values, Sink&& sink) const {
        const auto regress = [&](std::size_t k) {
            const std::uint64_t* a = p.search_words + 4 * k;
            const std::uint64_t pre_care = a[0], pre_values = a[1], eff_care = a[2], eff_values = a[3];
            const std::uint64_t common = eff_care & care;
            // Relevance and consistency: the action must set a sub-goal literal and undo none.
            if (common == 0 || (common & (eff_values ^ values)) != 0) return;
            const std::uint64_t rest = care & ~eff_care;  // sub-goal literals the action leaves alone
            if (pre_care & rest & (pre_values ^ values)) return;  // precondition contradicts them
            const std::uint64_t next_care = rest | pre_care;
            const std::uint64_t next_values = (values & rest) | pre_values;
            if (next_care == care && next_values == values) return;
            sink(next_care, next_values, p.search_cost[k], p.search_id[k]);
        };
        if (p.search_achievers) {  // only actions that set a sub-goal atom, still in declaration order
            std::uint64_t candidates = 0;
            for (std::uint64_t bits = care; bits; bits &= bits - 1) candidates |= p.search_achievers[std::countr_zero(bits)];
            for (; candidates; candidates &= candidates - 1) regress(static_cast<std::size_t>(std::countr_zero(candidates)));
            return;
        }
        for (std::size_t k = 0; k < p.search_count; ++k) regress(k);
    }
};

}  // namespace

detail::PlannerImpl::PlannerImpl(const Domain& d) : domain(&d), atoms(d.atom_count()), actions(d.action_count()) {
    if (d.has_variables()) numeric = std::make_unique<NumericPlanner>(d);
    std::size_t pre_total = 0, eff_total = 0;
    for (std::uint32_t a = 0; a < actions; ++a) {
        pre_total += d.precondition_literals(ActionId(a)).size();
        eff_total += d.effect_literals(ActionId(a)).size();
    }
    const std::size_t max_words = std::max<std::size_t>(1, words_for_atoms(atoms));
    literal_stamp.assign(2 * atoms, 0);
    atom_stamp.assign(atoms, 0);
    action_stamp.assign(actions, 0);
    worklist.reserve(2 * atoms);
    compact_of_atom.assign(atoms, 0);
    atom_of_compact.reserve(atoms);
    relevant_actions.reserve(actions);
    relevant_cost.reserve(actions);
    pre_offset.reserve(actions + 1);
    eff_offset.reserve(actions + 1);
    pre_list.reserve(pre_total);
    eff_list.reserve(eff_total);
    pre_count.reserve(actions);
    consumer_offset.reserve(2 * atoms + 1);
    consumer_fill.reserve(2 * atoms + 1);
    consumer_list.reserve(pre_total);
    no_pre_actions.reserve(actions);
    goal_literal.reserve(2 * atoms);
    goal_care.reserve(max_words);
    goal_values.reserve(max_words);
    start_words.reserve(max_words);
    h_start.reserve(2 * atoms);
    h_scratch.reserve(2 * atoms);
    remaining.reserve(actions);
    heap.reserve(eff_total + 1);
    action_words.reserve(actions * 4 * max_words);
    filtered_id.reserve(actions);
    filtered_cost.reserve(actions);
    filtered_words.reserve(actions * 4 * max_words);
    pre_true.reserve(std::min<std::size_t>(actions, 64));
    pre_false.reserve(std::min<std::size_t>(actions, 64));
    eff_true.reserve(std::min<std::size_t>(actions, 64));
    eff_false.reserve(std::min<std::size_t>(actions, 64));
    consumer_mask.reserve(std::min<std::size_t>(2 * atoms, 128));
    relevant_achievers.reserve(std::min<std::size_t>(atoms, 64));
    filtered_achievers.reserve(std::min<std::size_t>(atoms, 64));
    cached_goal = Condition(atoms);
    cached_enabled.assign(actions, 0);
    cached_costs.assign(actions, 0.0);
    scratch.assign(4 * max_words, 0);
    plan.reserve(64);
    unreachable.reserve(atoms);
    goal_literals.reserve(atoms);
    ach_offset.reserve(2 * atoms + 2);
    lm_eff_offset.reserve(actions + 1);
    lm_eff_list.reserve(eff_total);
    ach_list.reserve(eff_total);
    lm_cost.reserve(actions + 1);
    lm_value.reserve(2 * atoms + 1);
    lm_pcf.reserve(actions + 1);
    lm_zone.reserve(2 * atoms + 1);
    lm_reached.reserve(2 * atoms + 1);
    lm_in_cut.reserve(actions + 1);
    lm_remaining.reserve(actions + 1);
    lm_cut.reserve(actions + 1);
    lm_stack.reserve(2 * atoms + actions + 2);
    lm_goal.reserve(atoms);
    goal_list.reserve(atoms);
    heap.reserve(eff_total + 2 * atoms + actions + 2);
}

// h_max over the compact relaxed problem from `state` (W words), written to cost[0, 2R). A
// generalised Dijkstra: literals are settled in nondecreasing cost; an action fires when its last
// precondition settles, at that precondition's cost (= the max over its preconditions) plus its own.
// With stop_at_goal the pass ends when the last goal literal settles; the result is that literal's
// cost (the max over the goal), or infinity if some goal literal is unreachable.
double detail::PlannerImpl::h_max(const std::uint64_t* state, double* literal_cost, bool stop_at_goal) {
    const std::size_t R = relevant_atoms;
    std::fill(literal_cost, literal_cost + 2 * R, kInf);
    std::copy(pre_count.begin(), pre_count.end(), remaining.begin());
    heap.clear();
    std::size_t goal_left = goal_count;
    if (goal_left == 0 && stop_at_goal) return 0;
    double h = 0;
    const auto heap_order = [](const HeapEntry& x, const HeapEntry& y) { return x.cost > y.cost; };
    const auto fire = [&](std::uint32_t k, double at) {
        const double v = at + relevant_cost[k];
        for (std::uint32_t i = eff_offset[k]; i < eff_offset[k + 1]; ++i) {
            const std::uint32_t e = eff_list[i];
            if (v < literal_cost[e]) {
                literal_cost[e] = v;
                heap.push_back(HeapEntry{v, e});
                std::push_heap(heap.begin(), heap.end(), heap_order);
            }
        }
    };
    // Returns true when the goal is complete and the caller may stop.
    const auto settle = [&](std::uint32_t literal, double at) {
        if (goal_literal[literal]) {
            h = at;
            if (--goal_left == 0 && stop_at_goal) return true;
        }
        for (std::uint32_t i = consumer_offset[literal]; i < consumer_offset[literal + 1]; ++i) {
            const std::uint32_t k = consumer_list[i];
            if (--remaining[k] == 0) fire(k, at);
        }
        return false;
    };
    for (std::size_t c = 0; c < R; ++c) literal_cost[2 * c + (bit(state, c) ? 1 : 0)] = 0;
    for (const std::uint32_t k : no_pre_actions) fire(k, 0);
    for (std::size_t c = 0; c < R; ++c)
        if (settle(static_cast<std::uint32_t>(2 * c + (bit(state, c) ? 1 : 0)), 0)) return h;
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), heap_order);
        const HeapEntry top = heap.back();
        heap.pop_back();
        if (top.cost > literal_cost[top.literal]) continue;  // stale: improved after it was pushed
        if (settle(top.literal, top.cost)) return h;
    }
    return goal_left == 0 ? h : kInf;
}

// h_max over the bitset form of the relaxed problem, for one-word queries with at most 64 relevant
// actions; the same values as h_max() (every literal cost is some action's cost plus the largest cost
// of its preconditions, computed with the same additions), found by settling literals in batches of
// equal cost: each round settles every tentative literal at the smallest tentative cost, then fires
// the not-yet-fired actions that consume a newly settled literal and whose preconditions are now all
// settled. No per-call clearing: only literals in the tentative mask have meaningful costs.
// kStopAtGoal: return h_max of the goal (infinity if unreachable) as soon as it is settled.
// Otherwise: run to the end, set reachable_true / reachable_false (the literals reached) and
// reachable_actions (the actions that fired), and return 0. literal_cost then holds the cost of every
// reached literal the state does not satisfy; the others (cost 0, or unreachable) are not written.
template <bool kStopAtGoal>
double detail::PlannerImpl::h_max_word(std::uint64_t state, double* literal_cost) {
    std::uint64_t settled_true = state & atom_mask, settled_false = ~state & atom_mask;
    std::uint64_t tentative_true = 0, tentative_false = 0;
    std::uint64_t unfired = action_mask;
    std::uint64_t candidates = action_mask;  // the first round looks at every action
    double level = 0;
    const auto improve = [&](std::uint64_t literals, std::uint64_t& tentative, std::size_t value, double v) {
        for (; literals; literals &= literals - 1) {
            const unsigned b = static_cast<unsigned>(std::countr_zero(literals));
            const std::uint64_t bit = std::uint64_t{1} << b;
            double& cost = literal_cost[2 * b + value];
            if (!(tentative & bit) || v < cost) {
                cost = v;
                tentative |= bit;
            }
        }
    };
    for (;;) {
        if constexpr (kStopAtGoal)
            if (((goal_true & ~settled_true) | (goal_false & ~settled_false)) == 0) return level;
        for (std::uint64_t bits = candidates & unfired; bits; bits &= bits - 1) {
            const unsigned k = static_cast<unsigned>(std::countr_zero(bits));
            if ((pre_true[k] & ~settled_true) | (pre_false[k] & ~settled_false)) continue;
            unfired &= ~(std::uint64_t{1} << k);
            const double v = level + relevant_cost[k];
            improve(eff_true[k] & ~settled_true, tentative_true, 1, v);
            improve(eff_false[k] & ~settled_false, tentative_false, 0, v);
        }
        if ((tentative_true | tentative_false) == 0) break;
        double best = kInf;
        std::uint64_t batch_true = 0, batch_false = 0;
        for (std::uint64_t bits = tentative_true; bits; bits &= bits - 1) {
            const unsigned b = static_cast<unsigned>(std::countr_zero(bits));
            const double c = literal_cost[2 * b + 1];
            if (c < best) {
                best = c;
                batch_true = 0;
            }
            if (c == best) batch_true |= std::uint64_t{1} << b;
        }
        for (std::uint64_t bits = tentative_false; bits; bits &= bits - 1) {
            const unsigned b = static_cast<unsigned>(std::countr_zero(bits));
            const double c = literal_cost[2 * b];
            if (c < best) {
                best = c;
                batch_true = 0;
                batch_false = 0;
            }
            if (c == best) batch_false |= std::uint64_t{1} << b;
        }
        level = best;
        settled_true |= batch_true;
        settled_false |= batch_false;
        tentative_true &= ~batch_true;
        tentative_false &= ~batch_false;
        candidates = 0;
        for (std::uint64_t bits = batch_true; bits; bits &= bits - 1)
            candidates |= consumer_mask[2 * static_cast<unsigned>(std::countr_zero(bits)) + 1];
        for (std::uint64_t bits = batch_false; bits; bits &= bits - 1)
            candidates |= consumer_mask[2 * static_cast<unsigned>(std::countr_zero(bits))];
    }
    if constexpr (kStopAtGoal) {
        return kInf;
    } else {
        reachable_actions = action_mask & ~unfired;
        reachable_true = settled_true;
        reachable_false = settled_false;
        return 0;
    }
}

// One h_max pass of LM-cut with the current costs lm_cost: lm_value for every fact (the goal fact 2R
// included), lm_pcf for every action that fires (its precondition of largest value, the last one to
// settle; kNoPcf for actions without preconditions, and unfired actions keep kUnfired). Runs to the end
// (no early stop): the cut must see every action a relaxed plan may use.
namespace {
constexpr std::uint32_t kNoPcf = UINT32_MAX - 1;
constexpr std::uint32_t kUnfired = UINT32_MAX;
}  // namespace

void detail::PlannerImpl::lm_hmax(const std::uint64_t* state, std::size_t goal_n) {
    const std::size_t R = relevant_atoms;
    const std::size_t K = relevant_actions.size();
    const std::uint32_t goal_fact = static_cast<std::uint32_t>(2 * R);
    std::fill(lm_value.begin(), lm_value.end(), kInf);
    std::fill(lm_pcf.begin(), lm_pcf.end(), kUnfired);
    std::copy(pre_count.begin(), pre_count.end(), lm_remaining.begin());
    lm_remaining[K] = static_cast<std::uint32_t>(goal_n);
    heap.clear();
    const auto heap_order = [](const HeapEntry& x, const HeapEntry& y) { return x.cost > y.cost; };
    const auto push = [&](std::uint32_t f, double v) {
        if (v < lm_value[f]) {
            lm_value[f] = v;
            heap.push_back(HeapEntry{v, f});
            std::push_heap(heap.begin(), heap.end(), heap_order);
        }
    };
    const auto fire = [&](std::uint32_t k, double at, std::uint32_t pcf) {
        lm_pcf[k] = pcf;
        if (k == K) {
            push(goal_fact, at);
            return;
        }
        const double v = at + lm_cost[k];
        for (std::uint32_t i = lm_eff_offset[k]; i < lm_eff_offset[k + 1]; ++i) push(lm_eff_list[i], v);
    };
    for (std::size_t c = 0; c < R; ++c) push(static_cast<std::uint32_t>(2 * c + (bit(state, c) ? 1 : 0)), 0);
    for (const std::uint32_t k : no_pre_actions) fire(k, 0, kNoPcf);
    if (goal_n == 0) fire(static_cast<std::uint32_t>(K), 0, kNoPcf);
    // Goal-action consumers: a goal literal may repeat nothing (each literal once), so count down per
    // settled literal that is a goal of this evaluation (lm_zone doubles as the "is a goal" flag here).
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), heap_order);
        const HeapEntry top = heap.back();
        heap.pop_back();
        if (top.cost > lm_value[top.literal]) continue;
        const std::uint32_t f = top.literal;
        if (f == goal_fact) continue;
        if (lm_zone[f] && --lm_remaining[K] == 0) fire(static_cast<std::uint32_t>(K), top.cost, f);
        for (std::uint32_t i = consumer_offset[f]; i < consumer_offset[f + 1]; ++i) {
            const std::uint32_t k = consumer_list[i];
            if (--lm_remaining[k] == 0) fire(k, top.cost, f);
        }
    }
}

// LM-cut from `state` (compact words) to the conjunction of the compact literals goal[0, goal_n)
// (distinct literals). Infinity when the goal is unreachable in the relaxation.
// The LM-cut value of `state` into lm_action_share (each relevant action's share of the cuts) and
// lm_share_h, remembered as belonging to `node`.
void detail::PlannerImpl::lm_share(std::uint32_t node) {
    std::fill(lm_action_share.begin(), lm_action_share.end(), 0.0);
    lm_share_h = direction == Direction::Forward
                     ? lm_cut_value(registry.state(node), goal_list.data(), goal_list.size(), lm_action_share.data())
                     : lm_cut_regression(registry.state(node), lm_action_share.data());
    lm_share_node = node;
}

// LM-cut from the start to the sub-goal `g` ([care | values], W words each).
double detail::PlannerImpl::lm_cut_regression(const std::uint64_t* g, double* landmark_cost) {
    const std::size_t W = words;
    lm_goal.clear();
    for (std::size_t w = 0; w < W; ++w)
        for (std::uint64_t bits = g[w]; bits; bits &= bits - 1) {
            const std::size_t b = static_cast<std::size_t>(std::countr_zero(bits));
            lm_goal.push_back(static_cast<std::uint32_t>(2 * (w * 64 + b) + ((g[W + w] >> b) & 1u)));
        }
    return lm_cut_value(start_words.data(), lm_goal.data(), lm_goal.size(), landmark_cost);
}

// stop_above / max_cuts: return early, with the sum so far (a lower bound of the value), once it
// exceeds stop_above or after max_cuts cuts.
double detail::PlannerImpl::lm_cut_value(const std::uint64_t* state, const std::uint32_t* goal, std::size_t goal_n,
                                         double* landmark_cost, double stop_above, std::uint32_t max_cuts) {
    const std::size_t R = relevant_atoms;
    const std::size_t K = relevant_actions.size();
    const std::uint32_t goal_fact = static_cast<std::uint32_t>(2 * R);
    std::copy(relevant_cost.begin(), relevant_cost.end(), lm_cost.begin());
    lm_cost[K] = 0;
    double h = 0;
    std::fill(lm_zone.begin(), lm_zone.end(), std::uint8_t{0});
    for (std::size_t i = 0; i < goal_n; ++i) lm_zone[goal[i]] = 1;  // goal flags for lm_hmax
    lm_hmax(state, goal_n);
    if (lm_value[goal_fact] == kInf) return kInf;
    const auto heap_order = [](const HeapEntry& x, const HeapEntry& y) { return x.cost > y.cost; };
    const auto lower = [&](std::uint32_t f, double v) {
        if (v < lm_value[f]) {
            lm_value[f] = v;
            heap.push_back(HeapEntry{v, f});
            std::push_heap(heap.begin(), heap.end(), heap_order);
        }
    };
    for (;;) {
        const double hg = lm_value[goal_fact];
        if (hg <= 0) return h;
        // Goal zone: facts from which the goal fact is reached through zero-cost actions in the
        // justification graph (edges pcf(k) -> effects of k).
        std::fill(lm_zone.begin(), lm_zone.end(), std::uint8_t{0});
        lm_zone[goal_fact] = 1;
        lm_stack.clear();
        // The goal action (cost 0) is the goal fact's only achiever.
        if (lm_pcf[K] != kNoPcf && lm_pcf[K] != kUnfired && !lm_zone[lm_pcf[K]]) {
            lm_zone[lm_pcf[K]] = 1;
            lm_stack.push_back(lm_pcf[K]);
        }
        while (!lm_stack.empty()) {
            const std::uint32_t f = lm_stack.back();
            lm_stack.pop_back();
            for (std::uint32_t i = ach_offset[f]; i < ach_offset[f + 1]; ++i) {
                const std::uint32_t k = ach_list[i];
                const std::uint32_t pcf = lm_pcf[k];
                if (lm_cost[k] != 0 || pcf == kUnfired || pcf == kNoPcf || lm_zone[pcf]) continue;
                lm_zone[pcf] = 1;
                lm_stack.push_back(pcf);
            }
        }
        // Facts reached from the state without entering the zone; the cut is the actions leaving them
        // into the zone.
        std::fill(lm_reached.begin(), lm_reached.end(), std::uint8_t{0});
        lm_cut.clear();
        lm_stack.clear();
        const auto visit_action = [&](std::uint32_t k) {
            for (std::uint32_t i = lm_eff_offset[k]; i < lm_eff_offset[k + 1]; ++i) {
                const std::uint32_t e = lm_eff_list[i];
                if (lm_zone[e]) {
                    if (!lm_in_cut[k]) {
                        lm_in_cut[k] = 1;
                        lm_cut.push_back(k);
                    }
                } else if (!lm_reached[e]) {
                    lm_reached[e] = 1;
                    lm_stack.push_back(e);
                }
            }
        };
        for (std::size_t c = 0; c < R; ++c) {
            const std::uint32_t f = static_cast<std::uint32_t>(2 * c + (bit(state, c) ? 1 : 0));
            if (!lm_zone[f] && !lm_reached[f]) {
                lm_reached[f] = 1;
                lm_stack.push_back(f);
            }
        }
        for (const std::uint32_t k : no_pre_actions) visit_action(k);
        while (!lm_stack.empty()) {
            const std::uint32_t f = lm_stack.back();
            lm_stack.pop_back();
            for (std::uint32_t i = consumer_offset[f]; i < consumer_offset[f + 1]; ++i) {
                const std::uint32_t k = consumer_list[i];
                if (lm_pcf[k] == f) visit_action(k);
            }
        }
        double m = kInf;
        for (const std::uint32_t k : lm_cut) m = std::min(m, lm_cost[k]);
        for (const std::uint32_t k : lm_cut) {
            lm_cost[k] -= m;
            lm_in_cut[k] = 0;
        }
        if (!(m > 0) || m == kInf) return h;  // cannot happen with exact costs; never loop
        h += m;
        if (landmark_cost)
            for (const std::uint32_t k : lm_cut) landmark_cost[k] += m;
        if (h > stop_above || --max_cuts == 0) return h;
        // Incremental h_max: only the cut actions became cheaper, so values only fall; propagate the
        // decreases from their effects in cost order, re-choosing the precondition choice of every
        // action whose chosen precondition fell (its maximum may now be another precondition).
        heap.clear();
        for (const std::uint32_t k : lm_cut) {
            const double v = (lm_pcf[k] == kNoPcf ? 0.0 : lm_value[lm_pcf[k]]) + lm_cost[k];
            for (std::uint32_t i = lm_eff_offset[k]; i < lm_eff_offset[k + 1]; ++i) lower(lm_eff_list[i], v);
        }
        while (!heap.empty()) {
            std::pop_heap(heap.begin(), heap.end(), heap_order);
            const HeapEntry top = heap.back();
            heap.pop_back();
            const std::uint32_t f = top.literal;
            if (top.cost > lm_value[f] || f == goal_fact) continue;
            for (std::uint32_t i = consumer_offset[f]; i < consumer_offset[f + 1]; ++i) {
                const std::uint32_t k = consumer_list[i];
                if (lm_pcf[k] != f) continue;
                std::uint32_t best = f;
                for (std::uint32_t j = pre_offset[k]; j < pre_offset[k + 1]; ++j)
                    if (lm_value[pre_list[j]] > lm_value[best]) best = pre_list[j];
                lm_pcf[k] = best;
                const double v = lm_value[best] + lm_cost[k];
                for (std::uint32_t j = lm_eff_offset[k]; j < lm_eff_offset[k + 1]; ++j) lower(lm_eff_list[j], v);
            }
            if (lm_pcf[K] == f) {
                std::uint32_t best = f;
                for (std::size_t i = 0; i < goal_n; ++i)
                    if (lm_value[goal[i]] > lm_value[best]) best = goal[i];
                lm_pcf[K] = best;
                lm_value[goal_fact] = std::min(lm_value[goal_fact], lm_value[best]);
            }
        }
    }
}

bool detail::PlannerImpl::cache_hit(const Condition& goal, const PlanOptions& options) const noexcept {
    if (!cache_valid) return false;
    // Word by word rather than Condition::operator==, which calls memcmp twice: this runs every query.
    const auto care = goal.care().words(), values = goal.values().words();
    const auto cached_care = cached_goal.care().words(), cached_values = cached_goal.values().words();
    if (care.size() != cached_care.size()) return false;
    for (std::size_t w = 0; w < care.size(); ++w)
        if (care[w] != cached_care[w] || values[w] != cached_values[w]) return false;
    if (options.enabled.empty() != !cached_has_enabled || options.costs.empty() != !cached_has_costs) return false;
    if (!options.enabled.empty() && !std::equal(options.enabled.begin(), options.enabled.end(), cached_enabled.begin()))
        return false;
    // Bitwise, so that a changed NaN-free cost always misses and -0.0 vs 0.0 merely recompiles.
    if (!options.costs.empty() &&
        std::memcmp(options.costs.data(), cached_costs.data(), options.costs.size() * sizeof(double)) != 0)
        return false;
    return true;
}

void detail::PlannerImpl::compile_goal(const Condition& goal, const PlanOptions& options) {
    const Domain& d = *domain;
    if (generation == UINT32_MAX) {
        std::fill(literal_stamp.begin(), literal_stamp.end(), 0u);
        std::fill(atom_stamp.begin(), atom_stamp.end(), 0u);
        std::fill(action_stamp.begin(), action_stamp.end(), 0u);
        generation = 0;
    }
    const std::uint32_t gen = ++generation;

    // 1. Relevance: walk back from the goal literals through enabled achievers.
    worklist.clear();
    relevant_actions.clear();
    cost_too_large = false;
    atom_of_compact.clear();
    const auto mark_literal = [&](Literal l) {
        const std::uint32_t li = literal_index(l);
        if (literal_stamp[li] == gen) return;
        literal_stamp[li] = gen;
        worklist.push_back(li);
        if (atom_stamp[l.atom.value] != gen) {
            atom_stamp[l.atom.value] = gen;
            compact_of_atom[l.atom.value] = static_cast<std::uint32_t>(atom_of_compact.size());
            atom_of_compact.push_back(l.atom.value);
        }
    };
    goal_literals.clear();
    goal.for_each([&](Literal l) {
        goal_literals.push_back(l);
        mark_literal(l);
    });
    while (!worklist.empty()) {
        const std::uint32_t li = worklist.back();
        worklist.pop_back();
        for (const ActionId a : d.achievers(Literal{AtomId(li >> 1), (li & 1u) != 0})) {
            if (action_stamp[a.value] == gen) continue;
            if (!options.enabled.empty() && options.enabled[a.value] == 0) continue;
            action_stamp[a.value] = gen;
            relevant_actions.push_back(a.value);
            for (const Literal& p : d.precondition_literals(a)) mark_literal(p);
        }
    }
    std::sort(relevant_actions.begin(), relevant_actions.end());

    // 2. Compact model.
    const std::size_t R = atom_of_compact.size();
    relevant_atoms = R;
    words = std::max<std::size_t>(1, words_for_atoms(R));
    const std::size_t W = words;
    const auto compact_literal = [&](const Literal& l) {
        return 2 * compact_of_atom[l.atom.value] + (l.value ? 1u : 0u);
    };
    goal_care.assign(W, 0);
    goal_values.assign(W, 0);
    goal_literal.assign(2 * R, 0);
    goal_count = goal_literals.size();
    for (const Literal& l : goal_literals) {
        const std::uint32_t c = compact_of_atom[l.atom.value];
        set_bit(goal_care.data(), c);
        if (l.value) set_bit(goal_values.data(), c);
        goal_literal[compact_literal(l)] = 1;
    }

    // Relevant actions as compact literal lists (for h_max) and as words (for the search) in one pass.
    const std::size_t K = relevant_actions.size();
    relevant_cost.clear();
    pre_offset.assign(1, 0);
    eff_offset.assign(1, 0);
    pre_list.clear();
    eff_list.clear();
    pre_count.clear();
    no_pre_actions.clear();
    consumer_offset.assign(2 * R + 1, 0);
    action_words.assign(K * 4 * W, 0);
    for (std::size_t k = 0; k < K; ++k) {
        const ActionId a(relevant_actions[k]);
        const double c = options.costs.empty() ? d.action_cost(a) : options.costs[a.value];
        if (!(c <= kMaxActionCost)) cost_too_large = true;
        relevant_cost.push_back(c);
        std::uint64_t* words_k = action_words.data() + k * 4 * W;
        for (const Literal& l : d.precondition_literals(a)) {
            const std::uint32_t ca = compact_of_atom[l.atom.value];
            pre_list.push_back(2 * ca + (l.value ? 1u : 0u));
            ++consumer_offset[2 * ca + (l.value ? 1u : 0u) + 1];
            set_bit(words_k, ca);
            if (l.value) set_bit(words_k + W, ca);
        }
        for (const Literal& l : d.effect_literals(a)) {
            if (atom_stamp[l.atom.value] != gen) continue;  // projected away
            const std::uint32_t ca = compact_of_atom[l.atom.value];
            eff_list.push_back(2 * ca + (l.value ? 1u : 0u));
            set_bit(words_k + 2 * W, ca);
            if (l.value) set_bit(words_k + 3 * W, ca);
        }
        pre_offset.push_back(static_cast<std::uint32_t>(pre_list.size()));
        eff_offset.push_back(static_cast<std::uint32_t>(eff_list.size()));
        pre_count.push_back(pre_offset[k + 1] - pre_offset[k]);
        if (pre_count.back() == 0) no_pre_actions.push_back(static_cast<std::uint32_t>(k));
    }
    for (std::size_t l = 0; l < 2 * R; ++l) consumer_offset[l + 1] += consumer_offset[l];
    consumer_fill.assign(consumer_offset.begin(), consumer_offset.end() - 1);
    consumer_list.resize(pre_list.size());
    for (std::size_t k = 0; k < K; ++k)
        for (std::uint32_t i = pre_offset[k]; i < pre_offset[k + 1]; ++i)
            consumer_list[consumer_fill[pre_list[i]]++] = static_cast<std::uint32_t>(k);
    remaining.resize(K);

    word_hmax = W == 1 && K <= 64;
    if (word_hmax) {
        atom_mask = R == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << R) - 1;
        action_mask = K == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << K) - 1;
        goal_true = goal_care[0] & goal_values[0];
        goal_false = goal_care[0] & ~goal_values[0];
        pre_true.resize(K);
        pre_false.resize(K);
        eff_true.resize(K);
        eff_false.resize(K);
        consumer_mask.assign(2 * R, 0);
        relevant_achievers.assign(R, 0);
        for (std::size_t k = 0; k < K; ++k) {
            const std::uint64_t* a = action_words.data() + 4 * k;
            for (std::uint64_t bits = a[2]; bits; bits &= bits - 1)
                relevant_achievers[static_cast<std::size_t>(std::countr_zero(bits))] |= std::uint64_t{1} << k;
            pre_true[k] = a[0] & a[1];
            pre_false[k] = a[0] & ~a[1];
            eff_true[k] = a[2] & a[3];
            eff_false[k] = a[2] & ~a[3];
            for (std::uint32_t i = pre_offset[k]; i < pre_offset[k + 1]; ++i) consumer_mask[pre_list[i]] |= std::uint64_t{1} << k;
        }
    }

    h_start.resize(2 * R);
    h_scratch.resize(2 * R);

    // LM-cut tables.
    goal_list.clear();
    for (const Literal& l : goal_literals) goal_list.push_back(compact_literal(l));
    lm_eff_offset.assign(1, 0);
    lm_eff_list.clear();
    for (std::size_t k = 0; k < K; ++k) {
        for (std::uint32_t i = eff_offset[k]; i < eff_offset[k + 1]; ++i) {
            const std::uint32_t e = eff_list[i];
            if (consumer_offset[e + 1] > consumer_offset[e] || goal_literal[e]) lm_eff_list.push_back(e);
        }
        lm_eff_offset.push_back(static_cast<std::uint32_t>(lm_eff_list.size()));
    }
    ach_offset.assign(2 * R + 2, 0);
    for (const std::uint32_t e : lm_eff_list) ++ach_offset[e + 2];
    for (std::size_t l = 0; l < 2 * R; ++l) ach_offset[l + 2] += ach_offset[l + 1];
    ach_list.resize(lm_eff_list.size());
    for (std::size_t k = 0; k < K; ++k)
        for (std::uint32_t i = lm_eff_offset[k]; i < lm_eff_offset[k + 1]; ++i)
            ach_list[ach_offset[lm_eff_list[i] + 1]++] = static_cast<std::uint32_t>(k);
    ach_offset.pop_back();  // now ach_offset[l] .. ach_offset[l + 1] are the achievers of l
    lm_cost.resize(K + 1);
    lm_value.resize(2 * R + 1);
    lm_pcf.resize(K + 1);
    lm_zone.resize(2 * R + 1);
    lm_reached.resize(2 * R + 1);
    lm_in_cut.assign(K + 1, 0);
    lm_remaining.resize(K + 1);

    cached_goal = goal;
    cached_has_enabled = !options.enabled.empty();
    cached_has_costs = !options.costs.empty();
    std::copy(options.enabled.begin(), options.enabled.end(), cached_enabled.begin());
    std::copy(options.costs.begin(), options.costs.end(), cached_costs.begin());
    cache_valid = true;
    start_memo_valid = false;
}

// Strong stubborn sets (Wehrle and Helmert, ICAPS 2014). The tables index the search actions, so they
// are rebuilt per query (the search list depends on the start's reachability); vectors keep their
// capacity, so a reused planner allocates nothing once warm.
void detail::PlannerImpl::build_stubborn() {
    const std::size_t W = words;
    const std::size_t L = 2 * relevant_atoms;
    const auto literals = [&](const std::uint64_t* care, const std::uint64_t* values, std::vector<std::uint32_t>& out) {
        for (std::size_t w = 0; w < W; ++w)
            for (std::uint64_t bits = care[w]; bits; bits &= bits - 1) {
                const auto b = static_cast<std::uint32_t>(std::countr_zero(bits));
                out.push_back(static_cast<std::uint32_t>(2 * (w * 64 + b)) + static_cast<std::uint32_t>((values[w] >> b) & 1u));
            }
    };
    ss_pre_offset.assign(1, 0);
    ss_eff_offset.assign(1, 0);
    ss_pre.clear();
    ss_eff.clear();
    for (std::size_t k = 0; k < search_count; ++k) {
        const std::uint64_t* a = search_words + 4 * W * k;
        literals(a, a + W, ss_pre);
        literals(a + 2 * W, a + 3 * W, ss_eff);
        ss_pre_offset.push_back(static_cast<std::uint32_t>(ss_pre.size()));
        ss_eff_offset.push_back(static_cast<std::uint32_t>(ss_eff.size()));
    }
    // Literal -> actions, by counting sort.
    const auto invert = [&](const std::vector<std::uint32_t>& offset, const std::vector<std::uint32_t>& list,
                            std::vector<std::uint32_t>& out_offset, std::vector<std::uint32_t>& out) {
        out_offset.assign(L + 1, 0);
        for (const std::uint32_t l : list) ++out_offset[l + 1];
        for (std::size_t l = 0; l < L; ++l) out_offset[l + 1] += out_offset[l];
        out.resize(list.size());
        for (std::size_t k = 0; k < search_count; ++k)
            for (std::uint32_t i = offset[k]; i < offset[k + 1]; ++i) out[out_offset[list[i]]++] = static_cast<std::uint32_t>(k);
        for (std::size_t l = L; l > 0; --l) out_offset[l] = out_offset[l - 1];
        out_offset[0] = 0;
    };
    invert(ss_eff_offset, ss_eff, ss_ach_offset, ss_ach);
    invert(ss_pre_offset, ss_pre, ss_con_offset, ss_con);
    ss_goal.clear();
    literals(goal_care.data(), goal_values.data(), ss_goal);
    ss_mark.assign(search_count, 0);
    ss_stamp = 0;
}

// Marks a strong stubborn set of `state` and returns true; false (nothing marked, no pruning) when the
// state satisfies the goal. The set T starts from the achievers of one unsatisfied goal literal (a
// disjunctive action landmark) and is closed under: for an applicable action, every action it disables
// and every action with a contradicting effect; for an inapplicable one, the achievers of one
// unsatisfied precondition (literals chosen by fewest achievers). Why that keeps an optimal plan: any
// plan from the state uses an action of T (the landmark); let b be the first. b is applicable (else an
// achiever of its chosen missing precondition, which is in T, would come before it), and the actions
// before it are outside T, so b disables none of them and no effect of theirs contradicts b's: moving b
// to the front gives a valid plan of the same cost and the same end state. (Actions that disable b need
// not be in T: b is moved ahead of them.)
bool detail::PlannerImpl::stubborn_set(const std::uint64_t* state) {
    const auto holds = [&](std::uint32_t literal) { return bit(state, literal >> 1) == ((literal & 1u) != 0); };
    const auto achievers = [&](std::uint32_t literal) { return ss_ach_offset[literal + 1] - ss_ach_offset[literal]; };
    std::uint32_t landmark = UINT32_MAX;
    for (const std::uint32_t l : ss_goal)
        if (!holds(l) && (landmark == UINT32_MAX || achievers(l) < achievers(landmark))) landmark = l;
    if (landmark == UINT32_MAX) return false;
    if (++ss_stamp == 0) {  // wrapped: clear the marks once
        std::fill(ss_mark.begin(), ss_mark.end(), 0u);
        ss_stamp = 1;
    }
    ss_work.clear();
    const auto add_all = [&](const std::vector<std::uint32_t>& offset, const std::vector<std::uint32_t>& list, std::uint32_t literal) {
        for (std::uint32_t i = offset[literal]; i < offset[literal + 1]; ++i) {
            const std::uint32_t k = list[i];
            if (ss_mark[k] == ss_stamp) continue;
            ss_mark[k] = ss_stamp;
            ss_work.push_back(k);
        }
    };
    add_all(ss_ach_offset, ss_ach, landmark);
    while (!ss_work.empty()) {
        const std::uint32_t k = ss_work.back();
        ss_work.pop_back();
        std::uint32_t missing = UINT32_MAX;
        for (std::uint32_t i = ss_pre_offset[k]; i < ss_pre_offset[k + 1]; ++i) {
            const std::uint32_t q = ss_pre[i];
            if (!holds(q) && (missing == UINT32_MAX || achievers(q) < achievers(missing))) missing = q;
        }
        if (missing != UINT32_MAX) {  // necessary enabling set
            add_all(ss_ach_offset, ss_ach, missing);
            continue;
        }
        for (std::uint32_t i = ss_eff_offset[k]; i < ss_eff_offset[k + 1]; ++i) {
            add_all(ss_con_offset, ss_con, ss_eff[i] ^ 1u);  // actions k disables
            add_all(ss_ach_offset, ss_ach, ss_eff[i] ^ 1u);  // contradicting effects
        }
    }
    return true;
}

bool detail::PlannerImpl::compile_start(const WorldState& start, bool word_path) {
    const std::size_t R = relevant_atoms;
    const std::size_t W = words;
    const std::size_t K = relevant_actions.size();
    start_words.assign(W, 0);
    for (std::size_t c = 0; c < R; ++c)
        if (start.get(AtomId(atom_of_compact[c]))) set_bit(start_words.data(), c);

    const bool by_word = word_path && word_hmax;
    if (by_word && start_memo_valid && start_words[0] == start_memo) {
        search_count = start_memo_search_count;
        return true;
    }
    start_memo_valid = false;

    // h_max from the start: failure explanation, reachability pruning, backward heuristic table.
    unreachable.clear();
    if (by_word) {
        h_max_word<false>(start_words[0], h_start.data());
        if ((goal_true & ~reachable_true) | (goal_false & ~reachable_false)) {
            for (const Literal& l : goal_literals) {
                const std::uint64_t bit = std::uint64_t{1} << compact_of_atom[l.atom.value];
                if (!((l.value ? reachable_true : reachable_false) & bit)) unreachable.push_back(l);
            }
            return false;
        }
    } else {
        h_max(start_words.data(), h_start.data(), false);
        for (const Literal& l : goal_literals)
            if (h_start[2 * compact_of_atom[l.atom.value] + (l.value ? 1u : 0u)] == kInf) unreachable.push_back(l);
        if (!unreachable.empty()) return false;
    }

    // Actions with a precondition unreachable from the start can never fire: leave them out.
    bool all_reachable = true;
    if (by_word) all_reachable = reachable_actions == action_mask;
    else
        for (std::size_t i = 0; i < pre_list.size() && all_reachable; ++i) all_reachable = h_start[pre_list[i]] != kInf;
    if (all_reachable) {
        search_id = relevant_actions.data();
        search_cost = relevant_cost.data();
        search_words = action_words.data();
        search_count = K;
        search_achievers = by_word ? relevant_achievers.data() : nullptr;
        remember_start(by_word);
        return true;
    }
    filtered_id.clear();
    filtered_cost.clear();
    filtered_words.clear();
    for (std::size_t k = 0; k < K; ++k) {
        bool reachable = true;
        if (by_word) reachable = (reachable_actions >> k) & 1u;
        else
            for (std::uint32_t i = pre_offset[k]; i < pre_offset[k + 1]; ++i)
                if (h_start[pre_list[i]] == kInf) reachable = false;
        if (!reachable) continue;
        filtered_id.push_back(relevant_actions[k]);
        filtered_cost.push_back(relevant_cost[k]);
        filtered_words.insert(filtered_words.end(), action_words.begin() + static_cast<std::ptrdiff_t>(k * 4 * W),
                              action_words.begin() + static_cast<std::ptrdiff_t>((k + 1) * 4 * W));
    }
    search_id = filtered_id.data();
    search_cost = filtered_cost.data();
    search_words = filtered_words.data();
    search_count = filtered_id.size();
    search_achievers = nullptr;
    if (by_word) {  // search_count < K <= 64
        filtered_achievers.assign(R, 0);
        for (std::size_t k = 0; k < search_count; ++k)
            for (std::uint64_t bits = filtered_words[4 * k + 2]; bits; bits &= bits - 1)
                filtered_achievers[static_cast<std::size_t>(std::countr_zero(bits))] |= std::uint64_t{1} << k;
        search_achievers = filtered_achievers.data();
    }
    remember_start(by_word);
    return true;
}

template <class Fn>
decltype(auto) detail::PlannerImpl::with_space(Fn&& fn) {
    if (one_word) {
        if (direction == Direction::Forward) {
            ForwardWordSpace space{*this, goal_care[0], goal_values[0]};
            return fn(space, word_search);
        }
        BackwardWordSpace space{*this, start_words[0]};
        return fn(space, word_search);
    }
    if (direction == Direction::Forward) {
        ForwardSpace<0> space{*this};
        return fn(space, context);
    }
    BackwardSpace<0> space{*this};
    return fn(space, context);
}

// begin() and step() are untimed: the public entry points time themselves, so plan() reads the clock
// twice per query rather than four times.
Status detail::PlannerImpl::begin(const WorldState& start, const Condition& goal, const PlanOptions& options) {
    plan.clear();
    unreachable.clear();
    stats = {};
    limit = search::BudgetLimit::None;
    cost = 0;
    micros = 0;
    measure_time = options.measure_time;
    search_count = 0;
    bool valid = start.atom_count() == atoms && goal.atom_count() == atoms &&
                 (options.enabled.empty() || options.enabled.size() == actions) &&
                 (options.costs.empty() || options.costs.size() == actions);
    if (valid)
        for (const double c : options.costs)
            if (!std::isfinite(c) || c < 0 || c > kMaxActionCost) valid = false;
    if (!valid) return status = Status::InvalidQuery;
    if (!cache_hit(goal, options)) compile_goal(goal, options);
    if (cost_too_large) return status = Status::InvalidQuery;
    // Until the size rule has run (a query that ends in compile_start reports the game-domain choice).
    direction = options.direction != Direction::BySize ? options.direction : Direction::Backward;
    heuristic = options.heuristic != Heuristic::BySize ? options.heuristic : Heuristic::HMax;
    one_word = words == 1 && !options.force_generic_representation;
    if (!compile_start(start, one_word)) return status = Status::NoPath;
    if ((options.direction == Direction::BySize || options.heuristic == Heuristic::BySize) &&
        relevant_atoms > kSizeThresholdAtoms) {
        // The size rule (kSizeThresholdAtoms): LM-cut, forward, where it sees more than h_max at the start.
        double hmax = 0;
        for (const std::uint32_t l : goal_list) hmax = std::max(hmax, h_start[l]);
        // At most 64 cuts: a long single chain (LM-cut = h_max, one cut per step) is not worth a full pass.
        if (lm_cut_value(start_words.data(), goal_list.data(), goal_list.size(), nullptr, hmax, 64) > hmax) {
            if (options.direction == Direction::BySize) direction = Direction::Forward;
            if (options.heuristic == Heuristic::BySize) heuristic = Heuristic::LmCut;
        }
    }
    prune = direction == Direction::Forward &&
            (options.pruning == Pruning::StubbornSets || (options.pruning == Pruning::Auto && relevant_atoms > kSizeThresholdAtoms));
    if (prune) build_stubborn();
    lm_defer = heuristic == Heuristic::LmCut && !one_word;
    lm_share_node = UINT32_MAX;
    lm_in_expand = false;
    if (lm_defer) {
        const std::size_t K = relevant_actions.size();
        lm_action_share.resize(K + 1);
        search_relevant.clear();
        for (std::size_t s = 0, k = 0; s < search_count; ++s) {  // the search list keeps the relevant order
            while (relevant_actions[k] != search_id[s]) ++k;
            search_relevant.push_back(static_cast<std::uint32_t>(k++));
        }
    }
    length_scale = 0;
    if (heuristic == Heuristic::LmCut) {
        double largest = 0;
        for (std::size_t i = 0; i < search_count; ++i) largest = std::max(largest, search_cost[i]);
        length_scale = largest > 0 ? 1 / largest : 0;
    }
    const search::Budget& budget = options.budget;
    if (one_word) {
        if (direction == Direction::Forward) {
            ForwardWordSpace space{*this, goal_care[0], goal_values[0]};
            word_search.begin(space, start_words[0], 0, budget);
        } else {
            BackwardWordSpace space{*this, start_words[0]};
            word_search.begin(space, goal_care[0], goal_values[0], budget);
        }
        return status = Status::InProgress;
    }
    const std::size_t W = words;
    registry.reset(direction == Direction::Forward ? W : 2 * W);
    registry.set_memory_limit(options.budget.max_memory_bytes, context);
    std::uint64_t* root = scratch.data();
    if (direction == Direction::Forward) {
        std::copy(start_words.begin(), start_words.end(), root);
    } else {
        std::copy(goal_care.begin(), goal_care.end(), root);
        std::copy(goal_values.begin(), goal_values.end(), root + W);
    }
    const std::uint32_t root_id = registry.intern<0>(root);
    if (root_id == detail::StateRegistry::kFull) {
        limit = search::BudgetLimit::Memory;
        return status = Status::BudgetExhausted;
    }
    if (direction == Direction::Forward) {
        ForwardSpace<0> space{*this};
        context.begin(space, root_id, budget);
    } else {
        BackwardSpace<0> space{*this};
        context.begin(space, root_id, budget);
    }
    return status = Status::InProgress;
}

Status detail::PlannerImpl::step(std::uint64_t slice) {
    if (status != Status::InProgress) return status;
    const Status s = with_space([&](auto& space, auto& engine) { return engine.step(space, slice); });
    stats = one_word ? word_search.stats() : context.stats();
    limit = one_word ? word_search.budget_limit() : context.budget_limit();
    if (s == Status::Found) extract_plan();
    return status = s;
}

void detail::PlannerImpl::extract_plan() {
    if (one_word) {
        const WordSearch::Node* n = &word_search.node(word_search.goal());
        cost = n->g_cost;
        plan.clear();
        for (; n->parent != search::kNoNode; n = &word_search.node(n->parent)) plan.push_back(ActionId(n->label));
        if (direction == Direction::Forward) std::reverse(plan.begin(), plan.end());
        return;
    }
    const search::NodeIndex goal_node = context.goal();
    cost = context.g(goal_node).cost;
    plan.clear();
    for (search::NodeIndex n = goal_node; context.parent(n) != search::kNoNode; n = context.parent(n))
        plan.push_back(ActionId(context.label(n)));
    // Forward: the parent chain runs goal -> start, so reverse it. Backward: it runs from the sub-goal
    // the start satisfies up to the goal, which is already execution order.
    if (direction == Direction::Forward) std::reverse(plan.begin(), plan.end());
}

Planner::Planner(const Domain& domain) : m_impl(std::make_unique<detail::PlannerImpl>(domain)) {}
Planner::~Planner() = default;
Planner::Planner(Planner&&) noexcept = default;
Planner& Planner::operator=(Planner&&) noexcept = default;

const Domain& Planner::domain() const noexcept { return *m_impl->domain; }

PlanResult Planner::plan(const WorldState& start, const Condition& goal, const PlanOptions& options) {
    if (m_impl->numeric) {
        if (begin(start, goal, options) == Status::InProgress) (void)step(UINT64_MAX);
        return result();
    }
    if (!options.measure_time) {
        if (m_impl->begin(start, goal, options) == Status::InProgress) (void)m_impl->step(UINT64_MAX);
        return result();
    }
    const Clock::time_point t0 = Clock::now();
    if (m_impl->begin(start, goal, options) == Status::InProgress) (void)m_impl->step(UINT64_MAX);
    m_impl->micros = micros_since(t0);
    return result();
}

Status Planner::begin(const WorldState& start, const Condition& goal, const PlanOptions& options) {
    if (m_impl->numeric) {
        detail::NumericPlanner& n = *m_impl->numeric;
        m_impl->measure_time = options.measure_time;
        m_impl->micros = 0;
        const Clock::time_point t0 = options.measure_time ? Clock::now() : Clock::time_point{};
        const Status s = n.begin(start, goal, options);
        if (options.measure_time) m_impl->micros = micros_since(t0);
        return s;
    }
    if (!options.measure_time) return m_impl->begin(start, goal, options);
    const Clock::time_point t0 = Clock::now();
    const Status s = m_impl->begin(start, goal, options);
    m_impl->micros = micros_since(t0);
    return s;
}

Status Planner::step(std::uint64_t max_expansions) {
    if (m_impl->numeric) {
        detail::NumericPlanner& n = *m_impl->numeric;
        if (n.status != Status::InProgress || !m_impl->measure_time) return n.step(max_expansions);
        const Clock::time_point t0 = Clock::now();
        const Status s = n.step(max_expansions);
        m_impl->micros += micros_since(t0);
        return s;
    }
    if (m_impl->status != Status::InProgress) return m_impl->status;
    if (!m_impl->measure_time) return m_impl->step(max_expansions);
    const Clock::time_point t0 = Clock::now();
    const Status s = m_impl->step(max_expansions);
    m_impl->micros += micros_since(t0);
    return s;
}

PlanResult Planner::result() const noexcept {
    const detail::PlannerImpl& p = *m_impl;
    PlanResult r;
    if (p.numeric) {
        const detail::NumericPlanner& n = *p.numeric;
        r.status = n.status;
        r.stats = n.stats;
        r.limit = n.limit;
        r.micros = p.micros;
        if (n.status == Status::Found) {
            r.cost = n.cost;
            r.plan = n.plan;
        }
        return r;
    }
    r.status = p.status;
    r.stats = p.stats;
    r.limit = p.limit;
    r.micros = p.micros;
    if (p.status == Status::Found) {
        r.cost = p.cost;
        r.plan = p.plan;
    }
    return r;
}

Status Planner::status() const noexcept { return m_impl->numeric ? m_impl->numeric->status : m_impl->status; }
search::SearchStats Planner::stats() const noexcept { return m_impl->numeric ? m_impl->numeric->stats : m_impl->stats; }
search::BudgetLimit Planner::budget_limit() const noexcept {
    return m_impl->numeric ? m_impl->numeric->limit : m_impl->limit;
}
std::size_t Planner::memory_bytes() const noexcept {
    const detail::PlannerImpl& p = *m_impl;
    if (p.numeric) return p.numeric->registry.memory_bytes() + p.numeric->context.engine_bytes();
    return p.registry.memory_bytes() + p.context.engine_bytes() + p.word_search.memory_bytes();
}

std::span<const Literal> Planner::unreachable_goals() const noexcept {
    return m_impl->numeric ? std::span<const Literal>(m_impl->numeric->unreachable) : std::span<const Literal>(m_impl->unreachable);
}
std::span<const Comparison> Planner::unreachable_goal_comparisons() const noexcept {
    return m_impl->numeric ? std::span<const Comparison>(m_impl->numeric->unreachable_cmps) : std::span<const Comparison>();
}
double Planner::estimate(const WorldState& state, const Condition& goal, const PlanOptions& options) {
    detail::PlannerImpl& p = *m_impl;
    if (p.numeric) return std::numeric_limits<double>::quiet_NaN();
    PlanOptions o = options;
    o.direction = Direction::Forward;
    o.budget.max_expansions = 0;
    const Status s = p.begin(state, goal, o);
    if (s == Status::NoPath) return kInf;
    if (s != Status::InProgress) return std::numeric_limits<double>::quiet_NaN();
    switch (p.heuristic) {  // resolved by begin()
        case Heuristic::Blind: return 0;
        case Heuristic::LmCut: return p.lm_cut_value(p.start_words.data(), p.goal_list.data(), p.goal_list.size());
        case Heuristic::HMax:
        case Heuristic::BySize: break;
    }
    return p.h_max(p.start_words.data(), p.h_scratch.data(), true);
}

std::size_t Planner::relevant_action_count() const noexcept {
    return m_impl->numeric ? m_impl->numeric->search_actions.size() : m_impl->search_count;
}
Direction Planner::direction() const noexcept { return m_impl->numeric ? Direction::Forward : m_impl->direction; }
Heuristic Planner::heuristic() const noexcept { return m_impl->numeric ? Heuristic::HMax : m_impl->heuristic; }

std::size_t Planner::relevant_atom_count() const noexcept {
    if (m_impl->numeric) {
        const auto& r = m_impl->numeric->atom_relevant;
        return static_cast<std::size_t>(std::count(r.begin(), r.end(), std::uint8_t{1}));
    }
    return m_impl->relevant_atoms;
}

void Planner::reserve(std::size_t states) {
    if (m_impl->numeric) {
        m_impl->numeric->reserve(states);
        return;
    }
    const std::size_t width = 2 * std::max<std::size_t>(1, words_for_atoms(m_impl->atoms));
    m_impl->registry.reserve(states, width);
    m_impl->context.reserve(states, states);
    m_impl->word_search.reserve(states);
}

}  // namespace gameplan::goap
