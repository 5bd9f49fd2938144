// The heap counter and the peak resident set (core/os/memory_use.hpp), in an
// executable of their own built without the sanitizers: a sanitizer's
// runtime owns the allocator, and the hook (glibc's malloc and kin, or
// operator new elsewhere) is only installed where it does not.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/os/memory_use.hpp"
#include "data/checksum.hpp"

namespace iobench {
namespace {

/// Where the tests' blocks go, so that no allocation is elided.
void* volatile kept;

void keep(void* p) { kept = p; }

TEST(HeapCount, IsInstalledInABuildWithoutSanitizers) {
    EXPECT_TRUE(heap_counted());
#if defined(__GLIBC__)
    EXPECT_NE(describe_memory_counters().find("heap: malloc"), std::string::npos) << describe_memory_counters();
#else
    EXPECT_NE(describe_memory_counters().find("heap: operator new"), std::string::npos) << describe_memory_counters();
#endif
}

TEST(HeapCount, CountsEachAllocationOfTheThreadInsideAScopeAndItsBytes) {
    HeapCounts counted;
    {
        HeapCountScope scope(counted);
        for (int k = 0; k < 3; ++k) {
            char* p = new char[1000];
            keep(p);
            delete[] p;
        }
        auto q = std::make_unique<std::string>(300, 'x');  // the string object, then its 300 bytes
        keep(q.get());
    }
    EXPECT_EQ(counted.allocations, 5u);
    EXPECT_GE(counted.bytes, 3000u + 300u);
    EXPECT_LT(counted.bytes, 3000u + 300u + 200u);
}

#if defined(__GLIBC__)
TEST(HeapCount, CountsMallocAndItsKinOnGlibc) {
    HeapCounts counted;
    {
        HeapCountScope scope(counted);
        void* a = std::malloc(100);
        keep(a);
        void* b = std::calloc(10, 20);
        keep(b);
        a = std::realloc(a, 5000);
        keep(a);
        void* c = nullptr;
        ASSERT_EQ(posix_memalign(&c, 64, 128), 0);
        keep(c);
        void* d = aligned_alloc(64, 256);
        keep(d);
        std::free(a);
        std::free(b);
        std::free(c);
        std::free(d);
        // A C library function's own allocation: fopen's FILE.
        std::FILE* f = std::fopen("/proc/self/status", "r");
        ASSERT_TRUE(f);
        std::fclose(f);
    }
    EXPECT_EQ(counted.allocations, 6u);
    EXPECT_GE(counted.bytes, 100u + 200u + 5000u + 128u + 256u);
}
#endif

TEST(HeapCount, CountsNothingOutsideAScope) {
    HeapCounts counted;
    { HeapCountScope scope(counted); }
    for (int k = 0; k < 10; ++k) {
        char* p = new char[100];
        keep(p);
        delete[] p;
    }
    EXPECT_EQ(counted.allocations, 0u);
    EXPECT_EQ(counted.bytes, 0u);
}

TEST(HeapCount, NestedScopesEachGetWhatWasMadeWhileTheyLived) {
    HeapCounts outer, inner;
    {
        HeapCountScope a(outer);
        keep(new char[10]);
        delete[] static_cast<char*>(kept);
        {
            HeapCountScope b(inner);
            keep(new char[20]);
            delete[] static_cast<char*>(kept);
        }
    }
    EXPECT_EQ(inner.allocations, 1u);
    EXPECT_EQ(outer.allocations, 2u);
}

TEST(HeapCount, OtherThreadsAreCountedTogetherAndAThreadInItsScopeIsNot) {
    OtherThreadsHeapCount others;
    HeapCounts own;
    std::thread background([] {
        for (int k = 0; k < 1000; ++k) {
            char* p = new char[64];
            keep(p);
            delete[] p;
        }
    });
    std::thread scoped([&own] {
        HeapCountScope scope(own);
        for (int k = 0; k < 10; ++k) {
            char* p = new char[64];
            keep(p);
            delete[] p;
        }
    });
    background.join();
    scoped.join();
    const HeapCounts seen = others.take();
    EXPECT_EQ(own.allocations, 10u);
    // This thread made the two threads (their state: outside any scope, so
    // counted as another thread's would be) and the background's thousand.
    EXPECT_GE(seen.allocations, 1000u);
    EXPECT_LT(seen.allocations, 1000u + 20u);
    EXPECT_GE(seen.bytes, 64000u);
}

TEST(PeakHeap, IsTheMostInUseAtOnceAboveTheStartInEveryThread) {
    ASSERT_TRUE(heap_peak_tracked());
    char* before = new char[1 << 20];  // in use before: not the peak's, and its free lowers the level
    keep(before);
    PeakHeap peak;
    delete[] before;
    std::thread worker([] {
        std::vector<char*> blocks;
        for (int k = 0; k < 4; ++k) blocks.push_back(new char[1 << 20]);  // 4 MiB at once
        for (char* b : blocks) delete[] b;
        for (int k = 0; k < 4; ++k) {  // 1 MiB at a time: never more
            char* b = new char[1 << 20];
            keep(b);
            delete[] b;
        }
    });
    worker.join();
    const std::uint64_t most = peak.take();
    // 4 MiB above the level after the first free, which is 1 MiB below the
    // start (each block's usable size is what it was asked for and up to a
    // page more: an mmap'ed block's is rounded up to whole pages).
    EXPECT_GE(most, (3u << 20) - (16u << 10));
    EXPECT_LT(most, (3u << 20) + (64u << 10));
    // Nothing is tracked once taken.
    char* after = new char[8 << 20];
    keep(after);
    delete[] after;
    EXPECT_EQ(PeakHeap().take(), 0u);
}

#if defined(__GLIBC__)
TEST(PeakHeap, FollowsReallocAndFree) {
    PeakHeap peak;
    void* p = std::malloc(1000);
    p = std::realloc(p, 1 << 20);  // 1 MiB in use, the 1000 bytes given back
    keep(p);
    std::free(p);
    void* q = std::calloc(1, 512 << 10);
    keep(q);
    std::free(q);
    const std::uint64_t most = peak.take();
    EXPECT_GE(most, 1u << 20);
    EXPECT_LT(most, (1u << 20) + (16u << 10));
}
#endif

TEST(PeakResident, RisesWithMemoryTouchedAndIsResetBeforeARun) {
#if defined(__linux__)
    const std::optional<std::uint64_t> before = reset_peak_resident();
    ASSERT_TRUE(before) << "/proc/self/clear_refs refused";
    constexpr std::size_t size = 64u << 20;
    {
        std::vector<char> block(size);
        std::memset(block.data(), 1, size);  // resident, page by page
        keep(block.data());
    }
    const std::optional<std::uint64_t> peak = peak_resident();
    ASSERT_TRUE(peak);
    EXPECT_GE(*peak, *before + size - (4u << 20));
    // The block is given back (munmap): a reset brings the peak down again.
    const std::optional<std::uint64_t> after = reset_peak_resident();
    ASSERT_TRUE(after);
    EXPECT_LT(*peak_resident(), *before + (16u << 20));
#else
    EXPECT_FALSE(reset_peak_resident());
    EXPECT_FALSE(peak_resident());
    EXPECT_NE(describe_memory_counters().find("peak resident set: unknown"), std::string::npos);
#endif
}

}  // namespace
/// Reading an output back to check it takes its 1 MiB buffer once per
/// thread (check_buffer): after the first check, another allocates only the
/// small things (the open file), never the buffer a leak of the method
/// before it could have made unavailable.
TEST(CheckBuffer, ReadingAnOutputBackTakesTheBigBufferOnce) {
    const auto path = std::filesystem::temp_directory_path() / "iobench-check-buffer-test.bin";
    {
        std::ofstream out(path, std::ios::binary);
        const std::string block(1 << 16, 'x');
        for (int i = 0; i < 48; ++i) out << block;  // 3 MiB: three reads of the buffer
    }
    const Digest first = digest_file(path);
    HeapCounts counts;
    Digest again;
    {
        HeapCountScope scope(counts);
        again = digest_file(path);
    }
    std::filesystem::remove(path);
    EXPECT_EQ(again, first);
    if (heap_counted()) {
        EXPECT_LT(counts.bytes, 64u * 1024) << "a second check allocated its buffer again";
    }
}

}  // namespace iobench
