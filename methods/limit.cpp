// limit: the reference row of every workload, not a method a user would pick.
// What the kernel alone costs for the workload's bytes: an output workload's
// bytes are formatted into memory before the measured call (outside it) and
// written with write(2) (WriteFile on Windows) 1 MiB per call; an input
// workload's file is read with read(2) (ReadFile) 1 MiB per call into one
// reused buffer and folded (iobench/byte_fold.hpp, as every file_read method
// does), with no parsing. A buffered method that formats as fast as memory
// allows gets close to it; the summary gives every row as a multiple of it
// (x_limit).
// limit_overwrite: an output workload's bytes written as limit writes them,
// but over the existing file of their size that the trial wrote before the
// run (Method::overwrites_existing): the copy into the page cache without the
// kernel's supply of new pages, which on a virtual machine can be most of a
// new 1.2 GB file's time (docs/methodology.md).
// memcpy: an output workload's bytes copied with memcpy into memory of their
// size (every page touched before the run): no file, no system call, no page
// cache. The machine's memory copy for those bytes: limit less memcpy is the
// kernel's part, and memcpy's own spread is the machine's (a virtual
// machine's copy speed moves between repetitions; docs/methodology.md).
#include <algorithm>
#include <cstring>
#include <span>

#include <iobench/byte_fold.hpp>
#include <iobench/method.hpp>
#include "methods/buffer_sizes.hpp"
#include "methods/native_file.hpp"

namespace iobench {
namespace {

/// Bytes per system call (methods/buffer_sizes.hpp).
constexpr std::size_t limit_chunk = limit_call_size;

/// `bytes` into `file` (opened on sink.path), limit_chunk bytes per call; closes it.
void put_chunks(native_file file, const Sink& sink, std::span<const char> bytes) {
    for (std::size_t at = 0; at < bytes.size(); at += limit_chunk)
        write_all(file.get(), bytes.data() + at, std::min(limit_chunk, bytes.size() - at), sink.path);
    file.close();
}

void put_prepared(const Sink& sink, std::span<const char> bytes) {
    put_chunks(create_native_file(sink.path), sink, bytes);
}

/// Over the file the trial wrote beforehand (Method::overwrites_existing),
/// which has the bytes' size: no page of it is new.
void put_over(const Sink& sink, std::span<const char> bytes) {
    put_chunks(overwrite_native_file(sink.path), sink, bytes);
}

void copy_prepared(std::span<char> to, std::span<const char> bytes) {
    std::memcpy(to.data(), bytes.data(), std::min(to.size(), bytes.size()));
}

ReadResult read_bytes(const Source& source) {
    native_file file = open_native_file(source.path);
    const ReadResult result = read_folded(file.get(), limit_chunk, source.path);
    file.close();
    return result;
}

const MethodRegistrar registrar{{.family = "limit"}, {
    {.name = "limit",
     .description = "reference: the workload's bytes prepared in memory beforehand, written or read (and folded) "
                    "with one write(2)/read(2) (WriteFile/ReadFile) per " + size_text(limit_chunk),
     .default_buffer_size = limit_chunk,
     .reference = true,
     .put_prepared = put_prepared,
     .read_bytes = read_bytes},
    {.name = "limit_overwrite",
     .description = "reference: as limit, but written over the existing file of the output's size (written, "
                    "zeros, and flushed before the run): the copy without the kernel's new page-cache pages; "
                    "limit less limit_overwrite is what the new pages cost",
     .default_buffer_size = limit_chunk,
     .reference = true,
     .overwrites_existing = true,
     .put_prepared = put_over},
    {.name = "memcpy",
     .description = "reference: the workload's bytes prepared in memory beforehand, copied with one memcpy into "
                    "memory of their size (touched beforehand): no file, no system call; limit less memcpy is "
                    "the kernel's part",
     .reference = true,
     .copy_prepared = copy_prepared},
}};

}  // namespace
}  // namespace iobench
