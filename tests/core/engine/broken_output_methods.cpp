// Deliberately wrong output methods for the output workloads (doubles,
// console), linked only into the tests: each is wrong in one way that
// verification (or the console harness, for a child that fails) must catch.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <system_error>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

/// Writes every value in its shortest form, except the middle one, which is
/// one ulp larger: the text is plausible, only the parsed value differs.
void one_ulp_doubles(const Sink& sink, std::span<const double> values) {
    std::FILE* f = std::fopen(sink.path.c_str(), "wb");
    if (!f) throw_errno("fopen", sink.path);
    const std::size_t wrong = values.size() / 2;
    char text[64];
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double v = i == wrong ? std::nextafter(values[i], std::numeric_limits<double>::infinity()) : values[i];
        char* end = std::to_chars(text, text + 63, v).ptr;
        *end++ = '\n';
        std::fwrite(text, 1, static_cast<std::size_t>(end - text), f);
    }
    std::fclose(f);
}

/// Writes the lines to stdout's buffer but never flushes it: what stays in
/// the buffer when the run ends never reaches the target.
void no_flush_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) std::fwrite(line.data(), 1, line.size(), stdout);
}

/// Writes one message too many.
void extra_message_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    for (std::uint64_t i = 0; i <= count; ++i) std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
}

/// Writes every line with "\r\n" in place of its '\n', by hand, whatever
/// stdout's translation mode: wrong bytes with the right text.
void crlf_console(const StdoutSink&, std::string_view line, std::uint64_t count) {
    const std::string text = std::string(line.substr(0, line.size() - 1)) + "\r\n";
    for (std::uint64_t i = 0; i < count; ++i) std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

/// Fails as a write error would.
void throws_console(const StdoutSink&, std::string_view, std::uint64_t) {
    throw io_error("fwrite", "stdout", std::make_error_code(std::errc::io_error));
}

/// Ends the process at once, with status 7: no report reaches iobench.
void exits_console(const StdoutSink&, std::string_view, std::uint64_t) { std::_Exit(7); }

/// Aborts: the process dies of SIGABRT (POSIX) or ends as the C runtime's abort() ends it (Windows).
void aborts_console(const StdoutSink&, std::string_view, std::uint64_t) { std::abort(); }

const MethodRegistrar registrar{{.family = "zz_broken"}, {
    {.name = "broken_one_ulp", .description = "test: one double one ulp off",
     .put_doubles = one_ulp_doubles},
    {.name = "broken_no_flush", .description = "test: stdout never flushed",
     .put_console = no_flush_console},
    {.name = "broken_extra_message", .description = "test: one message too many",
     .put_console = extra_message_console},
    {.name = "broken_crlf", .description = "test: \"\\r\\n\" written by hand in binary mode",
     .put_console = crlf_console},
    {.name = "broken_throws", .description = "test: the call fails (io_error)",
     .put_console = throws_console},
    {.name = "broken_exits", .description = "test: the process exits in the call",
     .put_console = exits_console},
    {.name = "broken_aborts", .description = "test: the process aborts in the call",
     .put_console = aborts_console},
}};

}  // namespace
}  // namespace iobench
