// Tests of basic_obuf::cursor (methods/obuf.hpp) on every platform: a cursor
// writes byte for byte what the obuf's own put/write/put_uint/put_double
// write, in the same chunks, for buffers of 1 to 40 bytes and the default;
// the obuf is usable before and after a cursor; a device error thrown inside
// a cursor's slow path leaves the obuf empty and usable (the cursor does not
// give back its stale position) and the cursor usable; and over a hand-off device, whose buffers
// change address at every hand-off, every byte lands in order.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "methods/obuf.hpp"

namespace {

using iobench::basic_obuf;

/// A sink device that keeps every byte it is handed and the size of each
/// call; with `fail` set, every call throws instead (and keeps nothing).
struct string_device {
    std::string* text;
    std::vector<std::size_t>* chunks;
    const bool* fail;
    void write_all(const char* data, std::size_t size) {
        if (*fail) throw std::runtime_error("device error");
        text->append(data, size);
        chunks->push_back(size);
    }
};

/// A hand-off device over two buffers in memory: each hand_off keeps the
/// bytes and returns the other buffer (so the obuf's buffer moves at every
/// hand-off).
struct memory_handoff {
    std::string* text;
    std::unique_ptr<char[]> buffers[2];
    int next = 0;
    char* start(std::size_t capacity) {
        buffers[0] = std::make_unique<char[]>(capacity);
        buffers[1] = std::make_unique<char[]>(capacity);
        next = 1;
        return buffers[0].get();
    }
    char* hand_off(char* full, std::size_t n) {
        text->append(full, n);
        char* const empty = buffers[next].get();
        next ^= 1;
        return empty;
    }
    void finish() {}
};

/// Writes a mix of every cursor operation through `out` (a basic_obuf or a
/// cursor over one): lines, single bytes, empty and null writes, a write of
/// more than 32 bytes, one bigger than any small buffer, integers and doubles
/// of every length.
template <class Out>
void write_mix(Out& out) {
    const std::string big(100, 'z');
    out.write("header\n");
    for (std::uint64_t v : {0ULL, 9ULL, 10ULL, 12345678ULL, 99999999ULL, 100000000ULL, 18446744073709551615ULL}) {
        out.put_uint(v);
        out.put('\n');
    }
    out.write("", 0);
    out.write(nullptr, 0);
    out.write(std::string_view(big).substr(0, 33));
    out.put('|');
    out.write(big);
    for (double v : {0.0, -0.0, 0.1, 1.0 / 3, 5e-324, 1.7976931348623157e308, 1e16, 123.5}) {
        out.put_double(v);
        out.put(' ');
    }
    for (std::uint64_t i = 0; i < 300; ++i) {
        out.write("Hello World\n");
        out.put_uint(i * 7919);
        out.put(';');
    }
}

/// What an obuf of `buffer_size` bytes hands its device for write_mix, written
/// through a cursor (`use_cursor`) or through the obuf itself; `chunks` gets
/// the size of every device call.
std::string written(std::size_t buffer_size, bool use_cursor, std::vector<std::size_t>& chunks) {
    std::string text;
    const bool fail = false;
    basic_obuf<string_device> out(string_device{&text, &chunks, &fail}, buffer_size);
    if (use_cursor) {
        basic_obuf<string_device>::cursor cur(out);
        write_mix(cur);
    } else {
        write_mix(out);
    }
    out.flush();
    EXPECT_EQ(out.pending(), 0u);
    return text;
}

TEST(ObufCursor, WritesWhatTheObufWritesInTheSameChunks) {
    std::vector<std::size_t> sizes;
    for (std::size_t size = 1; size <= 40; ++size) sizes.push_back(size);
    sizes.push_back(4096);
    sizes.push_back(0);  // the default
    for (std::size_t size : sizes) {
        SCOPED_TRACE("buffer_size " + std::to_string(size));
        std::vector<std::size_t> direct_chunks;
        std::vector<std::size_t> cursor_chunks;
        const std::string direct = written(size, false, direct_chunks);
        const std::string through_cursor = written(size, true, cursor_chunks);
        ASSERT_GT(direct.size(), 4000u);
        ASSERT_TRUE(through_cursor == direct);
        ASSERT_EQ(cursor_chunks, direct_chunks);
    }
}

TEST(ObufCursor, TheObufIsUsableBeforeBetweenAndAfterCursors) {
    std::string text;
    std::vector<std::size_t> chunks;
    const bool fail = false;
    basic_obuf<string_device> out(string_device{&text, &chunks, &fail}, 16);
    out.write("a:");
    {
        basic_obuf<string_device>::cursor cur(out);
        cur.write("first cursor, longer than the buffer;");
        cur.put_uint(42);
    }
    // The long write flushed "a:" and went straight to the device: only "42" is buffered.
    EXPECT_EQ(out.pending(), 2u);
    EXPECT_EQ(text, "a:first cursor, longer than the buffer;");
    out.put('|');
    {
        basic_obuf<string_device>::cursor cur(out);
        cur.put('b');
    }
    out.write("!\n");
    out.flush();
    EXPECT_EQ(text, "a:first cursor, longer than the buffer;42|b!\n");
}

TEST(ObufCursor, ADeviceErrorInsideACursorLeavesTheObufEmptyAndUsable) {
    std::string text;
    std::vector<std::size_t> chunks;
    bool fail = true;
    basic_obuf<string_device> out(string_device{&text, &chunks, &fail}, 8);
    std::uint64_t written_before_throw = 0;
    try {
        basic_obuf<string_device>::cursor cur(out);
        for (; written_before_throw < 100; ++written_before_throw) cur.put('x');
        ADD_FAILURE() << "no write reached the failing device";
    } catch (const std::runtime_error&) {
    }
    // The 9th byte found the buffer full; the flush threw and dropped the 8.
    EXPECT_EQ(written_before_throw, 8u);
    EXPECT_EQ(out.pending(), 0u);
    EXPECT_TRUE(text.empty());
    fail = false;
    {
        basic_obuf<string_device>::cursor cur(out);
        cur.write("after the error\n");
    }
    out.flush();
    EXPECT_EQ(text, "after the error\n");
}

TEST(ObufCursor, ACursorWritesOnAfterCatchingADeviceError) {
    // The error caught inside the cursor's scope: the cursor takes up the
    // obuf's position again (its buffer emptied by the failed flush).
    std::string text;
    std::vector<std::size_t> chunks;
    bool fail = true;
    basic_obuf<string_device> out(string_device{&text, &chunks, &fail}, 8);
    {
        basic_obuf<string_device>::cursor cur(out);
        cur.write("1234567");
        EXPECT_THROW(cur.write("89"), std::runtime_error);  // fills the buffer, the flush fails
        fail = false;
        cur.write("after");
        cur.put_uint(42);
        cur.put('\n');
    }
    EXPECT_EQ(out.pending(), 8u);  // "after42\n": nothing of the failed buffer
    out.flush();
    EXPECT_EQ(text, "after42\n");
}

TEST(ObufCursor, EveryByteInOrderOverAHandOffDevice) {
    for (std::size_t size : {1u, 2u, 7u, 24u, 33u, 4096u}) {
        SCOPED_TRACE("buffer_size " + std::to_string(size));
        std::string text;
        basic_obuf<memory_handoff> out(memory_handoff{&text, {}, 0}, size);
        {
            basic_obuf<memory_handoff>::cursor cur(out);
            write_mix(cur);
        }
        out.flush();
        std::vector<std::size_t> chunks;
        ASSERT_TRUE(text == written(size, false, chunks));
    }
}

}  // namespace
