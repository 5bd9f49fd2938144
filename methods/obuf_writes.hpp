// What obuf's methods write for each output operation, in one place for every
// device obuf runs over: a file descriptor or HANDLE (methods/obuf.cpp) and
// the hand-off devices (methods/obuf_overlapped.cpp), so that their rows do
// the same work. Each writes through a cursor of its own over `out`
// (basic_obuf::cursor: the position in registers) and leaves the bytes in the
// obuf for the caller to flush; errors are the obuf's (its device's io_error).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include <iobench/method.hpp>
#include "methods/obuf.hpp"

namespace iobench {

/// put_ints: 0 .. count-1, one per line.
template <class Obuf>
void write_int_lines(Obuf& out, std::uint64_t count) {
    typename Obuf::cursor cur(out);
    for (std::uint64_t i = 0; i < count; ++i) {
        cur.put_uint(i);
        cur.put('\n');
    }
}

/// put_repeat: `line`, `count` times.
template <class Obuf>
void write_repeated(Obuf& out, std::string_view line, std::uint64_t count) {
    typename Obuf::cursor cur(out);
    for (std::uint64_t i = 0; i < count; ++i) cur.write(line);
}

/// put_lines: line i = prefix, i, suffix, for i = 0 .. count-1.
template <class Obuf>
void write_numbered_lines(Obuf& out, const NumberedLine& line, std::uint64_t count) {
    typename Obuf::cursor cur(out);
    for (std::uint64_t i = 0; i < count; ++i) {
        cur.write(line.prefix);
        cur.put_uint(i);
        cur.write(line.suffix);
    }
}

/// put_doubles: every value in its shortest round-trip form, one per line,
/// its digits from `Digits` (format_double).
template <double_digits Digits = default_double_digits, class Obuf>
void write_double_lines(Obuf& out, std::span<const double> values) {
    typename Obuf::cursor cur(out);
    for (double v : values) {
        cur.template put_double<Digits>(v);
        cur.put('\n');
    }
}

/// One record of the `log` workload (iobench/calls.hpp, LogRecord) as its
/// line, with obuf's own calls: put_uint for the numbers, the six digits of
/// microseconds written out by hand.
template <class Obuf>
void write_log_record(Obuf& out, const LogRecord& r) {
    out.put_uint(r.time_us / 1000000);
    char micro[7] = {'.'};
    std::uint64_t us = r.time_us % 1000000;
    for (int k = 6; k >= 1; --k, us /= 10) micro[k] = static_cast<char>('0' + us % 10);
    out.write(micro, 7);
    out.put(' ');
    out.write(level_name(r.level));
    out.write(" [", 2);
    out.write(r.logger);
    out.write("] request ", 10);
    out.put_uint(r.request);
    out.write(" done in ", 9);
    out.put_uint(r.duration_us);
    out.write(" us: ", 5);
    out.write(r.text);
    out.put('\n');
}

}  // namespace iobench
