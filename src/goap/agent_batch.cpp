// A small thread pool implementing Executor: the caller is worker 0, the pool's threads are 1..N-1.
#include <gameplan/goap/agent_batch.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace gameplan::goap {

struct ThreadPool::State {
    std::size_t workers = 1;
    std::vector<std::thread> threads;
    std::mutex mutex;
    std::condition_variable start;
    std::condition_variable done;
    // The current job. `generation` tells sleeping threads a new job arrived; `busy` counts pool
    // threads still inside it, so run() returns only when none can touch `task` any more.
    const std::function<void(std::size_t, std::size_t)>* task = nullptr;
    std::size_t task_count = 0;
    std::atomic<std::size_t> next{0};
    std::uint64_t generation = 0;
    std::size_t busy = 0;
    bool stop = false;

    void work(std::size_t worker) {
        for (std::size_t t = next.fetch_add(1, std::memory_order_relaxed); t < task_count;
             t = next.fetch_add(1, std::memory_order_relaxed))
            (*task)(t, worker);
    }

    void loop(std::size_t worker) {
        std::uint64_t seen = 0;
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(mutex);
                start.wait(lock, [&] { return stop || generation != seen; });
                if (stop) return;
                seen = generation;
            }
            work(worker);
            {
                const std::lock_guard<std::mutex> lock(mutex);
                if (--busy == 0) done.notify_one();
            }
        }
    }
};

ThreadPool::ThreadPool(std::size_t threads) : m_state(std::make_unique<State>()) {
    if (threads == 0) threads = std::max<std::size_t>(1, std::thread::hardware_concurrency());
    m_state->workers = threads;
    m_state->threads.reserve(threads - 1);
    for (std::size_t w = 1; w < threads; ++w) m_state->threads.emplace_back([s = m_state.get(), w] { s->loop(w); });
}

ThreadPool::~ThreadPool() {
    {
        const std::lock_guard<std::mutex> lock(m_state->mutex);
        m_state->stop = true;
    }
    m_state->start.notify_all();
    for (std::thread& t : m_state->threads) t.join();
}

std::size_t ThreadPool::concurrency() const noexcept { return m_state->workers; }

void ThreadPool::run(std::size_t task_count, const std::function<void(std::size_t, std::size_t)>& task) {
    State& s = *m_state;
    if (task_count == 0) return;
    if (s.threads.empty() || task_count == 1) {
        for (std::size_t t = 0; t < task_count; ++t) task(t, 0);
        return;
    }
    {
        const std::lock_guard<std::mutex> lock(s.mutex);
        s.task = &task;
        s.task_count = task_count;
        s.next.store(0, std::memory_order_relaxed);
        s.busy = s.threads.size();
        ++s.generation;
    }
    s.start.notify_all();
    s.work(0);
    std::unique_lock<std::mutex> lock(s.mutex);
    s.done.wait(lock, [&] { return s.busy == 0; });
    s.task = nullptr;
}

}  // namespace gameplan::goap
