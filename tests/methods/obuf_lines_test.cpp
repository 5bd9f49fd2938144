// Tests of obuf's line writers on every platform: the integer line kernels
// (methods/format_uint_lines.hpp: scalar, SSE2, AVX2), each run once per
// kernel the CPU has, give std::to_chars' digits and '\n' for every class of
// value (0, 9, 10, 99, 100, ..., 10^19, 2^64-1, every power of two, every
// number below 100,000, so every four-digit group) at every position in a
// group of numbers, and store nothing past uint_lines_room; a cursor's
// put_uint_lines and write_repeated write the bytes of put_uint/put and
// write, in the same chunks, for buffers of 1 to 80 bytes and the
// default; write_int_lines through a real file gives the file it should.
// The integer writer is unsigned only (put_uint): no negative values.
#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "methods/obuf.hpp"
#include "methods/obuf_file.hpp"
#include "methods/obuf_writes.hpp"
#include "obuf_test_support.hpp"

namespace iobench {
/// Kernel names in the parameterized tests' messages (found by
/// argument-dependent lookup, so in uint_line_kernel's own namespace).
void PrintTo(uint_line_kernel k, std::ostream* os) { *os << uint_line_kernel_name(k); }
}  // namespace iobench

namespace {

using iobench::basic_obuf;
using iobench::uint_line_kernel;

using string_device = iobench::test::chunk_device;

/// The text std::to_chars gives for `values`, each followed by '\n'.
std::string expected_lines(const std::vector<std::uint64_t>& values) {
    std::string text;
    for (std::uint64_t v : values) {
        char digits[24];
        text.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
        text += '\n';
    }
    return text;
}

/// Every class of value: 0 .. 99,999 (every four-digit group, and every
/// trimmed first group of the scalar kernel), 10^k - 1, 10^k and 10^k + 1 for every k, 2^k - 1, 2^k and
/// 2^k + 1 for every k, UINT64_MAX and its neighbours, and random numbers of
/// every bit length.
std::vector<std::uint64_t> value_classes() {
    std::vector<std::uint64_t> v;
    for (std::uint64_t i = 0; i < 100000; ++i) v.push_back(i);
    std::uint64_t p = 1;
    for (int k = 0; k <= 19; ++k, p *= 10) {
        v.push_back(p - 1);
        v.push_back(p);
        v.push_back(p + 1);
        if (k == 19) break;
    }
    for (int k = 0; k < 64; ++k) {
        const std::uint64_t b = std::uint64_t{1} << k;
        v.push_back(b - 1);
        v.push_back(b);
        v.push_back(b + 1);
    }
    v.push_back(UINT64_MAX);
    v.push_back(UINT64_MAX - 1);
    v.push_back(UINT64_MAX / 10);
    std::mt19937_64 random(42);
    for (int i = 0; i < 20000; ++i) v.push_back(random() >> (i % 64));
    for (std::uint64_t x = 0; x < 100000000; x += 99991) v.push_back(x);  // a stride through 8 digits
    return v;
}

/// The tests of one line kernel: each runs with that kernel chosen for the
/// whole process, and is skipped where the CPU does not run it; the one in
/// use before is chosen again afterwards.
class ObufLineKernel : public ::testing::TestWithParam<uint_line_kernel> {
protected:
    void SetUp() override {
        if (!iobench::use_uint_line_kernel(GetParam()))
            GTEST_SKIP() << "this CPU does not run the " << iobench::uint_line_kernel_name(GetParam()) << " kernel";
    }
    void TearDown() override { iobench::use_uint_line_kernel(before_); }

private:
    uint_line_kernel before_ = iobench::uint_line_kernel_in_use();
};

INSTANTIATE_TEST_SUITE_P(Kernel, ObufLineKernel,
                         ::testing::Values(uint_line_kernel::scalar, uint_line_kernel::sse2, uint_line_kernel::avx2),
                         [](const ::testing::TestParamInfo<uint_line_kernel>& kernel) {
                             return std::string(iobench::uint_line_kernel_name(kernel.param));
                         });

TEST_P(ObufLineKernel, EveryClassOfValueAsToCharsWritesIt) {
    const std::vector<std::uint64_t> all = value_classes();
    const std::string expected = expected_lines(all);
    // From every start in a group of four (so each value meets every lane)
    // and with every count of leftovers at the end.
    std::size_t skipped = 0;
    for (std::size_t start = 0; start < 4; ++start) {
        for (std::size_t drop = 0; drop < 4; ++drop) {
            const std::size_t n = all.size() - start - drop;
            const std::size_t room = iobench::uint_lines_room(n);
            std::string buffer(room + 64, '#');
            char* const end = iobench::format_uint_lines(GetParam(), buffer.data(), all.data() + start, n);
            std::size_t last = expected.size();
            for (std::size_t k = 0; k < drop; ++k) last = expected.rfind('\n', last - 2) + 1;
            const std::string_view want = std::string_view(expected).substr(skipped, last - skipped);
            ASSERT_EQ(static_cast<std::size_t>(end - buffer.data()), want.size()) << "start " << start << " drop " << drop;
            EXPECT_TRUE(std::string_view(buffer.data(), want.size()) == want) << "start " << start << " drop " << drop;
            EXPECT_EQ(buffer.substr(room), std::string(64, '#')) << "stored past uint_lines_room";
        }
        skipped = expected.find('\n', skipped) + 1;
    }
}

TEST_P(ObufLineKernel, ALargeNumberAtEveryPlaceInAGroup) {
    // Groups of small numbers with one of 9 to 20 digits at each position:
    // the group goes the slow way, the next ones the fast way again.
    for (const std::uint64_t big : {std::uint64_t{100000000}, std::uint64_t{1234567890123}, UINT64_MAX}) {
        for (std::size_t at = 0; at < 9; ++at) {
            std::vector<std::uint64_t> v = {0, 7, 42, 99999999, 5, 10000, 123, 1, 9999};
            v[at] = big;
            std::string buffer(iobench::uint_lines_room(v.size()), '#');
            char* const end = iobench::format_uint_lines(GetParam(), buffer.data(), v.data(), v.size());
            EXPECT_EQ(std::string(buffer.data(), end), expected_lines(v)) << big << " at " << at;
        }
    }
}

TEST_P(ObufLineKernel, CursorPutUintLinesWritesWhatPutUintWritesInTheSameChunks) {
    std::vector<std::uint64_t> values;
    for (std::uint64_t i = 0; i < 3000; ++i) values.push_back(i * i * 977 % 1000000007ULL * (i % 7 == 0 ? 1000000000000ULL : 1));
    ASSERT_NO_FATAL_FAILURE(iobench::test::expect_blocks_write_what_one_at_a_time_writes(
        values, expected_lines(values), 300,
        [](auto& cur, const std::uint64_t* v, std::size_t n) { cur.put_uint_lines(v, n); },
        [](auto& out, std::uint64_t v) {
            out.put_uint(v);
            out.put('\n');
        }));
}

TEST_P(ObufLineKernel, WriteIntLinesThroughARealFile) {
    constexpr std::uint64_t count = 123457;  // not a multiple of the block (detail::int_lines_block) or 4
    const std::string text = iobench::test::written_file(
        std::string("iobench_obuf_lines_") + iobench::uint_line_kernel_name(GetParam()), [](const std::string& path) {
            iobench::obuf_file file(path, 4096);
            iobench::write_int_lines(file.out(), count);
            file.close();
        });
    std::vector<std::uint64_t> values(count);
    for (std::uint64_t i = 0; i < count; ++i) values[i] = i;
    EXPECT_TRUE(text == expected_lines(values)) << text.size() << " bytes";
}

TEST(ObufLineKernels, EveryKernelTheCpuRunsCanBeChosen) {
    const uint_line_kernel before = iobench::uint_line_kernel_in_use();
    for (uint_line_kernel k : {uint_line_kernel::scalar, uint_line_kernel::sse2, uint_line_kernel::avx2}) {
        EXPECT_EQ(iobench::use_uint_line_kernel(k), iobench::cpu_runs(k)) << iobench::uint_line_kernel_name(k);
        if (iobench::cpu_runs(k)) {
            EXPECT_EQ(iobench::uint_line_kernel_in_use(), k);
        }
    }
    EXPECT_TRUE(iobench::use_uint_line_kernel(before));
    EXPECT_TRUE(iobench::cpu_runs(uint_line_kernel::scalar));
    EXPECT_EQ(iobench::cpu_runs(uint_line_kernel::avx2), iobench::cpu_has_avx2_bmi2());
    // AVX2 where the CPU has it, else the scalar kernel (fewer instructions than SSE2's).
    EXPECT_EQ(iobench::best_uint_line_kernel(),
              iobench::cpu_has_avx2_bmi2() ? uint_line_kernel::avx2 : uint_line_kernel::scalar);
}

// ------------------------------------------------------------ repeated lines

TEST(ObufRepeated, WriteRepeatedWritesWhatWriteWritesInTheSameChunks) {
    const std::string source = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ";
    std::vector<std::size_t> sizes;
    for (std::size_t s = 1; s <= 50; ++s) sizes.push_back(s);
    sizes.push_back(0);  // the default
    for (std::size_t length = 0; length <= 40; ++length) {
        const std::string_view line = std::string_view(source).substr(0, length);
        for (std::size_t size : sizes) {
            for (std::uint64_t count : {0ULL, 1ULL, 2ULL, 7ULL, 1000ULL}) {
                std::string text, want;
                std::vector<std::size_t> chunks, want_chunks;
                basic_obuf<string_device> out(string_device{&text, &chunks}, size);
                basic_obuf<string_device> reference(string_device{&want, &want_chunks}, size);
                out.write("<", 1);  // so that the lines start off the buffer's start
                iobench::write_repeated(out, line, count);
                out.put('>');
                out.flush();
                reference.write("<", 1);
                for (std::uint64_t i = 0; i < count; ++i) reference.write(line);
                reference.put('>');
                reference.flush();
                std::string expected = "<";
                for (std::uint64_t i = 0; i < count; ++i) expected += line;
                expected += '>';
                ASSERT_EQ(want, expected);
                ASSERT_EQ(text, expected) << "line of " << length << ", buffer of " << size << ", " << count << " lines";
                ASSERT_EQ(chunks, want_chunks) << "line of " << length << ", buffer of " << size << ", " << count;
            }
        }
    }
}

}  // namespace
