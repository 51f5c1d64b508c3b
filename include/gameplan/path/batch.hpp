#pragma once
/// @file batch.hpp
/// Many path queries on several threads, each thread with its own search context.
///
/// Overview
/// --------
/// `BatchPathfinder` owns a small pool of worker threads (std::thread), each with its own
/// `GridPathfinder`; the calling thread works too, so `threads` = 1 runs everything on the caller with
/// no thread at all. `run` hands out the queries in chunks through one atomic counter (dynamic load
/// balancing: queries differ in cost by orders of magnitude; chunks shrink to single queries as the
/// batch drains, so the threads finish together) and returns when all are answered.
///
/// Determinism. A query's result depends only on the map, the query and the options, never on which
/// thread ran it or what that thread ran before (a `GridPathfinder` clears nothing between queries, but
/// its generation stamps make every query start from the same logical state and its tie-break is
/// fixed). Each result is written to its own slot, so the results are identical to a sequential run,
/// for any thread count and any scheduling (tests/path/batch_test.cpp checks it).
///
/// Throughput. Searches only read the shared map and each thread owns its search state, so threads
/// share nothing but caches and memory bandwidth: CPU-time measurements project 2 threads at about 2x
/// the throughput of 1 on two free cores (docs/scale.md explains how this was measured on a shared,
/// oversubscribed machine, where wall-clock ratios only reflect the OS's share).
///
/// Memory: about 20 bytes per map cell per thread (touched lazily), plus the results' path buffers,
/// which are reused when the same results are passed again (no allocation after warm-up).
///
/// Thread-safety: one `run` at a time per BatchPathfinder; the map must not change during a run.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/status.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace gameplan::path {

/// One query of a batch.
struct PathQuery {
    GridPoint start;  ///< where the path begins
    GridPoint goal;   ///< where it ends
};

/// The answer to one query of a batch.
struct PathQueryResult {
    Status status = Status::NoPath;                         ///< as GridPathfinder::find_path
    double cost = std::numeric_limits<double>::infinity();  ///< path cost, +infinity when not found
    std::uint64_t expanded = 0;                             ///< cells expanded
    std::vector<GridPoint> cells;  ///< the path (only with BatchOptions::paths; buffer reused)
};

/// How a batch runs.
struct BatchOptions {
    GridSearchOptions search{};  ///< rules, heuristic, budget, islands precheck for every query
    bool paths = false;          ///< also write each path's cells (else only status, cost, expansions)
    std::uint32_t chunk = 8;     ///< most queries a thread claims at once (>= 1; fewer near the end)
};

/// A reusable pool of search threads. See the file overview.
class BatchPathfinder {
public:
    /// A pool running batches on `threads` threads in total, the caller included (0 is treated as 1):
    /// starts threads - 1 workers, which wait for work without spinning.
    explicit BatchPathfinder(unsigned threads);
    /// Stops and joins the workers.
    ~BatchPathfinder();
    BatchPathfinder(const BatchPathfinder&) = delete;
    BatchPathfinder& operator=(const BatchPathfinder&) = delete;

    /// Number of threads a batch runs on, the caller included.
    [[nodiscard]] unsigned threads() const noexcept { return static_cast<unsigned>(m_contexts.size()); }

    /// Answers every query of `queries` into the result of the same index; `results` must be at least
    /// as long (extra entries are left alone). Blocks until done. Results are identical to answering the
    /// queries one after another with one GridPathfinder.
    void run(const GridMap& map, std::span<const PathQuery> queries, std::span<PathQueryResult> results,
             const BatchOptions& options = {});

private:
    struct Context {
        GridPathfinder finder;
        GridPath path;
    };
    void work(Context& context) noexcept;
    void worker_main(std::size_t index);

    std::vector<std::unique_ptr<Context>> m_contexts;  // [0] is the caller's
    std::vector<std::thread> m_workers;

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    std::uint64_t m_job = 0;      // bumped per run; workers wait for a new value
    std::size_t m_busy = 0;       // workers still on the current job
    bool m_stop = false;

    // The current job (valid while a run is in progress).
    const GridMap* m_map = nullptr;
    std::span<const PathQuery> m_queries;
    std::span<PathQueryResult> m_results;
    BatchOptions m_options;
    std::atomic<std::size_t> m_next{0};
};

/// One-shot form: answers `queries` into `results` on `threads` threads (creates a BatchPathfinder, so
/// it allocates the per-thread contexts; keep a BatchPathfinder to reuse them).
void find_paths_batch(const GridMap& map, std::span<const PathQuery> queries, std::span<PathQueryResult> results,
                      unsigned threads, const BatchOptions& options = {});

}  // namespace gameplan::path
