#pragma once
/// Counting allocator hook for tests: link `gameplan_test_alloc` into a test executable and the global
/// operator new/delete are replaced by versions that count calls. Use AllocationScope to assert that a
/// region of code performs no heap allocation.
#include <cstdint>

namespace gameplan::test {
/// Number of calls to any global operator new since program start (all threads).
std::uint64_t allocation_count() noexcept;

/// Counts allocations made between construction and `count()`.
class AllocationScope {
public:
    AllocationScope() noexcept : m_start(allocation_count()) {}
    [[nodiscard]] std::uint64_t count() const noexcept { return allocation_count() - m_start; }

private:
    std::uint64_t m_start;
};
}  // namespace gameplan::test
