#include <gameplan/path/batch.hpp>

#include <algorithm>

namespace gameplan::path {

BatchPathfinder::BatchPathfinder(unsigned threads) {
    const unsigned count = std::max(1u, threads);
    for (unsigned i = 0; i < count; ++i) m_contexts.push_back(std::make_unique<Context>());
    m_workers.reserve(count - 1);
    for (unsigned i = 1; i < count; ++i) m_workers.emplace_back([this, i] { worker_main(i); });
}

BatchPathfinder::~BatchPathfinder() {
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& worker : m_workers) worker.join();
}

void BatchPathfinder::work(Context& context) noexcept {
    const std::size_t total = m_queries.size();
    const std::size_t max_chunk = std::max<std::uint32_t>(1, m_options.chunk);
    const std::size_t threads = m_contexts.size();
    for (;;) {
        // Guided self-scheduling: claims shrink as the batch drains, so the threads finish together even
        // when the last queries are the expensive ones (scenario files sort them by length).
        const std::size_t seen = m_next.load(std::memory_order_relaxed);
        const std::size_t left = seen < total ? total - seen : 0;
        const std::size_t chunk = std::clamp<std::size_t>(left / (4 * threads), 1, max_chunk);
        const std::size_t first = m_next.fetch_add(chunk, std::memory_order_relaxed);
        if (first >= total) return;
        const std::size_t last = std::min(total, first + chunk);
        for (std::size_t i = first; i < last; ++i) {
            const PathQuery& query = m_queries[i];
            PathQueryResult& result = m_results[i];
            Status status = context.finder.begin(*m_map, query.start, query.goal, m_options.search);
            if (status == Status::InProgress) status = context.finder.step();
            result.status = status;
            result.cost = context.finder.cost();
            result.expanded = context.finder.stats().expanded;
            if (m_options.paths) {
                // Write into the result's own buffer: a batch run again with the same results reuses the
                // capacity each query needed last time, whichever thread runs it now.
                context.path.cells.swap(result.cells);
                (void)context.finder.finish(context.path);
                context.path.cells.swap(result.cells);
            } else {
                result.cells.clear();
            }
        }
    }
}

void BatchPathfinder::worker_main(std::size_t index) {
    Context& context = *m_contexts[index];
    std::uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_job != seen; });
            if (m_stop) return;
            seen = m_job;
        }
        work(context);
        {
            const std::lock_guard lock(m_mutex);
            if (--m_busy == 0) m_done.notify_one();
        }
    }
}

void BatchPathfinder::run(const GridMap& map, std::span<const PathQuery> queries, std::span<PathQueryResult> results,
                          const BatchOptions& options) {
    const std::size_t count = std::min(queries.size(), results.size());
    {
        const std::lock_guard lock(m_mutex);
        m_map = &map;
        m_queries = queries.first(count);
        m_results = results.first(count);
        m_options = options;
        m_next.store(0, std::memory_order_relaxed);
        m_busy = m_workers.size();
        ++m_job;
    }
    m_wake.notify_all();
    work(*m_contexts[0]);
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [&] { return m_busy == 0; });
}

void find_paths_batch(const GridMap& map, std::span<const PathQuery> queries, std::span<PathQueryResult> results,
                      unsigned threads, const BatchOptions& options) {
    BatchPathfinder pool(threads);
    pool.run(map, queries, results, options);
}

}  // namespace gameplan::path
