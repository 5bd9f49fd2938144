// What the tests of obuf's writers share (tests/obuf_lines_test.cpp,
// tests/obuf_double_test.cpp, tests/obuf_double_lines_test.cpp): a sink
// device that keeps what it is handed, call by call, and a real file written
// and read back.
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <system_error>
#include <vector>

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
