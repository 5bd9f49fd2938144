#include "core/os/memory_use.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define IOBENCH_SANITIZED_HEAP 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define IOBENCH_SANITIZED_HEAP 1
#endif

#if !defined(IOBENCH_SANITIZED_HEAP)
#if defined(__GLIBC__)
#define IOBENCH_HEAP_HOOK_MALLOC 1  // malloc and its kin, defined below
#define IOBENCH_HEAP_PEAK 1         // their blocks sized by malloc_usable_size
#else
#define IOBENCH_HEAP_HOOK_NEW 1  // operator new, defined below
#if defined(_WIN32)
#define IOBENCH_HEAP_PEAK 1  // its blocks sized by _msize
#endif
#endif
#endif

#if defined(__linux__)
#include <fcntl.h>
#include <unistd.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>  // malloc_usable_size
#endif
#if defined(_WIN32)
#include <malloc.h>  // _msize
#endif
#include <algorithm>

namespace iobench {

namespace {

/// One thread's counts, and whether it counts them (inside a HeapCountScope).
/// Zero-initialized static storage, so reaching it allocates nothing: the
/// initial-exec model keeps even a first access away from the allocator.
struct ThreadHeap {
    std::uint64_t allocations;
    std::uint64_t bytes;
    bool counting;
};

#if defined(__GNUC__) && !defined(_WIN32)
__attribute__((tls_model("initial-exec")))
#endif
constinit thread_local ThreadHeap thread_heap{0, 0, false};

/// Every other thread's counts, while an OtherThreadsHeapCount lives.
constinit std::atomic<bool> others_counting{false};
constinit std::atomic<std::uint64_t> others_allocations{0};
constinit std::atomic<std::uint64_t> others_bytes{0};

/// Notes one allocation of `n` bytes where it belongs (or nowhere).
inline void note_allocation(std::size_t n) noexcept {
    ThreadHeap& t = thread_heap;
    if (t.counting) {
        ++t.allocations;
        t.bytes += n;
    } else if (others_counting.load(std::memory_order_relaxed)) {
        others_allocations.fetch_add(1, std::memory_order_relaxed);
        others_bytes.fetch_add(n, std::memory_order_relaxed);
    }
}

/// The heap in use while a PeakHeap lives: bytes of the blocks allocated
/// since it began less those freed, and the most of it.
constinit std::atomic<bool> heap_tracking{false};
constinit std::atomic<std::int64_t> heap_in_use{0};
constinit std::atomic<std::int64_t> heap_peak{0};

/// A block of `usable` bytes was allocated.
inline void track_allocated(std::size_t usable) noexcept {
    if (!heap_tracking.load(std::memory_order_relaxed)) return;
    const auto size = static_cast<std::int64_t>(usable);
    const std::int64_t now = heap_in_use.fetch_add(size, std::memory_order_relaxed) + size;
    std::int64_t peak = heap_peak.load(std::memory_order_relaxed);
    while (now > peak && !heap_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
}

/// A block of `usable` bytes is freed.
inline void track_freed(std::size_t usable) noexcept {
    if (heap_tracking.load(std::memory_order_relaxed))
        heap_in_use.fetch_sub(static_cast<std::int64_t>(usable), std::memory_order_relaxed);
}

/// Whether a PeakHeap lives (checked before a block is sized).
inline bool tracking_heap() noexcept { return heap_tracking.load(std::memory_order_relaxed); }

HeapCounts others_now() {
    return {others_allocations.load(std::memory_order_relaxed), others_bytes.load(std::memory_order_relaxed)};
}

}  // namespace

bool heap_counted() {
#if defined(IOBENCH_HEAP_HOOK_MALLOC) || defined(IOBENCH_HEAP_HOOK_NEW)
    return true;
#else
    return false;
#endif
}

HeapCounts this_thread_heap_counts() noexcept { return {thread_heap.allocations, thread_heap.bytes}; }

HeapCountScope::HeapCountScope(HeapCounts& into)
    : into_(into), start_{thread_heap.allocations, thread_heap.bytes}, was_counting_(thread_heap.counting) {
    thread_heap.counting = true;
}

HeapCountScope::~HeapCountScope() {
    into_.allocations += thread_heap.allocations - start_.allocations;
    into_.bytes += thread_heap.bytes - start_.bytes;
    thread_heap.counting = was_counting_;
}

OtherThreadsHeapCount::OtherThreadsHeapCount() : start_(others_now()) {
    others_counting.store(true, std::memory_order_relaxed);
}

OtherThreadsHeapCount::~OtherThreadsHeapCount() {
    if (counting_) others_counting.store(false, std::memory_order_relaxed);
}

HeapCounts OtherThreadsHeapCount::take() {
    // The threads counted are joined, or hand their work over through a
    // lock, before take(): what they counted is visible here.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const HeapCounts now = others_now();
    others_counting.store(false, std::memory_order_relaxed);
    counting_ = false;
    return {now.allocations - start_.allocations, now.bytes - start_.bytes};
}

bool heap_peak_tracked() {
#if defined(IOBENCH_HEAP_PEAK)
    return true;
#else
    return false;
#endif
}

PeakHeap::PeakHeap() {
    heap_in_use.store(0, std::memory_order_relaxed);
    heap_peak.store(0, std::memory_order_relaxed);
    heap_tracking.store(true, std::memory_order_seq_cst);
}

PeakHeap::~PeakHeap() {
    if (tracking_) heap_tracking.store(false, std::memory_order_relaxed);
}

std::uint64_t PeakHeap::take() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    heap_tracking.store(false, std::memory_order_relaxed);
    tracking_ = false;
    return static_cast<std::uint64_t>(std::max<std::int64_t>(heap_peak.load(std::memory_order_relaxed), 0));
}

#if defined(__linux__)
namespace {

/// The value in kB of `field` ("VmHWM:") in /proc/self/status, in bytes.
std::optional<std::uint64_t> status_bytes(const char* field) {
    const int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    char text[8192];
    std::size_t size = 0;
    for (;;) {
        const ssize_t n = ::read(fd, text + size, sizeof text - 1 - size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        size += static_cast<std::size_t>(n);
        if (size == sizeof text - 1) break;
    }
    ::close(fd);
    text[size] = '\0';
    const char* at = std::strstr(text, field);
    if (!at) return std::nullopt;
    char* end = nullptr;
    const unsigned long long kb = std::strtoull(at + std::strlen(field), &end, 10);
    if (end == at + std::strlen(field)) return std::nullopt;
    return static_cast<std::uint64_t>(kb) * 1024;
}

/// Writes "5" to /proc/self/clear_refs: the peak resident set becomes the
/// current one (Linux 4.0 and later; proc(5)). False where refused.
bool clear_peak() {
    const int fd = ::open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::write(fd, "5", 1) == 1;
    ::close(fd);
    return ok;
}

}  // namespace

std::optional<std::uint64_t> reset_peak_resident() {
    if (!clear_peak()) return std::nullopt;
    return status_bytes("VmRSS:");
}

std::optional<std::uint64_t> peak_resident() { return status_bytes("VmHWM:"); }

#else

std::optional<std::uint64_t> reset_peak_resident() { return std::nullopt; }
std::optional<std::uint64_t> peak_resident() { return std::nullopt; }

#endif

std::string describe_memory_counters() {
    std::string heap;
#if defined(IOBENCH_HEAP_HOOK_MALLOC)
    heap = "heap: malloc, calloc, realloc, memalign, aligned_alloc and posix_memalign counted (operator new "
           "included), in every thread; peak heap: blocks in use by malloc_usable_size, in an untimed run before "
           "the timed ones";
#elif defined(IOBENCH_HEAP_HOOK_NEW) && defined(IOBENCH_HEAP_PEAK)
    heap = "heap: operator new counted, in every thread (what C code mallocs, and what a plugin DLL allocates with "
           "its own C++ runtime, is not seen here); peak heap: its blocks in use by _msize, in an untimed run "
           "before the timed ones";
#elif defined(IOBENCH_HEAP_HOOK_NEW)
    heap = "heap: operator new counted, in every thread (what C code mallocs is not seen here); peak heap: unknown";
#else
    heap = "heap: unknown (a sanitizer's runtime owns the allocator in this build)";
#endif
    const bool resident = reset_peak_resident().has_value();
    return heap + (resident ? "; peak resident set: VmHWM of /proc/self/status in that untimed run, the peak "
                              "reset (/proc/self/clear_refs) first"
                            : "; peak resident set: unknown here (it cannot be reset before a run)");
}

}  // namespace iobench

// --- the hook ------------------------------------------------------------------
//
// glibc: the program's own malloc and kin, which glibc and every library
// call (the GNU C library's manual, "Replacing malloc"), each noting the
// allocation and forwarding to glibc's allocator through its exported
// __libc_* entry points, so that free, malloc_usable_size and the rest stay
// glibc's and agree with every block. Elsewhere: the replaceable operator new
// ([new.delete.single]); its array and nothrow forms call it.

#if defined(IOBENCH_HEAP_HOOK_MALLOC)

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);

void __libc_free(void*);
}

namespace {
/// A block `p` from glibc's allocator, of `n` bytes asked for.
inline void* allocated(void* p, std::size_t n) noexcept {
    iobench::note_allocation(n);
    if (p && iobench::tracking_heap()) iobench::track_allocated(malloc_usable_size(p));
    return p;
}
}  // namespace

extern "C" {
void* malloc(std::size_t n) noexcept { return allocated(__libc_malloc(n), n); }

void* calloc(std::size_t count, std::size_t size) noexcept {
    return allocated(__libc_calloc(count, size), count * size);
}

void* realloc(void* p, std::size_t n) noexcept {
    if (p && n == 0) {  // glibc frees the block
        free(p);
        return nullptr;
    }
    const std::size_t old = p && iobench::tracking_heap() ? malloc_usable_size(p) : 0;
    void* q = __libc_realloc(p, n);
    if (!q) return nullptr;  // the old block stays as it was
    iobench::track_freed(old);
    return allocated(q, n);
}

void free(void* p) noexcept {
    if (p && iobench::tracking_heap()) iobench::track_freed(malloc_usable_size(p));
    __libc_free(p);
}

void* memalign(std::size_t alignment, std::size_t n) noexcept {
    return allocated(__libc_memalign(alignment, n), n);
}

void* aligned_alloc(std::size_t alignment, std::size_t n) noexcept {
    return allocated(__libc_memalign(alignment, n), n);
}

int posix_memalign(void** out, std::size_t alignment, std::size_t n) noexcept {
    if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void* p = allocated(__libc_memalign(alignment, n), n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
}

#elif defined(IOBENCH_HEAP_HOOK_NEW)

void* operator new(std::size_t n) {
    iobench::note_allocation(n);
    for (;;) {
        if (void* p = std::malloc(n == 0 ? 1 : n)) {
#if defined(IOBENCH_HEAP_PEAK)
            if (iobench::tracking_heap()) iobench::track_allocated(_msize(p));
#endif
            return p;
        }
        std::new_handler handler = std::get_new_handler();
        if (!handler) throw std::bad_alloc();
        handler();
    }
}

void operator delete(void* p) noexcept {
#if defined(IOBENCH_HEAP_PEAK)
    if (p && iobench::tracking_heap()) iobench::track_freed(_msize(p));
#endif
    std::free(p);
}

void operator delete(void* p, std::size_t) noexcept { operator delete(p); }

#endif
