// The results file's parts as JSON values (core/report/json_report.cpp): what
// NamedJSONReporter writes, and what the tests hold against Google
// Benchmark's own JSONReporter. Internal to the reporters.
#pragma once

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <ctime>
#include <string>

#include "core/report/report.hpp"

namespace iobench::json_report {

/// The instant `now` (seconds since the epoch, as std::time gives it) in the
/// local time zone (TZ where set) as RFC 3339, `yyyy-mm-ddTHH:MM:SS+HH:MM`:
/// the local date and time, then its offset from UTC in hours and minutes
/// (`-` west of UTC, `+00:00` at UTC), as Google Benchmark writes its
/// context's date (LocalDateTimeString). Throws only std::bad_alloc.
std::string local_date_time(std::time_t now);

/// Google Benchmark's fields of the context block for `context`, in the order
/// and with the values its JSONReporter::ReportContext writes them (1.7:
/// date: the instant `now` as RFC 3339 local time, local_date_time;
/// host_name, executable, num_cpus, mhz_per_cpu, cpu_scaling_enabled where
/// known, caches, load_avg, library_build_type);
/// without the custom context (NamedJSONReporter::set_context). Where they
/// differ: load_avg is written exactly (Google Benchmark: 6 significant
/// digits), and the date always has its offset from UTC (Google Benchmark
/// writes the UTC time with RFC 3339's unknown offset, -00:00, where its C
/// runtime's strftime gives no numeric %z, as MinGW's msvcrt under wine).
nlohmann::ordered_json google_benchmark_context(const benchmark::BenchmarkReporter::Context& context, std::time_t now);

/// One row of the results file: Google Benchmark's fields of `run` in the
/// order and with the values its JSONReporter::PrintRunData writes them (name,
/// indices, run_name, run_type, repetitions, threads, the aggregate's name and
/// unit, the error, iterations, real_time and cpu_time in time_unit (a
/// percentage aggregate as it is), the counters by name, label), then the
/// structure of the row when `structure` is not null (NamedJSONReporter). A
/// number that is not finite is written as null (JSON has no NaN). Rows of
/// complexity fits and memory counts are not written: iobench asks for none.
nlohmann::ordered_json results_row(const benchmark::BenchmarkReporter::Run& run, const RowStructure* structure);

}  // namespace iobench::json_report
