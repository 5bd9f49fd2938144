// iostream: the C++ standard library's file streams (std::ofstream,
// std::ifstream). The buffer is the library's own unless a suite sets `buf`,
// which goes to rdbuf()->pubsetbuf() before open (the point where libstdc++,
// libc++ and MSVC's library all honour it).
#include <fstream>
#include <memory>

#include "core/error.hpp"
#include "core/method.hpp"

namespace iobench {
namespace {

/// Throws `io_error` when the stream failed, naming `what` was attempted.
void check(const std::ios& stream, const char* what, const std::string& path) {
    if (stream.fail()) throw io_error(what, path, std::error_code(errno ? errno : EIO, std::generic_category()));
}

/// A file stream of type S opened on `path`, buffered with `buffer_size` bytes
/// of `storage` when non-zero.
template <class S>
void open_stream(S& stream, const std::string& path, std::size_t buffer_size, std::unique_ptr<char[]>& storage,
                 std::ios::openmode mode) {
    if (buffer_size != 0) {
        storage = std::make_unique<char[]>(buffer_size);
        stream.rdbuf()->pubsetbuf(storage.get(), static_cast<std::streamsize>(buffer_size));
    }
    errno = 0;
    stream.open(path, mode);
    check(stream, "open", path);
}

void ofstream_ints(const Sink& sink, std::uint64_t count) {
    std::unique_ptr<char[]> storage;
    std::ofstream out;
    open_stream(out, sink.path, sink.buffer_size, storage, std::ios::out | std::ios::trunc);
    for (std::uint64_t i = 0; i < count; ++i) out << i << '\n';
    out.close();
    check(out, "ofstream::operator<<", sink.path);
}

void ofstream_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    std::unique_ptr<char[]> storage;
    std::ofstream out;
    open_stream(out, sink.path, sink.buffer_size, storage, std::ios::out | std::ios::trunc | std::ios::binary);
    const auto size = static_cast<std::streamsize>(line.size());
    for (std::uint64_t i = 0; i < count; ++i) out.write(line.data(), size);
    out.close();
    check(out, "ofstream::write", sink.path);
}

void ifstream_ints(const Source& source, std::vector<std::uint64_t>& values) {
    std::unique_ptr<char[]> storage;
    std::ifstream in;
    open_stream(in, source.path, source.buffer_size, storage, std::ios::in);
    std::uint64_t v = 0;
    while (in >> v) values.push_back(v);
    if (in.bad()) throw io_error("ifstream::operator>>", source.path, std::error_code(EIO, std::generic_category()));
    if (!in.eof())
        throw parse_error("ifstream(" + source.path + "): not an integer after " + std::to_string(values.size()) +
                          " values");
}

const MethodRegistrar registrar{
    {.name = "ofstream",
     .family = "iostream",
     .description = "std::ofstream: out << i << '\\n' (ints), out.write(line) (lines)",
     .sizable_buffer = true,
     .put_ints = ofstream_ints,
     .put_repeat = ofstream_repeat},
    {.name = "ifstream",
     .family = "iostream",
     .description = "std::ifstream: in >> v until end of file",
     .sizable_buffer = true,
     .get_ints = ifstream_ints},
};

}  // namespace
}  // namespace iobench
