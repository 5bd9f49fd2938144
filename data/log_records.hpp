// The records of the `log` workload (iobench/calls.hpp, LogRecord):
// deterministic, 60 to 200 bytes a line, and their reference formatting, which
// every method's own formatting is verified against byte for byte. Written
// with {fmt}, never with a method under test.
#pragma once

#include <cstdint>
#include <string>

#include <iobench/method.hpp>
#include "data/checksum.hpp"

namespace iobench {

/// Record `i` of the log workload: request = i (so a line names its record),
/// time_us strictly increasing with i, level, logger, duration and text
/// chosen by a hash of i (mostly INFO; 6 loggers; 16 texts of 8 to 120 bytes).
LogRecord log_record(std::uint64_t i);

/// Appends `record`'s line, '\n' included, to `out`, as LogRecord documents it.
void append_log_line(std::string& out, const LogRecord& record);

/// The line of record `i`, '\n' included.
std::string log_line(std::uint64_t i);

/// Records 0 .. count-1, one line each: the output of one thread writing
/// them in order.
Generator log_text(std::uint64_t count);

}  // namespace iobench
