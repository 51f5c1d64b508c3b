// Random layered STRIPS tasks (task_generator.hpp).
#include <gameplan/goap/task_generator.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace gameplan::goap {

namespace {

// SplitMix64: a small, portable generator (std distributions differ between standard libraries).
struct SplitMix {
    std::uint64_t state;
    std::uint64_t next() noexcept {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::uint32_t below(std::uint32_t n) noexcept { return static_cast<std::uint32_t>(next() % n); }
    double unit() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

// `count` distinct values of [first, first + size), in increasing order.
std::vector<std::uint32_t> pick(SplitMix& rng, std::uint32_t first, std::uint32_t size, std::uint32_t count) {
    std::vector<std::uint32_t> out;
    count = std::min(count, size);
    while (out.size() < count) {
        const std::uint32_t v = first + rng.below(size);
        if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// "<prefix><layer>_<index>" (built with append: GCC 12's -Wrestrict misfires on "x" + std::to_string).
std::string name_of(char prefix, std::uint32_t layer, std::uint32_t index) {
    std::string out(1, prefix);
    out.append(std::to_string(layer)).append(1, '_').append(std::to_string(index));
    return out;
}

}  // namespace

GeneratedTask generate_layered_task(const LayeredTaskOptions& o) {
    if (o.layers < 2 || o.atoms < 2 * o.layers || o.actions == 0 || o.goal_atoms == 0 || o.max_preconditions == 0 ||
        o.max_effects == 0 || o.max_cost < o.min_cost || !(o.delete_probability >= 0 && o.delete_probability <= 1) ||
        !(o.start_fraction >= 0 && o.start_fraction <= 1))
        throw std::invalid_argument("layered task: options out of range (see LayeredTaskOptions)");
    SplitMix rng{o.seed};
    // Layer l holds atoms [first[l], first[l + 1]).
    std::vector<std::uint32_t> first(o.layers + 1);
    for (std::uint32_t l = 0; l <= o.layers; ++l)
        first[l] = static_cast<std::uint32_t>(std::uint64_t{o.atoms} * l / o.layers);
    const auto layer_size = [&](std::uint32_t l) { return first[l + 1] - first[l]; };

    DomainBuilder b;
    for (std::uint32_t l = 0; l < o.layers; ++l)
        for (std::uint32_t i = 0; i < layer_size(l); ++i) (void)b.add_atom(name_of('l', l, i));

    struct Def {
        std::vector<std::uint32_t> pre, add;
    };
    std::vector<Def> defs;
    defs.reserve(o.actions);
    std::vector<std::uint32_t> per_layer(o.layers, 0);
    for (std::uint32_t a = 0; a < o.actions; ++a) {
        const std::uint32_t k = 1 + a % (o.layers - 1);  // layers 1 .. L-1 in turn: every layer gets actions
        Def d;
        d.pre = pick(rng, first[k - 1], layer_size(k - 1), 1 + rng.below(o.max_preconditions));
        d.add = pick(rng, first[k], layer_size(k), 1 + rng.below(o.max_effects));
        std::vector<Literal> pre, eff;
        for (const std::uint32_t p : d.pre) pre.push_back(Literal{AtomId(p), true});
        for (const std::uint32_t e : d.add) eff.push_back(Literal{AtomId(e), true});
        if (k >= 2 && rng.unit() < o.delete_probability)
            eff.push_back(Literal{AtomId(d.pre[rng.below(static_cast<std::uint32_t>(d.pre.size()))]), false});
        const double cost = o.min_cost + rng.below(o.max_cost - o.min_cost + 1);
        const std::string name = name_of('a', k, per_layer[k]++);
        if (b.add_action(name, cost, pre, eff) != DomainError::None)
            throw std::logic_error("layered task: a generated action was refused");  // never: atoms are distinct
        defs.push_back(std::move(d));
    }

    GeneratedTask task;
    task.domain = b.build();
    task.start = task.domain.make_state();
    std::vector<char> reached(o.atoms, 0);
    for (std::uint32_t i = first[0]; i < first[1]; ++i)
        if (rng.unit() < o.start_fraction || i == first[0]) {
            task.start.set(AtomId(i), true);
            reached[i] = 1;
        }

    // Relaxed reachability (delete effects ignored), layer by layer: actions only read the layer below.
    for (std::uint32_t k = 1; k < o.layers; ++k)
        for (std::uint32_t a = 0; a < o.actions; ++a) {
            if (1 + a % (o.layers - 1) != k) continue;
            const Def& d = defs[a];
            if (std::all_of(d.pre.begin(), d.pre.end(), [&](std::uint32_t p) { return reached[p] != 0; }))
                for (const std::uint32_t e : d.add) reached[e] = 1;
        }
    // Goal atoms from the highest layer with enough reachable atoms.
    task.goal = task.domain.make_condition();
    for (std::uint32_t l = o.layers; l-- > 1;) {
        std::vector<std::uint32_t> candidates;
        for (std::uint32_t i = first[l]; i < first[l + 1]; ++i)
            if (reached[i]) candidates.push_back(i);
        if (candidates.size() < o.goal_atoms && l > 1) continue;
        for (std::uint32_t n = 0; n < o.goal_atoms && !candidates.empty(); ++n) {
            const std::uint32_t j = rng.below(static_cast<std::uint32_t>(candidates.size()));
            task.goal.set(AtomId(candidates[j]), true);
            candidates.erase(candidates.begin() + j);
        }
        break;
    }
    return task;
}

}  // namespace gameplan::goap
