#include "alloc_counter.hpp"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

#include <malloc.h>  // malloc_usable_size (glibc; AddressSanitizer provides it too)

namespace {
std::atomic<std::uint64_t> g_allocations{0};
std::atomic<std::int64_t> g_live{0};
std::atomic<std::int64_t> g_peak{0};

void count_live(void* p) noexcept {
    const auto bytes = static_cast<std::int64_t>(malloc_usable_size(p));
    const std::int64_t live = g_live.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    std::int64_t peak = g_peak.load(std::memory_order_relaxed);
    while (live > peak && !g_peak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
    }
}

void counted_free(void* p) noexcept {
    if (p != nullptr) g_live.fetch_sub(static_cast<std::int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
    std::free(p);
}

void* counted_alloc(std::size_t size, std::size_t align) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (size == 0) size = 1;
    void* p = nullptr;
    if (align <= alignof(std::max_align_t)) {
        p = std::malloc(size);
    } else {
        p = std::aligned_alloc(align, (size + align - 1) / align * align);
    }
    if (!p) throw std::bad_alloc();
    count_live(p);
    return p;
}
}  // namespace

namespace gameplan::test {
std::uint64_t allocation_count() noexcept { return g_allocations.load(std::memory_order_relaxed); }
std::int64_t live_bytes() noexcept { return g_live.load(std::memory_order_relaxed); }
std::int64_t reset_peak_bytes() noexcept {
    const std::int64_t live = g_live.load(std::memory_order_relaxed);
    g_peak.store(live, std::memory_order_relaxed);
    return live;
}
std::int64_t peak_bytes() noexcept { return g_peak.load(std::memory_order_relaxed); }
}  // namespace gameplan::test

void* operator new(std::size_t size) { return counted_alloc(size, alignof(std::max_align_t)); }
void* operator new[](std::size_t size) { return counted_alloc(size, alignof(std::max_align_t)); }
void* operator new(std::size_t size, std::align_val_t align) { return counted_alloc(size, static_cast<std::size_t>(align)); }
void* operator new[](std::size_t size, std::align_val_t align) { return counted_alloc(size, static_cast<std::size_t>(align)); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    try { return counted_alloc(size, alignof(std::max_align_t)); } catch (...) { return nullptr; }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    try { return counted_alloc(size, alignof(std::max_align_t)); } catch (...) { return nullptr; }
}
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
// The remaining replaceable forms, so that no program needs a sanitizer runtime's own operator new or
// delete (clang links those statically: one of them pulled in beside these would be a duplicate).
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
    try { return counted_alloc(size, static_cast<std::size_t>(align)); } catch (...) { return nullptr; }
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
    try { return counted_alloc(size, static_cast<std::size_t>(align)); } catch (...) { return nullptr; }
}
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { counted_free(p); }
