#pragma once
// Progress lines on standard error for long runs (`scen`, `demo`): one line every few seconds while
// the run lasts, and a last line at the end. Shown when standard error is a terminal, or always with
// `--progress`; never with `--no-progress`. Standard output (and so `--json`) is never touched.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>

namespace gameplan::cli {

/// `--progress` / `--no-progress`: auto (the default) shows progress when stderr is a terminal.
enum class ProgressMode { Auto, Always, Never };

/// Adds the two flags to `cmd`, writing `mode`.
inline void add_progress_flags(CLI::App* cmd, ProgressMode& mode) {
    auto* on = cmd->add_flag_callback("--progress", [&mode] { mode = ProgressMode::Always; },
                                      "Print a progress line on standard error every 2 s (default: only when standard error "
                                      "is a terminal)");
    auto* off = cmd->add_flag_callback("--no-progress", [&mode] { mode = ProgressMode::Never; },
                                       "Print no progress lines");
    on->excludes(off);
}

/// Time-based progress lines. Call `update` from one thread as often as convenient: it costs one clock
/// read, and prints only when `interval` has passed since the last line.
class ProgressLines {
public:
    using Clock = std::chrono::steady_clock;
    ProgressLines(std::string label, std::uint64_t total, ProgressMode mode, std::chrono::milliseconds interval = std::chrono::milliseconds(2000))
        : m_label(std::move(label)),
          m_total(total),
          m_enabled(mode == ProgressMode::Always || (mode == ProgressMode::Auto && isatty(STDERR_FILENO) != 0)),
          m_interval(interval),
          m_start(Clock::now()),
          m_last(m_start) {}

    [[nodiscard]] bool enabled() const noexcept { return m_enabled; }
    /// True when the next `update` would print (for callers whose detail text is costly to build).
    [[nodiscard]] bool due() const { return m_enabled && Clock::now() - m_last >= m_interval; }

    /// `done` of `total` finished; `detail` (optional) is appended to the line.
    void update(std::uint64_t done, const std::string& detail = {}) {
        if (!m_enabled) return;
        const Clock::time_point now = Clock::now();
        if (now - m_last < m_interval) return;
        m_last = now;
        print(done, detail, now);
    }
    /// The last line (once), whatever the time since the previous one.
    void finish(std::uint64_t done, const std::string& detail = {}) {
        if (!m_enabled || m_finished) return;
        m_finished = true;
        print(done, detail, Clock::now());
    }

private:
    void print(std::uint64_t done, const std::string& detail, Clock::time_point now) {
        const double elapsed = std::chrono::duration<double>(now - m_start).count();
        char buf[160];
        if (m_total > 0) {
            const double fraction = static_cast<double>(done) / static_cast<double>(m_total);
            int n = std::snprintf(buf, sizeof buf, "%s: %llu/%llu (%.0f%%), %.1f s", m_label.c_str(),
                                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(m_total), 100.0 * fraction,
                                  elapsed);
            if (done > 0 && done < m_total && n > 0 && static_cast<std::size_t>(n) < sizeof buf)
                std::snprintf(buf + n, sizeof buf - static_cast<std::size_t>(n), ", about %.0f s left",
                              elapsed * (1.0 - fraction) / fraction);
        } else {
            std::snprintf(buf, sizeof buf, "%s: %llu, %.1f s", m_label.c_str(), static_cast<unsigned long long>(done), elapsed);
        }
        std::cerr << buf << (detail.empty() ? "" : ", ") << detail << '\n' << std::flush;
    }

    std::string m_label;
    std::uint64_t m_total;
    bool m_enabled;
    Clock::duration m_interval;
    Clock::time_point m_start, m_last;
    bool m_finished = false;
};

}  // namespace gameplan::cli
