// System calls by kind (core/os/syscall_counts.hpp): exact counts of the
// calling thread, of the threads it starts and of the processes it forks
// while the counter is open, and nothing of the threads that existed before.
#include "core/os/syscall_counts.hpp"

#include <gtest/gtest.h>

#include <string>

#ifdef __linux__
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "test_dir.hpp"
#endif

namespace iobench {
namespace {

TEST(SyscallCounts, TheKindsHaveTheirJsonNames) {
    EXPECT_EQ(to_string(SyscallKind::write), "write");
    EXPECT_EQ(to_string(SyscallKind::read), "read");
    EXPECT_EQ(to_string(SyscallKind::sync), "sync");
    EXPECT_EQ(to_string(SyscallKind::futex), "futex");
    EXPECT_EQ(to_string(SyscallKind::memory), "memory");
    EXPECT_EQ(to_string(SyscallKind::other), "other");
}

TEST(SyscallCounts, BetweenTwoReadsLeavesOutTheCountersOwnReads) {
    SyscallCounts before, after;
    before.all = 100;
    before.by_kind = {10, 20, 0, 1, 5, 0};
    after.all = 100 + 6 + 9;  // the counter's 6 reads, 4 writes, 2 fsyncs, 3 others
    after.by_kind = {14, 20 + 6, 2, 1, 5, 0};
    const SyscallCounts d = counts_between(before, after);
    EXPECT_EQ(d.all, 9.0);
    EXPECT_EQ(d[SyscallKind::write], 4.0);
    EXPECT_EQ(d[SyscallKind::read], 0.0);
    EXPECT_EQ(d[SyscallKind::sync], 2.0);
    EXPECT_EQ(d[SyscallKind::futex], 0.0);
    EXPECT_EQ(d[SyscallKind::memory], 0.0);
    EXPECT_EQ(d[SyscallKind::other], 3.0);
}

#ifdef __linux__

/// Skips the test where this machine cannot count (not root and no tracefs
/// mounted, a kernel without syscall tracepoints), saying why.
#define SKIP_UNLESS_COUNTED()                                                          \
    do {                                                                               \
        if (const std::string why = syscall_counts_unavailable(); !why.empty())        \
            GTEST_SKIP() << why;                                                       \
    } while (false)

TEST(SyscallCounts, EveryCallOfTheThreadIsCountedByItsKind) {
    SKIP_UNLESS_COUNTED();
    test::TempDir dir;
    const std::string path = (dir.path() / "f").string();
    SyscallCounter counter;
    ASSERT_EQ(counter.open(), "");
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);  // other
    ASSERT_GE(fd, 0);
    const auto before = counter.read();
    ASSERT_TRUE(before);
    for (int i = 0; i < 7; ++i) ASSERT_EQ(::write(fd, "x", 1), 1);  // write x 7
    ASSERT_EQ(::fdatasync(fd), 0);                                  // sync
    ASSERT_EQ(::fsync(fd), 0);                                      // sync
    char c;
    ASSERT_EQ(::pread(fd, &c, 1, 0), 1);  // read
    void* p = ::mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);  // memory
    ASSERT_NE(p, MAP_FAILED);
    ASSERT_EQ(::munmap(p, 4096), 0);  // memory
    (void)::getppid();                // other
    const auto after = counter.read();
    ASSERT_TRUE(after);
    ::close(fd);
    const SyscallCounts d = counts_between(*before, *after);
    EXPECT_EQ(d[SyscallKind::write], 7.0);
    EXPECT_EQ(d[SyscallKind::sync], 2.0);
    EXPECT_EQ(d[SyscallKind::read], 1.0);
    EXPECT_EQ(d[SyscallKind::memory], 2.0);
    EXPECT_EQ(d[SyscallKind::futex], 0.0);
    EXPECT_EQ(d[SyscallKind::other], 1.0);
    EXPECT_EQ(d.all, 13.0);
}

TEST(SyscallCounts, ThreadsAndChildrenStartedWhileOpenCountTheThreadsBeforeDoNot) {
    SKIP_UNLESS_COUNTED();
    const int fd = ::open("/proc/self/stat", O_RDONLY | O_CLOEXEC);  // something every thread may read
    ASSERT_GE(fd, 0);
    // A thread started before the counter opened, reading all along.
    std::atomic<bool> stop{false};
    std::thread before_open([&] {
        char c;
        while (!stop.load()) (void)::pread(fd, &c, 1, 0);
    });
    SyscallCounter counter;
    ASSERT_EQ(counter.open(), "");
    const auto before = counter.read();
    ASSERT_TRUE(before);
    std::thread started([&] {
        char c;
        for (int i = 0; i < 50; ++i) (void)::pread(fd, &c, 1, 0);
    });
    started.join();
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        char c;
        for (int i = 0; i < 30; ++i) (void)::pread(fd, &c, 1, 0);
        ::_exit(0);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    const auto after = counter.read();
    ASSERT_TRUE(after);
    stop = true;
    before_open.join();
    ::close(fd);
    EXPECT_EQ(counts_between(*before, *after)[SyscallKind::read], 80.0) << "50 by the thread, 30 by the child";
}

TEST(SyscallCounts, TheContextSaysHowTheyAreCounted) {
    SKIP_UNLESS_COUNTED();
    EXPECT_NE(syscall_counter_description().find("raw_syscalls:sys_enter"), std::string::npos);
}

#else

TEST(SyscallCounts, NotCountedHereSaysWhy) {
    EXPECT_EQ(syscall_counts_unavailable().rfind("not counted: ", 0), 0u) << syscall_counts_unavailable();
    SyscallCounter counter;
    EXPECT_FALSE(counter.open().empty());
    EXPECT_FALSE(counter.is_open());
    EXPECT_FALSE(counter.read());
}

#endif

}  // namespace
}  // namespace iobench
