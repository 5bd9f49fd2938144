// What a per-call row's method costs in memory (issue: heap allocations per
// item and peak resident memory per method, after Google Benchmark's
// MemoryManager): heap allocations counted by a hook in this program, and the
// process's peak resident set read from the operating system.
//
//  figure          Linux (glibc)                           Windows
//  allocations     malloc, calloc, realloc, memalign,      operator new (C++ code; what C
//                  aligned_alloc, posix_memalign defined   code mallocs is not seen)
//                  here, forwarding to glibc's (operator
//                  new calls malloc: counted too)
//  peak heap       the same, and free: each block's        operator new and delete, each
//                  malloc_usable_size added and taken      block's _msize
//                  away
//  peak resident   VmHWM of /proc/self/status after "5"    unknown (the peak working set
//                  is written to /proc/self/clear_refs     cannot be reset)
//                  (the peak reset to the current RSS)
//
// Other C libraries count operator new, and know no peak heap.
//
// A build with AddressSanitizer counts no allocation (its runtime owns
// malloc and operator new): the figures are unknown there, and a figure
// that is unknown is left out of a row, never reported as 0.
//
// Counting costs a thread-local test per allocation: a thread counts into
// its own counters inside a HeapCountScope, and every other thread (a
// method's own threads) into shared atomics while an OtherThreadsHeapCount
// lives; otherwise nothing is counted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace iobench {

/// Heap allocations: how many calls, and the bytes they asked for.
struct HeapCounts {
    std::uint64_t allocations = 0;
    std::uint64_t bytes = 0;

    HeapCounts& operator+=(const HeapCounts& o) {
        allocations += o.allocations;
        bytes += o.bytes;
        return *this;
    }
};

/// True when this build counts allocations (the hook above is installed).
bool heap_counted();

/// Counts the allocations the calling thread makes while it lives, and adds
/// them to `into` when it ends. Scopes may nest (each adds what was made
/// while it lived); `into` must outlive the scope.
class HeapCountScope {
public:
    explicit HeapCountScope(HeapCounts& into);
    ~HeapCountScope();
    HeapCountScope(const HeapCountScope&) = delete;
    HeapCountScope& operator=(const HeapCountScope&) = delete;

private:
    HeapCounts& into_;
    HeapCounts start_;
    bool was_counting_;
};

/// What the calling thread has counted so far (inside HeapCountScopes):
/// the difference of two readings is what it allocated between them (a
/// per-call row takes its arguments' allocations out this way).
HeapCounts this_thread_heap_counts() noexcept;

/// Counts the allocations of every thread that is not inside a
/// HeapCountScope (a method's own threads: a background writer), from
/// construction to take(). One at a time.
class OtherThreadsHeapCount {
public:
    OtherThreadsHeapCount();
    ~OtherThreadsHeapCount();
    OtherThreadsHeapCount(const OtherThreadsHeapCount&) = delete;
    OtherThreadsHeapCount& operator=(const OtherThreadsHeapCount&) = delete;
    /// What those threads allocated since construction; counting stops.
    HeapCounts take();

private:
    HeapCounts start_;
    bool counting_ = true;
};

/// True when this build tracks the heap in use (PeakHeap below).
bool heap_peak_tracked();

/// The most heap memory in use at once while it lives, above what was in
/// use when it began: every thread's blocks, by their usable size (what the
/// allocator gave, at least what was asked). Tracking costs an atomic add per
/// allocation and free, so a per-call row tracks it in an untimed run of its
/// own. One at a time; nothing is tracked where heap_peak_tracked() is false.
class PeakHeap {
public:
    PeakHeap();
    ~PeakHeap();
    PeakHeap(const PeakHeap&) = delete;
    PeakHeap& operator=(const PeakHeap&) = delete;
    /// The peak so far, in bytes; tracking stops.
    std::uint64_t take();

private:
    bool tracking_ = true;
};

/// Resets the process's peak resident set to its current size, and returns
/// that size in bytes; nothing when the platform cannot (see above).
std::optional<std::uint64_t> reset_peak_resident();

/// The process's peak resident set since the last reset_peak_resident (or
/// since it started), in bytes; nothing where unknown.
std::optional<std::uint64_t> peak_resident();

/// The JSON context's `memory_counters`: what the per-call rows' heap and
/// resident-memory figures are here, or why they are unknown.
std::string describe_memory_counters();

}  // namespace iobench
