#pragma once
/// @file agent_batch.hpp
/// Executors for planning many agents in parallel: the interface a game implements to lend its own job
/// system, and a small thread pool for games that have none.
///
/// Overview
/// --------
/// `AgentSystem::tick(executor)` splits each tick in two phases. The *think* phase (view refresh,
/// replanning triggers, goal selection, planner searches, context checks, cost functions) is where
/// the time goes, and it only reads shared data: it runs as tasks on an `Executor`, one task per chunk
/// of agents, each worker with its own planner. The *act* phase (behaviours, effects) runs on the
/// calling thread in agent order. Results, traces and every agent's state are identical for any
/// executor and thread count, including none (tested with 1, 2 and 4 threads).
///
/// An executor runs `task_count` tasks, passing each the index of the worker that runs it; a worker
/// runs one task at a time, so per-worker scratch data indexed by it needs no lock. `run` returns when
/// every task has finished.
///
/// Thread-safety: `run` is called from one thread at a time.

#include <cstddef>
#include <functional>
#include <memory>

namespace gameplan::goap {

/// A caller-supplied parallel-for. See the file overview.
class Executor {
public:
    virtual ~Executor() = default;
    /// Number of workers: every task receives a worker index in [0, concurrency()). At least 1.
    [[nodiscard]] virtual std::size_t concurrency() const noexcept = 0;
    /// Runs `task(t, worker)` for every t in [0, task_count) and returns when all have finished. Tasks
    /// may run in any order and concurrently on different workers; tasks must not throw.
    virtual void run(std::size_t task_count, const std::function<void(std::size_t task, std::size_t worker)>& task) = 0;
};

/// A fixed-size pool of worker threads. The calling thread takes part as worker 0, so a pool of N
/// threads starts N - 1 threads and `ThreadPool(1)` runs everything inline.
class ThreadPool final : public Executor {
public:
    /// A pool of `threads` workers (0 = std::thread::hardware_concurrency(), at least 1).
    explicit ThreadPool(std::size_t threads);
    ~ThreadPool() override;
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    [[nodiscard]] std::size_t concurrency() const noexcept override;
    void run(std::size_t task_count, const std::function<void(std::size_t task, std::size_t worker)>& task) override;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

}  // namespace gameplan::goap
