// Tests of ibuf over read-ahead devices (methods/ibuf.hpp's readahead_device;
// methods/thread_source_device.hpp, uring_source_device.hpp): every number
// read back for tiny to default buffer sizes and 2 to 4 buffers; an empty
// file, a file of an exact multiple of the buffer, numbers split across two
// buffers at every offset, reads cut short (the resubmission path); a read
// error reported after the bytes before it, every time after; and the reader
// thread joined on every path (an error, a parse error mid-file, destroyed
// while reading ahead). The reader thread runs everywhere; io_uring where
// liburing is built (skipped where the kernel refuses it).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <set>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <iobench/error.hpp>
#include "methods/ibuf.hpp"
#include "methods/native_file.hpp"
#include "methods/thread_source_device.hpp"
#include "test_dir.hpp"

#ifdef IOBENCH_HAVE_LIBURING
#include "methods/uring_source_device.hpp"
#endif

namespace iobench {
namespace {

void write_text(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

/// The numbers 0, 7, 14, ... as text, one per line and some separated by
/// spaces: 1 to 9 digits, so that small buffers cut them at every offset.
std::pair<std::string, std::vector<std::uint64_t>> sample(std::uint64_t count) {
    std::string text;
    std::vector<std::uint64_t> values;
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t x = i * i * 13 + i;
        values.push_back(x);
        text += std::to_string(x) + (i % 3 == 0 ? " " : "\n");
    }
    return {text, values};
}

/// The reader thread over the platform's file (ibuf_thread).
struct ThreadKind {
    static constexpr const char* read_call = "read";
    using file_type = native_file;
    using native = decltype(std::declval<native_file&>().get());
    static thread_source_device<native_source_device> device(native h, const std::string& path, std::size_t buffers,
                                                             std::size_t = 0) {
        return thread_source_device<native_source_device>(native_source_device{h, path}, buffers);
    }
};

#ifdef IOBENCH_HAVE_LIBURING
/// io_uring over a file descriptor, as ibuf_io_uring makes it (IOSQE_ASYNC),
/// or with requests tried inline first (Flags 0).
template <unsigned Flags>
struct UringKind {
    static constexpr const char* read_call = "io_uring read";
    using file_type = unique_fd;
    static uring_source_device device(int fd, const std::string& path, std::size_t buffers,
                                      std::size_t max_request = 0) {
        return uring_source_device(fd, path, buffers, Flags, max_request);
    }
};
#endif

/// Why `Kind`'s device cannot be made here (io_uring refused by the
/// kernel: its unavailable_error), or "" when it can.
template <class Kind>
std::string refusal() {
    try {
        Kind::device(decltype(std::declval<typename Kind::file_type&>().get()){}, "none", 2);
    } catch (const unavailable_error& e) {
        return e.what();
    }
    return "";
}

#define IOBENCH_SKIP_IF_REFUSED(Kind) \
    if (const std::string why = refusal<Kind>(); !why.empty()) GTEST_SKIP() << why

/// Every number of `path` through an ibuf of `buffer_size` bytes over Kind's
/// device with `buffers` buffers (get_uints of 100 at a time, or get_uint).
template <class Kind>
std::vector<std::uint64_t> read_all(const std::string& path, std::size_t buffer_size, std::size_t buffers,
                                    bool one_at_a_time = false, std::size_t max_request = 0) {
    native_file file = open_native_file(path);
    basic_ibuf in(Kind::device(file.get(), path, buffers, max_request), buffer_size);
    std::vector<std::uint64_t> values;
    if (one_at_a_time) {
        std::uint64_t v = 0;
        while (in.get_uint(v)) values.push_back(v);
    } else {
        std::uint64_t block[100];
        while (const std::size_t n = in.get_uints(block)) values.insert(values.end(), block, block + n);
    }
    std::uint64_t v = 0;
    EXPECT_FALSE(in.get_uint(v)) << "a number after the end";
    return values;
}

#if defined(__linux__)
/// The ids of this process's threads now (/proc/self/task), but io_uring's
/// io-wq workers ("iou-wrk-<pid>", "iou-sqp-<pid>": the kernel's, ending on
/// their own after the ring is gone).
std::set<std::string> thread_ids() {
    std::set<std::string> ids;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream comm(entry.path() / "comm");
        std::string name;
        std::getline(comm, name);
        if (name.rfind("iou-", 0) != 0) ids.insert(entry.path().filename().string());
    }
    return ids;
}

/// How many threads not among `before` (thread_ids() at a test's start) are
/// still listed: once none is, or after 2 s of asking every millisecond. A
/// joined thread's task can stay listed a moment after pthread_join returns
/// (the kernel, and qemu-user, which wakes the joiner before its own host
/// thread ends, clear the thread's id before the task is gone), and a thread
/// of an earlier test can end during this one: counting all threads failed
/// both ways in `.ci/run` (under qemu 3 for 2; in a sanitized shard 1 for 2).
/// A thread still running after its device is gone stays listed and is counted.
std::size_t threads_left_since(const std::set<std::string>& before) {
    const auto left = [&before] {
        std::size_t n = 0;
        for (const std::string& id : thread_ids()) n += before.count(id) == 0 ? 1 : 0;
        return n;
    };
    std::size_t n = left();
    for (int i = 0; i < 2000 && n != 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        n = left();
    }
    return n;
}
#endif

template <class Kind>
class Readahead : public testing::Test {};

using Kinds = testing::Types<ThreadKind
#ifdef IOBENCH_HAVE_LIBURING
                             ,
                             UringKind<IOSQE_ASYNC>, UringKind<0>
#endif
                             >;
TYPED_TEST_SUITE(Readahead, Kinds);

TYPED_TEST(Readahead, EveryNumberForEveryBufferSizeAndCount) {
    IOBENCH_SKIP_IF_REFUSED(TypeParam);
    test::TempDir dir;
    const std::string path = (dir.path() / "numbers.txt").string();
    const auto [text, expected] = sample(3000);
    write_text(path, text);
    for (std::size_t size : {1u, 2u, 7u, 64u, 4096u, 0u})
        for (std::size_t buffers : {2u, 3u, 4u}) {
            SCOPED_TRACE("buffer " + std::to_string(size) + " x " + std::to_string(buffers));
            EXPECT_EQ(read_all<TypeParam>(path, size, buffers), expected);
        }
    EXPECT_EQ(read_all<TypeParam>(path, 64, 4, true), expected);  // get_uint: its own refill path
}

TYPED_TEST(Readahead, NumbersSplitAcrossTwoBuffersAtEveryOffset) {
    IOBENCH_SKIP_IF_REFUSED(TypeParam);
    test::TempDir dir;
    const std::string path = (dir.path() / "split.txt").string();
    const auto [text, expected] = sample(400);
    write_text(path, text);
    for (std::size_t size = 1; size <= 13; ++size) {
        SCOPED_TRACE("buffer " + std::to_string(size));
        EXPECT_EQ(read_all<TypeParam>(path, size, 3), expected);
    }
    // "12345678" with 4-byte buffers: each half in a buffer of its own.
    write_text(path, "12345678\n");
    EXPECT_EQ(read_all<TypeParam>(path, 4, 2), std::vector<std::uint64_t>{12345678});
}

TYPED_TEST(Readahead, EmptyFileAndExactMultiplesOfTheBuffer) {
    IOBENCH_SKIP_IF_REFUSED(TypeParam);
    test::TempDir dir;
    const std::string path = (dir.path() / "edges.txt").string();
    write_text(path, "");
    EXPECT_EQ(read_all<TypeParam>(path, 64, 4), std::vector<std::uint64_t>{});
    write_text(path, "\n \n");
    EXPECT_EQ(read_all<TypeParam>(path, 64, 4), std::vector<std::uint64_t>{});
    // 16 lines of 8 bytes: 128 bytes, 2 buffers of 64 (then a read of 0);
    // 4 buffers of 32; 1 of 128; and no final newline.
    std::string text;
    std::vector<std::uint64_t> expected;
    for (std::uint64_t i = 0; i < 16; ++i) {
        text += std::to_string(1000000 + i) + '\n';
        expected.push_back(1000000 + i);
    }
    write_text(path, text);
    for (std::size_t size : {32u, 64u, 128u})
        for (std::size_t buffers : {2u, 4u}) {
            SCOPED_TRACE("buffer " + std::to_string(size) + " x " + std::to_string(buffers));
            EXPECT_EQ(read_all<TypeParam>(path, size, buffers), expected);
        }
    text.back() = '7';  // "10000157": the last number ends at the end of a buffer and of the file
    expected.back() = 10000157;
    write_text(path, text);
    EXPECT_EQ(read_all<TypeParam>(path, 64, 2), expected);
}

#if !defined(_WIN32)
TYPED_TEST(Readahead, AReadErrorIsAnIoErrorEveryTime) {
    IOBENCH_SKIP_IF_REFUSED(TypeParam);
    test::TempDir dir;
    const std::string path = (dir.path() / "write-only.txt").string();
    write_text(path, "1 2 3\n");
#if defined(__linux__)
    const std::set<std::string> threads = thread_ids();
#endif
    {
        unique_fd file = create_file(path);  // not open for reading: every read fails with EBADF
        basic_ibuf in(TypeParam::device(file.get(), path, 4), 64);
        std::uint64_t v = 0;
        for (int i = 0; i < 3; ++i) {
            try {
                in.get_uint(v);
                ADD_FAILURE() << "no io_error";
            } catch (const io_error& e) {
                EXPECT_NE(std::string(e.what()).find(std::string(TypeParam::read_call) + "(" + path + ")"),
                          std::string::npos)
                    << e.what();
                EXPECT_EQ(e.code(), std::errc::bad_file_descriptor) << e.what();
            }
        }
    }
#if defined(__linux__)
    EXPECT_EQ(threads_left_since(threads), 0u) << "a reader thread outlived its device";
#endif
}
#endif

#if defined(__linux__)
TYPED_TEST(Readahead, AParseErrorMidFileStopsTheReadingAndJoins) {
    IOBENCH_SKIP_IF_REFUSED(TypeParam);
    test::TempDir dir;
    const std::string path = (dir.path() / "bad.txt").string();
    auto [text, expected] = sample(20000);
    text += "x\n" + text;  // the reader is buffers ahead when the parser stops
    write_text(path, text);
    const std::set<std::string> threads = thread_ids();
    EXPECT_THROW(read_all<TypeParam>(path, 64, 4), parse_error);
    EXPECT_THROW(read_all<TypeParam>(path, 0, 4), parse_error);
    {  // destroyed after one number, with every other buffer read or being read
        native_file file = open_native_file(path);
        basic_ibuf in(TypeParam::device(file.get(), path, 4), 16);
        std::uint64_t v = 0;
        ASSERT_TRUE(in.get_uint(v));
        EXPECT_EQ(v, 0u);
    }
    EXPECT_EQ(threads_left_since(threads), 0u) << "a reader thread outlived its device";
}
#endif

#ifdef IOBENCH_HAVE_LIBURING
TEST(ReadaheadUring, ShortRequestsAreResubmittedForTheRest) {
    IOBENCH_SKIP_IF_REFUSED(UringKind<IOSQE_ASYNC>);
    test::TempDir dir;
    const std::string path = (dir.path() / "numbers.txt").string();
    const auto [text, expected] = sample(3000);
    write_text(path, text);
    // Requests of at most 5 bytes: every 64-byte buffer is read in 13.
    EXPECT_EQ(read_all<UringKind<IOSQE_ASYNC>>(path, 64, 4, false, 5), expected);
    EXPECT_EQ(read_all<UringKind<0>>(path, 4096, 3, false, 1000), expected);
}
#endif

/// A source that hands out `good` reads of `text` (at most `max_read`
/// bytes each), then fails every read with EIO.
struct failing_source {
    std::string text;
    std::size_t good = 0;
    std::size_t max_read = 7;
    std::size_t at = 0;
    std::size_t read_some(char* buf, std::size_t size) {
        if (good == 0) throw io_error("read", "failing", std::make_error_code(std::errc::io_error));
        --good;
        const std::size_t n = std::min({size, max_read, text.size() - at});
        std::copy_n(text.data() + at, n, buf);
        at += n;
        return n;
    }
};

TEST(ReadaheadThread, EveryByteBeforeAFailedReadThenTheError) {
#if defined(__linux__)
    const std::set<std::string> threads = thread_ids();
#endif
    {
        // 10 reads of 7 bytes: "1 2 3 ... 25 26 2" up to byte 70, which cuts "27" after its "2".
        std::string text;
        for (int i = 1; i <= 40; ++i) text += std::to_string(i) + ' ';
        basic_ibuf in(thread_source_device<failing_source>(failing_source{text, 10}, 3), 64);
        std::vector<std::uint64_t> got;
        std::uint64_t v = 0;
        try {
            while (in.get_uint(v)) got.push_back(v);
            ADD_FAILURE() << "no io_error";
        } catch (const io_error& e) {
            EXPECT_EQ(e.code(), std::errc::io_error);
        }
        std::vector<std::uint64_t> expected;
        for (std::uint64_t i = 1; i <= 26; ++i) expected.push_back(i);
        ASSERT_EQ(text.substr(0, 70).substr(66), "26 2");
        EXPECT_EQ(got, expected);  // every number read before the failure; "2" of "27" not taken for a number
        EXPECT_THROW(in.get_uint(v), io_error);  // every time after
        EXPECT_THROW(in.get_uint(v), io_error);
    }
#if defined(__linux__)
    EXPECT_EQ(threads_left_since(threads), 0u) << "the reader thread outlived its device";
#endif
}

}  // namespace
}  // namespace iobench
