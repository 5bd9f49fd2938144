"""The counters a table can show, how each is named, derived and formatted.

iobench writes every counter per run: system calls, bytes per call,
user and system CPU seconds, page faults, context switches, storage traffic, and
x_limit (time / the workload's memory-bound limit row). "sys" is derived: system
time as a percentage of the wall time of a run. The columns iobench's summary shows
too have its headers, number formats and descriptions (columns.py, spec/summary_columns.json): a
counter column added there is known here, and shown by default, with no other edit.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import columns, rules, spec
from .number_format import FORMATS, format_time

# The operating system's counters iobench reports on every row, in iobench's order (name, unit of the
# per-run value): spec/os_counters.json, the package's data, from which iobench's build generates its own
# list (IOBENCH_OS_COUNTERS, cmake/GenerateOsCounters.cmake).
OS_COUNTERS = tuple((c["name"], c["unit"]) for c in spec.load("os_counters.json")["counters"])
OS_COUNTER_NAMES = tuple(name for name, _ in OS_COUNTERS)

# Counters every row has and that the tables show in their own columns (or never).
STANDARD = frozenset({"bytes_per_second", "items_per_second", "verified", "items", "bytes"})


# Below this much measured time per repetition the kernel's split of CPU time into
# user and system (by scheduler ticks of 1-10 ms) is noise: the sys share is left
# out, as iobench's own summary does (core/report/report_rules.hpp).
MIN_SECONDS_FOR_CPU_SHARE = rules.MIN_SECONDS_FOR_CPU_SHARE


def cpu_split_too_short(cell) -> bool:
    """True when a cell's repetitions measured too little time for a sys share to mean anything."""
    measured = getattr(cell, "measured", None)
    return measured is not None and measured < MIN_SECONDS_FOR_CPU_SHARE


@dataclass(frozen=True)
class Column:
    """A counter column: `key` is what --counters takes, `counter` the JSON counter it reads."""

    key: str
    header: str
    kind: str  # a kind of number_format.FORMATS (count, bytes, percent, ratio, ...), storage, seconds or number
    description: str
    counter: str
    latency: bool = False  # one call's time of a per-call row: the counter in ns, the value in seconds
    nanoseconds: bool = False  # a time per run in ns (end_to_end_ns): the value in seconds, never at the clock's resolution

    def value(self, cell) -> float | None:
        """The cell's value for this column (per run; seconds for a latency column), or None when the row
        does not carry it."""
        if self.latency or self.nanoseconds:
            ns = cell.counters.get(self.counter)
            return None if ns is None else ns / 1e9
        if self.key == "sys":
            system = cell.counters.get("system_time")
            if system is None or not cell.time or cpu_split_too_short(cell):
                return None
            return system / cell.time
        return cell.counters.get(self.counter)


def _summary_column(summary: columns.SummaryColumn) -> Column:
    """A column of iobench's summary: its header, number format, counter and description are the spec's."""
    return Column(summary.key, summary.header, summary.format, summary.description, summary.counter,
                  summary.field == "latency", summary.field == "nanoseconds")


# The summary's columns of one counter each that iobench-compare shows too (the spec's `compare`).
_COUNTED_FIELDS = ("counter", "cpu_share", "latency", "nanoseconds")
SUMMARY_COUNTERS = tuple(c for c in columns.SUMMARY_COLUMNS if c.compare and c.field in _COUNTED_FIELDS)


def _in_order(keys: tuple[str, ...]) -> list[str]:
    """The summary's counter columns in the order of `keys` (iobench-compare's own), then those the spec
    has and `keys` does not, in the spec's order."""
    known = [c.key for c in SUMMARY_COUNTERS]
    return [k for k in keys if k in known] + [k for k in known if k not in keys]


# A per-call figure within this many steps of the clock's resolution is an upper bound, not a measurement
# (iobench's at_clock_resolution, core/measure/latency.hpp).
RESOLUTION_STEPS = 4
AT_RESOLUTION = "≤"


def at_resolution(col: Column, cell) -> float | None:
    """The clock's resolution in ns when the cell's figure in latency column `col` is at most RESOLUTION_STEPS
    steps of it (the row's latency_resolution_ns), else None."""
    if not col.latency:
        return None
    ns, resolution = cell.counters.get(col.counter), cell.counters.get("latency_resolution_ns")
    if ns is None or not resolution or resolution <= 0 or ns > RESOLUTION_STEPS * resolution:
        return None
    return resolution


def resolution_legend(resolutions_ns) -> str:
    """The sentence under tables with a figure at the clock's resolution."""
    steps = ", ".join(format_time(ns / 1e9) for ns in sorted(set(resolutions_ns)))
    return (f"{AT_RESOLUTION}: at the clock's resolution ({steps}): an upper bound, not a measurement (a per-call "
            f"figure within {RESOLUTION_STEPS} steps of the clock that timed it; the file's latency_clock says which).")


# The order of --counters' names and of "all": iobench-compare's own (the summary orders its columns as
# the spec does).
_KNOWN_ORDER = ("write_calls", "read_calls", "bytes_per_call", "sys", "x_limit", "binary_size", "p50", "p90", "p99",
                "p999", "max_call", "end_to_end", "other_cpu", "instructions_per_item")
KNOWN = [_summary_column(columns.BY_KEY[key]) for key in _in_order(_KNOWN_ORDER)] + [
    Column("user_time", "user", "seconds", "user CPU time per run", "user_time"),
    Column("system_time", "system", "seconds", "system CPU time per run", "system_time"),
    Column("page_faults", "page faults", "count", "page faults per run", "page_faults"),
    Column("context_switches", "ctx switches", "count", "context switches per run", "context_switches"),
    Column("read_bytes", "storage read", "storage", "bytes read from storage per run", "read_bytes"),
    Column("write_bytes", "storage written", "storage", "bytes written to storage per run", "write_bytes"),
]
BY_KEY = {c.key: c for c in KNOWN}

# What the tables show unless --counters says otherwise (each only where a row carries it and
# it is not 0 in every row of the table: see compare._columns).
DEFAULT = _in_order(("write_calls", "read_calls", "bytes_per_call", "sys", "x_limit", "binary_size",
                     "instructions_per_item", "p50", "p90", "p99", "p999", "max_call", "end_to_end", "other_cpu"))

# The default tables show end-to-end and other CPU, as iobench's summary does, only where some row's other
# threads used CPU time: other_threads_cpu_ns at least this share of end_to_end_ns (core/report/summary.cpp,
# the summary's column condition "other_threads" in spec/summary_columns.json).
OTHER_THREADS_SHARE = 0.01
OTHER_THREADS_COLUMNS = frozenset({"end_to_end", "other_cpu"})


def other_threads_worked(cell) -> bool:
    """True when the cell's threads other than its callers used CPU time (its other_threads_cpu_ns at least
    OTHER_THREADS_SHARE of its end_to_end_ns)."""
    other, whole = cell.counters.get("other_threads_cpu_ns"), cell.counters.get("end_to_end_ns")
    return other is not None and whole is not None and other >= OTHER_THREADS_SHARE * whole


def column(key: str) -> Column:
    """The column for a --counters name: a known one, or any other counter under its JSON name."""
    return BY_KEY.get(key) or Column(key, key, "number", f"counter {key}", key)


def _storage(value: float) -> str:
    """Decimal units, as throughput is given: "12.3 MB"."""
    for scale, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
        if value >= scale:
            return f"{value / scale:.1f} {unit}"
    return f"{value:.0f} B"


def cell_text(col: Column, cell) -> str:
    """The text of the column's cell for `cell`: its value as format_value writes it, after "≤" where it is at
    the clock's resolution."""
    text = format_value(col, col.value(cell))
    return AT_RESOLUTION + text if at_resolution(col, cell) is not None else text


def format_value(col: Column, value: float | None) -> str:
    """The text of one counter cell ("-" when absent), written as tests/data/number_format.json says."""
    if value is None:
        return "-"
    if col.kind in FORMATS:
        return FORMATS[col.kind](value)
    if col.kind == "storage":
        return _storage(value)
    if col.kind == "seconds":
        return format_time(value)
    return f"{value:.4g}"
