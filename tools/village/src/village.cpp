// The village simulation: setup, behaviours, movement, world pulses. See village.hpp.
#include <gameplan_village/village.hpp>

#include <gameplan/goap/behaviour.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/islands.hpp>
#include <gameplan/path/smoothing.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

namespace gameplan::village {

namespace {

using path::GridPoint;
using Clock = std::chrono::steady_clock;

// A float's bits and back (save files store danger exactly). memcpy rather than std::bit_cast: the
// WebAssembly build's C++ library (emscripten 3.1.6) lacks std::bit_cast.
std::uint32_t float_bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}
float bits_float(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint64_t kPulseTicks = 64;        // world pulse period: trees fall and regrow, stocks refill
constexpr std::uint64_t kRegrowTicks = 448;      // a stump regrows at the first pulse this long after it fell
constexpr std::int32_t kTreeWood = 4;
constexpr std::int32_t kMineOre = 8;
constexpr std::int32_t kMarketVegetables = 16;
constexpr std::int32_t kMealsPerPot = 3;
constexpr std::uint32_t kToolUses = 6;           // chops / digs before the axe / pickaxe breaks
constexpr std::uint32_t kGiveUpTicks = 240;     // ticks without progress along its route before a walk fails
constexpr std::int64_t kMealReserve = 0;         // meals kept in store beyond the hungry villagers' needs
constexpr std::uint64_t kIdleRetryTicks = 16;    // an idle agent re-examines its goals this often
constexpr double kPathWeight = 1.5;              // weighted A* for walking paths
constexpr std::uint64_t kArrivalTicks = 32;      // villagers arrive over this many ticks
constexpr std::size_t kTreesPerDen = 24;         // one wolf den per this many trees (two groves), at least one
constexpr std::int32_t kWolfReach = 3;           // wolves attack villagers within this Chebyshev distance of a den
constexpr float kAttackDanger = 6.0f;            // danger an attack adds at the victim's cell
constexpr std::int32_t kAttackRadius = 4;        // ... spreading linearly this far
constexpr float kDangerDecay = 0.8f;             // danger kept per pulse
constexpr double kDangerWeight = 1.0;            // weight of the danger in path and walking costs

std::int32_t chebyshev(GridPoint a, GridPoint b) noexcept { return std::max(std::abs(a.x - b.x), std::abs(a.y - b.y)); }
double octile(GridPoint a, GridPoint b) noexcept {
    const double dx = std::abs(a.x - b.x), dy = std::abs(a.y - b.y);
    return std::max(dx, dy) + (path::kDiagonalStep - 1.0) * std::min(dx, dy);
}
std::int32_t arrival_radius(PlaceKind kind) noexcept {
    return kind == PlaceKind::Tree || kind == PlaceKind::Mine ? 1 : 2;
}

// splitmix64: a tiny deterministic generator (the standard distributions are not portable).
class Rng {
public:
    explicit Rng(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next() noexcept {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::uint64_t below(std::uint64_t n) noexcept { return n == 0 ? 0 : next() % n; }
    std::int32_t range(std::int32_t lo, std::int32_t hi) noexcept {  // [lo, hi]
        return lo + static_cast<std::int32_t>(below(static_cast<std::uint64_t>(hi - lo + 1)));
    }

private:
    std::uint64_t m_state;
};

constexpr GridPoint kRing[8] = {{-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}};
constexpr GridPoint kOrthogonal[4] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};

GridPoint add(GridPoint a, GridPoint d) noexcept { return GridPoint{a.x + d.x, a.y + d.y}; }

// What a work action does in the game, by action name. Walking actions are `go_to_<place>`.
enum class Effect : std::uint8_t { TakeTool, Chop, Dig, DeliverWood, DeliverOre, FetchWood, BuyVegetables, Cook,
                                   EatMeal, EatVegetables, Sleep };
struct WorkSpec {
    std::string_view action;
    PlaceKind place;
    std::uint32_t ticks;
    Effect effect;
};
constexpr WorkSpec kWork[] = {
    {"take_axe", PlaceKind::Store, 2, Effect::TakeTool},
    {"take_pickaxe", PlaceKind::Store, 2, Effect::TakeTool},
    {"chop_wood", PlaceKind::Tree, 8, Effect::Chop},
    {"mine_ore", PlaceKind::Mine, 10, Effect::Dig},
    {"deliver_wood", PlaceKind::Store, 2, Effect::DeliverWood},
    {"deliver_ore", PlaceKind::Store, 2, Effect::DeliverOre},
    {"fetch_wood", PlaceKind::Store, 2, Effect::FetchWood},
    {"buy_vegetables", PlaceKind::Market, 3, Effect::BuyVegetables},
    {"cook_meal", PlaceKind::Kitchen, 12, Effect::Cook},
    {"eat_meal", PlaceKind::Kitchen, 5, Effect::EatMeal},
    {"eat_vegetables", PlaceKind::Market, 6, Effect::EatVegetables},
    {"sleep", PlaceKind::Home, 30, Effect::Sleep},
};

class Fnv {
public:
    void add(std::uint64_t v) noexcept {
        for (int i = 0; i < 8; ++i) {
            m_hash ^= (v >> (8 * i)) & 0xFF;
            m_hash *= 0x100000001B3ull;
        }
    }
    [[nodiscard]] std::uint64_t value() const noexcept { return m_hash; }

private:
    std::uint64_t m_hash = 0xCBF29CE484222325ull;
};

}  // namespace

std::string_view to_string(Kind kind) noexcept {
    switch (kind) {
        case Kind::Woodcutter: return "woodcutter";
        case Kind::Miner: return "miner";
        case Kind::Cook: return "cook";
    }
    return "?";
}

std::string_view to_string(PlaceKind kind) noexcept {
    switch (kind) {
        case PlaceKind::Tree: return "tree";
        case PlaceKind::Mine: return "mine";
        case PlaceKind::Market: return "market";
        case PlaceKind::Store: return "store";
        case PlaceKind::Kitchen: return "kitchen";
        case PlaceKind::Home: return "home";
    }
    return "?";
}

DomainSet load_domains(const std::filesystem::path& dir) {
    DomainSet set;
    for (std::size_t k = 0; k < kKindCount; ++k) {
        const std::filesystem::path file = dir / (std::string(to_string(Kind(k))) + ".json");
        set.files[k] = io::load_domain_json(file);
        set.names[k] = file.string();
    }
    return set;
}

// ---- state that only the implementation needs -----------------------------------------------------
struct Village::Impl {
    struct KindData {
        std::unique_ptr<goap::AgentSystem> system;
        std::shared_ptr<const goap::AgentType> type;
        goap::AtomId hungry, tired, tool;
        std::array<goap::AtomId, kPlaceKindCount> at{};  // at_<place> atoms (invalid when absent)
        std::uint32_t work_goal = 0;
    };
    struct Targets {  // cells a walk to a stock place may end on, and the place each belongs to
        std::vector<GridPoint> cells;
        std::vector<std::uint32_t> owner;
        bool dirty = true;
    };

    std::array<KindData, kKindCount> kinds;
    std::unique_ptr<goap::ThreadPool> pool;
    std::unique_ptr<path::MovementSystem> movement;
    std::array<path::DistanceField, kPlaceKindCount> fields;  // fixed places only
    path::GridMap field_map;  // a loaded village: the map with every tree standing, which the fields read
    std::array<Targets, kPlaceKindCount> targets;              // stock places only
    std::array<std::int64_t, kPlaceKindCount> free_stock{};    // unclaimed stock per kind
    std::vector<std::uint32_t> place_at;                       // per node index: place or kNone
    path::NearestTargets nearest;                               // calling-thread queries
    std::vector<std::pair<double, std::uint32_t>> scratch;
    std::vector<GridPoint> before;     // villager cells at the start of the tick (the collision check)
    std::vector<std::uint32_t> seen;   // per node: tick stamp of the last villager counted there
    Summary counts;
    std::int64_t wood_stock = 0, meals_stock = 0;
    std::int64_t pots_cooking = 0;     // cook_meal actions running
    std::int64_t hungry = 0;           // villagers hungry at the start of the tick
    std::vector<float> tick_ms;
    double think_us = 0, behaviour_us = 0, path_us = 0;
    path::InfluenceMap danger;                 // where wolves attacked (a cost layer)
    std::vector<GridPoint> dens;               // wolf dens
    std::array<path::CostLayer, 1> danger_layer{};  // {danger, kDangerWeight}; what searches carry
    [[nodiscard]] std::span<const path::CostLayer> layers() const noexcept {
        return dens.empty() ? std::span<const path::CostLayer>() : std::span<const path::CostLayer>(danger_layer);
    }
};

Village::~Village() = default;

const goap::Agent* Village::agent(const Villager& villager) const {
    return m_impl->kinds[std::size_t(villager.kind)].system->find(villager.agent);
}

std::span<const GridPoint> Village::route(const Villager& villager) const noexcept {
    return m_impl->movement->remaining_route(villager.unit);
}

const path::MovementSystem& Village::movement() const noexcept { return *m_impl->movement; }
const path::InfluenceMap& Village::danger() const noexcept { return m_impl->danger; }
std::span<const GridPoint> Village::dens() const noexcept { return m_impl->dens; }

// Dens sit on trees spread evenly over the tree list (placement order: grove by grove), so they depend
// only on the places. The danger map starts empty.
void Village::place_dens() {
    Impl& im = *m_impl;
    im.danger.reset(m_map);
    im.danger_layer[0] = path::CostLayer{&im.danger.layer(), kDangerWeight};
    im.dens.clear();
    const std::vector<std::uint32_t>& trees = m_by_kind[std::size_t(PlaceKind::Tree)];
    if (!m_config.wolves || trees.empty()) return;
    const std::size_t count = std::max<std::size_t>(1, trees.size() / kTreesPerDen);
    for (std::size_t i = 0; i < count; ++i) im.dens.push_back(m_places[trees[i * trees.size() / count]].cell);
}

// Every villager near a den is attacked: an influence event at its cell (villagers in index order).
void Village::wolves_attack() {
    Impl& im = *m_impl;
    if (im.dens.empty()) return;
    (void)im.danger.decay(kDangerDecay);
    for (const GridPoint den : im.dens)
        for (const Villager& v : m_villagers)
            if (v.agent.valid() && chebyshev(v.cell, den) <= kWolfReach) {
                (void)im.danger.add_event(v.cell, kAttackDanger, kAttackRadius);
                ++im.counts.wolf_attacks;
            }
}

std::uint32_t Village::occupant(GridPoint p) const noexcept {
    if (!m_map.contains(p)) return kNone;
    const std::uint32_t o = m_occupant[m_map.index(p)];
    return o == 0 ? kNone : o - 1;
}

// ---- setup ----------------------------------------------------------------------------------------
std::unique_ptr<Village> Village::create(path::GridMap map, const DomainSet& domains, const Config& config,
                                         const SetupProgress& progress) {
    if (config.agents == 0) throw SetupError("--agents must be at least 1");
    if (config.agents > kMaxAgents) throw SetupError("--agents " + std::to_string(config.agents) + " is too many (at most " + std::to_string(kMaxAgents) + ")");
    if (config.threads == 0 || config.threads > kMaxThreads) throw SetupError("--threads must be in [1, " + std::to_string(kMaxThreads) + "]");
    if (map.empty()) throw SetupError("the map is empty");
    std::unique_ptr<Village> v(new Village());
    v->m_config = config;
    v->m_domains = std::make_unique<DomainSet>(domains);
    v->m_map = std::move(map);
    v->m_impl = std::make_unique<Impl>();
    v->m_occupant.assign(v->m_map.node_bound(), 0);
    v->m_impl->place_at.assign(v->m_map.node_bound(), kNone);
    v->bind_types();
    v->place_everything(progress);
    v->add_agents(0);
    return v;
}

void Village::place_everything(const SetupProgress& progress) {
    Impl& im = *m_impl;
    const auto report = [&](std::string_view stage, std::size_t done = 0, std::size_t total = 0) {
        if (progress) progress(stage, done, total);
    };
    Rng rng(m_config.seed ^ 0x5EEDF00Dull);
    report("finding the open area");
    path::Islands islands;
    islands.build(m_map);
    // The largest island (lowest id among equals, for determinism).
    std::uint32_t best = path::Islands::kNoIsland;
    std::size_t best_size = 0;
    for (std::int32_t y = 0; y < m_map.height(); ++y)
        for (std::int32_t x = 0; x < m_map.width(); ++x) {
            const std::uint32_t id = islands.island({x, y});
            if (id == path::Islands::kNoIsland) continue;
            const std::size_t size = islands.island_size(id);
            if (size > best_size || (size == best_size && id < best)) best = id, best_size = size;
        }
    if (best_size < 16) throw SetupError("the map has no open area of at least 16 connected passable cells");

    const std::size_t n = m_config.agents;
    if (n >= best_size)
        throw SetupError("--agents " + std::to_string(n) + " is more than the " + std::to_string(best_size - 1) +
                         " free cells of the map's largest open area");
    // Counts scale with the villagers, capped by the room the island has.
    const std::size_t room = best_size / 6;
    std::size_t hamlets = std::max<std::size_t>(1, (n + 24) / 25);
    std::size_t homes_per = std::max<std::size_t>(2, (n + hamlets * 6 - 1) / (hamlets * 6));
    std::size_t mines = std::max<std::size_t>(2, (n + 7) / 8);
    std::size_t groves = std::max<std::size_t>(2, (n + 14) / 15);
    std::size_t trees_per = 12;
    hamlets = std::max<std::size_t>(1, std::min(hamlets, room / 8));
    mines = std::max<std::size_t>(1, std::min(mines, room / 4));
    while (hamlets * (3 + homes_per) + mines + groves * trees_per > room && (groves > 1 || trees_per > 2 || homes_per > 1)) {
        if (trees_per > 4) --trees_per;
        else if (groves > 1) --groves;
        else if (homes_per > 1) --homes_per;
        else if (trees_per > 2) --trees_per;
        else break;
        if (mines > 1 && mines * 4 > room) --mines;
        if (hamlets > 1 && hamlets * 8 > room) --hamlets;
    }

    auto in_island = [&](GridPoint p) { return islands.island(p) == best; };
    auto free_for_place = [&](GridPoint p) {
        if (!m_map.passable(p) || !in_island(p)) return false;
        for (std::int32_t dy = -1; dy <= 1; ++dy)
            for (std::int32_t dx = -1; dx <= 1; ++dx) {
                const GridPoint q{p.x + dx, p.y + dy};
                if (m_map.contains(q) && im.place_at[m_map.index(q)] != kNone) return false;
            }
        return true;
    };
    auto add_place = [&](PlaceKind kind, GridPoint p, std::int32_t capacity) {
        Place place;
        place.kind = kind;
        place.cell = p;
        place.stock = place.capacity = capacity;
        const auto index = static_cast<std::uint32_t>(m_places.size());
        m_places.push_back(place);
        m_by_kind[std::size_t(kind)].push_back(index);
        im.place_at[m_map.index(p)] = index;
    };
    auto random_cell = [&] {
        return GridPoint{static_cast<std::int32_t>(rng.below(std::uint64_t(m_map.width()))),
                         static_cast<std::int32_t>(rng.below(std::uint64_t(m_map.height())))};
    };
    // Mitchell's best candidate: spread centres over the island. The centres are kept in buckets of
    // kBucket x kBucket cells, and a candidate's gap (octile distance to the nearest centre) is searched
    // ring by ring of buckets around it: a ring r + 1 buckets away holds no centre nearer than r x kBucket
    // + 1 cells (octile >= Chebyshev), so the search stops there, or as soon as the candidate cannot beat
    // the best gap so far. The gaps are the exact minima, so the choice is the same as comparing every
    // centre, in time that does not grow with the number of centres.
    constexpr std::int32_t kBucket = 16;
    const std::int32_t bucket_cols = (m_map.width() + kBucket - 1) / kBucket, bucket_rows = (m_map.height() + kBucket - 1) / kBucket;
    std::vector<std::vector<GridPoint>> buckets(std::size_t(bucket_cols) * std::size_t(bucket_rows));
    std::size_t centre_count = 0;
    auto nearest_gap = [&](GridPoint p, double give_up_at) {
        double gap = kInf;
        if (centre_count == 0) return gap;
        const std::int32_t bx = p.x / kBucket, by = p.y / kBucket;
        const std::int32_t max_ring = std::max(std::max(bx, bucket_cols - 1 - bx), std::max(by, bucket_rows - 1 - by));
        for (std::int32_t r = 0; r <= max_ring; ++r) {
            for (std::int32_t y = by - r; y <= by + r; ++y) {
                if (y < 0 || y >= bucket_rows) continue;
                const bool edge_row = y == by - r || y == by + r;
                for (std::int32_t x = bx - r; x <= bx + r; x += edge_row ? 1 : 2 * std::max(r, 1)) {
                    if (x < 0 || x >= bucket_cols) continue;
                    for (const GridPoint c : buckets[std::size_t(y) * std::size_t(bucket_cols) + std::size_t(x)])
                        gap = std::min(gap, octile(p, c));
                }
            }
            if (gap <= give_up_at || gap <= double(r) * kBucket) break;
        }
        return gap;
    };
    std::size_t spread_done = 0;
    auto spread_centre = [&](auto&& accept) {
        GridPoint chosen{-1, -1};
        double chosen_gap = -1;
        for (int attempt = 0, found = 0; attempt < 4000 && found < 12; ++attempt) {
            const GridPoint p = random_cell();
            if (!in_island(p) || !accept(p)) continue;
            ++found;
            const double gap = nearest_gap(p, chosen_gap);
            if (gap > chosen_gap) chosen = p, chosen_gap = gap;
        }
        if (chosen.x >= 0) {
            buckets[std::size_t(chosen.y / kBucket) * std::size_t(bucket_cols) + std::size_t(chosen.x / kBucket)].push_back(chosen);
            ++centre_count;
        }
        if (++spread_done % 1024 == 0) report("placing hamlets, mines and groves", std::min(spread_done, hamlets + mines + groves), hamlets + mines + groves);
        return chosen;
    };
    auto scatter = [&](GridPoint centre, std::int32_t radius, auto&& accept) {
        for (int attempt = 0; attempt < 400; ++attempt) {
            const std::int32_t r = radius + attempt / 40;
            const GridPoint p{centre.x + rng.range(-r, r), centre.y + rng.range(-r, r)};
            if (m_map.contains(p) && accept(p)) return p;
        }
        return GridPoint{-1, -1};
    };

    // Hamlets: a store, a kitchen, a market and homes around a centre.
    report("placing hamlets, mines and groves", 0, hamlets + mines + groves);
    for (std::size_t h = 0; h < hamlets; ++h) {
        const GridPoint c = spread_centre(free_for_place);
        if (c.x < 0) break;
        const PlaceKind order[3] = {PlaceKind::Store, PlaceKind::Kitchen, PlaceKind::Market};
        for (const PlaceKind kind : order) {
            const GridPoint p = scatter(c, 3, free_for_place);
            if (p.x >= 0) add_place(kind, p, kind == PlaceKind::Market ? kMarketVegetables : 0);
        }
        for (std::size_t i = 0; i < homes_per; ++i) {
            const GridPoint p = scatter(c, 5, free_for_place);
            if (p.x >= 0) add_place(PlaceKind::Home, p, 0);
        }
    }
    // Mines: at rock faces (next to a wall) when there are any.
    auto next_to_wall = [&](GridPoint p) {
        for (const GridPoint d : kRing)
            if (!m_map.passable(add(p, d))) return true;
        return false;
    };
    for (std::size_t i = 0; i < mines; ++i) {
        GridPoint p = spread_centre([&](GridPoint q) { return free_for_place(q) && next_to_wall(q); });
        if (p.x < 0) p = spread_centre(free_for_place);
        if (p.x >= 0) add_place(PlaceKind::Mine, p, kMineOre);
    }
    // Groves of trees. A tree blocks its cell, so it may only stand where that cannot cut the island:
    // its passable neighbours must stay connected around it (one unbroken arc of the 8-ring; with
    // no-corner-cutting moves the ring cells connect through orthogonal steps only) - and no two trees
    // touch, so felling and regrowing in any order keeps the island whole and never walls anyone in.
    auto tree_ok = [&](GridPoint p) {
        if (!free_for_place(p)) return false;
        int passable = 0, arcs = 0;
        for (int i = 0; i < 8; ++i) {
            const bool a = m_map.passable(add(p, kRing[i]));
            const bool b = m_map.passable(add(p, kRing[(i + 1) % 8]));
            passable += a;
            if (a && !b) ++arcs;
        }
        // Corner cells of the ring only connect through their two ring neighbours (orthogonal steps).
        if (passable < 3) return false;
        if (passable < 8 && arcs != 1) return false;
        // Corners whose two orthogonal ring neighbours are blocked would be cut off around the tree.
        for (int i = 0; i < 8; i += 2)
            if (m_map.passable(add(p, kRing[i])) && !m_map.passable(add(p, kRing[(i + 1) % 8])) &&
                !m_map.passable(add(p, kRing[(i + 7) % 8])))
                return false;
        return true;
    };
    for (std::size_t g = 0; g < groves; ++g) {
        const GridPoint c = spread_centre(free_for_place);
        if (c.x < 0) break;
        for (std::size_t t = 0; t < trees_per; ++t) {
            const GridPoint p = scatter(c, 4, tree_ok);
            if (p.x < 0) continue;
            add_place(PlaceKind::Tree, p, kTreeWood);
            (void)m_map.set_passable(p, false);
        }
    }
    for (std::size_t k = 0; k < kPlaceKindCount; ++k)
        if (m_by_kind[k].empty())
            throw SetupError("the map has no room for a " + std::string(to_string(PlaceKind(k))) +
                             " (its largest open area has " + std::to_string(best_size) + " cells)");

    // Villagers: distinct free cells of the island (trees now stand), drawn without replacement.
    report("placing villagers", 0, n);
    islands.build(m_map);
    const std::uint32_t island = islands.island(m_places[m_by_kind[std::size_t(PlaceKind::Store)][0]].cell);
    std::vector<GridPoint> cells;
    for (std::int32_t y = 0; y < m_map.height(); ++y)
        for (std::int32_t x = 0; x < m_map.width(); ++x)
            if (islands.island({x, y}) == island && im.place_at[m_map.index({x, y})] == kNone) cells.push_back({x, y});
    if (cells.size() < n)
        throw SetupError("--agents " + std::to_string(n) + " is more than the " + std::to_string(cells.size()) +
                         " free cells of the map's largest open area");
    m_villagers.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t j = i + rng.below(cells.size() - i);
        std::swap(cells[i], cells[j]);
        Villager& v = m_villagers[i];
        v.index = static_cast<std::uint32_t>(i);
        // Two woodcutters, one miner, one cook in every four.
        v.kind = i % 4 == 3 ? Kind::Cook : i % 4 == 2 ? Kind::Miner : Kind::Woodcutter;
        v.cell = cells[i];
        v.hunger_limit = rng.range(500, 800);
        v.fatigue_limit = rng.range(900, 1400);
        v.hunger = rng.range(0, v.hunger_limit / 2);
        v.fatigue = rng.range(0, v.fatigue_limit / 2);
        m_occupant[m_map.index(v.cell)] = v.index + 1;
        ++im.counts.kind_agents[std::size_t(v.kind)];
    }

    build_fields(m_map, progress);
    for (const PlaceKind kind : {PlaceKind::Tree, PlaceKind::Mine, PlaceKind::Market})
        for (const std::uint32_t p : m_by_kind[std::size_t(kind)]) im.free_stock[std::size_t(kind)] += m_places[p].stock;
    place_dens();
    report("movement layer", 0, n);
    make_movement();
    for (Villager& v : m_villagers) {
        v.unit = im.movement->add_unit(v.cell);
        if (v.unit == path::kNoUnit) throw SetupError("internal: a villager's cell is taken");
    }
}

// Fixed places: one flood per kind answers every villager's walking cost. Computed with every tree
// standing (`standing` is the map so); a felled tree only opens one cell, which `walk_cost` handles
// through its neighbours.
void Village::build_fields(const path::GridMap& standing, const SetupProgress& progress) {
    Impl& im = *m_impl;
    std::size_t done = 0;
    for (const PlaceKind kind : {PlaceKind::Store, PlaceKind::Kitchen, PlaceKind::Home}) {
        if (progress) progress("walking costs to stores, kitchens and homes", done++, 3);
        std::vector<GridPoint> sources;
        for (const std::uint32_t p : m_by_kind[std::size_t(kind)]) sources.push_back(m_places[p].cell);
        (void)im.fields[std::size_t(kind)].compute(standing, sources);
    }
}

// The movement layer and the per-tick buffers (units are added by the caller).
void Village::make_movement() {
    Impl& im = *m_impl;
    const std::size_t n = m_villagers.size();
    path::MovementOptions mo;
    mo.lanes = m_config.path_lanes;
    mo.path_budget = m_config.path_budget;
    // Villagers need good paths, not optimal ones: weighted A* (cost at most kPathWeight times the
    // optimum, usually far fewer expansions), then smoothing straightens what the weight bent.
    mo.path_weight = kPathWeight;
    mo.give_up_ticks = kGiveUpTicks;
    mo.layers = im.layers();  // paths avoid the danger (empty without wolves)
    im.movement = std::make_unique<path::MovementSystem>(m_map, mo);
    im.movement->reserve(n, 256);
    im.before.resize(n);
    im.seen.assign(m_map.node_bound(), UINT32_MAX);
    im.nearest.reserve(m_map, 64);
    if (m_config.threads > 1) im.pool = std::make_unique<goap::ThreadPool>(m_config.threads);
}

void Village::bind_types() {
    Impl& im = *m_impl;
    for (std::size_t k = 0; k < kKindCount; ++k) {
        const io::DomainFile& file = m_domains->files[k];
        const goap::Domain& d = file.domain;
        Impl::KindData& kd = im.kinds[k];
        const std::string& fname = m_domains->names[k];
        kd.hungry = d.find_atom("hungry");
        kd.tired = d.find_atom("tired");
        kd.tool = d.find_atom(Kind(k) == Kind::Miner ? "has_pickaxe" : "has_axe");
        if (!kd.hungry.valid() || !kd.tired.valid())
            throw SetupError(fname + ": the village needs the atoms \"hungry\" and \"tired\"");
        for (std::size_t p = 0; p < kPlaceKindCount; ++p) kd.at[p] = d.find_atom("at_" + std::string(to_string(PlaceKind(p))));
        const goap::Goal* work = file.find_goal("work");
        if (!work) throw SetupError(fname + ": the village needs a goal named \"work\"");
        kd.work_goal = static_cast<std::uint32_t>(work - file.goals.data());

        goap::AgentTypeBuilder b(d, std::string(to_string(Kind(k))));
        for (std::uint32_t a = 0; a < d.action_count(); ++a) {
            const std::string& name = d.action_name(goap::ActionId(a));
            if (name.rfind("go_to_", 0) == 0) {
                const std::string_view what = std::string_view(name).substr(6);
                std::size_t pk = kPlaceKindCount;
                for (std::size_t p = 0; p < kPlaceKindCount; ++p)
                    if (to_string(PlaceKind(p)) == what) pk = p;
                if (pk == kPlaceKindCount)
                    throw SetupError(fname + ": action '" + name + "': no place kind '" + std::string(what) +
                                     "' (tree, mine, market, store, kitchen, home)");
                const auto kind = PlaceKind(pk);
                goap::Behaviour walk([this](goap::ActionContext& c) {
                    const auto t0 = Clock::now();
                    const goap::ActionStatus r = walk_update(*static_cast<Villager*>(c.user_data), c);
                    m_impl->behaviour_us += std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
                    return r;
                });
                walk.start = [this, kind](goap::ActionContext& c) {
                    const auto t0 = Clock::now();
                    Villager& v = *static_cast<Villager*>(c.user_data);
                    release_claim(v);
                    v.walking = true;
                    v.still = 0;
                    if (!choose_target(v, kind)) {
                        v.target = kNone;  // walk_update reports the failure
                    } else {
                        const path::Destination d{v.goal, m_places[v.target].cell, arrival_radius(kind)};
                        (void)m_impl->movement->move_to(v.unit, d);  // Arrived at once when already there
                    }
                    m_impl->behaviour_us += std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
                };
                walk.abort = [this](goap::ActionContext& c, goap::AbortReason) {
                    end_walk(*static_cast<Villager*>(c.user_data), false);
                };
                (void)b.bind(name, std::move(walk));
                (void)b.set_cost(name, [this, kind](const goap::PlanningContext& c) {
                    return walk_cost(*static_cast<const Villager*>(c.user_data), kind);
                });
                continue;
            }
            const WorkSpec* spec = nullptr;
            for (const WorkSpec& w : kWork)
                if (w.action == name) spec = &w;
            if (!spec) {
                std::string known;
                for (const WorkSpec& w : kWork) known += (known.empty() ? "" : ", ") + std::string(w.action);
                throw SetupError(fname + ": action '" + name + "' has no behaviour in the village (known: go_to_<place>, " +
                                 known + ")");
            }
            const WorkSpec ws = *spec;
            const std::size_t kind_index = k;
            const auto work_update = [this, ws, kind_index](goap::ActionContext& c) {
                Villager& v = *static_cast<Villager*>(c.user_data);
                Impl& m = *m_impl;
                Impl::KindData& kdat = m.kinds[kind_index];
                if (c.ticks_running == 0) {
                    // Procedural checks against the live world; a failure clears the belief that led here.
                    const bool ok = has_stock(ws.place) ? claim_near(v, ws.place) : near_place(v, ws.place);
                    if (!ok) {
                        if (kdat.at[std::size_t(ws.place)].valid()) (void)c.agent.set(kdat.at[std::size_t(ws.place)], false);
                        if (has_stock(ws.place)) ++m.counts.resource_failures;
                        release_claim(v);
                        return goap::ActionStatus::Failure;
                    }
                    if (ws.effect == Effect::FetchWood || ws.effect == Effect::EatMeal) {
                        std::int64_t& stock = ws.effect == Effect::FetchWood ? m.wood_stock : m.meals_stock;
                        if (stock <= 0) {
                            ++m.counts.resource_failures;
                            return goap::ActionStatus::Failure;
                        }
                        --stock;
                        v.consumed = 1;
                    }
                    v.working = true;  // anchored: nobody pushes a villager at work
                    if (ws.effect == Effect::Cook) ++m.pots_cooking;
                }
                if (c.ticks_running + 1 < ws.ticks) return goap::ActionStatus::Running;
                v.consumed = 0;
                v.working = false;
                if (ws.effect == Effect::Cook) --m.pots_cooking;
                switch (ws.effect) {
                    case Effect::TakeTool: v.tool_wear = 0; break;
                    case Effect::Chop:
                    case Effect::Dig: {
                        Place& p = m_places[v.claim];
                        --p.stock;
                        --p.claims;
                        v.claim = kNone;
                        if (p.kind == PlaceKind::Tree && p.stock == 0) m.targets[std::size_t(PlaceKind::Tree)].dirty = true;
                        if (++v.tool_wear >= kToolUses && kdat.tool.valid()) {
                            v.tool_wear = 0;
                            (void)c.agent.set(kdat.tool, false);
                        }
                        break;
                    }
                    case Effect::DeliverWood:
                        ++m.counts.wood;
                        ++m.wood_stock;
                        ++v.cycles;
                        break;
                    case Effect::DeliverOre:
                        ++m.counts.ore;
                        ++v.cycles;
                        break;
                    case Effect::FetchWood: break;
                    case Effect::BuyVegetables:
                    case Effect::EatVegetables: {
                        Place& p = m_places[v.claim];
                        --p.stock;
                        --p.claims;
                        v.claim = kNone;
                        if (ws.effect == Effect::EatVegetables) {
                            v.hunger = 0;
                            ++m.counts.vegetables_eaten;
                        }
                        break;
                    }
                    case Effect::Cook:
                        m.meals_stock += kMealsPerPot;
                        m.counts.meals += kMealsPerPot;
                        ++v.cycles;
                        break;
                    case Effect::EatMeal:
                        v.hunger = 0;
                        ++m.counts.meals_eaten;
                        break;
                    case Effect::Sleep:
                        v.fatigue = 0;
                        ++m.counts.sleeps;
                        break;
                }
                return goap::ActionStatus::Success;
            };
            goap::Behaviour work_b([this, work_update](goap::ActionContext& c) {
                const auto t0 = Clock::now();
                const goap::ActionStatus r = work_update(c);
                m_impl->behaviour_us += std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
                return r;
            });
            work_b.abort = [this](goap::ActionContext& c, goap::AbortReason) {
                Villager& v = *static_cast<Villager*>(c.user_data);
                const std::string& action = c.agent.domain().action_name(c.action);
                if (v.working && action == "cook_meal") --m_impl->pots_cooking;
                v.working = false;
                if (v.consumed) {
                    (action == "fetch_wood" ? m_impl->wood_stock : m_impl->meals_stock) += v.consumed;
                    v.consumed = 0;
                }
                release_claim(v);
            };
            (void)b.bind(name, std::move(work_b));
            // Procedural preconditions: is there anything left to take?
            const auto stock_check = [this, ws](const goap::PlanningContext& c) {
                const Villager& v = *static_cast<const Villager*>(c.user_data);
                const Impl& m = *m_impl;
                switch (ws.effect) {
                    case Effect::FetchWood: return m.wood_stock > 0;
                    case Effect::EatMeal: return m.meals_stock > 0;
                    // Production follows demand: cook only while the meals in store and on the stove
                    // are fewer than the hungry villagers plus a small reserve.
                    case Effect::Cook: return m.meals_stock + m.pots_cooking * kMealsPerPot < m.hungry + kMealReserve;
                    case Effect::Chop:
                    case Effect::Dig:
                    case Effect::BuyVegetables:
                    case Effect::EatVegetables:
                        return (v.claim != kNone && m_places[v.claim].kind == ws.place) || m.free_stock[std::size_t(ws.place)] > 0;
                    default: return true;
                }
            };
            if (ws.effect == Effect::FetchWood || ws.effect == Effect::EatMeal || ws.effect == Effect::Cook || has_stock(ws.place))
                (void)b.set_check(name, stock_check);
        }
        goap::BindResult r = b.build();
        if (!r.ok()) throw SetupError(fname + ": " + r.message());
        kd.type = r.type;
        kd.system = std::make_unique<goap::AgentSystem>(d);
    }
}

// Villagers arrive over the first kArrivalTicks ticks (villager i at tick i % kArrivalTicks), so the
// first plans of a big village are spread over several frames instead of one.
void Village::add_agents(std::uint64_t tick) {
    Impl& im = *m_impl;
    for (std::size_t i = tick; i < m_villagers.size(); i += kArrivalTicks) {
        Villager& v = m_villagers[i];
        const std::size_t k = std::size_t(v.kind);
        const io::DomainFile& file = m_domains->files[k];
        goap::AgentParams params;
        params.name = std::string(to_string(v.kind)) + "#" + std::to_string(v.index);
        params.type = im.kinds[k].type;
        for (const goap::Goal& g : file.goals) params.goals.push_back(goap::AgentGoal::from(g));
        params.state = file.start;
        params.user_data = &v;
        v.agent = im.kinds[k].system->add_agent(std::move(params));
        if (!v.agent.valid()) throw SetupError(m_domains->names[k] + ": cannot add an agent of this domain");
    }
}

// ---- walking ---------------------------------------------------------------------------------------
void Village::rebuild_targets(PlaceKind kind) {
    Impl::Targets& t = m_impl->targets[std::size_t(kind)];
    t.cells.clear();
    t.owner.clear();
    for (const std::uint32_t i : m_by_kind[std::size_t(kind)]) {
        const Place& p = m_places[i];
        if (p.stock - p.claims <= 0) continue;
        if (kind == PlaceKind::Tree) {
            // A standing tree is a wall: villagers chop it from an orthogonal neighbour.
            for (const GridPoint d : kOrthogonal) {
                const GridPoint q = add(p.cell, d);
                if (m_map.passable(q)) {
                    t.cells.push_back(q);
                    t.owner.push_back(i);
                }
            }
        } else {
            t.cells.push_back(p.cell);
            t.owner.push_back(i);
        }
    }
    t.dirty = false;
}

void Village::ensure_targets() {
    for (const PlaceKind kind : {PlaceKind::Tree, PlaceKind::Mine, PlaceKind::Market})
        if (m_impl->targets[std::size_t(kind)].dirty) rebuild_targets(kind);
}

// Nearest-of-many in one search, cheap on big maps: A* toward the kCandidates targets nearest as the
// crow flies (NearestTargets' heuristic is the minimum over them). The octile distance times the map's
// minimum cell cost is a lower bound of every walking cost, so if the best walking cost found is no
// more than the lower bound of the nearest target left out, no target left out can be nearer and the
// answer is exact. Otherwise (walls in the way) one Dijkstra over all targets decides, within
// kHorizonExpansions; if that budget runs out the best candidate stands (a real walking cost to a
// real target). Villagers have a horizon: a place the first search cannot reach within
// kHorizonExpansions cells is out of reach (+infinity), which bounds the planning time of a tick
// when the only market left with vegetables is at the other end of a big map.
constexpr std::uint64_t kHorizonExpansions = 6000;
// The danger layer (wolves) is part of the cost: a grove where villagers were attacked is "further".
static path::NearestTarget nearest_target(const path::GridMap& map, GridPoint from, std::span<const GridPoint> targets,
                                          path::NearestTargets& finder,
                                          std::vector<std::pair<double, std::uint32_t>>& scratch,
                                          std::span<const path::CostLayer> layers) {
    constexpr std::size_t kCandidates = path::GridPathfinder::kMaxHeuristicGoals;
    path::GridSearchOptions options;
    options.budget.max_expansions = kHorizonExpansions;
    options.layers = layers;
    if (targets.size() <= kCandidates) return finder.find(map, from, targets, options);
    scratch.clear();
    for (std::uint32_t i = 0; i < targets.size(); ++i) scratch.emplace_back(octile(from, targets[i]), i);
    std::nth_element(scratch.begin(), scratch.begin() + kCandidates, scratch.end());
    const double bound_left_out = scratch[kCandidates].first * static_cast<double>(map.min_cost());
    std::sort(scratch.begin(), scratch.begin() + kCandidates);  // deterministic candidate order
    std::array<GridPoint, kCandidates> near{};
    for (std::size_t i = 0; i < kCandidates; ++i) near[i] = targets[scratch[i].second];
    path::NearestTarget best = finder.find(map, from, near, options);
    if (best.status == Status::Found) best.index = scratch[best.index].second;
    if (best.status != Status::Found || best.cost <= bound_left_out) return best;
    const path::NearestTarget all = finder.find(map, from, targets, options);
    return all.status == Status::BudgetExhausted ? best : all;
}

// Walking distance from the villager to the nearest place of `kind` (+infinity: none reachable). Runs
// on planning worker threads: reads the map, the target lists and the fields, all fixed during think.
double Village::walk_cost(const Villager& v, PlaceKind kind) const {
    const Impl& im = *m_impl;
    if (has_stock(kind)) {
        const Impl::Targets& t = im.targets[std::size_t(kind)];
        if (t.cells.empty()) return kInf;
        thread_local path::NearestTargets finder;
        thread_local std::vector<std::pair<double, std::uint32_t>> scratch;
        const path::NearestTarget r = nearest_target(m_map, v.cell, t.cells, finder, scratch, im.layers());
        return r.status == Status::Found ? r.cost : kInf;
    }
    const path::DistanceField& f = im.fields[std::size_t(kind)];
    double d = f.distance(v.cell);
    if (std::isinf(d))  // standing on a stump the field never saw: go through a neighbour
        for (const GridPoint dir : kRing) {
            const GridPoint q = add(v.cell, dir);
            if (path::step_allowed(m_map, q, v.cell, path::Movement::Eight, path::DiagonalRule::NoCornerCutting))
                d = std::min(d, f.distance(q) + path::step_cost(m_map, v.cell, q));
        }
    return d;
}

bool Village::choose_target(Villager& v, PlaceKind kind) {
    Impl& im = *m_impl;
    if (has_stock(kind)) {
        ensure_targets();
        Impl::Targets& t = im.targets[std::size_t(kind)];
        if (t.cells.empty()) return false;
        const path::NearestTarget r = nearest_target(m_map, v.cell, t.cells, im.nearest, im.scratch, im.layers());
        if (r.status != Status::Found) return false;
        const std::uint32_t place = t.owner[r.index];
        Place& p = m_places[place];
        ++p.claims;
        --im.free_stock[std::size_t(kind)];
        if (p.stock - p.claims <= 0) t.dirty = true;
        v.claim = v.target = place;
        v.goal = r.cell;
        return true;
    }
    const path::DistanceField& f = im.fields[std::size_t(kind)];
    GridPoint from = v.cell;
    if (!f.reached(from)) {
        double best = kInf;
        for (const GridPoint dir : kRing) {
            const GridPoint q = add(v.cell, dir);
            if (f.reached(q) && f.distance(q) < best) best = f.distance(q), from = q;
        }
        if (std::isinf(best)) return false;
    }
    const std::size_t source = f.nearest_source(from);
    if (source == path::kNoIndex) return false;
    v.target = m_by_kind[std::size_t(kind)][source];
    v.goal = m_places[v.target].cell;
    return true;
}

void Village::release_claim(Villager& v) {
    if (v.claim == kNone) return;
    Place& p = m_places[v.claim];
    --p.claims;
    ++m_impl->free_stock[std::size_t(p.kind)];
    m_impl->targets[std::size_t(p.kind)].dirty = true;
    v.claim = kNone;
}

void Village::end_walk(Villager& v, bool keep_claim) {
    (void)m_impl->movement->stop(v.unit);  // cancels a request in flight, drops the route
    v.walking = false;
    if (!keep_claim) {
        release_claim(v);
        // It may have left wherever it believed it was.
        const Impl::KindData& kd = m_impl->kinds[std::size_t(v.kind)];
        goap::Agent* a = kd.system->find(v.agent);
        for (const goap::AtomId at : kd.at)
            if (at.valid() && a) (void)a->set(at, false);
    }
}

bool Village::near_place(const Villager& v, PlaceKind kind) const {
    const std::int32_t r = arrival_radius(kind);
    for (std::int32_t dy = -r; dy <= r; ++dy)
        for (std::int32_t dx = -r; dx <= r; ++dx) {
            const GridPoint q{v.cell.x + dx, v.cell.y + dy};
            if (!m_map.contains(q)) continue;
            const std::uint32_t p = m_impl->place_at[m_map.index(q)];
            if (p != kNone && m_places[p].kind == kind) return true;
        }
    return false;
}

bool Village::claim_near(Villager& v, PlaceKind kind) {
    Impl& im = *m_impl;
    const std::int32_t r = arrival_radius(kind);
    if (v.claim != kNone && m_places[v.claim].kind == kind && chebyshev(v.cell, m_places[v.claim].cell) <= r) return true;
    release_claim(v);
    for (std::int32_t dy = -r; dy <= r; ++dy)
        for (std::int32_t dx = -r; dx <= r; ++dx) {
            const GridPoint q{v.cell.x + dx, v.cell.y + dy};
            if (!m_map.contains(q)) continue;
            const std::uint32_t i = im.place_at[m_map.index(q)];
            if (i == kNone) continue;
            Place& p = m_places[i];
            if (p.kind != kind || p.stock - p.claims <= 0 || (kind == PlaceKind::Tree && !p.standing)) continue;
            ++p.claims;
            --im.free_stock[std::size_t(kind)];
            im.targets[std::size_t(kind)].dirty = true;
            v.claim = i;
            return true;
        }
    return false;
}

// Walking is the movement layer's job: a walk asks it how the unit stands.
goap::ActionStatus Village::walk_update(Villager& v, goap::ActionContext&) {
    Impl& im = *m_impl;
    if (v.target == kNone) {  // nothing of the kind left (or reachable) when the walk started
        ++im.counts.resource_failures;
        end_walk(v, false);
        return goap::ActionStatus::Failure;
    }
    switch (im.movement->status(v.unit)) {
        case path::UnitStatus::Arrived: end_walk(v, true); return goap::ActionStatus::Success;
        case path::UnitStatus::Failed:
        case path::UnitStatus::Idle:  // (stopped by someone else: cannot happen in the village)
            end_walk(v, false);
            return goap::ActionStatus::Failure;
        default: return goap::ActionStatus::Running;
    }
}

// One tick of the crowd: anchors for villagers at work, the movement layer's update, then an
// independent check of the result (collisions must stay 0) and the village's occupancy grid.
void Village::move_crowd() {
    Impl& im = *m_impl;
    path::MovementSystem& ms = *im.movement;
    for (Villager& v : m_villagers) {
        (void)ms.set_anchored(v.unit, v.working);
        im.before[v.index] = v.cell;
    }
    ms.update();
    const auto stamp = static_cast<std::uint32_t>(m_tick);
    for (Villager& v : m_villagers) {
        const GridPoint to = ms.position(v.unit);
        const GridPoint from = im.before[v.index];
        // In a wall, a jump of more than one cell, or a diagonal past a wall corner: a collision with the map.
        if (!m_map.passable(to) || (to != from && !path::step_allowed(m_map, from, to, path::Movement::Eight,
                                                                      path::DiagonalRule::NoCornerCutting)))
            ++im.counts.collisions;
        const std::uint32_t node = m_map.index(to);
        if (im.seen[node] == stamp) ++im.counts.collisions;  // a second villager on this cell
        im.seen[node] = stamp;
        if (to != from) {
            const std::uint32_t other = occupant(to);  // who stood there before the tick (grid not yet updated)
            if (other != kNone && other != v.index && ms.position(m_villagers[other].unit) == from) ++im.counts.collisions;  // a swap
        }
        v.still = v.walking && to == from && ms.status(v.unit) != path::UnitStatus::Arrived ? v.still + 1 : 0;
    }
    for (Villager& v : m_villagers) m_occupant[m_map.index(v.cell)] = 0;
    for (Villager& v : m_villagers) {
        v.cell = ms.position(v.unit);
        m_occupant[m_map.index(v.cell)] = v.index + 1;
    }
}

// ---- the world ------------------------------------------------------------------------------------
void Village::pulse() {
    Impl& im = *m_impl;
    for (const std::uint32_t i : m_by_kind[std::size_t(PlaceKind::Tree)]) {
        Place& p = m_places[i];
        if (p.standing && p.stock == 0) {
            p.standing = false;  // felled: the stump is passable
            p.regrow_tick = m_tick + kRegrowTicks;
            (void)m_map.set_passable(p.cell, true);
            ++im.counts.map_changes;
        } else if (!p.standing && m_tick >= p.regrow_tick && occupant(p.cell) == kNone) {
            p.standing = true;
            p.stock = p.capacity;
            im.free_stock[std::size_t(PlaceKind::Tree)] += p.capacity;
            (void)m_map.set_passable(p.cell, false);
            ++im.counts.map_changes;
        }
    }
    for (const PlaceKind kind : {PlaceKind::Mine, PlaceKind::Market})
        for (const std::uint32_t i : m_by_kind[std::size_t(kind)]) {
            Place& p = m_places[i];
            const std::int32_t refill = std::min(p.capacity - p.stock, kind == PlaceKind::Mine ? 2 : 6);
            p.stock += refill;
            im.free_stock[std::size_t(kind)] += refill;
        }
    for (Impl::Targets& t : im.targets) t.dirty = true;
}

void Village::update_needs() {
    Impl& im = *m_impl;
    im.hungry = 0;
    for (Villager& v : m_villagers) {
        Impl::KindData& kd = im.kinds[std::size_t(v.kind)];
        goap::Agent* agent = kd.system->find(v.agent);
        if (!agent) continue;  // not arrived yet
        goap::Agent& a = *agent;
        ++v.hunger;
        ++v.fatigue;
        const goap::WorldState& s = a.private_state();
        if (v.hunger >= v.hunger_limit && !s.get(kd.hungry)) (void)a.set(kd.hungry, true);
        im.hungry += s.get(kd.hungry) ? 1 : 0;
        if (v.fatigue >= v.fatigue_limit && !s.get(kd.tired)) (void)a.set(kd.tired, true);
        // A completed work goal starts the next cycle.
        const goap::Condition& work = a.goals()[kd.work_goal].condition;
        if (s.satisfies(work)) work.for_each([&](goap::Literal l) { (void)a.set(l.atom, !l.value); });
        if (a.status() == goap::AgentStatus::Idle) {
            if (!v.walking) release_claim(v);
            if ((m_tick + v.index) % kIdleRetryTicks == 0) a.notify_context_changed();
        }
    }
}

void Village::step() {
    Impl& im = *m_impl;
    const auto t0 = Clock::now();
    if (m_tick > 0 && m_tick % kPulseTicks == 0) {
        pulse();
        wolves_attack();  // before planning: the danger is fixed while workers read it
    }
    if (m_tick > 0 && m_tick < kArrivalTicks) add_agents(m_tick);
    update_needs();
    const auto tq = Clock::now();
    move_crowd();  // path searches, claims and the crowd's steps
    const auto tq1 = Clock::now();
    im.path_us += std::chrono::duration<double, std::micro>(tq1 - tq).count();
    const double behaviour_before = im.behaviour_us;
    for (Impl::KindData& kd : im.kinds) {
        ensure_targets();
        const auto ts = Clock::now();
        kd.system->tick(im.pool.get());
        im.think_us += std::chrono::duration<double, std::micro>(Clock::now() - ts).count();
    }
    // Behaviours (walking, smoothing, work) ran inside the systems' ticks: not planning time.
    im.think_us -= im.behaviour_us - behaviour_before;
    ++m_tick;
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    m_last_tick_us = us;
    im.tick_ms.push_back(static_cast<float>(us / 1000.0));
}

Summary Village::summary() const {
    const Impl& im = *m_impl;
    Summary s = im.counts;
    s.ticks = m_tick;
    s.agents = m_villagers.size();
    s.wood_stock = im.wood_stock;
    s.meals_stock = im.meals_stock;
    for (const Villager& v : m_villagers) s.cycles[std::size_t(v.kind)] += v.cycles;
    goap::AgentStats total;
    for (const Impl::KindData& kd : im.kinds) total.add(kd.system->total_stats());
    s.plans = total.plans_found;
    s.searches = total.searches;
    s.replans = total.replans;
    s.replans_failed = total.replans_for(goap::ReplanTrigger::ActionFailed);
    s.replans_preconditions = total.replans_for(goap::ReplanTrigger::PreconditionsFailed);
    s.actions_failed = total.actions_failed;
    s.cost_queries = total.cost_calls;
    const path::MovementStats& ms = im.movement->stats();
    s.paths = ms.paths;
    s.path_requests = ms.path_requests;
    s.repaths = ms.repaths_map + ms.repaths_goal + ms.repaths_off_route + ms.repaths_blocked;
    s.repaths_map = ms.repaths_map;
    s.waits = ms.waits;
    s.detours = ms.detours;
    s.pushes = ms.pushes;
    s.jams = ms.jams;
    s.longest_still = ms.longest_still;
    s.walk_failures = ms.failures;
    s.steps = ms.steps;

    Fnv h;
    h.add(s.ticks);
    for (const Villager& v : m_villagers) {
        h.add(std::uint64_t(v.kind));
        h.add(std::uint64_t(std::uint32_t(v.cell.x)) << 32 | std::uint32_t(v.cell.y));
        h.add(v.cycles);
        h.add(std::uint64_t(std::uint32_t(v.hunger)) << 32 | std::uint32_t(v.fatigue));
    }
    for (const Place& p : m_places) h.add(std::uint64_t(std::uint32_t(p.stock)) << 32 | std::uint32_t(p.claims) << 1 | p.standing);
    for (const std::uint64_t c : {s.plans, s.searches, s.replans, s.replans_failed, s.replans_preconditions, s.actions_failed,
                                  s.cost_queries, s.paths, s.path_requests, s.repaths, s.repaths_map, s.collisions,
                                  s.waits, s.detours, s.pushes, s.jams, s.longest_still, s.walk_failures, s.steps, s.resource_failures, s.map_changes, s.wolf_attacks, s.wood, s.ore,
                                  s.meals, s.meals_eaten, s.vegetables_eaten, s.sleeps})
        h.add(c);
    h.add(std::uint64_t(s.wood_stock));
    h.add(std::uint64_t(s.meals_stock));
    s.checksum = h.value();

    if (s.searches > 0) s.plan_us_mean = im.think_us / static_cast<double>(s.searches);
    if (s.paths > 0) s.path_us_mean = im.path_us / static_cast<double>(s.paths);
    if (!im.tick_ms.empty()) {
        double sum = 0;
        for (const float t : im.tick_ms) sum += t;
        s.tick_ms_mean = sum / static_cast<double>(im.tick_ms.size());
        std::vector<float> sorted = im.tick_ms;
        const std::size_t k = std::min(sorted.size() - 1, static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(sorted.size()))) - 1);
        std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(k), sorted.end());
        s.tick_ms_p99 = sorted[k];
        s.tick_ms_max = *std::max_element(im.tick_ms.begin(), im.tick_ms.end());
    }
    return s;
}

}  // namespace gameplan::village

// ---- saving and loading ----------------------------------------------------------------------------
namespace gameplan::village {

namespace {
constexpr std::int64_t none_or(std::uint32_t v) noexcept { return v == kNone ? -1 : std::int64_t{v}; }
constexpr const char* kApplication = "gameplan village";
}  // namespace

void Village::save(io::SaveFile& out) const {
    const Impl& im = *m_impl;
    out = io::SaveFile{};
    out.application = kApplication;
    out.tick = m_tick;
    out.maps.push_back(m_map);
    for (const Impl::KindData& kd : im.kinds) kd.system->save_state(out.agent_systems.emplace_back());
    im.movement->save_state(out.movement.emplace_back());

    io::SaveTable village{"village",
                          {"agents", "seed", "path_budget", "path_lanes", "tick", "wood_stock", "meals_stock", "pots_cooking", "hungry",
                           "free_tree", "free_mine", "free_market", "dirty_tree", "dirty_mine", "dirty_market", "wolves"},
                          {}};
    village.rows.push_back({std::int64_t(m_config.agents), std::int64_t(m_config.seed), std::int64_t(m_config.path_budget),
                            std::int64_t(m_config.path_lanes), std::int64_t(m_tick), im.wood_stock, im.meals_stock, im.pots_cooking,
                            im.hungry, im.free_stock[0], im.free_stock[1], im.free_stock[2], im.targets[0].dirty, im.targets[1].dirty,
                            im.targets[2].dirty, m_config.wolves});
    out.tables.push_back(std::move(village));

    const Summary& c = im.counts;
    out.tables.push_back({"counters",
                          {"resource_failures", "collisions", "map_changes", "wood", "ore", "meals", "meals_eaten", "vegetables_eaten", "sleeps",
                           "wolf_attacks"},
                          {{std::int64_t(c.resource_failures), std::int64_t(c.collisions), std::int64_t(c.map_changes), std::int64_t(c.wood),
                            std::int64_t(c.ore), std::int64_t(c.meals), std::int64_t(c.meals_eaten), std::int64_t(c.vegetables_eaten),
                            std::int64_t(c.sleeps), std::int64_t(c.wolf_attacks)}}});

    // The danger map: every non-zero cell, its value as the bits of a 32-bit float (exact).
    io::SaveTable danger{"danger", {"x", "y", "bits"}, {}};
    for (std::int32_t y = 0; y < m_map.height(); ++y)
        for (std::int32_t x = 0; x < m_map.width(); ++x)
            if (const float d = im.danger.at({x, y}); d > 0.0f)
                danger.rows.push_back({x, y, std::int64_t(float_bits(d))});
    out.tables.push_back(std::move(danger));

    io::SaveTable places{"places", {"kind", "x", "y", "stock", "capacity", "claims", "standing", "regrow_tick"}, {}};
    for (const Place& p : m_places)
        places.rows.push_back({std::int64_t(p.kind), p.cell.x, p.cell.y, p.stock, p.capacity, p.claims, p.standing, std::int64_t(p.regrow_tick)});
    out.tables.push_back(std::move(places));

    io::SaveTable villagers{"villagers",
                            {"kind", "agent_index", "agent_generation", "x", "y", "unit", "goal_x", "goal_y", "target", "claim", "walking",
                             "working", "hunger", "fatigue", "hunger_limit", "fatigue_limit", "tool_wear", "still", "cycles", "consumed"},
                            {}};
    for (const Villager& v : m_villagers)
        villagers.rows.push_back({std::int64_t(v.kind), none_or(v.agent.index), std::int64_t(v.agent.generation), v.cell.x, v.cell.y,
                                  none_or(v.unit), v.goal.x, v.goal.y, none_or(v.target), none_or(v.claim), v.walking, v.working,
                                  v.hunger, v.fatigue, v.hunger_limit, v.fatigue_limit, std::int64_t(v.tool_wear), std::int64_t(v.still),
                                  std::int64_t(v.cycles), v.consumed});
    out.tables.push_back(std::move(villagers));

    io::SaveTable targets{"targets", {"kind", "x", "y", "owner"}, {}};
    for (std::size_t k = 0; k < kPlaceKindCount; ++k)
        for (std::size_t i = 0; i < im.targets[k].cells.size(); ++i)
            targets.rows.push_back({std::int64_t(k), im.targets[k].cells[i].x, im.targets[k].cells[i].y, std::int64_t(im.targets[k].owner[i])});
    out.tables.push_back(std::move(targets));
}

std::unique_ptr<Village> Village::load(const io::SaveFile& save, const DomainSet& domains, std::size_t threads) {
    if (threads == 0 || threads > kMaxThreads) throw SetupError("--threads must be in [1, " + std::to_string(kMaxThreads) + "]");
    // Tables are found by name; their fields by column (so errors name the column).
    struct Table {
        const io::SaveFile& save;
        const io::SaveTable* table;
        std::size_t index;
        std::string path(std::size_t row, std::size_t col) const {
            return "tables[" + std::to_string(index) + "].rows[" + std::to_string(row) + "][" + std::to_string(col) + "]";
        }
        std::int64_t get(std::size_t row, std::string_view column, std::int64_t lo, std::int64_t hi) const {
            for (std::size_t c = 0; c < table->columns.size(); ++c)
                if (table->columns[c] == column) {
                    const std::int64_t v = table->rows[row][c];
                    if (v < lo || v > hi)
                        io::throw_save_error(save, path(row, c), std::string(column) + " " + std::to_string(v) + " is outside [" +
                                                                    std::to_string(lo) + ", " + std::to_string(hi) + "]");
                    return v;
                }
            io::throw_save_error(save, "tables[" + std::to_string(index) + "].columns", "missing column \"" + std::string(column) + "\"");
        }
        std::size_t rows() const { return table->rows.size(); }
        bool has(std::string_view column) const {
            return std::find(table->columns.begin(), table->columns.end(), column) != table->columns.end();
        }
    };
    const auto table = [&](std::string_view name) {
        for (std::size_t i = 0; i < save.tables.size(); ++i)
            if (save.tables[i].name == name) return Table{save, &save.tables[i], i};
        io::throw_save_error(save, "tables", "not a village save: no table \"" + std::string(name) + "\"");
    };
    if (save.application != kApplication)
        io::throw_save_error(save, "application", "not a village save (written by \"" + save.application + "\")");
    if (save.maps.size() != 1 || save.agent_systems.size() != kKindCount || save.movement.size() != 1)
        io::throw_save_error(save, "maps", "a village save holds one map, three agent systems and one movement system");
    const Table cfg = table("village");
    if (cfg.rows() != 1) io::throw_save_error(save, "tables[" + std::to_string(cfg.index) + "].rows", "expected one row");
    constexpr std::int64_t kBig = std::int64_t{1} << 53;

    std::unique_ptr<Village> v(new Village());
    v->m_config.agents = static_cast<std::size_t>(cfg.get(0, "agents", 1, std::int64_t(kMaxAgents)));
    v->m_config.seed = static_cast<std::uint64_t>(cfg.get(0, "seed", INT64_MIN, INT64_MAX));
    v->m_config.threads = threads;
    v->m_config.path_budget = static_cast<std::uint64_t>(cfg.get(0, "path_budget", 1, kBig));
    v->m_config.path_lanes = static_cast<std::uint32_t>(cfg.get(0, "path_lanes", 1, 1024));
    v->m_tick = static_cast<std::uint64_t>(cfg.get(0, "tick", 0, kBig));
    v->m_domains = std::make_unique<DomainSet>(domains);
    v->m_map = save.maps[0];
    v->m_impl = std::make_unique<Impl>();
    Impl& im = *v->m_impl;
    const path::GridMap& map = v->m_map;
    v->m_occupant.assign(map.node_bound(), 0);
    im.place_at.assign(map.node_bound(), kNone);
    im.wood_stock = cfg.get(0, "wood_stock", 0, kBig);
    im.meals_stock = cfg.get(0, "meals_stock", 0, kBig);
    im.pots_cooking = cfg.get(0, "pots_cooking", 0, kBig);
    im.hungry = cfg.get(0, "hungry", 0, kBig);
    im.free_stock[0] = cfg.get(0, "free_tree", -kBig, kBig);
    im.free_stock[1] = cfg.get(0, "free_mine", -kBig, kBig);
    im.free_stock[2] = cfg.get(0, "free_market", -kBig, kBig);
    im.targets[0].dirty = cfg.get(0, "dirty_tree", 0, 1) != 0;
    im.targets[1].dirty = cfg.get(0, "dirty_mine", 0, 1) != 0;
    im.targets[2].dirty = cfg.get(0, "dirty_market", 0, 1) != 0;
    for (std::size_t k = 3; k < kPlaceKindCount; ++k) im.targets[k].dirty = false;
    v->m_config.wolves = cfg.has("wolves") && cfg.get(0, "wolves", 0, 1) != 0;  // saves from before wolves have none
    v->bind_types();

    const Table counters = table("counters");
    if (counters.rows() != 1) io::throw_save_error(save, "tables[" + std::to_string(counters.index) + "].rows", "expected one row");
    Summary& c = im.counts;
    c.resource_failures = std::uint64_t(counters.get(0, "resource_failures", 0, kBig));
    c.collisions = std::uint64_t(counters.get(0, "collisions", 0, kBig));
    c.map_changes = std::uint64_t(counters.get(0, "map_changes", 0, kBig));
    c.wood = std::uint64_t(counters.get(0, "wood", 0, kBig));
    c.ore = std::uint64_t(counters.get(0, "ore", 0, kBig));
    c.meals = std::uint64_t(counters.get(0, "meals", 0, kBig));
    c.meals_eaten = std::uint64_t(counters.get(0, "meals_eaten", 0, kBig));
    c.vegetables_eaten = std::uint64_t(counters.get(0, "vegetables_eaten", 0, kBig));
    c.sleeps = std::uint64_t(counters.get(0, "sleeps", 0, kBig));
    if (counters.has("wolf_attacks")) c.wolf_attacks = std::uint64_t(counters.get(0, "wolf_attacks", 0, kBig));

    const Table places = table("places");
    const std::int64_t w = map.width() - 1, h = map.height() - 1;
    for (std::size_t r = 0; r < places.rows(); ++r) {
        Place p;
        p.kind = PlaceKind(places.get(r, "kind", 0, kPlaceKindCount - 1));
        p.cell = GridPoint{std::int32_t(places.get(r, "x", 0, w)), std::int32_t(places.get(r, "y", 0, h))};
        p.capacity = std::int32_t(places.get(r, "capacity", 0, INT32_MAX));
        p.stock = std::int32_t(places.get(r, "stock", 0, p.capacity));
        p.claims = std::int32_t(places.get(r, "claims", 0, p.stock));
        p.standing = places.get(r, "standing", 0, 1) != 0;
        p.regrow_tick = std::uint64_t(places.get(r, "regrow_tick", 0, kBig));
        const std::uint32_t node = map.index(p.cell);
        if (im.place_at[node] != kNone) io::throw_save_error(save, places.path(r, 1), "two places on one cell");
        if (p.kind == PlaceKind::Tree && map.passable(p.cell) == p.standing)
            io::throw_save_error(save, places.path(r, 6), "a standing tree blocks its cell and a stump does not; the map disagrees");
        if (p.kind != PlaceKind::Tree && !map.passable(p.cell)) io::throw_save_error(save, places.path(r, 1), "the place's cell is blocked");
        const auto index = static_cast<std::uint32_t>(v->m_places.size());
        im.place_at[node] = index;
        v->m_by_kind[std::size_t(p.kind)].push_back(index);
        v->m_places.push_back(p);
    }
    for (std::size_t k = 0; k < kPlaceKindCount; ++k)
        if (v->m_by_kind[k].empty())
            io::throw_save_error(save, "tables[" + std::to_string(places.index) + "].rows", "no " + std::string(to_string(PlaceKind(k))));
    const auto place_ref = [&](std::int64_t x) { return x < 0 ? kNone : std::uint32_t(x); };
    const std::int64_t place_max = std::int64_t(v->m_places.size()) - 1;

    const Table vt = table("villagers");
    if (vt.rows() != v->m_config.agents)
        io::throw_save_error(save, "tables[" + std::to_string(vt.index) + "].rows", "expected one row per villager (" +
                                                                                       std::to_string(v->m_config.agents) + ")");
    v->m_villagers.resize(vt.rows());
    for (std::size_t r = 0; r < vt.rows(); ++r) {
        Villager& x = v->m_villagers[r];
        x.index = std::uint32_t(r);
        x.kind = Kind(vt.get(r, "kind", 0, kKindCount - 1));
        const std::int64_t agent_index = vt.get(r, "agent_index", -1, UINT32_MAX - 1);
        x.agent = agent_index < 0 ? goap::AgentId{} : goap::AgentId{std::uint32_t(agent_index), std::uint32_t(vt.get(r, "agent_generation", 0, UINT32_MAX))};
        x.cell = GridPoint{std::int32_t(vt.get(r, "x", 0, w)), std::int32_t(vt.get(r, "y", 0, h))};
        x.unit = path::UnitId(vt.get(r, "unit", 0, std::int64_t(vt.rows()) - 1));
        x.goal = GridPoint{std::int32_t(vt.get(r, "goal_x", -1, w)), std::int32_t(vt.get(r, "goal_y", -1, h))};
        x.target = place_ref(vt.get(r, "target", -1, place_max));
        x.claim = place_ref(vt.get(r, "claim", -1, place_max));
        x.walking = vt.get(r, "walking", 0, 1) != 0;
        x.working = vt.get(r, "working", 0, 1) != 0;
        x.hunger = std::int32_t(vt.get(r, "hunger", INT32_MIN, INT32_MAX));
        x.fatigue = std::int32_t(vt.get(r, "fatigue", INT32_MIN, INT32_MAX));
        x.hunger_limit = std::int32_t(vt.get(r, "hunger_limit", INT32_MIN, INT32_MAX));
        x.fatigue_limit = std::int32_t(vt.get(r, "fatigue_limit", INT32_MIN, INT32_MAX));
        x.tool_wear = std::uint32_t(vt.get(r, "tool_wear", 0, UINT32_MAX));
        x.still = std::uint32_t(vt.get(r, "still", 0, UINT32_MAX));
        x.cycles = std::uint64_t(vt.get(r, "cycles", 0, kBig));
        x.consumed = std::int32_t(vt.get(r, "consumed", 0, 1));
        if (!map.passable(x.cell)) io::throw_save_error(save, vt.path(r, 3), "the villager stands in a wall");
        if (v->m_occupant[map.index(x.cell)] != 0) io::throw_save_error(save, vt.path(r, 3), "two villagers on one cell");
        if (x.claim != kNone && !has_stock(v->m_places[x.claim].kind)) io::throw_save_error(save, vt.path(r, 9), "a claim is on a tree, mine or market");
        v->m_occupant[map.index(x.cell)] = x.index + 1;
        ++c.kind_agents[std::size_t(x.kind)];
    }
    const Table tt = table("targets");
    for (std::size_t r = 0; r < tt.rows(); ++r) {
        const auto k = std::size_t(tt.get(r, "kind", 0, 2));
        im.targets[k].cells.push_back(GridPoint{std::int32_t(tt.get(r, "x", 0, w)), std::int32_t(tt.get(r, "y", 0, h))});
        const auto owner = std::uint32_t(tt.get(r, "owner", 0, place_max));
        if (v->m_places[owner].kind != PlaceKind(k)) io::throw_save_error(save, tt.path(r, 3), "the target's place is of another kind");
        im.targets[k].owner.push_back(owner);
    }

    // Fields are flooded with every tree standing, as at setup.
    im.field_map = map;
    for (const std::uint32_t i : v->m_by_kind[std::size_t(PlaceKind::Tree)]) (void)im.field_map.set_passable(v->m_places[i].cell, false);
    v->build_fields(im.field_map);
    v->place_dens();
    if (v->m_config.wolves) {
        for (std::size_t i = 0; i < save.tables.size(); ++i)
            if (save.tables[i].name == "danger") {
                const Table dt{save, &save.tables[i], i};
                for (std::size_t r = 0; r < dt.rows(); ++r) {
                    const GridPoint p{std::int32_t(dt.get(r, "x", 0, w)), std::int32_t(dt.get(r, "y", 0, h))};
                    const float d = bits_float(std::uint32_t(dt.get(r, "bits", 0, UINT32_MAX)));
                    if (!im.danger.set(p, d)) io::throw_save_error(save, dt.path(r, 2), "a danger value must be finite and >= 0");
                }
            }
    }
    v->make_movement();
    io::restore(*im.movement, save, 0);
    for (const Villager& x : v->m_villagers)
        if (im.movement->position(x.unit) != x.cell)
            io::throw_save_error(save, vt.path(x.index, 5), "the villager's unit stands elsewhere");
    if (im.movement->unit_count() != v->m_villagers.size()) io::throw_save_error(save, "movement[0].units", "expected one unit per villager");

    // Agents: each saved agent is the villager named in it ("woodcutter#12"), of the system's kind.
    for (std::size_t k = 0; k < kKindCount; ++k) {
        const io::DomainFile& file = v->m_domains->files[k];
        Village* self = v.get();
        io::restore(*im.kinds[k].system, save, k, [&, self, k](const goap::AgentState& saved, goap::AgentParams& params) {
            const std::size_t hash = saved.name.rfind('#');
            if (hash == std::string::npos || saved.name.substr(0, hash) != to_string(Kind(k))) return false;
            std::size_t index = 0;
            for (std::size_t i = hash + 1; i < saved.name.size(); ++i) {
                if (!std::isdigit(static_cast<unsigned char>(saved.name[i])) || index > kMaxAgents) return false;
                index = index * 10 + std::size_t(saved.name[i] - '0');
            }
            if (hash + 1 == saved.name.size() || index >= self->m_villagers.size() || self->m_villagers[index].kind != Kind(k)) return false;
            params.type = im.kinds[k].type;
            for (const goap::Goal& g : file.goals) params.goals.push_back(goap::AgentGoal::from(g));
            params.user_data = &self->m_villagers[index];
            return true;
        });
    }
    for (const Villager& x : v->m_villagers) {
        if (!x.agent.valid()) {
            if (v->m_tick > x.index % kArrivalTicks) io::throw_save_error(save, vt.path(x.index, 1), "the villager has arrived but has no agent");
            continue;
        }
        const goap::Agent* a = im.kinds[std::size_t(x.kind)].system->find(x.agent);
        if (!a || a->user_data() != &x) io::throw_save_error(save, vt.path(x.index, 1), "the villager's agent is not in the save (or is another's)");
    }
    return v;
}

}  // namespace gameplan::village
