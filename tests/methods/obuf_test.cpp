// Tests of obuf/ibuf (methods/obuf.hpp, methods/ibuf.hpp, methods/fd_device.hpp):
// the integer formatter against std::to_chars, the SWAR parser against
// std::from_chars, and round trips through real temporary files with tiny and
// default buffer sizes. POSIX only (mkstemp, file descriptors).
#include <fcntl.h>
#include <sys/stat.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <iobench/error.hpp>
#include "methods/fd_device.hpp"
#include "methods/ibuf.hpp"
#include "methods/obuf.hpp"
#include "sample_values.hpp"

namespace {

using iobench::format_uint;
using iobench::max_uint_digits;

std::string to_chars_string(std::uint64_t v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

/// Formats v with format_uint into a guarded buffer; fails the test if the
/// text differs from std::to_chars or bytes past max(8, length) were touched.
void expect_formats_like_to_chars(std::uint64_t v) {
    char buf[48];
    std::memset(buf, '#', sizeof buf);
    char* const last = format_uint(buf + 8, v);
    const std::string got(buf + 8, last);
    ASSERT_EQ(got, to_chars_string(v)) << "value " << v;
    const std::size_t touched = got.size() < 8 ? 8 : got.size();
    for (std::size_t i = 0; i < 8; ++i) ASSERT_EQ(buf[i], '#') << "wrote before out, value " << v;
    for (std::size_t i = 8 + touched; i < sizeof buf; ++i)
        ASSERT_EQ(buf[i], '#') << "wrote past the scratch bound, value " << v;
}

/// A uniquely named temporary file (mkstemp), removed at scope end.
class TempFile {
public:
    TempFile() {
        std::string templ = (std::filesystem::temp_directory_path() / "obuf_test_XXXXXX").string();
        std::vector<char> name(templ.begin(), templ.end());
        name.push_back('\0');
        const int fd = ::mkstemp(name.data());
        if (fd < 0) throw std::system_error(errno, std::generic_category(), "mkstemp");
        ::close(fd);
        path_ = name.data();
    }
    ~TempFile() { ::unlink(path_.c_str()); }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    const std::string& path() const { return path_; }

    void write_text(std::string_view text) const {
        const int fd = ::open(path_.c_str(), O_WRONLY | O_TRUNC);
        ASSERT_GE(fd, 0);
        iobench::fd_sink_device dev{fd, path_};
        dev.write_all(text.data(), text.size());
        ::close(fd);
    }

    std::string read_text() const {
        const int fd = ::open(path_.c_str(), O_RDONLY);
        EXPECT_GE(fd, 0);
        std::string text;
        char buf[65536];
        for (;;) {
            const ssize_t n = ::read(fd, buf, sizeof buf);
            EXPECT_GE(n, 0);
            if (n <= 0) break;
            text.append(buf, static_cast<std::size_t>(n));
        }
        ::close(fd);
        return text;
    }

private:
    std::string path_;
};

/// Reads every integer of `path` with an ibuf of `buffer_size` bytes.
std::vector<std::uint64_t> read_all(const std::string& path, std::size_t buffer_size) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) iobench::throw_errno("open", path);
    std::vector<std::uint64_t> values;
    try {
        iobench::ibuf in(iobench::fd_source_device{fd, path}, buffer_size);
        std::uint64_t v = 0;
        while (in.get_uint(v)) values.push_back(v);
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
    return values;
}

std::vector<std::uint64_t> parse_text(std::string_view text, std::size_t buffer_size) {
    TempFile file;
    file.write_text(text);
    return read_all(file.path(), buffer_size);
}

/// The sample integers of these tests (tests/sample_values.hpp).
std::vector<std::uint64_t> sample_values() { return iobench::test::sample_values(2000, 3000); }

constexpr std::size_t kWriteSizes[] = {1, 7, 64, 4096, 0};     // 0: the default
constexpr std::size_t kReadSizes[] = {1, 2, 7, 64, 0};

// ---------------------------------------------------------------- format_uint

TEST(FormatUint, Boundaries) {
    // 0..101, every power of ten and its neighbours, the top of the range.
    for (std::uint64_t v : iobench::test::sample_values(102, 0)) expect_formats_like_to_chars(v);
    char buf[max_uint_digits];
    EXPECT_EQ(format_uint(buf, UINT64_MAX) - buf, 20);
    EXPECT_EQ(std::string_view(buf, 20), "18446744073709551615");
    EXPECT_EQ(format_uint(buf, 0) - buf, 1);
    EXPECT_EQ(buf[0], '0');
}

TEST(FormatUint, AllValuesBelowOneMillion) {
    for (std::uint64_t v = 0; v < 1000000; ++v) {
        char buf[max_uint_digits];
        char ref[max_uint_digits];
        char* const last = format_uint(buf, v);
        const auto r = std::to_chars(ref, ref + sizeof ref, v);
        const auto n = static_cast<std::size_t>(r.ptr - ref);
        ASSERT_EQ(static_cast<std::size_t>(last - buf), n) << v;
        ASSERT_EQ(std::memcmp(buf, ref, n), 0) << v;
    }
}

TEST(FormatUint, PseudoRandomValuesOfEveryLength) {
    std::mt19937_64 rng(12345);
    for (int i = 0; i < 2000000; ++i) {
        const std::uint64_t v = rng() >> (rng() % 64);  // all digit counts
        char buf[max_uint_digits];
        char ref[max_uint_digits];
        char* const last = format_uint(buf, v);
        const auto r = std::to_chars(ref, ref + sizeof ref, v);
        const auto n = static_cast<std::size_t>(r.ptr - ref);
        ASSERT_EQ(static_cast<std::size_t>(last - buf), n) << v;
        ASSERT_EQ(std::memcmp(buf, ref, n), 0) << v;
    }
    // The scratch contract, on a smaller sample.
    for (int i = 0; i < 20000; ++i) expect_formats_like_to_chars(rng() >> (rng() % 64));
}

// ----------------------------------------------------------------- parse_uint

TEST(ParseUint, AgreesWithFromChars) {
    std::vector<std::string> inputs = {"0",  "7",  "42 ",  "00000000000000000000000000123", "123abc",
                                       "",   "x1", "-1",   "18446744073709551615",
                                       "18446744073709551616", "99999999999999999999",
                                       "1234567890123456789012345", "12345678", "123456789\n"};
    for (std::uint64_t v : sample_values()) inputs.push_back(to_chars_string(v) + "\n");
    for (const std::string& s : inputs) {
        std::uint64_t a = 777, b = 777;
        const auto ra = iobench::parse_uint(s.data(), s.data() + s.size(), a);
        const auto rb = std::from_chars(s.data(), s.data() + s.size(), b);
        EXPECT_EQ(ra.ec, rb.ec) << '"' << s << '"';
        EXPECT_EQ(ra.ptr, rb.ptr) << '"' << s << '"';
        EXPECT_EQ(a, b) << '"' << s << '"';
    }
}

// ----------------------------------------------------------------------- obuf

/// Writes a fixed mix of put_uint/put/write through an obuf of `buffer_size`
/// into `path`, and returns the text that must be there.
std::string write_sample(const std::string& path, std::size_t buffer_size) {
    std::string expected;
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC);
    if (fd < 0) iobench::throw_errno("open", path);
    iobench::obuf out(iobench::fd_sink_device{fd, path}, buffer_size);
    out.write("header line\n");
    expected += "header line\n";
    for (std::uint64_t v : sample_values()) {
        out.put_uint(v);
        out.put('\n');
        expected += to_chars_string(v) + "\n";
    }
    const std::string big(10000, 'z');  // bigger than every small buffer
    out.write(big);
    out.write("", 0);
    out.write(nullptr, 0);
    out.put_uint(18446744073709551615ULL);
    expected += big + "18446744073709551615";
    out.flush();
    EXPECT_EQ(out.pending(), 0u);
    ::close(fd);
    return expected;
}

TEST(Obuf, FileContentsForEveryBufferSize) {
    for (std::size_t size : kWriteSizes) {
        SCOPED_TRACE("buffer_size " + std::to_string(size));
        TempFile file;
        const std::string expected = write_sample(file.path(), size);
        const std::string got = file.read_text();
        ASSERT_EQ(got.size(), expected.size());
        EXPECT_TRUE(got == expected);
    }
}

TEST(Obuf, BufferSizeZeroMeansDefault) {
    iobench::obuf a(iobench::fd_sink_device{-1, "none"}, 0);
    iobench::obuf b(iobench::fd_sink_device{-1, "none"}, 7);
    EXPECT_EQ(a.buffer_size(), iobench::obuf_buffer_size);
    EXPECT_EQ(iobench::obuf_buffer_size, 1024u * 1024u);
    EXPECT_EQ(b.buffer_size(), 7u);
}

TEST(Obuf, ItsOwnBufferStartsAtACacheLine) {
    // Each call the device gets from obuf's buffer starts at an
    // obuf_buffer_alignment boundary, whatever the allocator returned
    // (new char[] gives 16 bytes), for every buffer size.
    struct address_device {
        std::vector<std::uintptr_t>* starts;
        void write_all(const char* data, std::size_t) { starts->push_back(reinterpret_cast<std::uintptr_t>(data)); }
    };
    EXPECT_EQ(iobench::obuf_buffer_alignment, 64u);
    // Sizes of 2 or more: a write as large as the whole buffer goes straight
    // through from the caller's bytes (write_slow), so 1 byte into a 1-byte buffer would.
    for (std::size_t size : {std::size_t{2}, std::size_t{7}, std::size_t{33}, std::size_t{100}, std::size_t{0}}) {
        SCOPED_TRACE("buffer_size " + std::to_string(size));
        std::vector<std::uintptr_t> starts;
        iobench::basic_obuf<address_device> out(address_device{&starts}, size);
        for (int i = 0; i < 300; ++i) out.write("x");  // one byte at a time: every call from the buffer
        out.flush();
        ASSERT_FALSE(starts.empty());
        for (std::uintptr_t at : starts) EXPECT_EQ(at % iobench::obuf_buffer_alignment, 0u);
    }
}

TEST(Obuf, LargeWritesBypassTheBuffer) {
    TempFile file;
    const int fd = ::open(file.path().c_str(), O_WRONLY | O_TRUNC);
    ASSERT_GE(fd, 0);
    std::string expected;
    {
        iobench::obuf out(iobench::fd_sink_device{fd, file.path()}, 64);
        std::string big(1 << 20, '\0');
        for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + i % 26);
        out.write("abc");  // buffered
        out.write(big);    // > buffer: flushes "abc", then goes straight to the file
        EXPECT_EQ(out.pending(), 0u);
        out.write(std::string_view(big).substr(0, 63));  // fits
        EXPECT_EQ(out.pending(), 63u);
        out.write(std::string_view(big).substr(0, 10));  // fills, flushes one full chunk, keeps 9
        EXPECT_EQ(out.pending(), 9u);
        out.flush();
        expected = "abc" + big + big.substr(0, 63) + big.substr(0, 10);
    }
    ::close(fd);
    EXPECT_TRUE(file.read_text() == expected);
}

TEST(Obuf, DestructorDoesNotFlush) {
    TempFile file;
    const int fd = ::open(file.path().c_str(), O_WRONLY | O_TRUNC);
    ASSERT_GE(fd, 0);
    {
        iobench::obuf out(iobench::fd_sink_device{fd, file.path()});
        out.write("lost");
        EXPECT_EQ(out.pending(), 4u);
    }
    ::close(fd);
    EXPECT_EQ(file.read_text(), "");
}

TEST(Obuf, WriteErrorThrowsIoErrorOnFlush) {
    // /dev/full fails every write with ENOSPC, when it is the device: never
    // write to it when something else is there (a regular file someone left).
    // Otherwise a read-only fd (EBADF).
    struct stat st {};
    int fd = ::lstat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode) ? ::open("/dev/full", O_WRONLY) : -1;
    if (fd >= 0 && (::fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode))) {
        ::close(fd);
        fd = -1;
    }
    TempFile file;
    std::string path = "/dev/full";
    if (fd < 0) {
        path = file.path();
        fd = ::open(path.c_str(), O_RDONLY);
    }
    ASSERT_GE(fd, 0);
    iobench::obuf out(iobench::fd_sink_device{fd, path}, 16);
    out.write("0123456789");  // buffered, nothing written yet
    EXPECT_THROW(out.flush(), iobench::io_error);
    EXPECT_EQ(out.pending(), 0u);  // dropped after the failure
    try {
        out.put_uint(12345);
        out.flush();
        ADD_FAILURE() << "flush did not throw";
    } catch (const iobench::io_error& e) {
        EXPECT_NE(std::string(e.what()).find("write(" + path + ")"), std::string::npos) << e.what();
        EXPECT_NE(e.code().value(), 0);
    }
    // A write bigger than the buffer reaches the device at once.
    EXPECT_THROW(out.write(std::string(100, 'x')), iobench::io_error);
    ::close(fd);
}

// ----------------------------------------------------------------------- ibuf

TEST(Ibuf, RoundTripForEveryBufferSize) {
    TempFile file;
    std::vector<std::uint64_t> expected = sample_values();
    {
        const int fd = ::open(file.path().c_str(), O_WRONLY | O_TRUNC);
        ASSERT_GE(fd, 0);
        iobench::obuf out(iobench::fd_sink_device{fd, file.path()});
        for (std::uint64_t v : expected) {
            out.put_uint(v);
            out.put('\n');
        }
        out.flush();
        ::close(fd);
    }
    for (std::size_t size : kReadSizes) {
        SCOPED_TRACE("buffer_size " + std::to_string(size));
        EXPECT_EQ(read_all(file.path(), size), expected);
    }
}

TEST(Ibuf, NumbersSplitAcrossRefillsAtEveryOffset) {
    // Numbers of 1 to 9 digits: with buffers of 1..13 bytes, numbers get cut
    // by refills at every position within them somewhere in the file.
    std::string text;
    std::vector<std::uint64_t> expected;
    for (std::uint64_t v = 0; v < 3000; v += 7) {
        const std::uint64_t x = v * v * 13 + v;
        expected.push_back(x);
        text += to_chars_string(x) + (v % 3 == 0 ? " " : "\n");
    }
    TempFile file;
    file.write_text(text);
    for (std::size_t size = 1; size <= 13; ++size) {
        SCOPED_TRACE("buffer_size " + std::to_string(size));
        EXPECT_EQ(read_all(file.path(), size), expected);
    }
}

TEST(Ibuf, WhiteSpaceAndFileEnds) {
    for (std::size_t size : kReadSizes) {
        SCOPED_TRACE("buffer_size " + std::to_string(size));
        EXPECT_EQ(parse_text("", size), std::vector<std::uint64_t>{});
        EXPECT_EQ(parse_text(" \n\t\r\v\f  \n", size), std::vector<std::uint64_t>{});
        EXPECT_EQ(parse_text("  \n\t 1 22\t333\r\n4444\v55555\f666666  \n\n", size),
                  (std::vector<std::uint64_t>{1, 22, 333, 4444, 55555, 666666}));
        EXPECT_EQ(parse_text("5\n6", size), (std::vector<std::uint64_t>{5, 6}));  // no final newline
        EXPECT_EQ(parse_text("18446744073709551615", size),
                  std::vector<std::uint64_t>{UINT64_MAX});
        EXPECT_EQ(parse_text("0000000000000000000000000000000042 007\n", size),
                  (std::vector<std::uint64_t>{42, 7}));  // leading zeros, longer than the buffer
        EXPECT_EQ(parse_text("12345678 123456789012 1234567890123456789\n", size),
                  (std::vector<std::uint64_t>{12345678, 123456789012, 1234567890123456789}));
    }
}

/// Expects parse_error whose message names `offset` and contains `detail`.
void expect_parse_error(std::string_view text, std::size_t buffer_size, std::uint64_t offset,
                        std::string_view detail) {
    try {
        parse_text(text, buffer_size);
        ADD_FAILURE() << "no parse_error for \"" << text << "\"";
    } catch (const iobench::parse_error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("offset " + std::to_string(offset)), std::string::npos) << msg;
        EXPECT_NE(msg.find(detail), std::string::npos) << msg;
    }
}

TEST(Ibuf, ErrorsNameOffsetAndByte) {
    for (std::size_t size : kReadSizes) {
        SCOPED_TRACE("buffer_size " + std::to_string(size));
        expect_parse_error("12\nx3\n", size, 3, "'x'");
        expect_parse_error("12 34a\n", size, 5, "'a'");   // letter right after digits
        expect_parse_error("1\n-5\n", size, 2, "'-'");
        expect_parse_error("+5", size, 0, "'+'");
        expect_parse_error("7 18446744073709551616\n", size, 2, "UINT64_MAX");
        expect_parse_error("99999999999999999999", size, 0, "UINT64_MAX");
        expect_parse_error(std::string_view("1\0", 2), size, 1, "0x00");
    }
}

TEST(Ibuf, ReadErrorThrowsIoError) {
    TempFile file;
    const int fd = ::open(file.path().c_str(), O_WRONLY);  // not readable
    ASSERT_GE(fd, 0);
    iobench::ibuf in(iobench::fd_source_device{fd, file.path()}, 64);
    std::uint64_t v = 0;
    EXPECT_THROW(in.get_uint(v), iobench::io_error);
    ::close(fd);
}

}  // namespace
