"""Reading Google Benchmark JSON result files, as iobench writes them.

A result file has a "context" object and a "benchmarks" list. With
--benchmark_repetitions=N every benchmark has N rows with "run_type": "iteration"
(one per repetition) and, after them, "aggregate" rows (mean, median, stddev, cv).
A failed benchmark has rows with "error_occurred": true and an "error_message".
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

# Seconds per Google Benchmark "time_unit".
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}

# Suffixes Google Benchmark appends to a name for the timing mode; iobench drops
# them already, other programs' results may still carry them.
_TIME_SUFFIXES = ("/manual_time", "/real_time")


class InputError(Exception):
    """Bad input (a file, an option): reported as one line, exit status 2."""


@dataclass
class Benchmark:
    """One benchmark of one result file: its repetitions and what the file says about them.

    Times are in seconds, rates per wall second. The lists hold one value per
    repetition ("iteration" rows), in file order.
    """

    name: str
    repetitions: int = 0  # the "repetitions" the run asked for
    real_times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)
    bytes_per_second: list[float] = field(default_factory=list)
    items_per_second: list[float] = field(default_factory=list)
    median: dict[str, float] | None = None  # the "median" aggregate row: real_time, cpu_time (s), rates
    cv: float | None = None  # the "cv" aggregate row's real_time (a fraction)
    error: str | None = None  # the first error_message of a failed repetition


@dataclass
class ResultFile:
    """A result file: where it came from, its context and its benchmarks by name (file order)."""

    path: str
    context: dict
    benchmarks: dict[str, Benchmark]
    label: str = ""

    @property
    def name(self) -> str:
        """The file name without its directory: what tables print (no local paths)."""
        return os.path.basename(self.path)

    @property
    def repetitions(self) -> int:
        """The largest repetition count of any benchmark in the file."""
        return max((b.repetitions for b in self.benchmarks.values()), default=0)


def default_label(context: dict, path: str) -> str:
    """Column label from the context: compiler + version + OS ("GNU 12.2.0 / Linux").

    Falls back to the file name without ".json" when the context has no compiler
    (a result written by another Google Benchmark program).
    """
    compiler = context.get("compiler")
    system = context.get("os")
    if isinstance(compiler, str) and compiler:
        if isinstance(system, str) and system.split():
            return f"{compiler} / {system.split()[0]}"
        return compiler
    base = os.path.basename(path)
    return base[:-5] if base.endswith(".json") else base


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _run_key(row: dict) -> str:
    """The benchmark a row belongs to: its run name, without aggregate or timing suffixes."""
    name = row.get("run_name")
    if not isinstance(name, str) or not name:
        name = row["name"]
        aggregate = row.get("aggregate_name")
        if row.get("run_type") == "aggregate" and isinstance(aggregate, str) and name.endswith("_" + aggregate):
            name = name[: -len(aggregate) - 1]
    for suffix in _TIME_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name


def _not_a_result(path: str, why: str) -> InputError:
    return InputError(f"{path}: not a Google Benchmark result ({why})")


def _check_row(path: str, index: int, row) -> None:
    if not isinstance(row, dict) or not isinstance(row.get("name"), str):
        raise _not_a_result(path, f'benchmark {index + 1} has no "name"')
    if row.get("error_occurred") is True:
        return
    if not _is_number(row.get("real_time")) or row.get("time_unit") not in TIME_UNITS:
        raise _not_a_result(path, f'benchmark {row["name"]!r} has no "real_time" with a "time_unit"')


def parse(path: str, data) -> ResultFile:
    """Builds a ResultFile from decoded JSON; raises InputError if it is not a benchmark result."""
    if not isinstance(data, dict):
        raise _not_a_result(path, "not a JSON object")
    rows = data.get("benchmarks")
    if isinstance(rows, list) and any(isinstance(r, dict) and "workload" in r for r in rows):
        raise _not_a_result(path, "it looks like an iobench suite file")
    if not isinstance(rows, list):
        raise _not_a_result(path, 'no "benchmarks" list')
    if not isinstance(data.get("context"), dict):
        raise _not_a_result(path, 'no "context" object')
    for index, row in enumerate(rows):
        _check_row(path, index, row)
    if not rows:
        raise InputError(f"{path}: contains no benchmark")

    benchmarks: dict[str, Benchmark] = {}
    for row in rows:
        key = _run_key(row)
        bench = benchmarks.setdefault(key, Benchmark(key))
        if _is_number(row.get("repetitions")):
            bench.repetitions = max(bench.repetitions, int(row["repetitions"]))
        if row.get("error_occurred") is True:
            if bench.error is None:
                bench.error = str(row.get("error_message") or "error occurred (no message)")
            continue
        unit = TIME_UNITS[row["time_unit"]]
        run_type = row.get("run_type", "iteration")
        if run_type == "iteration":
            bench.real_times.append(row["real_time"] * unit)
            if _is_number(row.get("cpu_time")):
                bench.cpu_times.append(row["cpu_time"] * unit)
            for counter in ("bytes_per_second", "items_per_second"):
                if _is_number(row.get(counter)):
                    getattr(bench, counter).append(float(row[counter]))
        elif run_type == "aggregate" and row.get("aggregate_name") == "median":
            bench.median = {"real_time": row["real_time"] * unit}
            if _is_number(row.get("cpu_time")):
                bench.median["cpu_time"] = row["cpu_time"] * unit
            for counter in ("bytes_per_second", "items_per_second"):
                if _is_number(row.get(counter)):
                    bench.median[counter] = float(row[counter])
        elif run_type == "aggregate" and row.get("aggregate_name") == "cv":
            bench.cv = float(row["real_time"])
    for bench in benchmarks.values():
        bench.repetitions = max(bench.repetitions, len(bench.real_times))
    return ResultFile(path, data["context"], benchmarks)


def load(path: str) -> ResultFile:
    """Reads and checks one result file; raises InputError with a one-line reason."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a result file") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not JSON (not UTF-8 text)") from None
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: not JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    return parse(path, data)
