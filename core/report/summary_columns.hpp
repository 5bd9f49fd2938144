// The columns of the console summary's tables, in order: one entry each, the
// same as iobench-compare's (tools/iobench_compare/columns.py); both are
// tested against tests/data/summary_columns.json, which says what each field,
// format and condition means, as is the README's legend (every header).
// core/report/summary.cpp lays its tables out from this table alone.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace iobench::summary_columns {

/// How a cell is aligned within its column.
enum class Align { left, right };

/// What a cell shows of its row (summary_columns.json's "fields").
enum class Field {
    label,       ///< the method and the parameters its table does not fix
    time,        ///< median wall time per run, seconds
    interval,    ///< half-width of the 95 % interval of the median, percent of the median
    throughput,  ///< bytes per wall second (0 when not counted)
    x_fastest,   ///< time / the fastest ranked row's time
    x_baseline,  ///< time / the time of the row of the --baseline-method with the same parameters
    x_smallest,  ///< binary_size / the smallest program's
    cold_warm,   ///< a cold row's time / the same method's warm time
    counter,     ///< Column::counter of the run that stands for the row, as it is
    cpu_share,   ///< Column::counter (CPU seconds per run) / wall seconds per run, where long enough to mean it
    cv,          ///< coefficient of variation of the repetitions' times
    latency,     ///< Column::counter (nanoseconds per call) in seconds; "≤" before it at the clock's resolution
    nanoseconds, ///< Column::counter (nanoseconds per run) in seconds
};

/// How a cell's value is written: core/report/number_format.hpp's kinds
/// (tests/data/number_format.json), the text as it is, or an interval's
/// half-width ("±1.2%").
enum class Format { text, interval, time, throughput, ratio, count, bytes, percent };

/// The rule of core/report/report_rules.hpp that appends "!" to a cell.
enum class Flag { none, cv_flag, interval_flag };

/// Which tables show a column (summary_columns.json's "shown").
enum class Shown { always, ranked_by_time, ranked_by_size, baseline, limit, cold_warm, instructions, per_call,
                   other_threads, heap, heap_peak, reads, writes, no_calls };

/// One column of a summary table.
struct Column {
    std::string_view key;     ///< its name in tests/data/summary_columns.json
    std::string_view header;  ///< the text above it
    Align align;
    std::size_t width;        ///< least width in characters; longer texts are not cut
    bool grows;               ///< widened to its longest text
    std::string_view unit;    ///< the unit of the value before it is written ("" for text)
    Field field;
    std::string_view counter;    ///< the counter read (Field::counter, cpu_share, throughput), else ""
    Format format;
    Flag flag;
    std::string_view reference;  ///< the text on a reference (`limit`) row instead of the value, or ""
    Shown shown;
};

/// Every column, in the order of the tables. The first is the rows' label:
/// a row that did not run shows it and then its reason.
inline constexpr auto columns = std::to_array<Column>({
    {"method", "method", Align::left, 6, true, "", Field::label, "", Format::text, Flag::none, "", Shown::always},
    {"time", "time", Align::right, 9, false, "seconds", Field::time, "", Format::time, Flag::none, "", Shown::always},
    {"ci", "95% CI", Align::right, 7, false, "percent of the median", Field::interval, "", Format::interval,
     Flag::interval_flag, "", Shown::always},
    {"throughput", "throughput", Align::right, 11, false, "bytes per second", Field::throughput, "bytes_per_second",
     Format::throughput, Flag::none, "", Shown::always},
    {"x_fastest", "x fastest", Align::right, 9, false, "ratio", Field::x_fastest, "", Format::ratio, Flag::none, "ref",
     Shown::ranked_by_time},
    {"x_baseline", "x baseline", Align::right, 10, false, "ratio", Field::x_baseline, "", Format::ratio, Flag::none,
     "", Shown::baseline},
    {"x_smallest", "x smallest", Align::right, 9, false, "ratio", Field::x_smallest, "", Format::ratio, Flag::none,
     "ref", Shown::ranked_by_size},
    {"x_limit", "x limit", Align::right, 7, false, "ratio", Field::counter, "x_limit", Format::ratio, Flag::none, "",
     Shown::limit},
    {"cold_warm", "cold/warm", Align::right, 9, false, "ratio", Field::cold_warm, "", Format::ratio, Flag::none, "",
     Shown::cold_warm},
    {"binary_size", "binary size", Align::right, 11, false, "bytes", Field::counter, "binary_size", Format::bytes,
     Flag::none, "", Shown::ranked_by_size},
    {"instructions_per_item", "instr/item", Align::right, 10, false, "instructions per item", Field::counter,
     "instructions_per_item", Format::count, Flag::none, "", Shown::instructions},
    {"p50", "p50 call", Align::right, 9, false, "seconds per call", Field::latency, "latency_p50_ns", Format::time,
     Flag::none, "", Shown::per_call},
    {"p90", "p90 call", Align::right, 9, false, "seconds per call", Field::latency, "latency_p90_ns", Format::time,
     Flag::none, "", Shown::per_call},
    {"p99", "p99 call", Align::right, 9, false, "seconds per call", Field::latency, "latency_p99_ns", Format::time,
     Flag::none, "", Shown::per_call},
    {"p999", "p99.9 call", Align::right, 10, false, "seconds per call", Field::latency, "latency_p999_ns", Format::time,
     Flag::none, "", Shown::per_call},
    {"max_call", "max call", Align::right, 9, false, "seconds per call", Field::latency, "latency_max_ns", Format::time,
     Flag::none, "", Shown::per_call},
    {"end_to_end", "end-to-end", Align::right, 10, false, "seconds per run", Field::nanoseconds, "end_to_end_ns",
     Format::time, Flag::none, "", Shown::other_threads},
    {"other_cpu", "other CPU", Align::right, 9, false, "CPU seconds per run", Field::nanoseconds,
     "other_threads_cpu_ns", Format::time, Flag::none, "", Shown::other_threads},
    {"heap_allocations", "allocs/item", Align::right, 11, false, "allocations per item", Field::counter,
     "heap_allocations_per_item", Format::count, Flag::none, "", Shown::heap},
    {"peak_heap", "peak heap", Align::right, 9, false, "bytes", Field::counter, "peak_heap_bytes", Format::bytes,
     Flag::none, "", Shown::heap_peak},
    {"read_calls", "read calls", Align::right, 11, false, "system calls per run", Field::counter, "read_calls",
     Format::count, Flag::none, "", Shown::reads},
    {"write_calls", "write calls", Align::right, 11, false, "system calls per run", Field::counter, "write_calls",
     Format::count, Flag::none, "", Shown::writes},
    {"calls", "calls", Align::right, 11, false, "system calls per run", Field::counter, "write_calls", Format::count,
     Flag::none, "", Shown::no_calls},
    {"bytes_per_call", "bytes/call", Align::right, 10, false, "bytes per call", Field::counter, "bytes_per_call",
     Format::bytes, Flag::none, "", Shown::always},
    {"sys", "sys", Align::right, 6, false, "fraction of the wall time", Field::cpu_share, "system_time",
     Format::percent, Flag::none, "", Shown::always},
    {"cv", "cv", Align::right, 6, false, "fraction", Field::cv, "", Format::percent, Flag::cv_flag, "", Shown::always},
});

}  // namespace iobench::summary_columns
