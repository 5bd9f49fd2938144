// What the tests of obuf's writers share (tests/methods/obuf_lines_test.cpp,
// tests/methods/obuf_double_test.cpp, tests/methods/obuf_double_lines_test.cpp): a sink
// device that keeps what it is handed, call by call, the check that a
// cursor's block writer writes what one item at a time writes, and a real
// file written and read back.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "methods/obuf.hpp"

namespace iobench::test {

/// A sink device that keeps every byte it is handed and the size of each call.
struct chunk_device {
    std::string* text;
    std::vector<std::size_t>* chunks;
    void write_all(const char* data, std::size_t size) {
        text->append(data, size);
        chunks->push_back(size);
    }
};

/// Fails unless, through obufs of 1 to 80 bytes and of the default size,
/// `put_block(cursor, items, n)` over `values`, in calls of every length from
/// 1 to `longest` (so that each starts at another offset in the buffer),
/// hands the device `expected` in the same chunks as `put_one(obuf, item)`
/// for every item does (and that gives `expected`).
template <class T, class PutBlock, class PutOne>
void expect_blocks_write_what_one_at_a_time_writes(const std::vector<T>& values, const std::string& expected,
                                                   std::size_t longest, PutBlock put_block, PutOne put_one) {
    std::vector<std::size_t> sizes;
    for (std::size_t s = 1; s <= 80; ++s) sizes.push_back(s);
    sizes.push_back(0);  // the default
    for (std::size_t size : sizes) {
        std::string text, want;
        std::vector<std::size_t> chunks, want_chunks;
        basic_obuf<chunk_device> out(chunk_device{&text, &chunks}, size);
        basic_obuf<chunk_device> reference(chunk_device{&want, &want_chunks}, size);
        {
            typename basic_obuf<chunk_device>::cursor cur(out);
            for (std::size_t i = 0, n = 1; i < values.size(); i += n, n = n % longest + 1)
                put_block(cur, values.data() + i, std::min(n, values.size() - i));
        }
        out.flush();
        for (const T& v : values) put_one(reference, v);
        reference.flush();
        ASSERT_EQ(want, expected);
        ASSERT_EQ(text, expected) << "buffer of " << size;
        EXPECT_EQ(chunks, want_chunks) << "buffer of " << size;
    }
}

/// The bytes `write(path)` leaves in a new file of the system's temporary
/// directory (named after `stem` and a random number), which is removed
/// afterwards; "" when it cannot be read back.
template <class Write>
std::string written_file(const std::string& stem, Write write) {
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / (stem + "_" + std::to_string(std::random_device{}()) + ".txt");
    write(path.string());
    std::string text;
    {
        std::ifstream in(path, std::ios::binary);
        if (in) text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::error_code ec;
    std::filesystem::remove(path, ec);
    return text;
}

}  // namespace iobench::test
