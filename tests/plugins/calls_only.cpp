// A plugin whose method has only the per-call shape (a logger's: open, one
// call per line or integer, close), as a team's logger plugin often has:
// `buffered_log` buffers 64 KiB and writes it with write(2). With the
// environment's IOBENCH_TEST_SYNC_EACH_FLUSH=1 it also calls fdatasync after
// every write of its buffer: the change a regression gate must see in the
// system calls (syscalls_sync), though the user-space instructions barely move.
// POSIX only (tests/plugins/CMakeLists.txt builds it there).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

/// A file and its 64 KiB buffer.
struct BufferedLog {
    std::string path;
    int fd = -1;
    std::size_t used = 0;
    bool sync_each_flush = false;
    char buffer[64 * 1024];
};

void flush(BufferedLog& log) {
    std::size_t done = 0;
    while (done < log.used) {
        const ssize_t n = ::write(log.fd, log.buffer + done, log.used - done);
        if (n < 0) throw io_error("write", log.path, std::error_code(errno, std::generic_category()));
        done += static_cast<std::size_t>(n);
    }
    log.used = 0;
    if (log.sync_each_flush && ::fdatasync(log.fd) != 0)
        throw io_error("fdatasync", log.path, std::error_code(errno, std::generic_category()));
}

CallSink open_log(const Sink& sink) {
    auto log = std::make_unique<BufferedLog>();
    log->path = sink.path;
    log->fd = ::open(sink.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log->fd < 0) throw io_error("open", sink.path, std::error_code(errno, std::generic_category()));
    const char* sync = std::getenv("IOBENCH_TEST_SYNC_EACH_FLUSH");
    log->sync_each_flush = sync && std::strcmp(sync, "1") == 0;
    return log.release();
}

void close_log(CallSink sink) {
    std::unique_ptr<BufferedLog> log(static_cast<BufferedLog*>(sink));
    try {
        flush(*log);
    } catch (...) {
        ::close(log->fd);
        throw;
    }
    if (::close(log->fd) != 0) throw io_error("close", log->path, std::error_code(errno, std::generic_category()));
}

void put(BufferedLog& log, const char* data, std::size_t size) {
    if (log.used + size > sizeof log.buffer) flush(log);
    std::memcpy(log.buffer + log.used, data, size);
    log.used += size;
}

void log_line(CallSink sink, std::string_view line) { put(*static_cast<BufferedLog*>(sink), line.data(), line.size()); }

void log_int(CallSink sink, std::uint64_t value) {
    char text[24];
    char* end = text + sizeof text;
    char* p = end;
    *--p = '\n';
    do *--p = static_cast<char>('0' + value % 10);
    while ((value /= 10) != 0);
    put(*static_cast<BufferedLog*>(sink), p, static_cast<std::size_t>(end - p));
}

constexpr Calls calls{.open = open_log, .close = close_log, .put_int = log_int, .put_line = log_line};

const MethodRegistrar registrar{{.family = "calls_only"}, {
    {.name = "buffered_log",
     .description = "a logger's shape only: a 64 KiB buffer written with write(2) (and fdatasync after each with "
                    "IOBENCH_TEST_SYNC_EACH_FLUSH=1)",
     .calls = &calls},
}};

}  // namespace
}  // namespace iobench
