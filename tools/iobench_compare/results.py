"""Reading Google Benchmark JSON result files, as iobench writes them.

A result file has a "context" object and a "benchmarks" list. With
--benchmark_repetitions=N every benchmark has N rows with "run_type": "iteration"
(one per repetition) and, after them, "aggregate" rows (mean, median, stddev, cv).
A benchmark that did not run has rows with "error_occurred": true and an
"error_message"; iobench starts the message with "skipped: " when the platform
refused the method (O_DIRECT on tmpfs, io_uring refused by the kernel), which is
not a failure.

Every numeric field of a row that Google Benchmark does not define itself is a
counter: iobench's bytes_per_second, items_per_second, verified, buffer_size, and
read_calls, write_calls, bytes_per_call, user_time, system_time,
page_faults, context_switches, read_bytes, write_bytes and x_limit, each per run.
A platform that does not provide a counter leaves it out.

With interleaved repetitions (iobench's default, Google Benchmark's
--benchmark_enable_random_interleaving) the benchmarks come in the file in a
random order; they are read back in the order they were registered (the suite's
order: family_index, per_family_instance_index), so that the same suite always
gives its tables in the same order.
"""

from __future__ import annotations

import json
import math
import os
import stat
from dataclasses import dataclass, field

from . import spec

# Seconds per Google Benchmark "time_unit".
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}

# Suffixes Google Benchmark appends to a name for the timing mode; iobench drops
# them already, other programs' results may still carry them.
_TIME_SUFFIXES = ("/manual_time", "/real_time")

# Row fields that Google Benchmark defines: every other number in a row is a counter.
_GB_FIELDS = frozenset({
    "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
    "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name",
    "aggregate_unit", "error_occurred", "error_message", "label", "big_o", "rms", "complexity_n",
})

# The spec of the results format (spec/results_format.json, installed with the package; iobench's build
# generates the names its code reads from it).
RESULTS_FORMAT = spec.load("results_format.json")

# How iobench marks a benchmark the platform refused (core/engine/outcome.hpp: Outcome::error_message).
SKIPPED_PREFIX: str = RESULTS_FORMAT["skipped_prefix"]


class InputError(Exception):
    """Bad input (a file, an option): reported as one line, exit status 2."""


@dataclass
class Benchmark:
    """One benchmark of one result file: its repetitions and what the file says about them.

    Times are in seconds, rates per wall second. real_times and every list in
    counters hold one value per repetition ("iteration" rows), in file order; a
    counter a repetition lacks (or reports as NaN or infinite) is left out of its
    list, so a counter is usable only when its list is as long as real_times.
    """

    name: str
    repetitions: int = 0  # the "repetitions" the run asked for
    real_times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)
    iterations: list[float] = field(default_factory=list)  # runs per repetition ("iterations"), where rows say
    counters: dict[str, list[float]] = field(default_factory=dict)
    median: dict[str, float] | None = None  # the "median" aggregate row: real_time, cpu_time (s), counters
    cv: float | None = None  # the "cv" aggregate row's real_time (a fraction)
    median_ci: tuple[float, float] | None = None  # the median row's median_ci_low/_high (s): iobench's interval
    #                                               of the median (files from before it wrote one: None)
    structure: dict | None = None  # what the rows say the benchmark is (workload, method, family, reference,
    #                                 params, item_unit, compared_per, calls_not_counted), or None in files from
    #                                 before they did
    label: str | None = None  # the rows' "label": what the runs did that the name does not say (a cold row:
    #                           how the file's pages were dropped)
    error: str | None = None  # the first error_message of a failed or skipped repetition
    invalid: str | None = None  # why the times cannot be used (NaN, infinite, zero or negative)
    not_finite: dict[str, int] = field(default_factory=dict)  # counter -> the first repetition (0-based) where it
    #                                                            was null, NaN or infinite (left out of counters)

    @property
    def skipped(self) -> bool:
        """True when the platform refused the method: not a failure."""
        return self.error is not None and self.error.startswith(SKIPPED_PREFIX)

    @property
    def has_result(self) -> bool:
        return self.error is None and self.invalid is None and (bool(self.real_times) or self.median is not None)


@dataclass
class ResultFile:
    """A result file: where it came from, its context and its benchmarks by name, in the order
    they were registered (the suite's; file order for rows without family_index)."""

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

    @property
    def emulator(self) -> str | None:
        """The CPU emulator the run was made under (the context's "emulator", core/os/emulator.hpp; "unnamed"
        where only the rows' "emulated" says so), or None for a run on the machine's own CPU."""
        value = self.context.get("emulator")
        if isinstance(value, str) and value:
            return value
        if any((b.structure or {}).get("emulated") is True for b in self.benchmarks.values()):
            return "unnamed"
        return None

    @property
    def available_counters(self) -> list[str] | None:
        """The context's "counters" (what this platform measures), or None if the file does not say."""
        value = self.context.get("counters")
        if not isinstance(value, str):
            return None
        return [c.strip() for c in value.split(",") if c.strip()]


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


def _is_finite(value) -> bool:
    return _is_number(value) and math.isfinite(value)


def _run_key(row: dict, run_type: str) -> str:
    """The benchmark a row belongs to: its run name, without aggregate or timing suffixes."""
    name = row.get("run_name")
    if not isinstance(name, str) or not name:
        name = row["name"]
        aggregate = _aggregate_name(row)
        if run_type == "aggregate" and aggregate is not None and name.endswith("_" + aggregate):
            name = name[: -len(aggregate) - 1]
    for suffix in _TIME_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name


def _registration(row: dict) -> tuple[int, int] | None:
    """Where the row's benchmark was registered: (family_index, per_family_instance_index), if the row says."""
    family, instance = row.get("family_index"), row.get("per_family_instance_index")
    if isinstance(family, int) and not isinstance(family, bool) and isinstance(instance, int) \
            and not isinstance(instance, bool):
        return family, instance
    return None


# The fields iobench writes on every row (iteration, aggregate, failed or skipped) about what it measured,
# in its order (the spec's row_structure); calls_not_counted only where the row has no read or
# write calls, with the reason; counters_scope only where the counters are a process's or a program's;
# emulated (true) only on the rows of a run on an emulated CPU; overwrites_existing (true) only on the
# limit_overwrite row, copies_in_memory (true) only on the memcpy row.
STRUCTURE_FIELDS = tuple(field["field"] for field in RESULTS_FORMAT["row_structure"])


def _structure(row: dict) -> dict | None:
    """The row's structure fields, or None when it has none (files from before iobench wrote them) or
    they are malformed."""
    if not isinstance(row.get("workload"), str) or not isinstance(row.get("method"), str):
        return None
    found = {k: row[k] for k in STRUCTURE_FIELDS if k in row}
    if not isinstance(found.get("params", {}), dict) or not isinstance(found.get("reference", False), bool):
        return None
    return found


def _not_a_result(path: str, why: str) -> InputError:
    return InputError(f"{path}: not a Google Benchmark result ({why})")


# The largest number a row may hold: a double's. (JSON allows integers of any
# length; Python reads them exactly, and float() of a longer one overflows.)
_MAX_DOUBLE = 1.7976931348623157e308

# Google Benchmark's whole-number fields and their ranges (its counts are int64).
_WHOLE_FIELDS = {
    "family_index": (0, 2**31 - 1),
    "per_family_instance_index": (0, 2**31 - 1),
    "repetitions": (0, 1_000_000),
    "repetition_index": (0, 1_000_000),
    "threads": (1, 1_000_000),
    "iterations": (0, 2**63 - 1),
}
_STRING_FIELDS = ("run_name", "time_unit", "aggregate_name", "aggregate_unit", "error_message", "label")
RUN_TYPES = ("iteration", "aggregate")
# The aggregates Google Benchmark appends as "<name>_<aggregate>" rows.
_AGGREGATE_NAMES = ("mean", "median", "stddev", "cv")


def _shown(value) -> str:
    """A field's value for a message: short, whatever it holds."""
    text = json.dumps(value)  # (NaN, Infinity: as the file spells them)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_whole_within(value, low: int, high: int) -> bool:
    """True when `value` is a whole number (an int, or a finite float without a fraction) from low to high."""
    return _is_number(value) and (isinstance(value, int) or (math.isfinite(value) and value.is_integer())) \
        and low <= value <= high


# The fields Google Benchmark defines that a row may leave out, checked in this order where present:
# (field, test of its value, what it must be).
_FIELD_RULES = (
    *((key, lambda value: isinstance(value, str), "a string") for key in _STRING_FIELDS),
    ("run_type", lambda value: value in RUN_TYPES, '"iteration" or "aggregate"'),
    ("error_occurred", lambda value: isinstance(value, bool), "true or false"),
    *((key, lambda value, low=low, high=high: _is_whole_within(value, low, high),
       f"a whole number from {low} to {high}") for key, (low, high) in _WHOLE_FIELDS.items()),
)
# Checked after every number is known to fit a double.
_UNIT_RULES = (("time_unit", lambda value: value in TIME_UNITS, "one of " + ", ".join(TIME_UNITS)),)


def _first_broken_rule(row: dict, rules) -> tuple[str, str] | None:
    """(field, what it must be) of the first of `rules` whose field the row has with a value that fails it."""
    for key, test, what in rules:
        if key in row and not test(row[key]):
            return key, what
    return None


def _check_row(path: str, index: int, row) -> None:
    """Checks the type and range of every field Google Benchmark defines and of
    every counter; raises InputError naming the benchmark, the field and the value.
    NaN and infinite times are let through (Google Benchmark writes them, iobench
    writes null for them; the benchmark is then marked invalid); a number beyond a
    double is not."""
    if not isinstance(row, dict) or not isinstance(row.get("name"), str) or not row["name"]:
        raise _not_a_result(path, f'benchmark {index + 1} has no "name"')
    name = row["name"]

    def bad(field: str, what: str) -> InputError:
        return InputError(f'{path}: benchmark {name!r}: "{field}" must be {what}, not {_shown(row[field])}')

    broken = _first_broken_rule(row, _FIELD_RULES)
    if broken:
        raise bad(*broken)
    for key, value in row.items():
        if _is_number(value) and isinstance(value, int) and abs(value) > _MAX_DOUBLE:
            raise bad(key, "a number within a double's range")
    broken = _first_broken_rule(row, _UNIT_RULES)
    if broken:
        raise bad(*broken)
    # Every other field is a counter (bytes_per_second, write_calls, ...): a number, or null where it
    # was not finite. A string there is a damaged file, not a counter to leave out without a word.
    for key, value in row.items():
        if key not in _GB_FIELDS and key not in STRUCTURE_FIELDS and value is not None and not _is_number(value):
            raise bad(key, "a number (a counter)")
    if row.get("error_occurred") is True:
        return
    real_time = row.get("real_time", False)  # (null: a time that was not finite)
    if not (real_time is None or _is_number(real_time)) or row.get("time_unit") not in TIME_UNITS:
        raise _not_a_result(path, f'benchmark {name!r} has no "real_time" with a "time_unit"')
    if row.get("cpu_time") is not None and not _is_number(row.get("cpu_time", 0)):
        raise bad("cpu_time", "a number")


def _run_types(rows: list[dict]) -> list[str]:
    """Each row's run type. Rows without "run_type" (files of other programs,
    older Google Benchmark) are aggregates when they have an "aggregate_name",
    or when their name is another row's name followed by _mean, _median,
    _stddev or _cv (how Google Benchmark names its aggregates); repetitions
    otherwise. Aggregates must not count as runs."""
    names = {row["name"] for row in rows}
    types = []
    for row in rows:
        run_type = row.get("run_type")
        if run_type is None:
            run_type = "iteration"
            if isinstance(row.get("aggregate_name"), str):
                run_type = "aggregate"
            else:
                for aggregate in _AGGREGATE_NAMES:
                    suffix = "_" + aggregate
                    if row["name"].endswith(suffix) and row["name"][:-len(suffix)] in names:
                        run_type = "aggregate"
                        break
        types.append(run_type)
    return types


def _aggregate_name(row: dict) -> str | None:
    """An aggregate row's aggregate ("median", ...): its "aggregate_name", or its name's suffix."""
    aggregate = row.get("aggregate_name")
    if isinstance(aggregate, str):
        return aggregate
    for aggregate in _AGGREGATE_NAMES:
        if row["name"].endswith("_" + aggregate):
            return aggregate
    return None


def _describe(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "infinite"
    return "zero" if value == 0 else f"negative ({value:g})"


def _counters(row: dict) -> dict[str, float]:
    """The row's counters with a finite value (NaN or infinity: as if absent)."""
    return {k: float(v) for k, v in row.items() if k not in _GB_FIELDS and _is_finite(v)}


def _not_finite_counters(row: dict) -> list[str]:
    """The row's counters that are null (iobench's spelling of a value that is not finite), NaN or infinite."""
    return [k for k, v in row.items() if k not in _GB_FIELDS and k not in STRUCTURE_FIELDS
            and (v is None or (_is_number(v) and not math.isfinite(v)))]


def _check_rows_of_each_benchmark(path: str, rows: list[dict], run_types: list[str]) -> None:
    """Refuses a file whose rows cannot be what Google Benchmark wrote, so that nothing built on them (a gate, a
    history) counts a repetition twice or takes an aggregate for a result: a repetition (run name and
    repetition_index) or an aggregate (run name and aggregate) twice, more repetitions than the rows'
    "repetitions", an aggregate row that names no aggregate, and a benchmark with aggregate rows but no
    repetition in a file that shows the repetitions of another benchmark of several (only
    --benchmark_report_aggregates_only leaves repetitions out, and it leaves them out of every benchmark with
    aggregates). Raises InputError naming the benchmark."""
    seen: dict[tuple, int] = {}
    iterations: dict[str, int] = {}
    declared: dict[str, int] = {}
    aggregates: set[str] = set()
    for index, (row, run_type) in enumerate(zip(rows, run_types)):
        key = _run_key(row, run_type)
        if _is_number(row.get("repetitions")):
            declared[key] = max(declared.get(key, 0), int(row["repetitions"]))
        if run_type == "aggregate":
            aggregate = _aggregate_name(row)
            if aggregate is None:
                raise InputError(f'{path}: benchmark {key!r}: row {index + 1} is an aggregate ("run_type": '
                                 '"aggregate") that names no aggregate (no "aggregate_name"): a relabelled '
                                 'repetition?')
            if row.get("error_occurred") is not True:
                aggregates.add(key)
            where = ("aggregate", key, aggregate)
            what = f"its {aggregate} row"
        else:
            iterations[key] = iterations.get(key, 0) + 1
            repetition = row.get("repetition_index")
            if repetition is None:
                continue
            where = ("iteration", key, repetition)
            what = f"repetition {repetition}"
        if where in seen:
            raise InputError(f"{path}: benchmark {key!r}: {what} appears twice (rows {seen[where] + 1} and "
                             f"{index + 1}): a file merged or edited by hand; a result file has each once")
        seen[where] = index
    for key, count in iterations.items():
        if declared.get(key, 0) and count > declared[key]:
            raise InputError(f"{path}: benchmark {key!r}: {count} repetition rows for the {declared[key]} "
                             'repetitions its rows declare ("repetitions")')
    # Only --benchmark_report_aggregates_only leaves repetitions out, of every benchmark that has aggregates
    # (those of one repetition have none and keep their row): a file that shows the repetitions of a benchmark
    # of several shows them all.
    if any(declared.get(key, 0) >= 2 for key in iterations):
        orphans = sorted(aggregates - set(iterations))
        if orphans:
            listed = ", ".join(repr(k) for k in orphans[:5]) + (f" and {len(orphans) - 5} more" if len(orphans) > 5
                                                                 else "")
            raise InputError(f"{path}: benchmark {listed}: aggregate rows but no repetition, while the file's other "
                             "benchmarks have theirs: rows removed or relabelled?")


def _benchmark_rows(path: str, data) -> list[dict]:
    """The document's "benchmarks" rows, each checked; raises InputError if it is not a benchmark result."""
    if not isinstance(data, dict):
        raise _not_a_result(path, "not a JSON object")
    rows = data.get("benchmarks")
    if isinstance(rows, list) and any(isinstance(r, dict) and "workload" in r and "name" not in r for r in rows):
        raise _not_a_result(path, "it looks like an iobench suite file")
    if not isinstance(rows, list):
        raise _not_a_result(path, 'no "benchmarks" list')
    if not isinstance(data.get("context"), dict):
        raise _not_a_result(path, 'no "context" object')
    for index, row in enumerate(rows):
        _check_row(path, index, row)
    if not rows:
        raise InputError(f"{path}: contains no benchmark")
    return rows


def _add_repetition(bench: Benchmark, row: dict, real_time: float, unit: float) -> None:
    """Adds an "iteration" row (one repetition) to its benchmark: its times, runs and counters."""
    if not (math.isfinite(real_time) and real_time > 0) and bench.invalid is None:
        bench.invalid = f"real_time is {_describe(real_time)} in repetition {len(bench.real_times) + 1}"
    bench.real_times.append(real_time * unit)
    if _is_finite(row.get("cpu_time")):
        bench.cpu_times.append(row["cpu_time"] * unit)
    if _is_finite(row.get("iterations")):
        bench.iterations.append(float(row["iterations"]))
    for name, value in _counters(row).items():
        bench.counters.setdefault(name, []).append(value)
    for name in _not_finite_counters(row):
        bench.not_finite.setdefault(name, len(bench.real_times) - 1)


def _add_median(bench: Benchmark, row: dict, real_time: float, unit: float) -> None:
    """Adds the "median" aggregate row to its benchmark: its times, counters and interval of the median."""
    if not (math.isfinite(real_time) and real_time > 0) and bench.invalid is None:
        bench.invalid = f"real_time is {_describe(real_time)} in the median row"
    bench.median = {"real_time": real_time * unit, **_counters(row)}
    low, high = bench.median.pop("median_ci_low", None), bench.median.pop("median_ci_high", None)
    if low is not None and high is not None:
        bench.median_ci = (low * unit, high * unit)
    if _is_finite(row.get("cpu_time")):
        bench.median["cpu_time"] = row["cpu_time"] * unit


def _add_row(bench: Benchmark, row: dict, run_type: str) -> None:
    """Adds a checked row to its benchmark: its structure, label and error, or its repetition, median or cv."""
    if bench.structure is None:
        bench.structure = _structure(row)
    if bench.label is None and row.get("label"):
        bench.label = str(row["label"])
    if _is_number(row.get("repetitions")):
        bench.repetitions = max(bench.repetitions, int(row["repetitions"]))
    if row.get("error_occurred") is True:
        if bench.error is None:
            bench.error = str(row.get("error_message") or "error occurred (no message)")
        return
    unit = TIME_UNITS[row["time_unit"]]
    aggregate = _aggregate_name(row) if run_type == "aggregate" else None
    real_time = math.nan if row["real_time"] is None else float(row["real_time"])
    if run_type == "iteration":
        _add_repetition(bench, row, real_time, unit)
    elif aggregate == "median":
        _add_median(bench, row, real_time, unit)
    elif aggregate == "cv":
        if math.isfinite(real_time):
            bench.cv = real_time


def _benchmarks(rows: list[dict], run_types: list[str]) -> dict[str, Benchmark]:
    """The rows gathered into benchmarks by run name, in registration order where every row says it, else file order."""
    benchmarks: dict[str, Benchmark] = {}
    registered: dict[str, tuple[int, int] | None] = {}
    for row, run_type in zip(rows, run_types):
        key = _run_key(row, run_type)
        bench = benchmarks.setdefault(key, Benchmark(key))
        registered.setdefault(key, _registration(row))
        _add_row(bench, row, run_type)
    for bench in benchmarks.values():
        bench.repetitions = max(bench.repetitions, len(bench.real_times))
    if all(r is not None for r in registered.values()):  # interleaved runs: the file's order is random
        benchmarks = dict(sorted(benchmarks.items(), key=lambda item: registered[item[0]]))
    return benchmarks


def parse(path: str, data) -> ResultFile:
    """Builds a ResultFile from decoded JSON; raises InputError if it is not a benchmark result.

    A benchmark whose wall time is NaN, infinite, zero or negative in any
    repetition (or in its median row) is kept but marked invalid, with the reason.
    """
    rows = _benchmark_rows(path, data)
    run_types = _run_types(rows)
    _check_rows_of_each_benchmark(path, rows, run_types)
    benchmarks = _benchmarks(rows, run_types)

    if not any(b.has_result for b in benchmarks.values()):
        first = next(iter(benchmarks.values()))
        why = first.error or first.invalid or "no repetition and no median row"
        raise InputError(f"{path}: no benchmark has a result: each of its {len(benchmarks)} failed, was skipped or "
                         f"is invalid ({first.name}: {why})")
    return ResultFile(path, data["context"], benchmarks)


def _json_error(path: str, text: str, e: json.JSONDecodeError) -> InputError:
    # An error at the very end of the text: the file stops in the middle of the JSON
    # (a run killed while writing it, a copy cut short).
    if e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string"):
        lines = text.rstrip().count("\n") + 1
        return InputError(f"{path}: truncated JSON: the file ends at line {lines} before the JSON is complete "
                          "(an interrupted run or copy?)")
    return InputError(f"{path}: not JSON ({e.msg} at line {e.lineno} column {e.colno})")


# The largest result file read: iobench's are kilobytes to a few megabytes.
MAX_FILE_BYTES = 256 * 1024 * 1024

_NOT_REGULAR = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                (stat.S_ISSOCK, "a socket"))


def load(path: str) -> ResultFile:
    """Reads and checks one result file; raises InputError with a one-line reason.

    Only a regular file (or a link to one) of at most MAX_FILE_BYTES is read: a
    FIFO would wait forever for a writer, /dev/zero would never end."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}") from None
    for test, what in _NOT_REGULAR:
        if test(st.st_mode):
            raise InputError(f"{path}: is {what}, not a result file (only regular files are read)")
    if stat.S_ISREG(st.st_mode) and st.st_size > MAX_FILE_BYTES:
        raise InputError(f"{path}: {st.st_size} bytes, more than a result file has "
                         f"(at most {MAX_FILE_BYTES // (1024 * 1024)} MiB are read)")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a result file") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not JSON (not UTF-8 text)") from None
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}") from None
    if not text.strip():
        raise InputError(f"{path}: empty file, not JSON")
    try:
        data = json.loads(text)  # accepts NaN and Infinity, as Google Benchmark may write them
    except json.JSONDecodeError as e:
        raise _json_error(path, text, e) from None
    except RecursionError:
        raise InputError(f"{path}: not a Google Benchmark result (nested too deeply)") from None
    return parse(path, data)
