#pragma once
/// @file village.hpp
/// The village simulation behind `gameplan demo`: GOAP villagers that find their way on a grid map.
///
/// Overview
/// --------
/// This is a *game*, not part of the library: the one place where gameplan's two halves meet. The
/// library rule "goap and path never include each other" holds because the joint lives here, in the
/// `gameplan_village` target (tools/village), used by the CLI, the tests and the benchmark.
///
/// World. A `path::GridMap` (a generated village map, see generate.hpp, or any MovingAI map) with
/// *places* scattered by the seed on the largest island: trees (in groves; a standing tree blocks its
/// cell, a felled one leaves a passable stump that regrows), mines (next to walls), and hamlets of a
/// store, a kitchen, a market and homes. Trees, mines and markets hold stock that villagers use up and
/// that regrows; the village keeps wood, ore and meals in its stores.
///
/// Villagers. Each is a GOAP agent of one of three kinds (woodcutter, miner, cook) whose domain is a
/// designer-authored JSON file (examples/goap/village/<kind>.json): one `goap::AgentSystem` per kind.
/// Goals with priorities: eat (hungry), rest (tired), work (deliver wood / ore, cook meals). The game
/// binds each action name to a behaviour (walking, chopping, ...), procedural preconditions (is a meal
/// left? may I still take wood from the store?) and dynamic costs: a `go_to_<place>` action costs the
/// walking distance to the nearest place of that kind, measured by pathfinding. For places whose stock
/// changes (trees, mines, markets) that is one `path::NearestTargets` query per planning call (one
/// search toward all candidates at once); for fixed places (stores, kitchens, homes) one
/// `path::DistanceField` per kind, flooded once from all of them, answers every villager in O(1).
///
/// Movement. Every villager is a unit of one `path::MovementSystem` (movement.hpp). A walking villager
/// claims its target (one unit of stock for trees, mines and markets, so two villagers do not walk to
/// the last log) and gives its unit a destination: the movement layer requests the path from its
/// frame-budgeted queue, smooths it, re-checks it when a tree regrows across it, penalises the cells
/// other walkers are about to enter, and moves the whole crowd one cell per tick without collisions
/// (priority inheritance: no two villagers on one cell, no swaps). A villager at work is anchored
/// (never pushed); idle ones step aside. A walk that makes no progress for a long time fails and the
/// agent replans. The village checks every tick, independently of the solver, that no two villagers
/// share a cell, swap cells, stand in a wall or jump (`Summary::collisions`, which stays 0).
///
/// Economy. Production follows demand: a cook only plans `cook_meal` while the meals in store plus
/// those on the stove are fewer than the hungry villagers plus a small reserve, and a hungry villager
/// eats vegetables at a market when no meal is left (the planner sees both through procedural
/// preconditions).
///
/// Wolves (`Config::wolves`). Some groves have a wolf den. At every pulse the wolves attack each
/// villager within 3 cells of a den: the attack is an event of a `path::InfluenceMap` (danger spreading
/// 4 cells around the victim), and the map decays by a fifth per pulse. The danger is a cost layer of
/// every walking path (the movement layer's requests carry it) and of the walking costs the planner
/// reads for trees, mines and markets (the `NearestTargets` queries carry it), so villagers prefer
/// groves and ways where nobody was attacked lately. Pictures show it as a red heat overlay.
///
/// Ticks. `step()` runs one tick: every 64 ticks the world "pulse" fells and regrows trees (the only map
/// changes, batched so the request queue restarts its searches at most once per pulse) and refills
/// mines and markets; needs (hunger, fatigue) grow; the queue runs its budget; then each kind's agent
/// system ticks (planning on `Config::threads` workers, behaviours on the calling thread).
///
/// Determinism. Everything but the timings depends only on the map, the seed, the options and the
/// domains: not on the thread count, not on the clock (`Summary::checksum` covers the state).
///
/// Thread-safety: one thread drives a `Village`; planning callbacks run on its worker pool.

#include <gameplan/goap/agent.hpp>
#include <gameplan/goap/agent_batch.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/save.hpp>
#include <gameplan/path/crowd.hpp>
#include <gameplan/path/distance_field.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/influence.hpp>
#include <gameplan/path/movement.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::village {

/// Kinds of villager, one GOAP domain each.
enum class Kind : std::uint8_t { Woodcutter, Miner, Cook };
/// Number of kinds.
inline constexpr std::size_t kKindCount = 3;
/// "woodcutter", "miner", "cook" (also the domain file names without ".json").
[[nodiscard]] std::string_view to_string(Kind kind) noexcept;

/// Kinds of place.
enum class PlaceKind : std::uint8_t { Tree, Mine, Market, Store, Kitchen, Home };
/// Number of place kinds.
inline constexpr std::size_t kPlaceKindCount = 6;
/// "tree", "mine", "market", "store", "kitchen", "home" (the suffix of the `go_to_` actions).
[[nodiscard]] std::string_view to_string(PlaceKind kind) noexcept;
/// True for places whose stock villagers use up and that regrow (tree, mine, market).
[[nodiscard]] constexpr bool has_stock(PlaceKind kind) noexcept { return kind <= PlaceKind::Market; }

/// Index meaning "no place" / "no villager".
inline constexpr std::uint32_t kNone = UINT32_MAX;

/// Thrown by `Village::create` and `load_domains` for unusable input (a message for the user).
struct SetupError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A place of interest.
struct Place {
    PlaceKind kind = PlaceKind::Store;
    path::GridPoint cell;        ///< where it is (a tree blocks its cell while standing)
    std::int32_t stock = 0;      ///< trees: wood, mines: ore, markets: vegetables; 0 for other kinds
    std::int32_t capacity = 0;   ///< stock when full
    std::int32_t claims = 0;     ///< stock promised to villagers walking here (<= stock)
    bool standing = true;        ///< trees: standing (blocks its cell) or a stump (passable)
    std::uint64_t regrow_tick = 0;  ///< trees: the pulse after which a stump may regrow
};

/// One villager (the game side of an agent).
struct Villager {
    Kind kind = Kind::Woodcutter;
    std::uint32_t index = 0;               ///< position in `Village::villagers()`
    goap::AgentId agent;                   ///< its agent in the kind's system
    path::GridPoint cell;                  ///< where it stands
    path::UnitId unit = path::kNoUnit;     ///< its unit in the movement layer
    path::GridPoint goal{-1, -1};          ///< cell the current walk heads for
    std::uint32_t target = kNone;          ///< place the current walk heads for
    std::uint32_t claim = kNone;           ///< place one unit of whose stock this villager holds
    bool walking = false;                  ///< a walk behaviour runs
    bool working = false;                  ///< a work behaviour runs (the unit is anchored)
    std::int32_t hunger = 0, fatigue = 0;  ///< grow by one per tick
    std::int32_t hunger_limit = 0, fatigue_limit = 0;  ///< thresholds that make it hungry / tired
    std::uint32_t tool_wear = 0;           ///< uses of the axe / pickaxe since it was taken
    std::uint32_t still = 0;               ///< consecutive ticks it stood still while walking
    std::uint64_t cycles = 0;              ///< work cycles completed (deliveries, pots cooked)
    std::int32_t consumed = 0;             ///< store / pantry stock taken by the running action
};

/// Simulation options.
struct Config {
    std::size_t agents = 48;                ///< villagers (split woodcutter : miner : cook = 2 : 1 : 1)
    std::uint64_t seed = 1;                 ///< places, villagers, needs
    std::size_t threads = 1;                ///< planning workers (results identical for any value)
    std::uint64_t path_budget = 60000;      ///< path-search expansions per tick (the queue's frame budget)
    std::uint32_t path_lanes = 4;           ///< searches the queue runs at once
    bool wolves = true;                     ///< wolf dens in some groves, and the danger they spread
};

/// Largest accepted `Config::agents`: every villager is a unit of the movement layer, whose crowd
/// stepper moves at most path::kMaxCrowdAgents units.
inline constexpr std::size_t kMaxAgents = path::kMaxCrowdAgents;

/// Progress of `Village::create` for a caller that reports it: `stage` (what is being done), and
/// `done` of `total` items of it (0 of 0 when the stage has no count). Called at the start of each
/// stage and every few thousand items within the long ones.
using SetupProgress = std::function<void(std::string_view stage, std::size_t done, std::size_t total)>;
/// Largest accepted `Config::threads`.
inline constexpr std::size_t kMaxThreads = 256;

/// Counters of a run (all deterministic) and its timings (not).
struct Summary {
    std::uint64_t ticks = 0;
    std::size_t agents = 0;
    std::array<std::size_t, kKindCount> kind_agents{};   ///< villagers per kind
    std::array<std::uint64_t, kKindCount> cycles{};      ///< work cycles completed per kind
    std::uint64_t plans = 0;          ///< planner queries that found a plan
    std::uint64_t searches = 0;       ///< planner queries
    std::uint64_t replans = 0;        ///< goal selections (AgentStats::replans)
    std::uint64_t replans_failed = 0; ///< of which after an action failed (ActionFailed)
    std::uint64_t replans_preconditions = 0;  ///< of which PreconditionsFailed
    std::uint64_t actions_failed = 0; ///< behaviours that returned Failure
    std::uint64_t cost_queries = 0;   ///< walking-distance queries answered for planning
    std::uint64_t paths = 0;          ///< path requests answered with a path
    std::uint64_t path_requests = 0;  ///< path requests submitted (repaths included)
    std::uint64_t repaths = 0;        ///< new paths asked for during a walk (map, pushed off route, blocked)
    std::uint64_t repaths_map = 0;    ///< of which because a cell on the path became blocked
    std::uint64_t collisions = 0;     ///< ticks x villagers sharing a cell, swapping, in a wall or jumping (0)
    std::uint64_t waits = 0;          ///< ticks a walker stood still because other villagers held its way
    std::uint64_t detours = 0;        ///< steps off the route and new paths forced by other villagers
    std::uint64_t pushes = 0;         ///< steps of idle villagers making room for walkers
    std::uint64_t jams = 0;           ///< times a walker stood still for 100 ticks in a row
    std::uint64_t longest_still = 0;  ///< most ticks a walker stood still in a row
    std::uint64_t walk_failures = 0;  ///< walks that failed (no path, or no progress for long)
    std::uint64_t steps = 0;          ///< cells walked
    std::uint64_t resource_failures = 0;  ///< actions that failed because the stock they needed was gone
    std::uint64_t map_changes = 0;    ///< cells that changed (trees felled or regrown)
    std::uint64_t wolf_attacks = 0;   ///< villagers attacked by wolves (each an influence event)
    std::uint64_t wood = 0, ore = 0, meals = 0;   ///< delivered wood, delivered ore, meals cooked
    std::uint64_t meals_eaten = 0, vegetables_eaten = 0, sleeps = 0;
    std::int64_t wood_stock = 0, meals_stock = 0; ///< what the stores hold now
    double plan_us_mean = 0;   ///< think-phase time (planning, cost queries, checks) per planner query, µs
    double path_us_mean = 0;   ///< queue update + smoothing time per path found, µs
    double tick_ms_mean = 0;   ///< mean wall time of a tick, ms
    double tick_ms_p99 = 0;    ///< 99th percentile of the tick wall time, ms
    double tick_ms_max = 0;    ///< slowest tick, ms
    std::uint64_t checksum = 0;  ///< FNV-1a over the state and every counter above except timings
};

/// The three domains (woodcutter, miner, cook) and where they came from.
struct DomainSet {
    std::array<io::DomainFile, kKindCount> files;
    std::array<std::string, kKindCount> names;  ///< file names, for messages
};

/// Loads `<dir>/woodcutter.json`, `miner.json`, `cook.json`. Throws io::LoadError for a bad file.
[[nodiscard]] DomainSet load_domains(const std::filesystem::path& dir);
/// The domains compiled into the program (copies of examples/goap/village/*.json at build time).
[[nodiscard]] DomainSet builtin_domains();

/// The simulation. See the file overview.
class Village {
public:
    /// Builds a village on `map` (a copy is kept: trees change it). Throws SetupError with a clear
    /// message for unusable input: no agents, more agents than free cells, too small a map, a domain
    /// action with no game behaviour, a goal missing. Setup floods one distance field per fixed place
    /// kind (O(cells)) and places everything (see the file overview).
    [[nodiscard]] static std::unique_ptr<Village> create(path::GridMap map, const DomainSet& domains,
                                                         const Config& config, const SetupProgress& progress = {});
    ~Village();
    Village(const Village&) = delete;
    Village& operator=(const Village&) = delete;

    /// Saves the running village into `out` (cleared first): the map with its changes, the three agent
    /// systems, the movement layer with its path requests and searches in progress, and the village's
    /// own state as tables (options, places and their stock, villagers, stores, counters). A village
    /// loaded from it (`load`) and run on gives exactly the ticks, summary and checksum this one would.
    /// Call between steps. The timings are not saved.
    void save(io::SaveFile& out) const;
    /// Continues a saved village with `domains` (the ones it was saved with) on `threads` planning
    /// workers (any count: results do not depend on it). Throws io::LoadError (file, line, column,
    /// field) for a save that is not a village's or does not fit the domains, and SetupError for a bad
    /// thread count.
    [[nodiscard]] static std::unique_ptr<Village> load(const io::SaveFile& save, const DomainSet& domains, std::size_t threads);

    /// Runs one tick (see the overview).
    void step();
    /// Number of ticks run.
    [[nodiscard]] std::uint64_t tick() const noexcept { return m_tick; }

    /// The map as it is now (standing trees are blocked cells).
    [[nodiscard]] const path::GridMap& map() const noexcept { return m_map; }
    /// Every place.
    [[nodiscard]] std::span<const Place> places() const noexcept { return m_places; }
    /// Every villager.
    [[nodiscard]] std::span<const Villager> villagers() const noexcept { return m_villagers; }
    /// The agent of a villager (its plan, goal, status), or nullptr before it arrived (villagers arrive
    /// over the first 32 ticks, so that a big village does not plan all at once).
    [[nodiscard]] const goap::Agent* agent(const Villager& villager) const;
    /// The domain of a kind.
    [[nodiscard]] const goap::Domain& domain(Kind kind) const noexcept { return m_domains->files[std::size_t(kind)].domain; }
    /// Villager standing on `p`, or kNone.
    [[nodiscard]] std::uint32_t occupant(path::GridPoint p) const noexcept;
    /// The rest of a villager's route, next cell first (empty when it is not walking a route).
    [[nodiscard]] std::span<const path::GridPoint> route(const Villager& villager) const noexcept;
    /// Danger where wolves attacked villagers (zero everywhere without wolves): a cost layer of the
    /// villagers' paths and walking costs.
    [[nodiscard]] const path::InfluenceMap& danger() const noexcept;
    /// Cells of the wolf dens (empty without wolves).
    [[nodiscard]] std::span<const path::GridPoint> dens() const noexcept;
    /// The movement layer that walks the villagers.
    [[nodiscard]] const path::MovementSystem& movement() const noexcept;
    /// The options.
    [[nodiscard]] const Config& config() const noexcept { return m_config; }
    /// Counters and timings so far.
    [[nodiscard]] Summary summary() const;
    /// Think-phase, path and tick time of the last tick, in microseconds (for a live view).
    [[nodiscard]] double last_tick_us() const noexcept { return m_last_tick_us; }

private:
    struct Impl;
    Village() = default;

    // Setup (village.cpp).
    void place_everything(const SetupProgress& progress);
    void build_fields(const path::GridMap& standing, const SetupProgress& progress = {});
    void make_movement();
    void bind_types();
    void add_agents(std::uint64_t tick);
    // Walking and work.
    void rebuild_targets(PlaceKind kind);
    void ensure_targets();
    double walk_cost(const Villager& v, PlaceKind kind) const;
    bool choose_target(Villager& v, PlaceKind kind);
    goap::ActionStatus walk_update(Villager& v, goap::ActionContext& ctx);
    void end_walk(Villager& v, bool keep_claim);
    void release_claim(Villager& v);
    bool claim_near(Villager& v, PlaceKind kind);
    bool near_place(const Villager& v, PlaceKind kind) const;
    void move_crowd();
    void pulse();
    void place_dens();
    void wolves_attack();
    void update_needs();

    Config m_config;
    std::unique_ptr<DomainSet> m_domains;
    path::GridMap m_map;
    std::vector<Place> m_places;
    std::array<std::vector<std::uint32_t>, kPlaceKindCount> m_by_kind;  // place indices per kind
    std::vector<Villager> m_villagers;
    std::vector<std::uint32_t> m_occupant;  // per map node index: villager index + 1, 0 = free
    std::unique_ptr<Impl> m_impl;
    std::uint64_t m_tick = 0;
    double m_last_tick_us = 0;
};

}  // namespace gameplan::village
