// obuf / ibuf: iobench's own buffered writer and reader over a raw file
// descriptor (methods/obuf.hpp, methods/ibuf.hpp): one user-space buffer of
// `buf` bytes (64 KiB by default), flushed with one write(2); integers
// formatted and parsed without locale or format strings. They show how close
// a method can get to the memory-bound limit.
#include "core/method.hpp"
#include "methods/fd_device.hpp"
#include "methods/posix_file.hpp"

namespace iobench {
namespace {

void obuf_ints(const Sink& sink, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    {
        obuf out(fd_sink_device{fd.get(), sink.path}, sink.buffer_size);
        for (std::uint64_t i = 0; i < count; ++i) {
            out.put_uint(i);
            out.put('\n');
        }
        out.flush();
    }
    fd.close();
}

void obuf_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    unique_fd fd = create_file(sink.path);
    {
        obuf out(fd_sink_device{fd.get(), sink.path}, sink.buffer_size);
        for (std::uint64_t i = 0; i < count; ++i) out.write(line);
        out.flush();
    }
    fd.close();
}

void ibuf_ints(const Source& source, std::vector<std::uint64_t>& values) {
    unique_fd fd = open_file(source.path);
    ibuf in(fd_source_device{fd.get(), source.path}, source.buffer_size);
    std::uint64_t v = 0;
    while (in.get_uint(v)) values.push_back(v);
    fd.close();
}

const MethodRegistrar registrar{
    {.name = "obuf",
     .family = "obuf",
     .description = "iobench's buffered writer on a file descriptor: put_uint(i), put('\\n') / write(line)",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .put_ints = obuf_ints,
     .put_repeat = obuf_repeat},
    {.name = "ibuf",
     .family = "obuf",
     .description = "iobench's buffered reader on a file descriptor: get_uint(v) until end of file",
     .default_buffer_size = default_buffer_size,
     .sizable_buffer = true,
     .get_ints = ibuf_ints},
};

}  // namespace
}  // namespace iobench
