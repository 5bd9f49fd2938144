// Tests of obuf over hand-off devices (methods/obuf.hpp's handoff_device;
// methods/thread_device.hpp, uring_device.hpp, overlapped_device.hpp): every
// byte in place for tiny to default buffer sizes and 1 to 4 buffers, many
// hand-offs, requests split and resubmitted (the short-write path), and
// errors -- a read-only file, a full device, a file-size limit cutting a
// write short -- reported by the next hand-off or the flush, and every time
// after. The writer thread runs everywhere; io_uring where liburing is built
// (skipped where the kernel refuses it); overlapped WriteFile on Windows.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <iobench/error.hpp>
#include "methods/native_file.hpp"
#include "methods/obuf.hpp"
#include "methods/thread_device.hpp"
#include "test_dir.hpp"

#ifdef IOBENCH_HAVE_LIBURING
#include "methods/uring_device.hpp"
#endif
#ifdef _WIN32
#include "methods/overlapped_device.hpp"
#else
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace iobench {
namespace {

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Writes a mix of put_uint, put and write (empty, small, bigger than any
/// small buffer) through `out`, flushes, and returns the text expected.
template <class Obuf>
std::string write_mix(Obuf& out) {
    std::string expected;
    out.write("header line\n");
    expected += "header line\n";
    std::vector<std::uint64_t> values;
    for (std::uint64_t v = 0; v < 3000; ++v) values.push_back(v);
    std::uint64_t p = 1;
    for (int k = 0; k < 20; ++k) {
        values.push_back(p - 1);
        values.push_back(p);
        if (k < 19) p *= 10;
    }
    values.push_back(UINT64_MAX);
    for (std::uint64_t v : values) {
        out.put_uint(v);
        out.put('\n');
        expected += std::to_string(v) + '\n';
    }
    const std::string big(10000, 'z');
    out.write(big);
    out.write("", 0);
    out.write(nullptr, 0);
    out.put_uint(42);
    expected += big + "42";
    out.flush();
    EXPECT_EQ(out.pending(), 0u);
    return expected;
}

// Each kind of device: how its file is created or opened, and the device
// made over the file's descriptor or handle (`max_request` 0: the device's own).

/// The writer thread over the platform's file (obuf_thread).
struct ThreadKind {
#ifdef _WIN32
    static constexpr const char* write_call = "WriteFile";
#else
    static constexpr const char* write_call = "write";
#endif
    using file_type = native_file;
    using native = decltype(std::declval<native_file&>().get());
    static native_file create(const std::string& path) { return create_native_file(path); }
    static native_file open_read_only(const std::string& path) { return open_native_file(path); }
    static thread_sink_device<native_sink_device> device(native h, const std::string& path, std::size_t buffers,
                                                         std::size_t = 0) {
        return thread_sink_device<native_sink_device>(native_sink_device{h, path}, buffers);
    }
};

#ifdef IOBENCH_HAVE_LIBURING
/// io_uring over a file descriptor, as obuf_io_uring makes it (IOSQE_ASYNC),
/// or with requests tried inline first (Flags 0).
template <unsigned Flags>
struct UringKind {
    static constexpr const char* write_call = "io_uring write";
    using file_type = unique_fd;
    static unique_fd create(const std::string& path) { return create_file(path); }
    static unique_fd open_read_only(const std::string& path) { return open_file(path); }
    static uring_sink_device device(int fd, const std::string& path, std::size_t buffers, std::size_t max_request = 0) {
        return uring_sink_device(fd, path, buffers, Flags, max_request);
    }
};
#endif

#ifdef _WIN32
/// Overlapped WriteFile on a FILE_FLAG_OVERLAPPED handle (WriteFile_overlapped).
struct OverlappedKind {
    static constexpr const char* write_call = "WriteFile";
    using file_type = unique_handle;
    static unique_handle create(const std::string& path) { return create_file_handle(path, FILE_FLAG_OVERLAPPED); }
    static unique_handle open_read_only(const std::string& path) {
        return open_file_handle(path, FILE_FLAG_OVERLAPPED);
    }
    static overlapped_sink_device device(HANDLE h, const std::string& path, std::size_t buffers,
                                         std::size_t max_request = 0) {
        return overlapped_sink_device(h, path, buffers, max_request);
    }
};
#endif

/// Why `Kind`'s device cannot be made here (io_uring refused by the
/// kernel: its unavailable_error), or "" when it can.
template <class Kind>
std::string refusal() {
    try {
        Kind::device(decltype(std::declval<typename Kind::file_type&>().get()){}, "none", 1);
    } catch (const unavailable_error& e) {
        return e.what();
    }
    return "";
}

/// Skips the test when the device cannot be made here.
#define IOBENCH_SKIP_IF_REFUSED(Kind)                                      \
    if (const std::string why = refusal<Kind>(); !why.empty()) GTEST_SKIP() << why

template <class Kind>
class Handoff : public testing::Test {};

using Kinds = testing::Types<ThreadKind
#ifdef IOBENCH_HAVE_LIBURING
                             ,
                             UringKind<IOSQE_ASYNC>, UringKind<0>
#endif
#ifdef _WIN32
                             ,
                             OverlappedKind
#endif
                             >;
TYPED_TEST_SUITE(Handoff, Kinds);

TYPED_TEST(Handoff, EveryByteInPlaceForAnyBufferSizeAndCount) {
    IOBENCH_SKIP_IF_REFUSED(TypeParam);
    test::TempDir dir;
    const std::string path = (dir.path() / "mix.txt").string();
    for (std::size_t buffers : {1u, 2u, 4u}) {
        for (std::size_t size : {1u, 7u, 64u, 4096u, 0u}) {
            SCOPED_TRACE("buffers " + std::to_string(buffers) + ", buffer_size " + std::to_string(size));
            std::string expected;
            auto file = TypeParam::create(path);
            {
                basic_obuf out(TypeParam::device(file.get(), path, buffers), size);
                EXPECT_EQ(out.buffer_size(), size == 0 ? obuf_buffer_size : size);
                expected = write_mix(out);
            }
            file.close();
            const std::string got = read_file(path);
            ASSERT_EQ(got.size(), expected.size());
            ASSERT_TRUE(got == expected);
        }
    }
}

TYPED_TEST(Handoff, ManyHandOffsOfTinyBuffers) {
    IOBENCH_SKIP_IF_REFUSED(TypeParam);
    // 300,000 integers (2 MB) through three 32-byte buffers: 60,000
    // hand-offs, each buffer reused 20,000 times.
    test::TempDir dir;
    const std::string path = (dir.path() / "ints.txt").string();
    std::string expected;
    for (std::uint64_t i = 0; i < 300000; ++i) expected += std::to_string(i) + '\n';
    auto file = TypeParam::create(path);
    {
        basic_obuf out(TypeParam::device(file.get(), path, 3), 32);
        for (std::uint64_t i = 0; i < 300000; ++i) {
            out.put_uint(i);
            out.put('\n');
        }
        out.flush();
    }
    file.close();
    EXPECT_TRUE(read_file(path) == expected);
}

TYPED_TEST(Handoff, DestroyedWithoutFlushStopsItsWritesAndDropsTheRest) {
    IOBENCH_SKIP_IF_REFUSED(TypeParam);
    test::TempDir dir;
    const std::string path = (dir.path() / "dropped.txt").string();
    auto file = TypeParam::create(path);
    {
        basic_obuf out(TypeParam::device(file.get(), path, 4), 64);
        for (int i = 0; i < 1000; ++i) out.write("0123456789abcdef");  // 249 buffers handed off
        EXPECT_EQ(out.pending(), 64u);  // the last one, full, is handed off by the next write
        out.write("lost");
    }  // no flush: what was handed off is written or dropped, and nothing waits forever
    file.close();
    const std::string got = read_file(path);
    EXPECT_LE(got.size(), 16000u);
    EXPECT_EQ(got.find("lost"), std::string::npos);
}

TYPED_TEST(Handoff, AFailedWriteIsReportedByTheNextHandOffsAndEveryFlush) {
    IOBENCH_SKIP_IF_REFUSED(TypeParam);
    test::TempDir dir;
    const std::string path = (dir.path() / "read-only.txt").string();
    TypeParam::create(path).close();
    auto file = TypeParam::open_read_only(path);  // every write fails
    {
        basic_obuf out(TypeParam::device(file.get(), path, 2), 16);
        // Buffer 1 fails in the background; at the latest the third hand-off
        // (which waits for a free buffer, so for the failure) says so.
        int handed_off = 0;
        try {
            for (; handed_off < 100; ++handed_off) out.write("0123456789abcdef");  // one buffer each
            ADD_FAILURE() << "no error after 100 hand-offs";
        } catch (const io_error& e) {
            EXPECT_LE(handed_off, 3);
            EXPECT_NE(std::string(e.what()).find(std::string(TypeParam::write_call) + "(" + path + ")"),
                      std::string::npos)
                << e.what();
            EXPECT_NE(e.code().value(), 0);
        }
        EXPECT_EQ(out.pending(), 0u);  // the bytes of the refused hand-off are dropped
        out.write("more");
        EXPECT_THROW(out.flush(), io_error);  // sticky: the file is incomplete
        EXPECT_THROW(out.flush(), io_error);
    }
    file.close();
    EXPECT_EQ(read_file(path), "");
}

#if defined(IOBENCH_HAVE_LIBURING) || defined(_WIN32)
// The devices that split a buffer into requests themselves: a request
// limited to 1000 bytes makes every 4096-byte buffer a write cut short three
// times, each rest resubmitted at its offset (the path a short write takes).
template <class Kind>
class SplitRequests : public testing::Test {};
using SplitKinds = testing::Types<
#ifdef IOBENCH_HAVE_LIBURING
    UringKind<IOSQE_ASYNC>, UringKind<0>
#else
    OverlappedKind
#endif
    >;
TYPED_TEST_SUITE(SplitRequests, SplitKinds);

TYPED_TEST(SplitRequests, EveryRestResubmittedAtItsOffset) {
    IOBENCH_SKIP_IF_REFUSED(TypeParam);
    test::TempDir dir;
    const std::string path = (dir.path() / "split.txt").string();
    for (std::size_t buffers : {1u, 4u}) {
        SCOPED_TRACE("buffers " + std::to_string(buffers));
        std::string expected;
        auto file = TypeParam::create(path);
        {
            basic_obuf out(TypeParam::device(file.get(), path, buffers, 1000), 4096);
            expected = write_mix(out);
        }
        file.close();
        EXPECT_TRUE(read_file(path) == expected);
    }
}
#endif

#ifndef _WIN32

/// /dev/full opened for writing when it is the character device (never a
/// file someone left there), else -1.
int open_dev_full() {
    struct stat st {};
    if (::lstat("/dev/full", &st) != 0 || !S_ISCHR(st.st_mode)) return -1;
    const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
    if (fd >= 0 && (::fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode))) {
        ::close(fd);
        return -1;
    }
    return fd;
}

TYPED_TEST(Handoff, AFullDiskIsReportedWithTheSystemsMessage) {
    IOBENCH_SKIP_IF_REFUSED(TypeParam);
    const int fd = open_dev_full();
    if (fd < 0) GTEST_SKIP() << "no /dev/full character device here";
    unique_fd full(fd, "/dev/full");
    {
        basic_obuf out(TypeParam::device(full.get(), "/dev/full", 4), 4096);
        try {
            for (int i = 0; i < 100000; ++i) out.put_uint(static_cast<std::uint64_t>(i));
            out.flush();
            ADD_FAILURE() << "no error writing to /dev/full";
        } catch (const io_error& e) {
            EXPECT_EQ(e.code(), std::make_error_code(std::errc::no_space_on_device)) << e.what();
            const std::string what = e.what();
            EXPECT_NE(what.find(std::string(TypeParam::write_call) + "(/dev/full)"), std::string::npos) << what;
            EXPECT_NE(what.find(std::generic_category().message(ENOSPC)), std::string::npos) << what;
        }
    }
}

TYPED_TEST(Handoff, AWriteCutShortByTheFileSizeLimitEndsInEFBIGWithEveryByteBeforeIt) {
    IOBENCH_SKIP_IF_REFUSED(TypeParam);
    // In a child with a 100,000-byte file-size limit and SIGXFSZ ignored (as
    // iobench runs): 300,000 bytes through 4096-byte buffers. The kernel cuts
    // the write across the limit short (1,696 of its bytes); its rest,
    // resubmitted, fails with EFBIG. 0 = as expected; else the failure code.
    test::TempDir dir;
    const std::string path = (dir.path() / "limited.txt").string();
    std::string text;
    for (int i = 0; text.size() < 300000; ++i) text += std::to_string(i) + '\n';
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{100000, 100000};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        int status = 1;  // no error
        try {
            auto file = TypeParam::create(path);
            basic_obuf out(TypeParam::device(file.get(), path, 4), 4096);
            out.write(text);
            out.flush();
        } catch (const io_error& e) {
            status = e.code() == std::error_code(EFBIG, std::generic_category()) ? 0 : 2;
        } catch (...) {
            status = 3;
        }
        ::_exit(status);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: no error, 2: another error than EFBIG, 3: not an io_error";
    const std::string got = read_file(path);
    EXPECT_EQ(got.size(), 100000u);
    EXPECT_TRUE(got == text.substr(0, 100000));
}

#endif

}  // namespace
}  // namespace iobench
