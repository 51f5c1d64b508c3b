/* gameplan C API (C99). Link gameplan_c (CMake: gameplan::c, pkg-config: gameplan-c).
 *
 * A plain C interface to gameplan's GOAP planner (atoms and integer / enumerated variables), agent
 * runtime, grid pathfinding (A*, JPS, HPA*), the request queue, crowds and the movement layer, for C programs and
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
 * - Compatibility: before version 1.0 a minor version may add fields to structs, which changes the ABI;
 *   the shared library's soname carries the minor version (libgameplan_c.so.0.1), so a program only
 *   loads the version whose header it was built with. Zero-initialised input structs and options from
 *   their `*_default()` function keep the sources compatible. `gameplan_version()` names the library.
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

/** Which limit of a search's budget ended it with GAMEPLAN_STATUS_BUDGET_EXHAUSTED; same meaning and order
 *  as C++ `gameplan::search::BudgetLimit`. Results carry it as `limit` (NONE for every other status). */
typedef enum gameplan_budget_limit {
    GAMEPLAN_LIMIT_NONE = 0,       /**< the search did not run out of budget */
    GAMEPLAN_LIMIT_EXPANSIONS = 1, /**< max_expansions */
    GAMEPLAN_LIMIT_TIME = 2,       /**< the time limit */
    GAMEPLAN_LIMIT_MEMORY = 3      /**< the memory limit */
} gameplan_budget_limit;

/** The calling thread's message for its last failing call ("" if none). Owned by the library. */
GAMEPLAN_C_API const char* gameplan_last_error(void);
/** Stable lower-case name of a status: "found", "no_path", "budget_exhausted", ... */
GAMEPLAN_C_API const char* gameplan_status_name(gameplan_status status);
/** Stable lower-case name of a budget limit: "none", "expansions", "time", "memory" (as `--json` prints it). */
GAMEPLAN_C_API const char* gameplan_budget_limit_name(gameplan_budget_limit limit);
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

/** Integer and enumerated variables (docs/goap.md, "Numbers and choices"). An enumerated variable holds
 *  the index of one of its values (declaration order). */
typedef enum gameplan_variable_kind {
    GAMEPLAN_VARIABLE_INTEGER = 0,    /**< an integer in [min, max] */
    GAMEPLAN_VARIABLE_ENUMERATION = 1 /**< one of a list of named values, held as its index */
} gameplan_variable_kind;

/** Comparison operators of a condition on a variable (enumerations allow EQ and NE only). */
typedef enum gameplan_compare_op {
    GAMEPLAN_EQ = 0,
    GAMEPLAN_NE = 1,
    GAMEPLAN_LT = 2,
    GAMEPLAN_LE = 3,
    GAMEPLAN_GT = 4,
    GAMEPLAN_GE = 5
} gameplan_compare_op;

/** A condition `variable op value` (precondition or goal). */
typedef struct gameplan_comparison {
    uint32_t variable;
    gameplan_compare_op op;
    int32_t value;
} gameplan_comparison;

/** Operators of an effect on a variable (enumerations allow SET only). */
typedef enum gameplan_effect_op {
    GAMEPLAN_SET = 0, /**< the variable becomes `value` */
    GAMEPLAN_ADD = 1, /**< it grows by `value` (>= 0) */
    GAMEPLAN_SUB = 2  /**< it shrinks by `value` (>= 0) */
} gameplan_effect_op;

/** An effect on a variable, computed from the state before the action. An action whose effect would
 *  leave the variable's bounds is not applicable in that state. */
typedef struct gameplan_numeric_effect {
    uint32_t variable;
    gameplan_effect_op op;
    int32_t value;
} gameplan_numeric_effect;

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

/** Variables: count, name (NULL out of range), lookup by name (NOT_FOUND), kind, bounds (an enumeration:
 *  0 .. value count - 1), the names of an enumeration's values (0 and NULL for an integer variable),
 *  lookup of a value by name, and the file's start value (the minimum for a domain built in code). */
GAMEPLAN_C_API size_t gameplan_domain_variable_count(const gameplan_domain* domain);
GAMEPLAN_C_API const char* gameplan_domain_variable_name(const gameplan_domain* domain, uint32_t variable);
GAMEPLAN_C_API gameplan_error gameplan_domain_find_variable(const gameplan_domain* domain, const char* name,
                                                            uint32_t* out);
GAMEPLAN_C_API gameplan_variable_kind gameplan_domain_variable_kind(const gameplan_domain* domain, uint32_t variable);
GAMEPLAN_C_API int32_t gameplan_domain_variable_min(const gameplan_domain* domain, uint32_t variable);
GAMEPLAN_C_API int32_t gameplan_domain_variable_max(const gameplan_domain* domain, uint32_t variable);
GAMEPLAN_C_API size_t gameplan_domain_variable_value_count(const gameplan_domain* domain, uint32_t variable);
GAMEPLAN_C_API const char* gameplan_domain_variable_value_name(const gameplan_domain* domain, uint32_t variable,
                                                               size_t index);
GAMEPLAN_C_API gameplan_error gameplan_domain_find_variable_value(const gameplan_domain* domain, uint32_t variable,
                                                                  const char* name, int32_t* out);
GAMEPLAN_C_API int32_t gameplan_domain_start_value(const gameplan_domain* domain, uint32_t variable);
/** Whether a variable is shared (lives on the blackboard): 1, else 0. */
GAMEPLAN_C_API int gameplan_domain_variable_shared(const gameplan_domain* domain, uint32_t variable);

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
/** Adds an integer variable with inclusive bounds [min, max]. INVALID_ARGUMENT for an empty name, a name
 *  already used by a variable or an atom, or max < min. */
GAMEPLAN_C_API gameplan_error gameplan_domain_builder_add_integer_variable(gameplan_domain_builder* builder,
                                                                          const char* name, int32_t min, int32_t max,
                                                                          int shared, uint32_t* out);
/** Adds an enumerated variable taking one of `values` (non-empty, distinct names); it starts at values[0]. */
GAMEPLAN_C_API gameplan_error gameplan_domain_builder_add_enum_variable(gameplan_domain_builder* builder,
                                                                       const char* name, const char* const* values,
                                                                       size_t value_count, int shared, uint32_t* out);
/** Adds an action with conditions and effects on variables besides its literals (any of the arrays may
 *  be NULL with a count of 0). Besides add_action's errors: unknown variable, an ordering on an
 *  enumeration or a value it does not have, an effect out of bounds or a negative amount, two effects on
 *  one variable (INVALID_ARGUMENT, the message says which). */
GAMEPLAN_C_API gameplan_error gameplan_domain_builder_add_numeric_action(
    gameplan_domain_builder* builder, const char* name, double cost, const gameplan_literal* preconditions,
    size_t precondition_count, const gameplan_literal* effects, size_t effect_count,
    const gameplan_comparison* comparisons, size_t comparison_count, const gameplan_numeric_effect* numeric_effects,
    size_t numeric_effect_count);
/** Builds the domain (the builder stays usable). Its start state is all false; it has no named goals. */
GAMEPLAN_C_API gameplan_error gameplan_domain_builder_build(const gameplan_domain_builder* builder,
                                                            gameplan_domain** out);

/* ---- planning --------------------------------------------------------------------------------- */

/** A reusable planner for one domain (which must outlive it). Not thread-safe: one per thread. */
typedef struct gameplan_planner gameplan_planner;

typedef enum gameplan_direction {
    GAMEPLAN_BACKWARD = 0, /**< regression from the goal (the default; domains with variables plan forward) */
    GAMEPLAN_FORWARD = 1,  /**< progression from the start */
    GAMEPLAN_AUTO = 2      /**< both at once, in turns; the first answer wins (plans only, not agents;
                                docs/goap.md, "Automatic direction") */
} gameplan_direction;

typedef struct gameplan_plan_options {
    gameplan_direction direction;  /**< default GAMEPLAN_BACKWARD */
    uint64_t max_expansions;       /**< node budget; 0 = unlimited */
    double time_limit_seconds;     /**< wall-clock budget; 0 = unlimited */
    uint64_t max_memory_bytes;     /**< search memory (states, node records, open list); 0 = unlimited.
                                        Running out of any of the three gives GAMEPLAN_STATUS_BUDGET_EXHAUSTED */
} gameplan_plan_options;

/** A plan. `actions` is owned by the planner: valid until its next query or destruction. */
typedef struct gameplan_plan_result {
    gameplan_status status;
    double cost;              /**< sum of the action costs (0 when not found) */
    const uint32_t* actions;  /**< action ids, first to last */
    size_t action_count;
    uint64_t expanded;        /**< states expanded */
    uint64_t generated;       /**< states generated */
    gameplan_budget_limit limit; /**< the limit that ran out (BUDGET_EXHAUSTED), else NONE */
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
/** gameplan_plan for domains with variables: `start_values` (one int32 per variable; NULL = the file's
 *  start values) complete the start state, and the goal may compare variables (`goal_comparisons`,
 *  may be NULL with a count of 0). A start value outside its variable's bounds or a comparison on an
 *  unknown variable is INVALID_ARGUMENT. Domains with variables are always planned forward. No
 *  allocation per query after warm-up (same goal sizes). */
GAMEPLAN_C_API gameplan_error gameplan_plan_values(gameplan_planner* planner, const uint8_t* start,
                                                   const int32_t* start_values, const gameplan_literal* goal,
                                                   size_t goal_count, const gameplan_comparison* goal_comparisons,
                                                   size_t goal_comparison_count, const gameplan_plan_options* options,
                                                   gameplan_plan_result* out);
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

/** One goal of an agent: the literals to reach, comparisons on variables to make true, and a fixed
 *  priority (larger first). Zero-initialise it (`gameplan_goal g = {0};`) so that fields added later
 *  keep their defaults. */
typedef struct gameplan_goal {
    const char* name;
    const gameplan_literal* literals;
    size_t literal_count;
    double priority;
    const gameplan_comparison* comparisons; /**< may be NULL when comparison_count is 0 */
    size_t comparison_count;
} gameplan_goal;

/** Zero-initialise it (`gameplan_agent_params p = {0};`) so that fields added later keep their defaults. */
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
    const int32_t* private_values;   /**< one int32 per variable (shared ones ignored); NULL = the file's
                                          start values */
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
 *  many worker threads (results are the same for any count); 0 or 1 = the calling thread only. The
 *  blackboard starts as the domain's start state says (a loaded file's "start"; a built domain's: atoms
 *  false, variables at their minimum), as each agent's private atoms and variables do by default. */
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
/** Variables: shared ones on the blackboard, private ones per agent (the same rules as for atoms; a value
 *  outside the variable's bounds is INVALID_ARGUMENT). gameplan_agent_get_value reads the agent's view
 *  of either kind. */
GAMEPLAN_C_API gameplan_error gameplan_blackboard_set_value(gameplan_agent_system* system, uint32_t variable,
                                                            int32_t value);
GAMEPLAN_C_API gameplan_error gameplan_blackboard_get_value(const gameplan_agent_system* system, uint32_t variable,
                                                            int32_t* out);
GAMEPLAN_C_API gameplan_error gameplan_agent_set_value(gameplan_agent_system* system, gameplan_agent_id agent,
                                                       uint32_t variable, int32_t value);
GAMEPLAN_C_API gameplan_error gameplan_agent_get_value(const gameplan_agent_system* system, gameplan_agent_id agent,
                                                       uint32_t variable, int32_t* out);
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
    GAMEPLAN_JPS = 2,      /**< jump point search (optimal; 8-connected, no corner cutting, uniform costs) */
    GAMEPLAN_HEX = 3,      /**< A* on the map read as a hex map (optimal; odd-r rows: odd rows sit half a cell
                                right, six neighbours, a step costs the terrain cost of the cell entered; the
                                options' movement and diagonal rule do not apply) */
    GAMEPLAN_THETA = 4     /**< Theta*: any-angle paths whose cells are waypoints joined by straight lines of
                                sight (cost: the links' lengths times the cells' price); never dearer than the
                                grid optimum under the same costs, not guaranteed the shortest (the options'
                                weight does not apply) */
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
    double time_limit_seconds;     /**< wall-clock budget from the call (a queued request: from its
                                        submission); 0 = unlimited */
    uint64_t max_memory_bytes;     /**< the search state (per-cell arrays and open list, as the pathfinder
                                        holds them); 0 = unlimited. Running out of any of the three gives
                                        GAMEPLAN_STATUS_BUDGET_EXHAUSTED and the result's `limit`. Building a
                                        hierarchy reads only the movement rules. */
} gameplan_path_options;

/** A path. `cells` is owned by whoever produced it (pathfinder or queue): valid until its next query,
 *  take or destruction. */
typedef struct gameplan_path_result {
    gameplan_status status;
    double cost;                 /**< sum of step costs (orthogonal 1, diagonal sqrt 2, times terrain) */
    const gameplan_point* cells; /**< start first, goal last; NULL when none */
    size_t cell_count;
    uint64_t expanded;
    gameplan_budget_limit limit; /**< the limit that ran out (BUDGET_EXHAUSTED), else NONE */
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
/** The cheapest path from `start` to the nearest of `targets` in one search (A* toward all of them at
 *  once), with the pathfinder's islands and costs (gameplan_pathfinder_set_costs): "the nearest tree".
 *  Blocked, off-map and forbidden targets are skipped (none usable: NO_PATH). `index` (may be NULL)
 *  receives the index of the target reached, SIZE_MAX without one. GAMEPLAN_ASTAR and GAMEPLAN_DIJKSTRA
 *  pathfinders only (else UNSUPPORTED). */
GAMEPLAN_C_API gameplan_error gameplan_find_nearest(gameplan_pathfinder* finder, const gameplan_map* map, gameplan_point start,
                                                    const gameplan_point* targets, size_t target_count,
                                                    const gameplan_path_options* options, size_t* index, gameplan_path_result* out);
/** String pulling of a legal grid path: `cells` (`count` of them, consecutive neighbours under `options`'
 *  movement and diagonal rule) become a path of the same or lower cost under the same rules, still cell by
 *  cell, with the same ends, written to `out` (room for `count` cells; never more are needed) with its
 *  length in `out_count` and its cost in `cost` (may be NULL). Costs are those set on `costs_of`
 *  (gameplan_pathfinder_set_costs; NULL: plain terrain costs). An illegal step is INVALID_ARGUMENT naming
 *  it. Allocation-free after warm-up (a buffer per thread). */
GAMEPLAN_C_API gameplan_error gameplan_smooth_path(const gameplan_pathfinder* costs_of, const gameplan_map* map,
                                                   const gameplan_point* cells, size_t count, const gameplan_path_options* options,
                                                   gameplan_point* out, size_t* out_count, double* cost);
/** A flow field: the cost from the nearest of `sources` to every cell into `distances` (width x height
 *  doubles, row by row; +infinity where the flood did not reach) and, if `toward` is not NULL, each
 *  cell's next step toward that source (width x height points; the cell itself at a source, {-1, -1}
 *  where not reached), with the pathfinder's islands and costs. Costs are from the sources (a step costs
 *  the terrain of the cell entered). `status` (may be NULL): FOUND once every reachable cell is settled,
 *  BUDGET_EXHAUSTED (the arrays then hold what was settled), INVALID_QUERY (a source blocked, off the map
 *  or forbidden). GAMEPLAN_ASTAR and GAMEPLAN_DIJKSTRA pathfinders only (else UNSUPPORTED). */
GAMEPLAN_C_API gameplan_error gameplan_distance_field(gameplan_pathfinder* finder, const gameplan_map* map,
                                                      const gameplan_point* sources, size_t source_count,
                                                      const gameplan_path_options* options, double* distances,
                                                      gameplan_point* toward, gameplan_status* status);

/* ---- islands ---------------------------------------------------------------------------------- */

/** The connected components of a map's passable cells (C++ path::Islands for square grids under one
 *  movement rule, path::HexIslands for the map read as a hex map): whether any path exists between two
 *  cells, in O(1), without searching. Given to a pathfinder (`gameplan_pathfinder_set_islands`), a query
 *  whose start and goal lie on different islands returns NO_PATH at once instead of flooding the start's
 *  island. The map must outlive the islands. Memory: square 8 bytes per cell and 20 per label, hex 4 bytes
 *  per cell and 4 per island. */
typedef struct gameplan_islands gameplan_islands;

/** Island id of a blocked cell or a cell off the map. */
#define GAMEPLAN_NO_ISLAND UINT32_MAX

typedef enum gameplan_reachability {
    GAMEPLAN_UNREACHABLE = 0,          /**< different islands, or a cell blocked or off the map: no path exists */
    GAMEPLAN_REACHABLE = 1,            /**< the same island: a path exists */
    GAMEPLAN_REACHABILITY_UNKNOWN = 2  /**< the map changed behind the islands' back (gameplan_map_set_passable)
                                            and they were not updated since: search to know */
} gameplan_reachability;

/** Labels the islands of `map` for the movement rule of `rules` (its `movement` and `diagonal`; NULL: 8
 *  neighbours, no corner cutting). Islands of a more permissive rule are coarser and still prove a
 *  stricter rule's queries unreachable, so they serve A*, Dijkstra and JPS under their rule or a
 *  stricter one. O(cells). */
GAMEPLAN_C_API gameplan_error gameplan_islands_build(const gameplan_map* map, const gameplan_path_options* rules,
                                                     gameplan_islands** out);
/** The islands of the map read as a hex map (odd-r rows, six neighbours: GAMEPLAN_HEX). O(cells). */
GAMEPLAN_C_API gameplan_error gameplan_hex_islands_build(const gameplan_map* map, gameplan_islands** out);
GAMEPLAN_C_API void gameplan_islands_destroy(gameplan_islands* islands);
/** Id of the island holding `cell`, GAMEPLAN_NO_ISLAND for a blocked cell or a cell off the map. Ids are
 *  stable until the next change of a cell. */
GAMEPLAN_C_API uint32_t gameplan_islands_id(const gameplan_islands* islands, gameplan_point cell);
/** Whether a path from `a` to `b` exists. */
GAMEPLAN_C_API gameplan_reachability gameplan_islands_connectivity(const gameplan_islands* islands, gameplan_point a,
                                                                   gameplan_point b);
/** Number of islands. */
GAMEPLAN_C_API size_t gameplan_islands_count(const gameplan_islands* islands);
/** Number of passable cells on the island with id `island`, 0 for an unknown id. */
GAMEPLAN_C_API size_t gameplan_islands_size(const gameplan_islands* islands, uint32_t island);
/** Sets a cell's passability on `map` (the islands' map) and brings the islands up to date
 *  incrementally: a cell that opens joins the islands around it; a cell that closes is settled by a local
 *  test, or else by searches from its sides run in lock step, whose cost follows the smaller side. */
GAMEPLAN_C_API gameplan_error gameplan_islands_set_passable(gameplan_islands* islands, gameplan_map* map, gameplan_point cell,
                                                            int passable);
/** Brings the islands up to date after changes made to the map directly (relabels the map, O(cells));
 *  nothing when they are current. Until then `connectivity` answers GAMEPLAN_REACHABILITY_UNKNOWN and a
 *  pathfinder ignores them. */
GAMEPLAN_C_API gameplan_error gameplan_islands_update(gameplan_islands* islands, const gameplan_map* map);
/** Gives the pathfinder's queries the islands' precheck (NULL: none). Hex islands go with GAMEPLAN_HEX,
 *  square islands with the other algorithms (else INVALID_ARGUMENT). The islands must outlive their use
 *  and not change during a query; stale islands, or islands of a stricter rule than the query's, are
 *  ignored (never a wrong NO_PATH). */
GAMEPLAN_C_API gameplan_error gameplan_pathfinder_set_islands(gameplan_pathfinder* finder, const gameplan_islands* islands);

/* ---- areas, filters and cost layers (docs/pathfinding.md, "Areas, filters and cost layers") ---- */

/** An area type per cell of a map's shape (C++ path::AreaMap): 0 .. GAMEPLAN_MAX_AREAS - 1, every cell 0
 *  at first; what an area means (swamp, road, "guards only") is the game's choice. 1 byte per cell. */
typedef struct gameplan_areas gameplan_areas;
/** What one kind of unit may enter and what each area costs it (C++ path::AreaFilter): forbidden areas
 *  count as blocked, and a step entering a cell of area a costs its length x terrain x multiplier(a).
 *  A new filter allows every area at multiplier 1. */
typedef struct gameplan_area_filter gameplan_area_filter;
/** A value >= 0 per cell (C++ path::InfluenceMap): set directly, or raised by events that spread to a
 *  radius and decay; a search given the layer with weight w adds w x the value of every cell a step
 *  enters (fear of a wolf's den, danger, congestion). About 9 bytes per cell at most. */
typedef struct gameplan_layer gameplan_layer;

#define GAMEPLAN_MAX_AREAS 64u
#define GAMEPLAN_AREA_GROUND 0u /**< MovingAI `.` and `G`, and every cell of a new area map */
#define GAMEPLAN_AREA_SWAMP 1u  /**< MovingAI `S` */
#define GAMEPLAN_AREA_WATER 2u  /**< MovingAI `W` */
#define GAMEPLAN_AREA_TREES 3u  /**< MovingAI `T` */
#define GAMEPLAN_AREA_UNKNOWN 63u /**< cells a team has not seen (fog of war: gameplan_explorer_set_costs) */

/** Area 0 for every cell of `map`'s shape. */
GAMEPLAN_C_API gameplan_error gameplan_areas_create(const gameplan_map* map, gameplan_areas** out);
/** Loads a map (as gameplan_map_load) and the standard areas of its terrain letters (SWAMP for `S`, WATER
 *  for `W`, TREES for `T`, GROUND for the rest). `water_passable` / `trees_passable` nonzero make `W` / `T`
 *  cells passable, so that a filter decides who may enter them. */
GAMEPLAN_C_API gameplan_error gameplan_map_load_with_areas(const char* path, int water_passable, int trees_passable,
                                                           gameplan_map** map_out, gameplan_areas** areas_out);
GAMEPLAN_C_API void gameplan_areas_destroy(gameplan_areas* areas);
/** INVALID_ARGUMENT off the map or for an area >= GAMEPLAN_MAX_AREAS. */
GAMEPLAN_C_API gameplan_error gameplan_areas_set(gameplan_areas* areas, gameplan_point cell, uint32_t area);
/** The area of `cell` (0 off the map or for NULL). */
GAMEPLAN_C_API uint32_t gameplan_areas_get(const gameplan_areas* areas, gameplan_point cell);

GAMEPLAN_C_API gameplan_error gameplan_area_filter_create(gameplan_area_filter** out);
GAMEPLAN_C_API void gameplan_area_filter_destroy(gameplan_area_filter* filter);
/** Forbids `area` (`forbidden` nonzero) or allows it again. INVALID_ARGUMENT for area >= GAMEPLAN_MAX_AREAS. */
GAMEPLAN_C_API gameplan_error gameplan_area_filter_forbid(gameplan_area_filter* filter, uint32_t area, int forbidden);
/** The cost multiplier of `area`, in (0, 1e6] (below 1 makes the area cheaper than ground; the heuristic
 *  is scaled down so that A* stays optimal). INVALID_ARGUMENT otherwise. */
GAMEPLAN_C_API gameplan_error gameplan_area_filter_set_multiplier(gameplan_area_filter* filter, uint32_t area, double multiplier);

/** Zero everywhere on `map`'s shape. */
GAMEPLAN_C_API gameplan_error gameplan_layer_create(const gameplan_map* map, gameplan_layer** out);
GAMEPLAN_C_API void gameplan_layer_destroy(gameplan_layer* layer);
/** INVALID_ARGUMENT off the map or for a value that is negative or not finite. */
GAMEPLAN_C_API gameplan_error gameplan_layer_set(gameplan_layer* layer, gameplan_point cell, float value);
/** The value of `cell` (0 off the map or for NULL). */
GAMEPLAN_C_API float gameplan_layer_get(const gameplan_layer* layer, gameplan_point cell);
/** Adds amount x (1 - d / (radius + 1)) to every cell within Euclidean distance d <= radius of `center`
 *  (walls do not stop it; cells off the map are skipped). `amount` > 0 and finite, `radius` in [0, 1024]
 *  (else INVALID_ARGUMENT). */
GAMEPLAN_C_API gameplan_error gameplan_layer_add_event(gameplan_layer* layer, gameplan_point center, float amount, int32_t radius);
/** Multiplies every value by `factor` in [0, 1]; values below 1e-3 become 0. */
GAMEPLAN_C_API gameplan_error gameplan_layer_decay(gameplan_layer* layer, float factor);
GAMEPLAN_C_API void gameplan_layer_clear(gameplan_layer* layer);

/** Gives the pathfinder's queries an area map and a filter (either may be NULL: without areas every cell
 *  is area 0, without a filter nothing is forbidden or scaled) and `layer_count` weighted layers
 *  (`layers[i]` with `weights[i]` >= 0 and finite). All NULL / 0: plain costs again. They are read live at
 *  every query (changing a value needs no call here), must outlive their use and be sized for the query's
 *  map (else the query's status is INVALID_QUERY). A* and Dijkstra honour them; a JPS query with any of
 *  them is UNSUPPORTED, and the GAMEPLAN_HEX pathfinder refuses them (INVALID_ARGUMENT). */
GAMEPLAN_C_API gameplan_error gameplan_pathfinder_set_costs(gameplan_pathfinder* finder, const gameplan_areas* areas,
                                                            const gameplan_area_filter* filter,
                                                            const gameplan_layer* const* layers, const double* weights,
                                                            size_t layer_count);

/* ---- fog of war: teams that know part of a map, units that explore (docs/pathfinding.md) ------------ */

/** One team's knowledge of a map (C++ path::TeamKnowledge), shared by all its units: every cell unknown,
 *  known free or known blocked. Searches on it treat unknown cells as walkable. 3 bytes per cell (7 when
 *  the map has terrain costs). */
typedef struct gameplan_team gameplan_team;
/** Walks units of a team toward goals, revealing cells around them and replanning at every wall they meet
 *  (C++ path::Explorer); reusable, one per thread. */
typedef struct gameplan_explorer gameplan_explorer;

typedef enum gameplan_knowledge {
    GAMEPLAN_CELL_UNKNOWN = 0, /**< never seen (also off the map) */
    GAMEPLAN_CELL_FREE = 1,    /**< seen passable */
    GAMEPLAN_CELL_BLOCKED = 2  /**< seen blocked */
} gameplan_knowledge;

typedef struct gameplan_explore_options {
    int movement;               /**< 4 or 8 (default 8) */
    gameplan_diagonal diagonal; /**< for 8-connected movement (default: no corner cutting) */
    int32_t sight;              /**< Chebyshev sight radius, 1 .. 1024 (default 5) */
    double unknown_multiplier;  /**< planning cost multiplier of unknown cells, (0, 1e6] (default 1: optimistic) */
    uint64_t max_steps;         /**< cells moved at most; 0 = 4 x cells + 16 (default) */
    uint64_t max_expansions;    /**< cells all the walk's plans expand together; 0 = unlimited */
    double time_limit_seconds;  /**< 0 = unlimited */
    uint64_t max_memory_bytes;  /**< the search state; 0 = unlimited */
} gameplan_explore_options;

/** A walk. `cells` (every cell the unit stood on, start first) is owned by the explorer: valid until its
 *  next walk or destruction. */
typedef struct gameplan_explore_result {
    gameplan_status status;       /**< FOUND arrived, NO_PATH the team's knowledge proves the goal unreachable,
                                       BUDGET_EXHAUSTED, INVALID_QUERY */
    const gameplan_point* cells;
    size_t cell_count;
    double travelled;             /**< the walk's true cost */
    uint64_t steps, replans, expanded;
    gameplan_budget_limit limit;  /**< the budget that ran out, else NONE (also when max_steps ended the walk) */
} gameplan_explore_result;

/** Everything unknown, on `truth`'s shape. */
GAMEPLAN_C_API gameplan_error gameplan_team_create(const gameplan_map* truth, gameplan_team** out);
GAMEPLAN_C_API void gameplan_team_destroy(gameplan_team* team);
/** Marks every cell within Chebyshev distance `radius` (0 .. 1024) of `center` as known, as `truth` has it;
 *  `newly_blocked` (may be NULL) receives the cells newly known blocked. */
GAMEPLAN_C_API gameplan_error gameplan_team_reveal(gameplan_team* team, const gameplan_map* truth, gameplan_point center,
                                                   int32_t radius, size_t* newly_blocked);
GAMEPLAN_C_API gameplan_knowledge gameplan_team_state(const gameplan_team* team, gameplan_point cell);
GAMEPLAN_C_API size_t gameplan_team_known_count(const gameplan_team* team);

GAMEPLAN_C_API gameplan_explore_options gameplan_explore_options_default(void);
GAMEPLAN_C_API gameplan_error gameplan_explorer_create(gameplan_explorer** out);
GAMEPLAN_C_API void gameplan_explorer_destroy(gameplan_explorer* explorer);
/** The true areas, the unit's filter and weighted layers of later walks, as gameplan_pathfinder_set_costs
 *  (a cell's area is learnt with the cell; a filter may forbid GAMEPLAN_AREA_UNKNOWN, 63: only known
 *  ground). All NULL / 0: none. They must outlive those walks. */
GAMEPLAN_C_API gameplan_error gameplan_explorer_set_costs(gameplan_explorer* explorer, const gameplan_areas* areas,
                                                          const gameplan_area_filter* filter, const gameplan_layer* const* layers,
                                                          const double* weights, size_t layer_count);
/** Walks a unit of `team` from `start` to `goal` on `truth`; the team keeps what the walk revealed.
 *  `options` may be NULL (defaults). */
GAMEPLAN_C_API gameplan_error gameplan_explore(gameplan_explorer* explorer, const gameplan_map* truth, gameplan_team* team,
                                               gameplan_point start, gameplan_point goal, const gameplan_explore_options* options,
                                               gameplan_explore_result* out);

/* ---- the path request queue ------------------------------------------------------------------- */

/** Many units' path requests, served within a per-frame budget of expansions (C++ PathRequestQueue).
 *  Works on one map, which must outlive it. A change of passability restarts running searches;
 *  terrain-cost changes alone do not (a running search goes on, reading the new costs, and its path is
 *  priced on the map it finished on), so costs painted every frame do not hold searches up. Finished
 *  results not yet taken are re-checked after any change (C++ request_queue.hpp, "Map changes"). */
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

/** `lanes`: searches in progress at once (0 is treated as 1; more than 1024 gives
 *  GAMEPLAN_ERROR_INVALID_ARGUMENT). */
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
/** Gives the requests submitted from now on the islands' precheck (square islands of the queue's map;
 *  NULL: none): a request between two islands is answered NO_PATH at its first update, with nothing
 *  expanded, instead of spending the frame budget on a flood. The islands must outlive those requests. */
GAMEPLAN_C_API gameplan_error gameplan_request_queue_set_islands(gameplan_request_queue* queue, const gameplan_islands* islands);
/** Gives the requests submitted from now on an area map, a filter and weighted layers, as
 *  gameplan_pathfinder_set_costs does (all NULL / 0: plain costs); requests already queued keep what they
 *  were submitted with. The areas and layers must be sized for the queue's map (else INVALID_ARGUMENT) and,
 *  with the filter, outlive those requests; the queue keeps its own copy of the list of layers. */
GAMEPLAN_C_API gameplan_error gameplan_request_queue_set_costs(gameplan_request_queue* queue, const gameplan_areas* areas,
                                                               const gameplan_area_filter* filter,
                                                               const gameplan_layer* const* layers, const double* weights,
                                                               size_t layer_count);
/** Which map changes restart running searches, from the next update (C++ QueueOptions). By default a
 *  change of passability does (`on_passability_change` 1) and terrain-cost changes do not
 *  (`on_cost_change` 0). `on_cost_change` 1: any change restarts (each result the optimum of one map
 *  version; a search longer than the interval between changes never ends). `on_passability_change` 0:
 *  for maps whose cells open and close every few updates; a search goes on through such changes and runs
 *  again only if it ends with no path or with a path that crosses a cell closed since. */
GAMEPLAN_C_API gameplan_error gameplan_request_queue_set_restarts(gameplan_request_queue* queue, int on_cost_change,
                                                                  int on_passability_change);
/* ---- HPA* (hierarchical pathfinding; docs/hierarchy.md) ------------------------------------------- */

/** The abstract graph of a map (C++ path::HierarchicalMap), built once for one movement rule; the map must
 *  outlive it. After cells change, call gameplan_hierarchy_update_cell for each (or build again). */
typedef struct gameplan_hierarchy gameplan_hierarchy;
/** A reusable HPA* query object (C++ path::HpaPathfinder); allocates nothing per query after warm-up. */
typedef struct gameplan_hpa_pathfinder gameplan_hpa_pathfinder;

typedef struct gameplan_hpa_options {
    int refine;              /**< nonzero (default): shorten the path over windows around border crossings */
    int smooth;              /**< nonzero: string-pull the result (default 0) */
    double weight;           /**< >= 1 weights the abstract search (default 1) */
    uint64_t max_expansions; /**< abstract nodes; 0 = unlimited */
    double time_limit_seconds; /**< wall-clock budget of the query; 0 = unlimited */
    uint64_t max_memory_bytes; /**< what the query object holds (search state, floods, refinement); 0 = unlimited */
} gameplan_hpa_options;

/** Builds the hierarchy for the movement rule of `rules` (movement and diagonal; NULL = 8-connected, no
 *  corner cutting) with clusters of `cluster_size` cells a side (1 .. 256; 64 is a good default).
 *  INVALID_ARGUMENT for an empty map or a cluster size out of range. */
GAMEPLAN_C_API gameplan_error gameplan_hierarchy_build(const gameplan_map* map, const gameplan_path_options* rules,
                                                       int32_t cluster_size, gameplan_hierarchy** out);
GAMEPLAN_C_API void gameplan_hierarchy_destroy(gameplan_hierarchy* hierarchy);
/** Re-computes what a changed cell affects (its clusters and borders). */
GAMEPLAN_C_API gameplan_error gameplan_hierarchy_update_cell(gameplan_hierarchy* hierarchy, const gameplan_map* map,
                                                             gameplan_point cell);
GAMEPLAN_C_API size_t gameplan_hierarchy_cluster_count(const gameplan_hierarchy* hierarchy);
GAMEPLAN_C_API size_t gameplan_hierarchy_node_count(const gameplan_hierarchy* hierarchy);

GAMEPLAN_C_API gameplan_hpa_options gameplan_hpa_options_default(void);
GAMEPLAN_C_API gameplan_error gameplan_hpa_pathfinder_create(gameplan_hpa_pathfinder** out);
GAMEPLAN_C_API void gameplan_hpa_pathfinder_destroy(gameplan_hpa_pathfinder* finder);
/** A near-optimal path on the hierarchy's map (`options` may be NULL). Statuses as gameplan_find_path;
 *  `expanded` counts abstract nodes. The cells stay valid until the finder's next query. */
GAMEPLAN_C_API gameplan_error gameplan_hpa_find_path(gameplan_hpa_pathfinder* finder,
                                                     const gameplan_hierarchy* hierarchy, gameplan_point start,
                                                     gameplan_point goal, const gameplan_hpa_options* options,
                                                     gameplan_path_result* out);

/* ---- graphs: waypoints, regions, any weighted directed graph (docs/graphs.md) ------------------------ */

/** A point: for meshes in grid units (cell (x, y) is the square [x, x+1] x [y, y+1], its centre
 *  (x + 0.5, y + 0.5)); for graphs, a node's position in any unit. */
typedef struct gameplan_vec2 {
    double x;
    double y;
} gameplan_vec2;

/** An immutable weighted directed graph (C++ path::Graph): nodes with string ids and optional positions. */
typedef struct gameplan_graph gameplan_graph;
/** Collects nodes and edges, then builds a graph (C++ path::GraphBuilder). */
typedef struct gameplan_graph_builder gameplan_graph_builder;
/** A reusable A* / Dijkstra query object for graphs (C++ path::GraphPathfinder). */
typedef struct gameplan_graph_pathfinder gameplan_graph_pathfinder;

/** Loads a graph file: JSON (`{"nodes": [{"id", "x", "y"}], "edges": [{"from", "to", "cost"}]}`) or a CSV
 *  edge list, by its extension. GAMEPLAN_ERROR_LOAD names file, line, column and field. */
GAMEPLAN_C_API gameplan_error gameplan_graph_load(const char* path, gameplan_graph** out);
GAMEPLAN_C_API gameplan_error gameplan_graph_builder_create(gameplan_graph_builder** out);
GAMEPLAN_C_API void gameplan_graph_builder_destroy(gameplan_graph_builder* builder);
/** Adds a node named `id` (non-empty, unique) at `position` (x, y; NULL = none; the distance heuristic
 *  needs every node to have one). `out` (may be NULL) receives its index: 0, 1, ... in the order added. */
GAMEPLAN_C_API gameplan_error gameplan_graph_builder_add_node(gameplan_graph_builder* builder, const char* id,
                                                              const gameplan_vec2* position, uint32_t* out);
/** Adds an arc `from` -> `to` of `cost` (finite, >= 0); nonzero `undirected` adds `to` -> `from` too. */
GAMEPLAN_C_API gameplan_error gameplan_graph_builder_add_edge(gameplan_graph_builder* builder, uint32_t from, uint32_t to,
                                                              double cost, int undirected);
/** Builds the graph; the builder keeps its contents. */
GAMEPLAN_C_API gameplan_error gameplan_graph_builder_build(const gameplan_graph_builder* builder, gameplan_graph** out);
GAMEPLAN_C_API void gameplan_graph_destroy(gameplan_graph* graph);
GAMEPLAN_C_API size_t gameplan_graph_node_count(const gameplan_graph* graph);
GAMEPLAN_C_API size_t gameplan_graph_arc_count(const gameplan_graph* graph);
/** The index of the node named `id`: NOT_FOUND when there is none. */
GAMEPLAN_C_API gameplan_error gameplan_graph_find_node(const gameplan_graph* graph, const char* id, uint32_t* out);
/** The id of node `node` (owned by the graph), or NULL when out of range. */
GAMEPLAN_C_API const char* gameplan_graph_node_id(const gameplan_graph* graph, uint32_t node);
/** The position of node `node` into `out`: INVALID_ARGUMENT when out of range, NOT_FOUND when the graph has
 *  no positions. */
GAMEPLAN_C_API gameplan_error gameplan_graph_node_position(const gameplan_graph* graph, uint32_t node, gameplan_vec2* out);
/** Writes `graph` to `path`: a CSV edge list (from,to,cost,undirected: the arcs only) when the name ends in
 *  `.csv`, graph JSON (every node with its position, undirected twins written once) otherwise; loading it
 *  gives the same arcs, costs to the bit. GAMEPLAN_ERROR_LOAD naming the file when it cannot be written,
 *  INVALID_ARGUMENT for a node id that is not UTF-8. */
GAMEPLAN_C_API gameplan_error gameplan_graph_save(const gameplan_graph* graph, const char* path);

/** How `gameplan_waypoint_graph_build` places and joins waypoints (C++ path::WaypointOptions). */
typedef struct gameplan_waypoint_options {
    int corners;                /**< nonzero (default): a waypoint at every convex obstacle corner too */
    int movement;               /**< line-of-sight rule: 4 or 8 (default 8) */
    gameplan_diagonal diagonal; /**< for 8-connected movement (default: no corner cutting) */
    double max_distance;        /**< join only waypoints at most this many cells apart; 0 = any distance */
    uint64_t max_pairs;         /**< pairs checked for line of sight; 0 = unlimited */
    double time_limit_seconds;  /**< 0 = unlimited */
    uint64_t max_memory_bytes;  /**< what the build holds (estimated as edges are found); 0 = unlimited */
} gameplan_waypoint_options;

GAMEPLAN_C_API gameplan_waypoint_options gameplan_waypoint_options_default(void);
/** A map's waypoint graph (docs/graphs.md): the `given` cells (`given_count` may be 0; repeats merged), then
 *  per options every convex obstacle corner, joined both ways where the segment between their cell centres
 *  has line of sight and they are at most `max_distance` apart; the cost is the distance. Nodes are named
 *  "x,y" and placed at the cell centres (x + 0.5, y + 0.5), so A* uses the exact distance heuristic.
 *  INVALID_ARGUMENT for a given cell off the map or blocked, a map with terrain costs, more than 20,000
 *  waypoints or bad options; UNSUPPORTED naming the budget when the build would pass one (nothing is
 *  built). `options` may be NULL. */
GAMEPLAN_C_API gameplan_error gameplan_waypoint_graph_build(const gameplan_map* map, const gameplan_point* given, size_t given_count,
                                                            const gameplan_waypoint_options* options, gameplan_graph** out);
/** The cell of waypoint `node` of a graph made by gameplan_waypoint_graph_build: NOT_FOUND for another graph,
 *  INVALID_ARGUMENT when out of range. */
GAMEPLAN_C_API gameplan_error gameplan_graph_node_cell(const gameplan_graph* graph, uint32_t node, gameplan_point* out);


typedef struct gameplan_graph_options {
    int dijkstra;              /**< nonzero: no heuristic (default 0: the distance heuristic when every node has
                                    a position, else none) */
    double weight;             /**< weighted A*: >= 1 (default 1, optimal) */
    uint64_t max_expansions;   /**< 0 = unlimited */
    double time_limit_seconds; /**< wall-clock budget from begin or find_path; 0 = unlimited */
    uint64_t max_memory_bytes; /**< what the pathfinder holds; 0 = unlimited */
} gameplan_graph_options;

/** A graph path. `nodes` is owned by the pathfinder: valid until its next query or destruction. */
typedef struct gameplan_graph_path_result {
    gameplan_status status;
    double cost;           /**< sum of the arc costs (0 unless FOUND) */
    const uint32_t* nodes; /**< start first, goal last; NULL unless FOUND */
    size_t node_count;
    uint64_t expanded;
    gameplan_budget_limit limit; /**< the limit that ran out (BUDGET_EXHAUSTED), else NONE */
} gameplan_graph_path_result;

GAMEPLAN_C_API gameplan_graph_options gameplan_graph_options_default(void);
GAMEPLAN_C_API gameplan_error gameplan_graph_pathfinder_create(gameplan_graph_pathfinder** out);
GAMEPLAN_C_API void gameplan_graph_pathfinder_destroy(gameplan_graph_pathfinder* finder);
/** One whole query between node indices (INVALID_ARGUMENT when out of range). `options` may be NULL. */
GAMEPLAN_C_API gameplan_error gameplan_graph_find_path(gameplan_graph_pathfinder* finder, const gameplan_graph* graph,
                                                       uint32_t start, uint32_t goal, const gameplan_graph_options* options,
                                                       gameplan_graph_path_result* out);
/** The cheapest path from any of `sources` to the nearest of `goals` (node indices; at least one of each;
 *  the distance heuristic takes the first 16 goals into account). The path starts at the source it
 *  leaves from and ends at the goal reached. */
GAMEPLAN_C_API gameplan_error gameplan_graph_find_nearest(gameplan_graph_pathfinder* finder, const gameplan_graph* graph,
                                                          const uint32_t* sources, size_t source_count, const uint32_t* goals,
                                                          size_t goal_count, const gameplan_graph_options* options,
                                                          gameplan_graph_path_result* out);
/** Exact distances from the nearest of `sources` to every node into `distances` (gameplan_graph_node_count
 *  doubles; +infinity where unreachable). `options` may be NULL (its budget applies; `dijkstra` and
 *  `weight` do not). `status` (may be NULL) receives NO_PATH when the flood finished, or BUDGET_EXHAUSTED
 *  (then `distances` is incomplete). Uses the pathfinder's state: allocation-free after warm-up. */
GAMEPLAN_C_API gameplan_error gameplan_graph_distance_field(gameplan_graph_pathfinder* finder, const gameplan_graph* graph,
                                                            const uint32_t* sources, size_t source_count,
                                                            const gameplan_graph_options* options, double* distances,
                                                            gameplan_status* status);
/** The same query spread over frames: begin, step until not IN_PROGRESS, finish. The graph must not go in
 *  between. */
GAMEPLAN_C_API gameplan_error gameplan_graph_begin(gameplan_graph_pathfinder* finder, const gameplan_graph* graph, uint32_t start,
                                                   uint32_t goal, const gameplan_graph_options* options, gameplan_status* out);
GAMEPLAN_C_API gameplan_error gameplan_graph_step(gameplan_graph_pathfinder* finder, uint64_t slice_expansions,
                                                  gameplan_status* out);
GAMEPLAN_C_API gameplan_error gameplan_graph_finish(gameplan_graph_pathfinder* finder, gameplan_graph_path_result* out);

/** Paths between any two free cells over a waypoint graph, without building it again (C++
 *  path::WaypointPathfinder): the start is joined to every waypoint it sees and the goal to every waypoint
 *  that sees it, by the graph's own rule, then A* (or Dijkstra with `dijkstra`) searches; a start that sees
 *  the goal gets the straight segment. The result's cells are the start, the waypoints turned at and the
 *  goal; its cost the Euclidean length. Status INVALID_QUERY for an end off the map or blocked, a graph not
 *  made by gameplan_waypoint_graph_build or a `map` it does not fit. Allocates nothing per query after
 *  warm-up; one per thread. */
typedef struct gameplan_waypoint_pathfinder gameplan_waypoint_pathfinder;
GAMEPLAN_C_API gameplan_error gameplan_waypoint_pathfinder_create(gameplan_waypoint_pathfinder** out);
GAMEPLAN_C_API void gameplan_waypoint_pathfinder_destroy(gameplan_waypoint_pathfinder* finder);
/** One whole query. `options` may be NULL (its dijkstra, weight and budget apply). `out->cells` is owned by
 *  the pathfinder: valid until its next query or destruction. */
GAMEPLAN_C_API gameplan_error gameplan_waypoint_find_path(gameplan_waypoint_pathfinder* finder, const gameplan_graph* graph,
                                                          const gameplan_map* map, gameplan_point start, gameplan_point goal,
                                                          const gameplan_graph_options* options, gameplan_path_result* out);
/** The same spread over frames: begin, step until not IN_PROGRESS, finish. Graph and map must not change or
 *  go in between. */
GAMEPLAN_C_API gameplan_error gameplan_waypoint_begin(gameplan_waypoint_pathfinder* finder, const gameplan_graph* graph,
                                                      const gameplan_map* map, gameplan_point start, gameplan_point goal,
                                                      const gameplan_graph_options* options, gameplan_status* out);
GAMEPLAN_C_API gameplan_error gameplan_waypoint_step(gameplan_waypoint_pathfinder* finder, uint64_t slice_expansions,
                                                     gameplan_status* out);
GAMEPLAN_C_API gameplan_error gameplan_waypoint_finish(gameplan_waypoint_pathfinder* finder, gameplan_path_result* out);

/* ---- navigation meshes: Euclidean-optimal any-angle paths (docs/navmesh.md) ------------------------- */

/** A map's free space as convex polygons (C++ path::Navmesh). It copies what it needs: the map may change or
 *  go afterwards, and the mesh does not follow (build a new one). */
typedef struct gameplan_navmesh gameplan_navmesh;
/** A preprocessed mesh (C++ path::NavmeshHierarchy): the same paths, faster queries. The mesh must outlive it. */
typedef struct gameplan_navmesh_hierarchy gameplan_navmesh_hierarchy;
/** A reusable query object for both (C++ NavmeshPathfinder and NavmeshHierarchyPathfinder); allocates
 *  nothing per query after warm-up. */
typedef struct gameplan_navmesh_pathfinder gameplan_navmesh_pathfinder;

typedef struct gameplan_navmesh_options {
    uint64_t max_expansions;   /**< search nodes popped (corners settled on a hierarchy); 0 = unlimited */
    double time_limit_seconds; /**< wall-clock budget from begin or find_path; 0 = unlimited */
    uint64_t max_memory_bytes; /**< what the pathfinder holds; 0 = unlimited. Running out of any of the three
                                    gives GAMEPLAN_STATUS_BUDGET_EXHAUSTED and the result's `limit`. */
} gameplan_navmesh_options;

/** An any-angle path. `points` is owned by the pathfinder: valid until its next query or destruction. */
typedef struct gameplan_navmesh_path_result {
    gameplan_status status;
    double cost;                 /**< the Euclidean length (0 unless FOUND) */
    const gameplan_vec2* points; /**< the start, every turning point (an obstacle corner) and the goal; just
                                      the start when start == goal; NULL unless FOUND */
    size_t point_count;
    uint64_t expanded;
    gameplan_budget_limit limit; /**< the limit that ran out (BUDGET_EXHAUSTED), else NONE */
} gameplan_navmesh_path_result;

/** Builds the mesh of `map` (passability). INVALID_ARGUMENT for an empty map or one with terrain costs
 *  (any-angle lengths are defined on uniform maps). */
GAMEPLAN_C_API gameplan_error gameplan_navmesh_build(const gameplan_map* map, gameplan_navmesh** out);
GAMEPLAN_C_API void gameplan_navmesh_destroy(gameplan_navmesh* mesh);
GAMEPLAN_C_API size_t gameplan_navmesh_polygon_count(const gameplan_navmesh* mesh);
GAMEPLAN_C_API size_t gameplan_navmesh_memory_bytes(const gameplan_navmesh* mesh);

/** Builds the hierarchy of `mesh` within `time_limit_seconds` and `max_memory_bytes` (0 = none):
 *  UNSUPPORTED, naming the budget, when the build would pass either (nothing is built). */
GAMEPLAN_C_API gameplan_error gameplan_navmesh_hierarchy_build(const gameplan_navmesh* mesh, double time_limit_seconds,
                                                               uint64_t max_memory_bytes, gameplan_navmesh_hierarchy** out);
GAMEPLAN_C_API void gameplan_navmesh_hierarchy_destroy(gameplan_navmesh_hierarchy* hierarchy);
GAMEPLAN_C_API size_t gameplan_navmesh_hierarchy_memory_bytes(const gameplan_navmesh_hierarchy* hierarchy);

GAMEPLAN_C_API gameplan_navmesh_options gameplan_navmesh_options_default(void);
GAMEPLAN_C_API gameplan_error gameplan_navmesh_pathfinder_create(gameplan_navmesh_pathfinder** out);
GAMEPLAN_C_API void gameplan_navmesh_pathfinder_destroy(gameplan_navmesh_pathfinder* finder);
/** One whole query on the mesh. A start or goal in a blocked cell or off the map gives status
 *  INVALID_QUERY (not an error). `options` may be NULL. */
GAMEPLAN_C_API gameplan_error gameplan_navmesh_find_path(gameplan_navmesh_pathfinder* finder, const gameplan_navmesh* mesh,
                                                         gameplan_vec2 start, gameplan_vec2 goal,
                                                         const gameplan_navmesh_options* options,
                                                         gameplan_navmesh_path_result* out);
/** The same on a hierarchy: the same statuses and paths. */
GAMEPLAN_C_API gameplan_error gameplan_navmesh_hierarchy_find_path(gameplan_navmesh_pathfinder* finder,
                                                                   const gameplan_navmesh_hierarchy* hierarchy,
                                                                   gameplan_vec2 start, gameplan_vec2 goal,
                                                                   const gameplan_navmesh_options* options,
                                                                   gameplan_navmesh_path_result* out);
/** A query spread over frames: begin on a mesh or on a hierarchy, then step with a slice of expansions until
 *  it returns anything but IN_PROGRESS, then finish. The mesh or hierarchy must not go in between. */
GAMEPLAN_C_API gameplan_error gameplan_navmesh_begin(gameplan_navmesh_pathfinder* finder, const gameplan_navmesh* mesh,
                                                     gameplan_vec2 start, gameplan_vec2 goal,
                                                     const gameplan_navmesh_options* options, gameplan_status* out);
GAMEPLAN_C_API gameplan_error gameplan_navmesh_hierarchy_begin(gameplan_navmesh_pathfinder* finder,
                                                               const gameplan_navmesh_hierarchy* hierarchy,
                                                               gameplan_vec2 start, gameplan_vec2 goal,
                                                               const gameplan_navmesh_options* options, gameplan_status* out);
GAMEPLAN_C_API gameplan_error gameplan_navmesh_step(gameplan_navmesh_pathfinder* finder, uint64_t slice_expansions,
                                                    gameplan_status* out);
GAMEPLAN_C_API gameplan_error gameplan_navmesh_finish(gameplan_navmesh_pathfinder* finder, gameplan_navmesh_path_result* out);

/* ---- crowds: one-shot multi-agent pathfinding (docs/crowds.md) ------------------------------------ */

/** A reusable collision-free crowd solver (C++ path::CrowdSolver: LaCAM over PIBT, 4-connected). */
typedef struct gameplan_crowd_solver gameplan_crowd_solver;

typedef struct gameplan_crowd_options {
    uint64_t max_expansions;   /**< configuration-generator calls; 0 = unlimited */
    double time_limit_seconds; /**< 0 = unlimited */
    int anytime;               /**< nonzero: improve the first solution until improve_seconds, the time
                                    limit or max_expansions run out, or it is optimal; with none of the
                                    three the solve is refused (GAMEPLAN_STATUS_INVALID_QUERY) */
    double improve_seconds;    /**< with anytime: time spent improving (0 = until the time limit) */
    uint64_t seed;             /**< tie-breaking seed; the same instance and seed give the same answer */
    uint64_t max_memory_bytes; /**< cap of the distance tables (4 bytes per agent and free cell) and the
                                    configuration store together (default 2 GiB) */
} gameplan_crowd_options;

/** A solution. Arrays are owned by the solver: valid until its next solve or destruction. */
typedef struct gameplan_crowd_result {
    gameplan_status status;   /**< FOUND, NO_PATH (proved unsolvable), BUDGET_EXHAUSTED, INVALID_QUERY */
    uint32_t agents;
    uint32_t makespan;        /**< last time step T: each agent has T + 1 cells */
    uint64_t sum_of_costs;    /**< sum over agents of costs[i] */
    uint64_t lower_bound;     /**< sum of the agents' single-agent shortest distances (0 for INVALID_QUERY) */
    const uint32_t* costs;    /**< per agent: the step at which it reaches its goal for the last time */
    const gameplan_point* cells; /**< step-major: the cell of agent i at step t is cells[t * agents + i] */
    uint64_t expanded;        /**< configurations expanded */
    gameplan_budget_limit limit; /**< the limit that ran out (BUDGET_EXHAUSTED), else NONE */
    uint32_t unreachable_agent; /**< NO_PATH because an agent's goal lies in another part of the map than
                                     its start: that agent (the first); else UINT32_MAX */
} gameplan_crowd_result;

GAMEPLAN_C_API gameplan_crowd_options gameplan_crowd_options_default(void);
GAMEPLAN_C_API gameplan_error gameplan_crowd_solver_create(gameplan_crowd_solver** out);
GAMEPLAN_C_API void gameplan_crowd_solver_destroy(gameplan_crowd_solver* solver);
/** Finds collision-free paths for `agent_count` agents from starts[i] to goals[i] (no two agents on one
 *  cell, no two swapping cells in one step). Invalid instances (a cell off the map or blocked, shared
 *  starts or goals, too many agents) give status INVALID_QUERY, not an error. `options` may be NULL. */
GAMEPLAN_C_API gameplan_error gameplan_crowd_solve(gameplan_crowd_solver* solver, const gameplan_map* map,
                                                   const gameplan_point* starts, const gameplan_point* goals,
                                                   size_t agent_count, const gameplan_crowd_options* options,
                                                   gameplan_crowd_result* out);

/* ---- the movement layer: units walking one map (docs/movement.md) --------------------------------- */

/** Units on one map (C++ path::MovementSystem): destinations, frame-budgeted path requests, route
 *  following, claimed-path penalties and collision-free steps, one cell per unit per update. The map
 *  must outlive it and may change between updates. Deterministic. */
typedef struct gameplan_movement gameplan_movement;

typedef enum gameplan_unit_status {
    GAMEPLAN_UNIT_IDLE = 0,     /**< no destination */
    GAMEPLAN_UNIT_PLANNING = 1, /**< its path request is in flight */
    GAMEPLAN_UNIT_MOVING = 2,
    GAMEPLAN_UNIT_WAITING = 3,  /**< other units held every cell it wanted this update */
    GAMEPLAN_UNIT_ARRIVED = 4,
    GAMEPLAN_UNIT_FAILED = 5    /**< see gameplan_unit_info.failure */
} gameplan_unit_status;

typedef enum gameplan_move_failure {
    GAMEPLAN_MOVE_OK = 0,
    GAMEPLAN_MOVE_NO_PATH = 1,
    GAMEPLAN_MOVE_INVALID_GOAL = 2,
    GAMEPLAN_MOVE_BUDGET = 3,
    GAMEPLAN_MOVE_STUCK = 4
} gameplan_move_failure;

typedef enum gameplan_step_resolver {
    GAMEPLAN_RESOLVER_BUILTIN = 0, /**< the movement layer's own priority inheritance (the default) */
    GAMEPLAN_RESOLVER_CROWD = 1    /**< the lifelong crowd stepper (docs/crowds.md) */
} gameplan_step_resolver;

/** Same fields and defaults as C++ path::MovementOptions (docs/movement.md). */
typedef struct gameplan_movement_options {
    int movement;                 /**< 4 or 8 (default 8) */
    gameplan_diagonal diagonal;   /**< default NO_CORNER_CUTTING */
    double path_weight;           /**< weighted A* for path requests, >= 1 (default 1) */
    int smooth;                   /**< smooth paths before walking them (default 1) */
    uint64_t path_budget;         /**< cell expansions per update (default 60000) */
    uint32_t lanes;               /**< searches at once (default 4; at most 1024) */
    uint64_t search_budget;       /**< expansions one request may spend (0 = unlimited) */
    uint32_t claim_cells;         /**< cells ahead a moving unit claims (default 8) */
    float claim_penalty;          /**< default 2 */
    float still_penalty;          /**< default 4 */
    double claim_weight;          /**< default 1 */
    uint32_t detour_after;        /**< waits in a row before a new path is asked for (default 8) */
    uint32_t give_up_ticks;       /**< ticks without progress before Failed/STUCK (0 = never) */
    uint32_t still_limit;         /**< default 100 */
    gameplan_step_resolver resolver;
} gameplan_movement_options;

/** Where a unit should go: it arrives within Chebyshev distance `radius` of `centre`; its path leads to
 *  `cell` (usually `centre`). */
typedef struct gameplan_destination {
    gameplan_point cell;
    gameplan_point centre;
    int32_t radius;
} gameplan_destination;

/** What a unit is doing. `route` (the cells still to enter, next first) is owned by the system: valid
 *  until its next update or change. */
typedef struct gameplan_unit_info {
    gameplan_point position;
    gameplan_point previous;      /**< where it stood before the last update */
    gameplan_unit_status status;
    gameplan_move_failure failure;
    gameplan_destination destination;
    const gameplan_point* route;
    size_t route_length;
    uint32_t still_ticks;
    int anchored;
} gameplan_unit_info;

typedef struct gameplan_movement_stats {
    uint64_t ticks, steps, waits, detours, pushes, path_requests, paths, arrivals, failures, jams;
} gameplan_movement_stats;

GAMEPLAN_C_API gameplan_movement_options gameplan_movement_options_default(void);
/** `options` may be NULL (defaults). INVALID_ARGUMENT for an empty map or options out of range. */
GAMEPLAN_C_API gameplan_error gameplan_movement_create(const gameplan_map* map, const gameplan_movement_options* options,
                                                       gameplan_movement** out);
/** The same, with `layer_count` weighted cost layers (`layers[i]` with `weights[i]` >= 0 and finite) that
 *  every path search of the system carries: units route around danger (a wolf's den, a battle). The
 *  layers are read live (a value changed affects the searches after it; routes already walked are not
 *  re-planned for it), must be sized for the map (else INVALID_ARGUMENT) and must outlive the system. */
GAMEPLAN_C_API gameplan_error gameplan_movement_create_with_layers(const gameplan_map* map, const gameplan_movement_options* options,
                                                                   const gameplan_layer* const* layers, const double* weights,
                                                                   size_t layer_count, gameplan_movement** out);
GAMEPLAN_C_API void gameplan_movement_destroy(gameplan_movement* movement);
/** Gives the path requests of later `move_to`s the islands' precheck (square islands of the system's map
 *  under its movement rule or a more permissive one; NULL: none): a destination on another island than
 *  the unit fails with GAMEPLAN_MOVE_NO_PATH at the next update, without a search. Keep the
 *  islands current (`gameplan_islands_set_passable`); they must outlive their use. */
GAMEPLAN_C_API gameplan_error gameplan_movement_set_islands(gameplan_movement* movement, const gameplan_islands* islands);
/** 0: the system's path searches go on through cells opening and closing (see
 *  gameplan_request_queue_set_restarts), for maps whose cells change every few ticks; 1 (the default):
 *  every change of passability restarts them. */
GAMEPLAN_C_API gameplan_error gameplan_movement_set_restart_on_passability_change(gameplan_movement* movement, int restart);
/** Pre-sizes for `units` units with routes of up to `path_cells` cells: updates then allocate nothing. */
GAMEPLAN_C_API gameplan_error gameplan_movement_reserve(gameplan_movement* movement, size_t units, size_t path_cells);
/** Adds a unit on `cell`; INVALID_ARGUMENT when the cell is off the map, blocked or taken. */
GAMEPLAN_C_API gameplan_error gameplan_movement_add_unit(gameplan_movement* movement, gameplan_point cell, uint32_t* out);
GAMEPLAN_C_API gameplan_error gameplan_movement_remove_unit(gameplan_movement* movement, uint32_t unit);
/** Sends a unit somewhere. An unreachable-by-definition destination (cell off the map or blocked,
 *  negative radius) is not an error: the unit becomes FAILED with INVALID_GOAL. NOT_FOUND for an
 *  unknown unit. */
GAMEPLAN_C_API gameplan_error gameplan_movement_move_to(gameplan_movement* movement, uint32_t unit,
                                                        gameplan_destination destination);
/** Cancels a unit's walk (it stays where it is, IDLE). */
GAMEPLAN_C_API gameplan_error gameplan_movement_stop(gameplan_movement* movement, uint32_t unit);
/** An anchored unit never moves (others walk around it). */
GAMEPLAN_C_API gameplan_error gameplan_movement_set_anchored(gameplan_movement* movement, uint32_t unit, int anchored);
/** One tick: re-checks, claims, path searches, one collision-free step per unit, statuses. */
GAMEPLAN_C_API gameplan_error gameplan_movement_update(gameplan_movement* movement);
GAMEPLAN_C_API gameplan_error gameplan_movement_unit_info(const gameplan_movement* movement, uint32_t unit,
                                                          gameplan_unit_info* out);
/** Where a unit stands ({-1, -1} for an unknown unit) and its status (IDLE for an unknown unit). */
GAMEPLAN_C_API gameplan_point gameplan_movement_position(const gameplan_movement* movement, uint32_t unit);
GAMEPLAN_C_API gameplan_unit_status gameplan_movement_status(const gameplan_movement* movement, uint32_t unit);
/** The unit on a cell, or UINT32_MAX. */
GAMEPLAN_C_API uint32_t gameplan_movement_occupant(const gameplan_movement* movement, gameplan_point cell);
GAMEPLAN_C_API size_t gameplan_movement_unit_count(const gameplan_movement* movement);
/** One past the largest unit id in use (ids below it may be free). */
GAMEPLAN_C_API size_t gameplan_movement_id_bound(const gameplan_movement* movement);
GAMEPLAN_C_API gameplan_error gameplan_movement_get_stats(const gameplan_movement* movement, gameplan_movement_stats* out);

#ifdef __cplusplus
}
#endif

#endif /* GAMEPLAN_C_GAMEPLAN_H */
