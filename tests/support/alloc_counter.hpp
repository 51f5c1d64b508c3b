#pragma once
/// Counting allocator hook for tests: link `gameplan_test_alloc` into a test executable and the global
/// operator new/delete are replaced by versions that count calls. Use AllocationScope to assert that a
/// region of code performs no heap allocation.
#include <cstdint>

namespace gameplan::test {
/// Number of calls to any global operator new since program start (all threads).
std::uint64_t allocation_count() noexcept;

/// Bytes held through global operator new (their usable sizes, all threads), and the most held since the
/// last `reset_peak_bytes()` (which returns what is held then).
std::int64_t live_bytes() noexcept;
std::int64_t reset_peak_bytes() noexcept;
std::int64_t peak_bytes() noexcept;

/// The most bytes held at once, above what was held at construction, until `peak()`.
class PeakScope {
public:
    PeakScope() noexcept : m_start(reset_peak_bytes()) {}
    [[nodiscard]] std::int64_t peak() const noexcept { return peak_bytes() - m_start; }

private:
    std::int64_t m_start;
};

/// Counts allocations made between construction and `count()`.
class AllocationScope {
public:
    AllocationScope() noexcept : m_start(allocation_count()) {}
    [[nodiscard]] std::uint64_t count() const noexcept { return allocation_count() - m_start; }

private:
    std::uint64_t m_start;
};
}  // namespace gameplan::test
