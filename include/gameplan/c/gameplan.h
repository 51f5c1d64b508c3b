/* gameplan C API (C99). Link gameplan_c (CMake: gameplan::c, pkg-config: gameplan-c).
 *
 * A plain C interface to gameplan's GOAP planner, agent runtime and grid pathfinding, for C programs and
 * for engines and languages that bind native libraries through a C ABI (C#, Godot, Python ctypes, ...).
 *
 * Conventions
 * -----------
 * - Objects are opaque handles created by `gameplan_*_create` / `gameplan_*_load` / `..._build` and freed
 *   by the matching `gameplan_*_destroy` (which accepts NULL). The caller owns every handle it receives
 *   through an `out` parameter and must destroy it exactly once.
 * - Every fallible function returns a `gameplan_error` (GAMEPLAN_OK = 0). On failure the `out`
 *   parameters are left unchanged and `gameplan_last_error()` returns a message for the calling thread
 *   (for loaders: file, line, column and field). The message stays valid until the next failing call on
 *   the same thread. Successful calls do not clear it.
 * - No C++ exception ever crosses this boundary; callbacks must not longjmp out of the library.
 * - Borrowed references: an object created *for* another (a planner for a domain, an agent system for a
 *   domain, a pathfinder query on a map, a request queue on a map) keeps a pointer to it: the domain or
 *   map must outlive it. Pointers returned in result structs (plans, paths) point into memory owned by
 *   the object that produced them and stay valid until that object's next query or its destruction.
 * - Strings passed in are NUL-terminated UTF-8 and copied when kept. Strings returned (names) are owned
 *   by the object they come from and live as long as it.
 * - Argument order follows the C++ API: (object, start, goal, options, out).
 * - Threads: no global state except the per-thread error message. Immutable objects (a built domain, a
 *   map that is not being changed) may be shared between threads; planners, pathfinders, queues and
 *   agent systems are used by one thread at a time.
 */
#ifndef GAMEPLAN_C_GAMEPLAN_H
#define GAMEPLAN_C_GAMEPLAN_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(GAMEPLAN_C_BUILDING)
#define GAMEPLAN_C_API __declspec(dllexport)
#elif defined(_WIN32) && !defined(GAMEPLAN_C_STATIC)
#define GAMEPLAN_C_API __declspec(dllimport)
#elif defined(__GNUC__)
#define GAMEPLAN_C_API __attribute__((visibility("default")))
#else
#define GAMEPLAN_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors, status, version ------------------------------------------------------------------ */

/** What a call did. On anything but GAMEPLAN_OK, gameplan_last_error() says why. */
typedef enum gameplan_error {
    GAMEPLAN_OK = 0,
    GAMEPLAN_ERROR_INVALID_ARGUMENT = 1, /**< NULL handle, bad id, out-of-range value, malformed input */
    GAMEPLAN_ERROR_LOAD = 2,             /**< a file could not be read or parsed (message names the place) */
    GAMEPLAN_ERROR_NOT_FOUND = 3,        /**< no atom / action / goal / agent / request of that name or id */
    GAMEPLAN_ERROR_UNSUPPORTED = 4,      /**< the query is not supported with these options (e.g. JPS with
                                              terrain costs) */
    GAMEPLAN_ERROR_OUT_OF_MEMORY = 5,    /**< an allocation failed */
    GAMEPLAN_ERROR_INTERNAL = 6          /**< anything else (a bug: please report the message) */
} gameplan_error;

/** Outcome of a search; same meaning and order as C++ `gameplan::Status`. */
typedef enum gameplan_status {
    GAMEPLAN_STATUS_FOUND = 0,            /**< a plan or path was found (optimal for exact searches) */
    GAMEPLAN_STATUS_NO_PATH = 1,          /**< none exists (GOAP: "no_plan") */
    GAMEPLAN_STATUS_BUDGET_EXHAUSTED = 2, /**< the node or time budget ran out */
    GAMEPLAN_STATUS_INVALID_QUERY = 3,    /**< blocked or outside start/goal, goal not over the domain */
    GAMEPLAN_STATUS_IN_PROGRESS = 4       /**< a resumable search paused after its slice: call step again */
} gameplan_status;

/** The calling thread's message for its last failing call ("" if none). Owned by the library. */
GAMEPLAN_C_API const char* gameplan_last_error(void);
/** Stable lower-case name of a status: "found", "no_path", "budget_exhausted", ... */
GAMEPLAN_C_API const char* gameplan_status_name(gameplan_status status);
/** The library version, "MAJOR.MINOR.PATCH". */
GAMEPLAN_C_API const char* gameplan_version(void);

/* ---- GOAP domains ----------------------------------------------------------------------------- */

/** An immutable GOAP domain (atoms, actions, costs), with the start state and goals of its file. */
typedef struct gameplan_domain gameplan_domain;
/** Builds a domain in code. */
typedef struct gameplan_domain_builder gameplan_domain_builder;

/** An atom required (precondition, goal) or assigned (effect): value 0 = false, nonzero = true. */
typedef struct gameplan_literal {
    uint32_t atom;
    int value;
} gameplan_literal;

/** Loads a domain file, JSON or CSV (docs/formats.md); the format is chosen from the extension or the
 *  content. Keeps the file's "start", "goal" and "goals". On error: GAMEPLAN_ERROR_LOAD. */
GAMEPLAN_C_API gameplan_error gameplan_domain_load(const char* path, gameplan_domain** out);
/** Parses domain text (JSON or CSV, detected from the content); `source_name` is used in messages. */
GAMEPLAN_C_API gameplan_error gameplan_domain_parse(const char* text, size_t length, const char* source_name,
                                                    gameplan_domain** out);
GAMEPLAN_C_API void gameplan_domain_destroy(gameplan_domain* domain);

GAMEPLAN_C_API size_t gameplan_domain_atom_count(const gameplan_domain* domain);
GAMEPLAN_C_API size_t gameplan_domain_action_count(const gameplan_domain* domain);
/** 1 when the domain has integer or enumerated variables (planned forward; see docs/goap.md). */
GAMEPLAN_C_API int gameplan_domain_has_variables(const gameplan_domain* domain);
/** Name of an atom / action (NULL for an id out of range). */
GAMEPLAN_C_API const char* gameplan_domain_atom_name(const gameplan_domain* domain, uint32_t atom);
GAMEPLAN_C_API const char* gameplan_domain_action_name(const gameplan_domain* domain, uint32_t action);
/** Cost of an action (a negative number for an id out of range). */
GAMEPLAN_C_API double gameplan_domain_action_cost(const gameplan_domain* domain, uint32_t action);
/** Looks up an atom / action by name. GAMEPLAN_ERROR_NOT_FOUND when there is none. */
GAMEPLAN_C_API gameplan_error gameplan_domain_find_atom(const gameplan_domain* domain, const char* name, uint32_t* out);
GAMEPLAN_C_API gameplan_error gameplan_domain_find_action(const gameplan_domain* domain, const char* name,
                                                          uint32_t* out);
/** The file's start value of an atom (0 or 1; 0 for a domain built in code). */
GAMEPLAN_C_API int gameplan_domain_start_atom(const gameplan_domain* domain, uint32_t atom);
/** Named goals of the file ("goals"), in file order. */
GAMEPLAN_C_API size_t gameplan_domain_goal_count(const gameplan_domain* domain);
GAMEPLAN_C_API const char* gameplan_domain_goal_name(const gameplan_domain* domain, size_t index);
GAMEPLAN_C_API double gameplan_domain_goal_priority(const gameplan_domain* domain, size_t index);

GAMEPLAN_C_API gameplan_error gameplan_domain_builder_create(gameplan_domain_builder** out);
GAMEPLAN_C_API void gameplan_domain_builder_destroy(gameplan_domain_builder* builder);
/** Adds an atom (or returns the existing one of that name). `shared` atoms live on the agent system's
 *  blackboard; the others are private to each agent. */
GAMEPLAN_C_API gameplan_error gameplan_domain_builder_add_atom(gameplan_domain_builder* builder, const char* name,
                                                               int shared, uint32_t* out);
/** Adds an action. Fails (GAMEPLAN_ERROR_INVALID_ARGUMENT, message says why) for an empty or repeated
 *  name, a cost that is negative or not finite, an unknown atom or contradicting literals. */
GAMEPLAN_C_API gameplan_error gameplan_domain_builder_add_action(gameplan_domain_builder* builder, const char* name,
                                                                 double cost, const gameplan_literal* preconditions,
                                                                 size_t precondition_count,
                                                                 const gameplan_literal* effects, size_t effect_count);
/** Builds the domain (the builder stays usable). Its start state is all false; it has no named goals. */
GAMEPLAN_C_API gameplan_error gameplan_domain_builder_build(const gameplan_domain_builder* builder,
                                                            gameplan_domain** out);

/* ---- planning --------------------------------------------------------------------------------- */

/** A reusable planner for one domain (which must outlive it). Not thread-safe: one per thread. */
typedef struct gameplan_planner gameplan_planner;

typedef enum gameplan_direction {
    GAMEPLAN_BACKWARD = 0, /**< regression from the goal (the default; domains with variables plan forward) */
    GAMEPLAN_FORWARD = 1   /**< progression from the start */
} gameplan_direction;

typedef struct gameplan_plan_options {
    gameplan_direction direction;  /**< default GAMEPLAN_BACKWARD */
    uint64_t max_expansions;       /**< node budget; 0 = unlimited */
    double time_limit_seconds;     /**< wall-clock budget; 0 = unlimited */
} gameplan_plan_options;

/** A plan. `actions` is owned by the planner: valid until its next query or destruction. */
typedef struct gameplan_plan_result {
    gameplan_status status;
    double cost;              /**< sum of the action costs (0 when not found) */
    const uint32_t* actions;  /**< action ids, first to last */
    size_t action_count;
    uint64_t expanded;        /**< states expanded */
    uint64_t generated;       /**< states generated */
} gameplan_plan_result;

/** Default options: backward, no budget. */
GAMEPLAN_C_API gameplan_plan_options gameplan_plan_options_default(void);
GAMEPLAN_C_API gameplan_error gameplan_planner_create(const gameplan_domain* domain, gameplan_planner** out);
GAMEPLAN_C_API void gameplan_planner_destroy(gameplan_planner* planner);
/** Plans from `start` (one byte per atom, 0 = false; NULL = the file's start state) to the goal given as
 *  literals. `options` may be NULL (defaults). A goal naming an unknown atom is INVALID_ARGUMENT. */
GAMEPLAN_C_API gameplan_error gameplan_plan(gameplan_planner* planner, const uint8_t* start,
                                            const gameplan_literal* goal, size_t goal_count,
                                            const gameplan_plan_options* options, gameplan_plan_result* out);
/** Plans from the file's start state to one of the file's goals: a named goal from "goals", or, with
 *  `goal_name` NULL, the file's "goal" (else its goal of highest priority), as `gameplan plan` does. */
GAMEPLAN_C_API gameplan_error gameplan_plan_goal(gameplan_planner* planner, const char* goal_name,
                                                 const gameplan_plan_options* options, gameplan_plan_result* out);

/* ---- agents ----------------------------------------------------------------------------------- */

/** Owns the blackboard (shared atoms), the agents and their planners (C++ goap::AgentSystem). */
typedef struct gameplan_agent_system gameplan_agent_system;
/** The behaviours one kind of agent binds to action names (C++ goap::AgentType); shared by agents. */
typedef struct gameplan_agent_type gameplan_agent_type;
typedef struct gameplan_agent_type_builder gameplan_agent_type_builder;
/** An agent handle: index and generation. A removed agent's handle is never valid again. */
typedef struct gameplan_agent_id {
    uint32_t index;
    uint32_t generation;
} gameplan_agent_id;

typedef enum gameplan_action_status {
    GAMEPLAN_ACTION_RUNNING = 0, /**< call again next tick */
    GAMEPLAN_ACTION_SUCCESS = 1, /**< done: effects are applied, the next action starts next tick */
    GAMEPLAN_ACTION_FAILURE = 2  /**< failed: the agent replans next tick */
} gameplan_action_status;

typedef enum gameplan_abort_reason {
    GAMEPLAN_ABORT_EXTERNAL = 0,
    GAMEPLAN_ABORT_REPLACED = 1,
    GAMEPLAN_ABORT_GOAL_REACHED = 2,
    GAMEPLAN_ABORT_PRECONDITIONS_LOST = 3,
    GAMEPLAN_ABORT_NO_PLAN = 4,
    GAMEPLAN_ABORT_REMOVED = 5
} gameplan_abort_reason;

/** What a behaviour callback sees; valid for the call only. During a behaviour the callback may read
 *  and write the blackboard and the agent's private atoms through `system` and `agent`, and abort
 *  agents; adding or removing agents, ticking or destroying the system from a callback is refused
 *  (GAMEPLAN_ERROR_INVALID_ARGUMENT) or, for destroy, undefined. */
typedef struct gameplan_action_context {
    gameplan_agent_system* system;
    gameplan_agent_id agent;
    uint32_t action;         /**< the action being run */
    uint64_t tick;           /**< the system's tick number */
    uint64_t ticks_running;  /**< earlier update calls of this run (0 on the first) */
    void* agent_data;        /**< the agent's user data (gameplan_agent_params.user_data) */
} gameplan_action_context;

/** What a context check or cost callback sees; valid for the call only. Such callbacks may run on worker
 *  threads when the system ticks with threads: they must only read. */
typedef struct gameplan_planning_context {
    const gameplan_agent_system* system;
    gameplan_agent_id agent;
    uint32_t action;
    uint32_t goal;           /**< index of the goal being planned, in the agent's goal list */
    uint64_t tick;
    void* agent_data;
    const gameplan_domain* domain;
    const uint64_t* view_words; /**< the agent's view: bit `a % 64` of word `a / 64` is atom `a` */
} gameplan_planning_context;

typedef gameplan_action_status (*gameplan_update_fn)(const gameplan_action_context* context, void* behaviour_data);
typedef void (*gameplan_start_fn)(const gameplan_action_context* context, void* behaviour_data);
typedef void (*gameplan_abort_fn)(const gameplan_action_context* context, gameplan_abort_reason reason,
                                  void* behaviour_data);
typedef int (*gameplan_check_fn)(const gameplan_planning_context* context, void* data);
typedef double (*gameplan_cost_fn)(const gameplan_planning_context* context, void* data);

/** The game side of one action: `update` is required, `start` and `abort` optional (NULL). `data` is
 *  passed back to each of them; the library never frees it. */
typedef struct gameplan_behaviour {
    gameplan_update_fn update;
    gameplan_start_fn start;
    gameplan_abort_fn abort;
    void* data;
} gameplan_behaviour;

/** Binding errors (unknown action, bound twice, an action the type may plan left without behaviour)
 *  are reported by the call that makes them or by build, never at run time. */
GAMEPLAN_C_API gameplan_error gameplan_agent_type_builder_create(const gameplan_domain* domain, const char* name,
                                                                 gameplan_agent_type_builder** out);
GAMEPLAN_C_API void gameplan_agent_type_builder_destroy(gameplan_agent_type_builder* builder);
GAMEPLAN_C_API gameplan_error gameplan_agent_type_bind(gameplan_agent_type_builder* builder, const char* action,
                                                       const gameplan_behaviour* behaviour);
/** Optional procedural precondition (nonzero = usable now). */
GAMEPLAN_C_API gameplan_error gameplan_agent_type_set_check(gameplan_agent_type_builder* builder, const char* action,
                                                            gameplan_check_fn check, void* data);
/** Optional dynamic cost (a result that is not finite and >= 0 disables the action for that call). */
GAMEPLAN_C_API gameplan_error gameplan_agent_type_set_cost(gameplan_agent_type_builder* builder, const char* action,
                                                           gameplan_cost_fn cost, void* data);
/** Agents of this type never plan `action` (it then needs no behaviour). */
GAMEPLAN_C_API gameplan_error gameplan_agent_type_exclude(gameplan_agent_type_builder* builder, const char* action);
/** Builds the type; fails listing every binding error. The type may be destroyed after agents were
 *  added with it (they keep what they need). */
GAMEPLAN_C_API gameplan_error gameplan_agent_type_builder_build(const gameplan_agent_type_builder* builder,
                                                                gameplan_agent_type** out);
GAMEPLAN_C_API void gameplan_agent_type_destroy(gameplan_agent_type* type);

/** One goal of an agent: the literals to reach and a fixed priority (larger first). */
typedef struct gameplan_goal {
    const char* name;
    const gameplan_literal* literals;
    size_t literal_count;
    double priority;
} gameplan_goal;

typedef struct gameplan_agent_params {
    const char* name;                /**< for traces; may be NULL */
    const gameplan_agent_type* type; /**< required, built for the system's domain */
    const gameplan_goal* goals;      /**< may be NULL when use_domain_goals is set */
    size_t goal_count;
    int use_domain_goals;            /**< nonzero: also add the domain file's named goals ("goals") */
    const uint8_t* private_state;    /**< one byte per atom (shared atoms ignored); NULL = all false */
    void* user_data;                 /**< handed to callbacks as agent_data; never freed by the library */
    uint64_t max_expansions_per_tick;  /**< planning budget per tick; 0 = unlimited */
    gameplan_direction direction;
} gameplan_agent_params;

typedef enum gameplan_agent_status {
    GAMEPLAN_AGENT_IDLE = 0,     /**< no plan */
    GAMEPLAN_AGENT_PLANNING = 1, /**< a budgeted search continues over ticks */
    GAMEPLAN_AGENT_ACTING = 2    /**< running a plan */
} gameplan_agent_status;

/** What an agent is doing. `plan` is owned by the system: valid until its next tick or change. */
typedef struct gameplan_agent_info {
    gameplan_agent_status status;
    uint32_t current_goal;    /**< index in the agent's goals; UINT32_MAX when none */
    uint32_t current_action;  /**< UINT32_MAX when none */
    const uint32_t* plan;
    size_t plan_length;
    size_t plan_position;     /**< index of current_action in plan */
    double plan_cost;
    uint64_t replans;
    uint64_t actions_succeeded;
    uint64_t actions_failed;
} gameplan_agent_info;

/** A system for `domain` (which must outlive it). `threads` > 1 runs the think phase of a tick on that
 *  many worker threads (results are the same for any count); 0 or 1 = the calling thread only. */
GAMEPLAN_C_API gameplan_error gameplan_agent_system_create(const gameplan_domain* domain, size_t threads,
                                                           gameplan_agent_system** out);
GAMEPLAN_C_API void gameplan_agent_system_destroy(gameplan_agent_system* system);
GAMEPLAN_C_API gameplan_error gameplan_agent_system_add_agent(gameplan_agent_system* system,
                                                              const gameplan_agent_params* params,
                                                              gameplan_agent_id* out);
GAMEPLAN_C_API gameplan_error gameplan_agent_system_remove_agent(gameplan_agent_system* system, gameplan_agent_id agent);
/** One tick: every agent thinks (replans when something changed) and acts (one behaviour update). */
GAMEPLAN_C_API gameplan_error gameplan_agent_system_tick(gameplan_agent_system* system);
GAMEPLAN_C_API uint64_t gameplan_agent_system_current_tick(const gameplan_agent_system* system);
GAMEPLAN_C_API size_t gameplan_agent_system_agent_count(const gameplan_agent_system* system);
/** Shared atoms on the blackboard (writing a private atom there is INVALID_ARGUMENT). */
GAMEPLAN_C_API gameplan_error gameplan_blackboard_set(gameplan_agent_system* system, uint32_t atom, int value);
GAMEPLAN_C_API int gameplan_blackboard_get(const gameplan_agent_system* system, uint32_t atom);
/** An agent's private atoms (writing a shared atom is INVALID_ARGUMENT). */
GAMEPLAN_C_API gameplan_error gameplan_agent_set(gameplan_agent_system* system, gameplan_agent_id agent, uint32_t atom,
                                                 int value);
GAMEPLAN_C_API gameplan_error gameplan_agent_get(const gameplan_agent_system* system, gameplan_agent_id agent,
                                                 uint32_t atom, int* out);
/** Stops the running action and replans at the next tick (abort reason EXTERNAL). */
GAMEPLAN_C_API gameplan_error gameplan_agent_abort(gameplan_agent_system* system, gameplan_agent_id agent);
GAMEPLAN_C_API gameplan_error gameplan_agent_info_get(const gameplan_agent_system* system, gameplan_agent_id agent,
                                                      gameplan_agent_info* out);

/* ---- grid maps -------------------------------------------------------------------------------- */

/** A grid of passable / blocked cells with optional terrain costs (C++ path::GridMap). */
typedef struct gameplan_map gameplan_map;
typedef struct gameplan_point {
    int32_t x; /**< column, 0 = leftmost */
    int32_t y; /**< row, 0 = topmost */
} gameplan_point;

/** Loads a MovingAI `.map` (movingai.com) or the plain-text grid format (docs/formats.md). */
GAMEPLAN_C_API gameplan_error gameplan_map_load(const char* path, gameplan_map** out);
/** A `width` x `height` map, every cell passable (`passable` nonzero) or blocked. Sizes are limited
 *  (docs/limits.md): INVALID_ARGUMENT beyond. */
GAMEPLAN_C_API gameplan_error gameplan_map_create(int64_t width, int64_t height, int passable, gameplan_map** out);
GAMEPLAN_C_API void gameplan_map_destroy(gameplan_map* map);
GAMEPLAN_C_API int32_t gameplan_map_width(const gameplan_map* map);
GAMEPLAN_C_API int32_t gameplan_map_height(const gameplan_map* map);
/** 1 for a passable cell, 0 for blocked or outside. */
GAMEPLAN_C_API int gameplan_map_passable(const gameplan_map* map, gameplan_point cell);
GAMEPLAN_C_API gameplan_error gameplan_map_set_passable(gameplan_map* map, gameplan_point cell, int passable);
/** Terrain cost of entering a cell (1 .. 2^24; default 1). */
GAMEPLAN_C_API gameplan_error gameplan_map_set_cost(gameplan_map* map, gameplan_point cell, uint32_t cost);

/* ---- pathfinding ------------------------------------------------------------------------------ */

typedef enum gameplan_algorithm {
    GAMEPLAN_ASTAR = 0,    /**< A* (optimal) */
    GAMEPLAN_DIJKSTRA = 1, /**< A* with a zero heuristic (optimal) */
    GAMEPLAN_JPS = 2       /**< jump point search (optimal; 8-connected, no corner cutting, uniform costs) */
} gameplan_algorithm;

typedef enum gameplan_diagonal {
    GAMEPLAN_DIAGONAL_NEVER = 0,
    GAMEPLAN_DIAGONAL_NO_CORNER_CUTTING = 1, /**< the default: both side cells must be free */
    GAMEPLAN_DIAGONAL_ONE_OBSTACLE = 2,
    GAMEPLAN_DIAGONAL_ALWAYS = 3
} gameplan_diagonal;

typedef struct gameplan_path_options {
    int movement;                  /**< 4 or 8 (default 8) */
    gameplan_diagonal diagonal;    /**< for 8-connected movement */
    double weight;                 /**< weighted A*: >= 1 (default 1, optimal) */
    uint64_t max_expansions;       /**< 0 = unlimited */
} gameplan_path_options;

/** A path. `cells` is owned by whoever produced it (pathfinder or queue): valid until its next query,
 *  take or destruction. */
typedef struct gameplan_path_result {
    gameplan_status status;
    double cost;                 /**< sum of step costs (orthogonal 1, diagonal sqrt 2, times terrain) */
    const gameplan_point* cells; /**< start first, goal last; NULL when none */
    size_t cell_count;
    uint64_t expanded;
} gameplan_path_result;

/** A reusable search context (C++ GridPathfinder / JpsPathfinder); allocates nothing per query after
 *  warm-up. One per thread. */
typedef struct gameplan_pathfinder gameplan_pathfinder;

GAMEPLAN_C_API gameplan_path_options gameplan_path_options_default(void);
GAMEPLAN_C_API gameplan_error gameplan_pathfinder_create(gameplan_algorithm algorithm, gameplan_pathfinder** out);
GAMEPLAN_C_API void gameplan_pathfinder_destroy(gameplan_pathfinder* finder);
/** One whole query. A blocked or outside start/goal gives status INVALID_QUERY (not an error); JPS on a
 *  map or with options it does not support is GAMEPLAN_ERROR_UNSUPPORTED. `options` may be NULL. */
GAMEPLAN_C_API gameplan_error gameplan_find_path(gameplan_pathfinder* finder, const gameplan_map* map,
                                                 gameplan_point start, gameplan_point goal,
                                                 const gameplan_path_options* options, gameplan_path_result* out);
/** The same query spread over frames: begin, then step with a slice of expansions until it returns
 *  anything but IN_PROGRESS, then finish. The map must not change in between. */
GAMEPLAN_C_API gameplan_error gameplan_pathfinder_begin(gameplan_pathfinder* finder, const gameplan_map* map,
                                                        gameplan_point start, gameplan_point goal,
                                                        const gameplan_path_options* options, gameplan_status* out);
GAMEPLAN_C_API gameplan_error gameplan_pathfinder_step(gameplan_pathfinder* finder, uint64_t slice_expansions,
                                                       gameplan_status* out);
GAMEPLAN_C_API gameplan_error gameplan_pathfinder_finish(gameplan_pathfinder* finder, gameplan_path_result* out);

/* ---- the path request queue ------------------------------------------------------------------- */

/** Many units' path requests, served within a per-frame budget of expansions (C++ PathRequestQueue).
 *  Works on one map, which must outlive it; changes to the map restart affected searches. */
typedef struct gameplan_request_queue gameplan_request_queue;
typedef struct gameplan_path_handle {
    uint32_t index;
    uint32_t generation; /**< 0 = invalid */
} gameplan_path_handle;

typedef enum gameplan_request_state {
    GAMEPLAN_REQUEST_UNKNOWN = 0, /**< invalid, cancelled, or already taken */
    GAMEPLAN_REQUEST_PENDING = 1,
    GAMEPLAN_REQUEST_RUNNING = 2,
    GAMEPLAN_REQUEST_DONE = 3
} gameplan_request_state;

/** `lanes`: searches in progress at once (0 is treated as 1). */
GAMEPLAN_C_API gameplan_error gameplan_request_queue_create(const gameplan_map* map, uint32_t lanes,
                                                            gameplan_request_queue** out);
GAMEPLAN_C_API void gameplan_request_queue_destroy(gameplan_request_queue* queue);
/** Queues a request (A* under `options`, which may be NULL); higher `priority` runs first. */
GAMEPLAN_C_API gameplan_error gameplan_request_queue_submit(gameplan_request_queue* queue, gameplan_point start,
                                                            gameplan_point goal, const gameplan_path_options* options,
                                                            int32_t priority, gameplan_path_handle* out);
/** Runs queued searches for at most `max_expansions` expansions in total; `completed` (may be NULL)
 *  receives how many requests finished in this update. */
GAMEPLAN_C_API gameplan_error gameplan_request_queue_update(gameplan_request_queue* queue, uint64_t max_expansions,
                                                            uint32_t* completed);
GAMEPLAN_C_API gameplan_request_state gameplan_request_queue_state(const gameplan_request_queue* queue,
                                                                   gameplan_path_handle handle);
/** Takes a finished result (the handle then becomes unknown). NOT_FOUND when it is not done. */
GAMEPLAN_C_API gameplan_error gameplan_request_queue_take(gameplan_request_queue* queue, gameplan_path_handle handle,
                                                          gameplan_path_result* out);
/** Cancels a pending, running or unclaimed request. NOT_FOUND for an unknown handle. */
GAMEPLAN_C_API gameplan_error gameplan_request_queue_cancel(gameplan_request_queue* queue, gameplan_path_handle handle);
/** Requests submitted and not yet taken or cancelled. */
GAMEPLAN_C_API size_t gameplan_request_queue_size(const gameplan_request_queue* queue);

#ifdef __cplusplus
}
#endif

#endif /* GAMEPLAN_C_GAMEPLAN_H */
