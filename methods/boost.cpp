// boost: Boost.Iostreams, a std::ostream over a device
// (boost::iostreams::stream<file_descriptor_sink>) with Boost's own stream
// buffer of `buf` bytes (4 KiB by default): fast_io's "boost::iostreams" row;
// reading through stream<file_descriptor_source> and mapped_file_source.
// Built when CMake finds Boost.Iostreams (IOBENCH_HAVE_BOOST_IOSTREAMS);
// otherwise listed as skipped with the reason.
#include <iobench/method.hpp>
#include "methods/buffer_sizes.hpp"

#ifdef IOBENCH_HAVE_BOOST_IOSTREAMS
#include <boost/iostreams/device/file_descriptor.hpp>
#include <boost/iostreams/device/mapped_file.hpp>
#include <boost/iostreams/stream.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <iobench/byte_fold.hpp>
#include <iobench/error.hpp>
#endif

namespace iobench {
namespace {

#ifdef IOBENCH_HAVE_BOOST_IOSTREAMS

namespace io = boost::iostreams;

/// Boost.Iostreams' default device buffer (default_device_buffer_size).
constexpr std::size_t boost_default_buffer = io::default_device_buffer_size;

/// The stream over a file_descriptor_sink created (truncated) at `path`.
class BoostOutput {
public:
    explicit BoostOutput(const Sink& sink) : path_(sink.path) {
        try {
            io::file_descriptor_sink device(sink.path, std::ios::out | std::ios::trunc | std::ios::binary);
            out_.open(device, static_cast<std::streamsize>(sink.buffer_size ? sink.buffer_size : boost_default_buffer));
        } catch (const std::ios::failure& e) {
            throw io_error("open", sink.path, e.code());
        }
        if (!out_.is_open()) throw io_error("open", sink.path, std::make_error_code(std::errc::io_error));
    }
    io::stream<io::file_descriptor_sink>& out() { return out_; }
    /// Flushes and closes; a failed write becomes `io_error`.
    void close() {
        out_.flush();
        const bool failed = !out_;
        try {
            out_.close();
        } catch (const std::ios::failure& e) {
            throw io_error("close", path_, e.code());
        }
        if (failed) throw io_error("write", path_, std::make_error_code(std::errc::io_error));
    }

private:
    std::string path_;
    io::stream<io::file_descriptor_sink> out_;
};

void boost_ints(const Sink& sink, std::uint64_t count) {
    BoostOutput o(sink);
    for (std::uint64_t i = 0; i < count; ++i) o.out() << i << '\n';
    o.close();
}

void boost_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    BoostOutput o(sink);
    const auto size = static_cast<std::streamsize>(line.size());
    for (std::uint64_t i = 0; i < count; ++i) o.out().write(line.data(), size);
    o.close();
}

void boost_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    BoostOutput o(sink);
    for (std::uint64_t i = 0; i < count; ++i) o.out() << line.prefix << i << line.suffix;
    o.close();
}

// --- reading (file_read, ints_in, doubles_in) ------------------------------

/// Bytes per read() call of boost_fd_source when a suite sets no `buf`:
/// Boost's own buffer size (4 KiB), the default of its `>>` reads as well.
constexpr std::size_t boost_read_request = boost_default_buffer;

/// A stream over a file_descriptor_source opened at `path`, with a stream
/// buffer of `buffer_size` bytes (0: Boost's default).
class BoostInput {
public:
    BoostInput(const std::string& path, std::size_t buffer_size) : path_(path) {
        try {
            io::file_descriptor_source device(path, std::ios::in | std::ios::binary);
            in_.open(device, static_cast<std::streamsize>(buffer_size ? buffer_size : boost_default_buffer));
        } catch (const std::ios::failure& e) {
            throw io_error("open", path, e.code());
        }
        if (!in_.is_open()) throw io_error("open", path, std::make_error_code(std::errc::io_error));
    }
    io::stream<io::file_descriptor_source>& in() { return in_; }
    /// Throws `io_error` when the stream saw a read error.
    void check(const char* call) {
        if (in_.bad()) throw io_error(call, path_, std::make_error_code(std::errc::io_error));
    }

private:
    std::string path_;
    io::stream<io::file_descriptor_source> in_;
};

/// in.read() of `buf` bytes per call through a stream buffer of `buf` bytes
/// (Boost's default 4 KiB when no `buf`): with Boost's own 4 KiB buffer the
/// device was read 4 KiB at a time whatever the request.
ReadResult boost_stream_read(const Source& source) {
    BoostInput b(source.path, source.buffer_size);
    const std::size_t request = source.buffer_size ? source.buffer_size : boost_read_request;
    std::unique_ptr<char[]> buf(new char[request]);
    ByteFold fold;
    while (b.in()) {
        b.in().read(buf.get(), static_cast<std::streamsize>(request));
        fold.update(buf.get(), static_cast<std::size_t>(b.in().gcount()));
    }
    b.check("stream<file_descriptor_source>::read");
    return fold.result();
}

/// in >> v until end of file, the stream's buffer `buf` bytes (4 KiB).
template <class T>
void boost_parse(const Source& source, std::vector<T>& values) {
    BoostInput b(source.path, source.buffer_size);
    T v{};
    while (b.in() >> v) values.push_back(v);
    b.check("stream<file_descriptor_source>::operator>>");
    if (!b.in().eof())
        throw parse_error("boost stream(" + source.path + "): not a number after " + std::to_string(values.size()) +
                          " values");
}

void boost_stream_ints(const Source& source, std::vector<std::uint64_t>& values) { boost_parse(source, values); }
void boost_stream_doubles(const Source& source, std::vector<double>& values) { boost_parse(source, values); }

/// mapped_file_source: the whole file mapped (mmap on POSIX, MapViewOfFile on
/// Windows), every byte folded. An empty file is not mapped (Boost refuses it).
ReadResult boost_mapped_read(const Source& source) {
    std::error_code ec;
    if (std::filesystem::file_size(source.path, ec) == 0 && !ec) return ByteFold{}.result();
    io::mapped_file_source map;
    try {
        map.open(source.path);
    } catch (const std::ios::failure& e) {
        throw io_error("mapped_file_source::open", source.path, e.code());
    }
    if (!map.is_open()) throw io_error("mapped_file_source::open", source.path, std::make_error_code(std::errc::io_error));
    ByteFold fold;
    fold.update(map.data(), map.size());
    map.close();
    return fold.result();
}

constexpr const char* unavailable = "";

// The table below names each operation's function through IOBENCH_BOOST: the
// function here, `not_built` (listed as skipped with `unavailable`) where the
// family is not built, whose build never sees these names.
#define IOBENCH_BOOST(fn) fn
#else

constexpr std::size_t boost_default_buffer = 4096;
constexpr const char* unavailable = "Boost.Iostreams was not found when iobench was built";
#define IOBENCH_BOOST(fn) ::iobench::not_built
constexpr std::size_t boost_read_request = 4096;

#endif

const MethodRegistrar registrar{{.family = "boost", .unavailable = unavailable}, {
    {.name = "boost_iostreams",
     .description = "boost::iostreams::stream<file_descriptor_sink>: out << i << '\\n', out.write(line)",
     .default_buffer_size = boost_default_buffer,
     .sizable_buffer = true,
     .put_ints = IOBENCH_BOOST(boost_ints),
     .put_repeat = IOBENCH_BOOST(boost_repeat),
     .put_lines = IOBENCH_BOOST(boost_lines)},
    {.name = "boost_fd_source",
     .description = "boost::iostreams::stream<file_descriptor_source> with a stream buffer of `buf` bytes (" +
                    size_text(boost_default_buffer) + "): in.read() of `buf` bytes per call; in >> v",
     .default_buffer_size = boost_read_request,
     .sizable_buffer = true,
     .get_ints = IOBENCH_BOOST(boost_stream_ints),
     .read_bytes = IOBENCH_BOOST(boost_stream_read),
     .get_doubles = IOBENCH_BOOST(boost_stream_doubles)},
    {.name = "boost_mapped_file",
     .description = "boost::iostreams::mapped_file_source: the whole file mapped, one pass over data()",
     .read_bytes = IOBENCH_BOOST(boost_mapped_read),
     .maps_file = true},
}};

}  // namespace
}  // namespace iobench
