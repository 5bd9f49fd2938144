"""The columns of iobench's summary tables, one entry each, in the summary's order.

The same table as iobench's console summary (core/report/summary_columns.hpp); both are tested
against tests/data/summary_columns.json, which says what each field, format and condition means
(tools/tests/test_columns.py). iobench-compare shows the columns marked `compare` under the same
headers: its counter columns (counters.py) and its time, interval, throughput, cv, x fastest and
cold/warm columns (render.py). Its tables order their columns their own way and add their own
(file, ratio, significance, --counters).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SummaryColumn:
    """One column: its header, layout (`width` the least, `grows` to its longest text), the unit of
    its value, what a cell shows (`field`, of `counter` where one is named) and how it is written
    (`format`: a kind of number_format.FORMATS, "interval" or "text"), the rule that flags a cell with
    "!", the text on a reference row, which tables show it, and whether iobench-compare does."""

    key: str
    header: str
    align: str
    width: int
    grows: bool
    unit: str | None
    field: str
    counter: str | None
    format: str
    flag: str | None
    reference: str | None
    shown: str
    compare: bool


def _column(key, header, width, field, fmt, shown="always", *, unit, counter=None, align="right", grows=False,
            flag=None, reference=None, compare=True) -> SummaryColumn:
    return SummaryColumn(key, header, align, width, grows, unit, field, counter, fmt, flag, reference, shown, compare)


SUMMARY_COLUMNS = (
    _column("method", "method", 6, "label", "text", unit=None, align="left", grows=True),
    _column("time", "time", 9, "time", "time", unit="seconds"),
    _column("ci", "95% CI", 7, "interval", "interval", unit="percent of the median", flag="interval_flag"),
    _column("throughput", "throughput", 11, "throughput", "throughput", unit="bytes per second",
            counter="bytes_per_second"),
    _column("x_fastest", "x fastest", 9, "x_fastest", "ratio", "ranked_by_time", unit="ratio", reference="ref"),
    _column("x_baseline", "x baseline", 10, "x_baseline", "ratio", "baseline", unit="ratio", compare=False),
    _column("x_smallest", "x smallest", 9, "x_smallest", "ratio", "ranked_by_size", unit="ratio", reference="ref",
            compare=False),
    _column("x_limit", "x limit", 7, "counter", "ratio", "limit", unit="ratio", counter="x_limit"),
    _column("cold_warm", "cold/warm", 9, "cold_warm", "ratio", "cold_warm", unit="ratio"),
    _column("binary_size", "binary size", 11, "counter", "bytes", "ranked_by_size", unit="bytes",
            counter="binary_size"),
    _column("instructions_per_item", "instr/item", 10, "counter", "count", "instructions",
            unit="instructions per item", counter="instructions_per_item"),
    _column("p50", "p50 call", 9, "latency", "time", "per_call", unit="seconds per call", counter="latency_p50_ns"),
    _column("p90", "p90 call", 9, "latency", "time", "per_call", unit="seconds per call", counter="latency_p90_ns"),
    _column("p99", "p99 call", 9, "latency", "time", "per_call", unit="seconds per call", counter="latency_p99_ns"),
    _column("p999", "p99.9 call", 10, "latency", "time", "per_call", unit="seconds per call",
            counter="latency_p999_ns"),
    _column("max_call", "max call", 9, "latency", "time", "per_call", unit="seconds per call",
            counter="latency_max_ns"),
    _column("end_to_end", "end-to-end", 10, "nanoseconds", "time", "other_threads", unit="seconds per run",
            counter="end_to_end_ns"),
    _column("other_cpu", "other CPU", 9, "nanoseconds", "time", "other_threads", unit="CPU seconds per run",
            counter="other_threads_cpu_ns"),
    _column("heap_allocations", "allocs/item", 11, "counter", "count", "heap", unit="allocations per item",
            counter="heap_allocations_per_item", compare=False),
    _column("peak_heap", "peak heap", 9, "counter", "bytes", "heap_peak", unit="bytes", counter="peak_heap_bytes",
            compare=False),
    _column("read_calls", "read calls", 11, "counter", "count", "reads", unit="system calls per run",
            counter="read_calls"),
    _column("write_calls", "write calls", 11, "counter", "count", "writes", unit="system calls per run",
            counter="write_calls"),
    _column("calls", "calls", 11, "counter", "count", "no_calls", unit="system calls per run", counter="write_calls",
            compare=False),
    _column("bytes_per_call", "bytes/call", 10, "counter", "bytes", unit="bytes per call", counter="bytes_per_call"),
    _column("sys", "sys", 6, "cpu_share", "percent", unit="fraction of the wall time", counter="system_time"),
    _column("cv", "cv", 6, "cv", "percent", unit="fraction", flag="cv_flag"),
)
BY_KEY = {c.key: c for c in SUMMARY_COLUMNS}


def header(key: str) -> str:
    """The header of the summary's column `key` (KeyError if there is none)."""
    return BY_KEY[key].header
