// How iobench writes a number a person reads: one rule per kind of quantity,
// shared by the console summary and, in Python, by iobench-compare's tables
// (tools/iobench_compare). tests/data/number_format.json holds the examples
// both are tested against; docs/report.md ("How numbers are written") the rules.
#pragma once

#include <string>

namespace iobench {

/// A duration in seconds, three significant digits or so, never in exponent
/// form: "4.21 ns", "28.0 ns", "350 ns", "23.0 us", "554.7 us", "2.81 ms",
/// "12.30 ms", "729 ms", "1.90 s".
std::string format_time(double seconds);

/// A rate in bytes per second with a decimal unit: "512 B/s", "32.0 kB/s",
/// "154.4 MB/s", "1.27 GB/s".
std::string format_throughput(double bytes_per_second);

/// A ratio of two times: "0.52x", "9.55x", "12.3x", "123x".
std::string format_ratio(double ratio);

/// A count per run (system calls, context switches): "8", "12.5", "1,205",
/// "292,969", "16.38 M", "2.50 G".
std::string format_count(double count);

/// A size in bytes with a binary unit, three significant digits: "7.89 B",
/// "512 B", "3.99 KiB", "64 KiB", "1 MiB", "3 GiB".
std::string format_bytes(double bytes);

/// A fraction as a percentage with one decimal: 0.062 -> "6.2%".
std::string format_percent(double fraction);

}  // namespace iobench
