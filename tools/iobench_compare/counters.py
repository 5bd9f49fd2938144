"""The counters a table can show, how each is named, derived and formatted.

iobench writes every counter per run: system calls, bytes per call,
user and system CPU seconds, page faults, context switches, storage traffic, and
x_limit (time / the workload's memory-bound limit row). "sys" is derived: system
time as a percentage of the wall time of a run. The columns iobench's summary shows
too have its headers and number formats (columns.py, tests/data/summary_columns.json).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import columns, rules
from .number_format import FORMATS, format_time

# The operating system's counters iobench reports on every row, in iobench's order (name, unit of the
# per-run value): core/os/os_counters.hpp's IOBENCH_OS_COUNTERS, both tested against tests/data/os_counters.json.
OS_COUNTERS = (
    ("read_calls", "count"),
    ("write_calls", "count"),
    ("user_time", "seconds"),
    ("system_time", "seconds"),
    ("page_faults", "count"),
    ("context_switches", "count"),
    ("read_bytes", "bytes"),
    ("write_bytes", "bytes"),
    ("steal_time", "seconds"),
    ("cpu_wait", "seconds"),
    ("run_queue_time", "seconds"),
)
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

    def value(self, cell) -> float | None:
        """The cell's value for this column (per run), or None when the row does not carry it."""
        if self.key == "sys":
            system = cell.counters.get("system_time")
            if system is None or not cell.time or cpu_split_too_short(cell):
                return None
            return system / cell.time
        return cell.counters.get(self.counter)


def _summary_column(key: str, description: str) -> Column:
    """A column of iobench's summary: its header, number format and counter are columns.py's."""
    spec = columns.BY_KEY[key]
    return Column(key, spec.header, spec.format, description, spec.counter)


KNOWN = [
    _summary_column("write_calls", "write system calls per run"),
    _summary_column("read_calls", "read system calls per run"),
    _summary_column("bytes_per_call", "bytes per read or write call"),
    _summary_column("sys", "system CPU time / wall time of a run"),
    _summary_column("x_limit", "time / the workload's memory-bound limit (the limit row)"),
    _summary_column("binary_size", "size of the row's program file (the binary_size workload)"),
    _summary_column("instructions_per_item",
                    "user-space instructions per item of the measured calls (iobench --instructions): the same in "
                    "every run, so compared as they are, without a significance test"),
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
DEFAULT = ["write_calls", "read_calls", "bytes_per_call", "sys", "x_limit", "binary_size", "instructions_per_item"]


def column(key: str) -> Column:
    """The column for a --counters name: a known one, or any other counter under its JSON name."""
    return BY_KEY.get(key) or Column(key, key, "number", f"counter {key}", key)


def _storage(value: float) -> str:
    """Decimal units, as throughput is given: "12.3 MB"."""
    for scale, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
        if value >= scale:
            return f"{value / scale:.1f} {unit}"
    return f"{value:.0f} B"


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
