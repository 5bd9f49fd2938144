"""Lining up benchmarks across result files: medians, ratios to a baseline, significance.

Names are `<workload>/<method>[/<param>:<value>]`; a table is one workload, its rows
are the rest of the name ("obuf", "obuf/buf:4096"), with one line per file. What a
row is (its workload, method, family, parameters, whether it is the reference row,
what one item is) comes from the row's own fields; files written before iobench
wrote them fall back to the name (describe()).

What a table compares: the wall time of one run when every pair it compares ran
the same number of items; otherwise (files run with different --scale or
--file-size) the time per item (per integer, line, byte), which is 1 / the
repetition's items (or bytes) per second. Ratios and significance are computed
on that quantity only, never across different counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy
import scipy.stats

from . import counters as counter_columns
from . import rules
from .number_format import format_count
from .results import SKIPPED_PREFIX, Benchmark, InputError, ResultFile

# Mann-Whitney U needs this many repetitions on each side before it is run at all.
MIN_REPETITIONS = 3

# A coefficient of variation at or above this is flagged; the confidence level of the interval of a
# median (the 95% CI column, the error bars): spec/report_rules.json.
CV_WARNING = rules.CV_FLAG
CI_LEVEL = rules.CONFIDENCE

# Context keys that must agree for times to be comparable; a difference is noted.
COMPARABLE_CONTEXT = ("suite", "scale", "file_size", "build_type", "build_flags", "target_filesystem")

# Context keys that change the counts of a run: a difference makes tables compare per item.
COUNT_CONTEXT = ("scale", "file_size")

# Two runs did the same work when their items per run agree to 1 %: counted from the rows (rate x time),
# exact for repetitions, approximate for a median row alone (the median rate x the median time).
SAME_WORK = 0.01

# The method name of a workload's memory-bound limit row: a reference, not a method.
LIMIT_METHOD = "limit"


@dataclass(frozen=True)
class Structure:
    """What a benchmark is: its workload, the rest of its name (key), method, family (None when the file
    does not say), whether it is the workload's reference row, its parameters, what one item is and
    whether it is compared per item or per byte."""

    workload: str
    key: str
    method: str
    family: str | None
    reference: bool
    params: tuple[tuple[str, str], ...]
    item_unit: str
    compared_per: str  # "item" or "byte"


def describe(name: str, bench: Benchmark | None) -> Structure:
    """The structure of benchmark `name`: from its rows' fields, or, in files written before iobench
    wrote them, from the name and the workloads as they were then (the only place that knows them)."""
    found = bench.structure if bench is not None else None
    if found:
        # The row within its workload: the name after "<workload>/", as in files from before.
        workload = found["workload"]
        key = name[len(workload) + 1:] if name.startswith(workload + "/") else name
        return Structure(workload, key, found["method"], found.get("family"),
                         bool(found.get("reference", False)),
                         tuple((str(k), str(v)) for k, v in found.get("params", {}).items()),
                         str(found.get("item_unit") or "item"),
                         "byte" if found.get("compared_per") == "byte" else "item")
    workload, key, method, params = split_name(name)
    # Before: the limit row was named limit, file_read was compared per byte, and the item was this.
    units = {"ints_out": "integer", "ints_in": "integer", "doubles_out": "double", "doubles_in": "double",
             "hello": "line", "lines": "line", "endl": "line"}
    unit = units.get(workload, "message" if workload.startswith("console_") else "item")
    return Structure(workload, key, method, None, method == LIMIT_METHOD, tuple(params), unit,
                     "byte" if workload == "file_read" else "item")


def reads_a_file(f: ResultFile) -> bool:
    """Whether the file has a workload compared per byte (file_read, which reads a file of the context's
    file_size)."""
    return any(describe(name, b).compared_per == "byte" for name, b in f.benchmarks.items())


@dataclass
class Cell:
    """One benchmark in one file, summarised; times in seconds, rates per second.

    status is "ok", "failed", "skipped" (the platform refused the method),
    "invalid" (a time is NaN, infinite or not positive) or "missing" (the file has
    no such benchmark); error holds the reason of the three in between. source
    says where the medians come from: "repetitions" (median of the iteration
    rows), "single run" (one repetition) or "median row" (only the file's median
    aggregate row).
    """

    status: str
    error: str | None = None
    source: str | None = None
    samples: list[float] = field(default_factory=list)  # wall time per repetition
    time: float | None = None  # median wall time per run
    cpu_time: float | None = None
    bytes_per_second: float | None = None
    items_per_second: float | None = None
    cv: float | None = None
    counters: dict[str, float] = field(default_factory=dict)  # median per run of each counter
    items: float | None = None  # items per run
    bytes: float | None = None  # bytes per run
    rates: dict[str, list[float]] = field(default_factory=dict)  # "items"/"bytes" per second, per repetition
    measured: float | None = None  # seconds of measured time in the shortest repetition (its runs together)
    # What the table compares: the time per run, or per item (see Workload.unit).
    value: float | None = None
    value_samples: list[float] = field(default_factory=list)
    ci: tuple[float, float] | None = None  # 95% interval of the median value (None below 6 repetitions)
    time_ci: tuple[float, float] | None = None  # the file's own interval of the median time (s), where it has one
    x_fastest: float | None = None  # value / the fastest method's in the same file and workload
    cold_warm: float | None = None  # a cold-cache row: its time / the same method's warm-cache time, same file
    ratio: float | None = None  # value / the baseline's value
    p_value: float | None = None
    verdict: str | None = None  # baseline, significant, not significant, too few repetitions, identical samples,
    #                             not comparable

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def work(self, kind: str) -> float | None:
        """Items ("items") or bytes ("bytes") per run."""
        return self.items if kind == "items" else self.bytes


@dataclass
class Row:
    """A method (with its parameters) of a workload, one Cell per file."""

    name: str  # full benchmark name
    key: str  # the name without the workload: "obuf/buf:4096"
    method: str  # "obuf"
    params: list[tuple[str, str]]  # [("buffer_size", "4096"), ("cache", "warm")]
    cells: list[Cell]
    baseline: str | None = None  # what the row is compared with, for the CSV
    structure: Structure | None = None

    @property
    def is_limit(self) -> bool:
        """The workload's reference row (the memory-bound limit): never the fastest method."""
        return self.structure.reference if self.structure is not None else self.method == LIMIT_METHOD


@dataclass
class Workload:
    """One table: a workload's rows, what it compares and the counter columns it shows."""

    name: str
    rows: list[Row]
    note: str | None = None
    unit: str = "run"  # "run", or the item compared per: "integer", "line", "byte", ...
    unit_note: str | None = None  # why the table compares per item
    columns: list[counter_columns.Column] = field(default_factory=list)
    item_unit: str = "item"  # what one item is: "integer", "line", "message", ...
    compared_per: str = "item"  # per "item" or per "byte" when per item
    part: str | None = None  # the rows of one cache state of the workload: "cache:cold"
    cold_warm: bool = False  # whether the table has the cold / warm column
    # What ranks and compares the rows: "time", or "instructions" (instructions per item) where every
    # file's rows count them (iobench --instructions): a count, so ratios without a test or interval.
    figure: str = "time"

    @property
    def per_item(self) -> bool:
        return self.unit != "run"

    @property
    def title(self) -> str:
        """The workload's name, with the part of it the table holds: "file_read, cache:cold"."""
        return f"{self.name}, {self.part}" if self.part else self.name


@dataclass
class Summary:
    """The geometric mean of the ratios of one file to the baseline file (compare.py's OVERALL_GEOMEAN)."""

    file: int
    baseline: int
    geomean: float | None
    rows: int  # how many rows it covers
    per_item: int  # how many of them were compared per item
    by_instructions: int = 0  # how many of them by instructions per item rather than time


@dataclass
class Comparison:
    """Everything the renderers and the plots need."""

    files: list[ResultFile]
    workloads: list[Workload]
    baseline_file: int | None  # index of the baseline column, or None with a baseline method
    baseline_methods: list[str]
    alpha: float
    notes: list[str]
    summaries: list[Summary] = field(default_factory=list)
    counters: list[str] = field(default_factory=list)  # the --counters asked for

    @property
    def compares(self) -> bool:
        """Whether the tables have ratio and significance columns."""
        return self.baseline_file is None or len(self.files) > 1


def split_name(name: str) -> tuple[str, str, str, list[tuple[str, str]]]:
    """Splits `<workload>/<method>[/<param>:<value>...]` into workload, key, method, params: the one
    reader of benchmark names, for files written before rows carried their structure."""
    parts = name.split("/")
    if len(parts) == 1:
        return name, name, name, []
    workload, method, rest = parts[0], parts[1], parts[2:]
    params = []
    for part in rest:
        if ":" in part:
            k, v = part.split(":", 1)
            params.append((k, v))
        else:  # not iobench's <param>:<value>: part of the method
            method += "/" + part
    return workload, "/".join(parts[1:]), method, params


def median_interval_rank(n: int, level: float = CI_LEVEL) -> int:
    """The rank k of the distribution-free interval [x_(k), x_(n+1-k)] (sorted, 1-based) that holds the
    median of n values with probability >= level, or 0 when n values are too few (n < 6 at 95%).

    The interval misses the median when at most k - 1 values fall below it or above it: 2 P(B <= k - 1)
    for B ~ binomial(n, 1/2); k is the largest rank that keeps this at most 1 - level (as
    core/measure/median_interval.cpp's median_interval_rank)."""
    if n < 1:
        return 0
    tail = (1 - level) / 2
    k = 0
    for j in range(n):
        if scipy.stats.binom.cdf(j, n, 0.5) > tail + 1e-12:
            break
        k = j + 1
    return min(k, n // 2)


def median_interval(values: list[float], level: float = CI_LEVEL) -> tuple[float, float] | None:
    """The distribution-free interval of the median of `values` (see median_interval_rank), or None."""
    k = median_interval_rank(len(values), level)
    if k == 0:
        return None
    ordered = sorted(values)
    return ordered[k - 1], ordered[len(values) - k]


def _median(values: list[float]) -> float:
    return float(numpy.median(values))


def summarize(bench: Benchmark | None) -> Cell:
    """Medians of one benchmark's repetitions (or of what the file gives instead)."""
    if bench is None:
        return Cell("missing")
    if bench.error is not None:
        if bench.skipped:
            return Cell("skipped", error=bench.error[len(SKIPPED_PREFIX):].strip() or "no reason given")
        return Cell("failed", error=bench.error)
    if bench.invalid is not None:
        return Cell("invalid", error=bench.invalid)
    if bench.real_times:
        n = len(bench.real_times)
        cell = Cell("ok", source="repetitions" if n > 1 else "single run", samples=list(bench.real_times))
        # The interval of the median and the cv as iobench computed them where the file has them (its
        # median and cv rows), else from the repetitions (files from before, or not from iobench). The
        # median itself from the repetitions: the median row's is the same value, rounded differently.
        cell.time = _median(bench.real_times)
        cell.time_ci = bench.median_ci
        if len(bench.cpu_times) == n:
            cell.cpu_time = _median(bench.cpu_times)
        if len(bench.iterations) == n:
            cell.measured = min(i * t for i, t in zip(bench.iterations, bench.real_times))
        for name, values in bench.counters.items():
            if len(values) == n:
                cell.counters[name] = _median(values)
        for kind, counter in (("items", "items_per_second"), ("bytes", "bytes_per_second")):
            values = bench.counters.get(counter, [])
            if len(values) == n and all(v > 0 for v in values):
                cell.rates[kind] = list(values)
                setattr(cell, kind, _median([r * t for r, t in zip(values, bench.real_times)]))
        for kind in ("items", "bytes"):  # the rows' own counts per run, where they carry them: exact
            if cell.counters.get(kind, 0) > 0:
                setattr(cell, kind, cell.counters[kind])
        if bench.cv is not None and n >= 2:
            cell.cv = bench.cv
        elif n >= 2:
            cell.cv = float(numpy.std(bench.real_times, ddof=1) / numpy.mean(bench.real_times))
    elif bench.median is not None:
        median = bench.median
        cell = Cell("ok", source="median row", time=median["real_time"], cv=bench.cv, cpu_time=median.get("cpu_time"))
        cell.counters = {k: v for k, v in median.items() if k not in ("real_time", "cpu_time")}
        for kind, counter in (("items", "items_per_second"), ("bytes", "bytes_per_second")):
            if median.get(kind, 0) > 0:
                setattr(cell, kind, median[kind])
            elif median.get(counter, 0) > 0:
                setattr(cell, kind, median[counter] * cell.time)
    else:
        return Cell("invalid", error="no repetition and no median row in the file")
    cell.bytes_per_second = cell.counters.get("bytes_per_second")
    cell.items_per_second = cell.counters.get("items_per_second")
    return cell


def significance(samples: list[float], base: list[float], alpha: float) -> tuple[float | None, str]:
    """Two-sided Mann-Whitney U test of two sets of times: (p-value, verdict).

    The verdict is "too few repetitions" when either side has fewer than
    MIN_REPETITIONS, or when even completely separated samples of these sizes
    could not reach `alpha` (the exact test's smallest p-value is 2 / C(n1+n2, n1):
    0.10 for 3 against 3, 0.029 for 4 against 4, 0.008 for 5 against 5).
    """
    n1, n2 = len(samples), len(base)
    if n1 < MIN_REPETITIONS or n2 < MIN_REPETITIONS:
        return None, "too few repetitions"
    if sorted(samples) == sorted(base):
        return None, "identical samples"
    p = float(scipy.stats.mannwhitneyu(samples, base, alternative="two-sided").pvalue)
    if math.isnan(p):  # every value equal on both sides
        return None, "identical samples"
    if min(1.0, 2 / math.comb(n1 + n2, n1)) > alpha:
        return p, "too few repetitions"
    return p, "significant" if p < alpha else "not significant"


def _same_work(a: float, b: float) -> bool:
    return abs(a - b) <= SAME_WORK * max(abs(a), abs(b))


def _context_counts(f: ResultFile) -> tuple[str, ...]:
    return tuple(str(f.context.get(k, "")) for k in COUNT_CONTEXT)


def _work_kind(table: Workload, cells: list[Cell]) -> str:
    """What a per-item table counts: bytes for workloads compared per byte, else items; the other one when a
    result lacks the first (a file without items_per_second, say)."""
    ok = [c for c in cells if c.ok]
    preferred, other = ("bytes", "items") if table.compared_per == "byte" else ("items", "bytes")
    if all(c.work(preferred) for c in ok) or not all(c.work(other) for c in ok):
        return preferred
    return other


def _pairs(table: Workload, rows: dict[str, Row], files: list[ResultFile], baseline_file: int,
           baseline_methods: list[str]) -> list[tuple[Cell, int, Cell, int, Row]]:
    """Every (cell, its file, baseline cell, its file, row) the table compares."""
    pairs = []
    for row in table.rows:
        if baseline_methods:
            base_row = _baseline_row(rows, row, baseline_methods)
            if base_row is None:
                continue
            row.baseline = base_row.name
            for i, (cell, base) in enumerate(zip(row.cells, base_row.cells)):
                pairs.append((cell, i, base, i, base_row))
        else:
            row.baseline = files[baseline_file].label
            for i, cell in enumerate(row.cells):
                pairs.append((cell, i, row.cells[baseline_file], baseline_file, row))
    return pairs


def _choose_unit(table: Workload, pairs, files: list[ResultFile]) -> None:
    """Per run, unless a compared pair ran different counts: then per item (sets unit and unit_note)."""
    kind = _work_kind(table, [c for r in table.rows for c in r.cells])
    for cell, i, base, j, row in pairs:
        if cell is base or not (cell.ok and base.ok):
            continue
        a, b = cell.work(kind), base.work(kind)
        if a is not None and b is not None and not _same_work(a, b):
            word = "byte" if kind == "bytes" else table.item_unit
            table.unit = word
            if i == j:
                table.unit_note = f"the rows ran different counts: {format_count(b)} and {format_count(a)} {word}s per run"
            else:  # every file's count in this row, the files with the same count together
                counts: dict[float, list[str]] = {}
                for f, c in zip(files, row.cells):
                    if c.ok and c.work(kind) is not None:
                        same = next((k for k in counts if _same_work(k, c.work(kind))), c.work(kind))
                        counts.setdefault(same, []).append(f.label)
                listed = ", ".join(f"{format_count(n)} ({', '.join(labels)})" for n, labels in counts.items())
                table.unit_note = f"the files ran different counts of {word}s per run: {listed}"
            break
    for row in table.rows:
        for cell in row.cells:
            if not cell.ok:
                continue
            if not table.per_item:
                cell.value, cell.value_samples = cell.time, list(cell.samples)
                cell.ci = cell.time_ci or median_interval(cell.value_samples)
                continue
            work = cell.work(kind)
            if work:
                cell.value = cell.time / work
                rates = cell.rates.get(kind, [])
                cell.value_samples = [1.0 / r for r in rates]  # time per item of each repetition
                cell.ci = ((cell.time_ci[0] / work, cell.time_ci[1] / work) if cell.time_ci
                           else median_interval(cell.value_samples))


def emulation_mismatch(a: ResultFile, b: ResultFile) -> str | None:
    """Why times of `a` and `b` cannot be ranked against each other when one ran on an emulated CPU and the other
    on the machine's own (an emulator's times are not a CPU's), or None when both ran alike."""
    if (a.emulator is None) == (b.emulator is None):
        return None
    emulated, native = (a, b) if a.emulator is not None else (b, a)
    return (f"not comparable: {emulated.label} ran on an emulated CPU ({emulated.emulator.split(':')[0]}), "
            f"{native.label} on its own")


def _comparable(cell: Cell, i: int, base: Cell, j: int, table: Workload, files: list[ResultFile]) -> str | None:
    """Why the pair cannot be compared, or None."""
    if i != j and (why := emulation_mismatch(files[i], files[j])) is not None:
        return why
    if cell.value is None or base.value is None:
        return f"not comparable: no {table.unit} count"
    if not table.per_item and i != j and _context_counts(files[i]) != _context_counts(files[j]):
        kind = _work_kind(table, [cell, base])
        a, b = cell.work(kind), base.work(kind)
        if a is None or b is None:
            return "not comparable: different scale, no item count"
    return None


INSTRUCTIONS = "instructions_per_item"
COUNT_VERDICT = "a count: no test"


def _instructions_figure(table: Workload) -> bool:
    """True when every method row that ran, in every file, counts instructions per item (the limit
    rows aside): the table is then ranked and compared by them."""
    cells = [c for r in table.rows if not r.is_limit for c in r.cells if c.ok]
    return bool(cells) and all(c.counters.get(INSTRUCTIONS, 0) > 0 for c in cells)


def _figure(cell: Cell, table: Workload) -> float | None:
    """The value the table ranks by: instructions per item, or the time (per run or per item)."""
    if table.figure == "instructions":
        return cell.counters.get(INSTRUCTIONS)
    return cell.value


def _compare(cell: Cell, base: Cell, alpha: float, table: Workload) -> None:
    if table.figure == "instructions":
        a, b = cell.counters.get(INSTRUCTIONS), base.counters.get(INSTRUCTIONS)
        if a and b:
            cell.ratio, cell.p_value, cell.verdict = a / b, None, COUNT_VERDICT
            return
    cell.ratio = cell.value / base.value
    cell.p_value, cell.verdict = significance(cell.value_samples, base.value_samples, alpha)


def _mark_baseline(cell: Cell) -> None:
    if cell.ok:
        cell.ratio = 1.0
        cell.verdict = "baseline"


def _fastest(table: Workload, files: list[ResultFile]) -> None:
    """x fastest: each value / the smallest value of a method (not the limit row) in the same file."""
    for i in range(len(files)):
        values = [_figure(r.cells[i], table) for r in table.rows if not r.is_limit]
        values = [v for v in values if v]
        if not values:
            continue
        best = min(values)
        for row in table.rows:
            cell = row.cells[i]
            value = _figure(cell, table)
            if not row.is_limit and value:
                cell.x_fastest = value / best


def _order(table: Workload, ranked_by: int) -> None:
    """One order for every table and chart: the methods that ran, fastest first (by their value in file
    `ranked_by`, the baseline file); those that ran only in other files, in the suite's order; then the
    reference (limit) rows; then the rows without a result in any file (failed, skipped, invalid).
    A binary_size table (every row that ran carries the program's size) is ranked smallest first, as
    iobench's own summary ranks it."""
    by_size = all("binary_size" in row.cells[ranked_by].counters
                  for row in table.rows if row.cells[ranked_by].ok) and any(
        row.cells[ranked_by].ok for row in table.rows)

    def key(indexed: tuple[int, Row]):
        position, row = indexed
        ran = any(c.ok for c in row.cells)
        cell = row.cells[ranked_by]
        if not ran:
            return (3, 0.0, position)
        if row.is_limit:
            return (2, 0.0, position)
        if cell.ok:
            if by_size:
                return (0, cell.counters["binary_size"], position)
            if table.figure == "instructions":
                return (0, cell.counters[INSTRUCTIONS], position)
            return (0, cell.value if cell.value is not None else cell.time, position)
        return (1, 0.0, position)
    table.rows = [row for _, row in sorted(enumerate(table.rows), key=key)]


# The parameter a workload's tables are split by, and its values in table order.
CACHE_PARAM = "cache"
CACHE_STATES = ("warm", "cold")


def _split_by_cache(rows: dict[str, Row]) -> list[tuple[str | None, dict[str, Row]]]:
    """The parts of a workload that has rows in more than one cache state: one per state (warm first), each
    with the rows of that state and the rows without a cache parameter; else the whole workload."""
    states = {dict(r.params).get(CACHE_PARAM) for r in rows.values()} - {None}
    if len(states) < 2:
        return [(None, rows)]
    ordered = [s for s in CACHE_STATES if s in states] + sorted(states - set(CACHE_STATES))
    return [(f"{CACHE_PARAM}:{state}",
             {k: r for k, r in rows.items() if dict(r.params).get(CACHE_PARAM) in (state, None)})
            for state in ordered]


def _cold_warm(cold: Workload, warm: Workload) -> None:
    """Each cold row's time / the warm time of the same method with the same other parameters, per file."""
    def others(row: Row):
        return row.method, tuple(p for p in row.params if p[0] != CACHE_PARAM)

    warm_rows = {others(r): r for r in warm.rows if dict(r.params).get(CACHE_PARAM)}
    for row in cold.rows:
        match = warm_rows.get(others(row))
        if match is None or not dict(row.params).get(CACHE_PARAM):
            continue
        for cell, base in zip(row.cells, match.cells):
            if cell.ok and base.ok and cell.time and base.time:
                cell.cold_warm = cell.time / base.time
                cold.cold_warm = True


def _baseline_row(rows: dict[str, Row], row: Row, specs: list[str]) -> Row | None:
    """The row `row` is compared with: the first spec present, with row's parameters if it has them."""
    for spec in specs:
        if "/" in spec:
            if spec in rows:
                return rows[spec]
            continue
        same = [r for r in rows.values() if r.method == spec and r.params == row.params]
        if same:
            return same[0]
        if spec in rows:
            return rows[spec]
    return None


def _context_notes(files: list[ResultFile]) -> list[str]:
    notes = []
    emulated = [f for f in files if f.emulator is not None]
    for f in emulated:
        where = f"{f.label} ran" if len(files) > 1 else "the run ran"
        text = f"{where} on an emulated CPU ({f.emulator}): its times are the emulator's, not a CPU's"
        if len(emulated) < len(files):
            text += "; its rows are not compared with those of a file measured on a real CPU"
        notes.append(text)
    any_file_read = any(reads_a_file(f) for f in files)
    for key in COMPARABLE_CONTEXT:
        values = [str(f.context.get(key, "?")) for f in files]
        if key == "file_size" and not any_file_read:
            continue  # only file_read reads a file of that size
        if len(set(values)) > 1:
            listed = ", ".join(f"{v} ({f.label})" for v, f in zip(values, files))
            if key in COUNT_CONTEXT:
                notes.append(f"the files differ in {key}: {listed}; they ran different counts, so tables where "
                             "the counts differ compare time per item, not per run")
            else:
                notes.append(f"the files differ in {key}: {listed}; their times may not be comparable")
    return notes


def _row_notes(files: list[ResultFile]) -> list[str]:
    """What the rows of each file say beside their numbers, as iobench's own summary says it (core/report/report.cpp):
    why a row has no call counts (its calls_not_counted: a method whose I/O is no system call, or a platform
    that counts none, as wine), once for every row when it holds for all; and the rows' labels (how a cold
    row's pages were dropped), once per table."""
    notes = []
    for f in files:
        where = f" of {f.label}" if len(files) > 1 else ""
        methods, reasons, labels = [], {}, {}
        for name, bench in f.benchmarks.items():
            if bench.error is not None:
                continue
            structure = describe(name, bench)
            if structure.method not in methods:
                methods.append(structure.method)
            reason = (bench.structure or {}).get("calls_not_counted")
            if isinstance(reason, str) and reason:
                listed = reasons.setdefault(reason, [])
                if structure.method not in listed:
                    listed.append(structure.method)
            if bench.label:
                cache = dict(structure.params).get(CACHE_PARAM)
                title = f"{structure.workload}, {CACHE_PARAM}:{cache}" if cache else structure.workload
                listed = labels.setdefault(title, [])
                if bench.label not in listed:
                    listed.append(bench.label)
        for reason, listed in reasons.items():
            rows = "every row" if len(listed) == len(methods) else ", ".join(listed)
            notes.append(f"in the calls columns of {rows}{where}: {reason}")
        for title, listed in labels.items():
            notes.append(f"{title}{where}: {'; '.join(listed)}")
    return notes


def _no_common_benchmark(files: list[ResultFile]) -> InputError:
    names = [f.name for f in files]
    listed = " and ".join([", ".join(names[:-1]), names[-1]])
    suites = [str(f.context.get("suite", "?")) for f in files]
    if len(set(suites)) > 1:
        which = ", ".join(f"{s} ({n})" for s, n in zip(suites, names))
        return InputError(f"{listed} have no benchmark in common: they ran different suites ({which})")
    return InputError(f"{listed} have no benchmark in common")


def _columns(table: Workload, keys: list[str], asked: bool) -> list[counter_columns.Column]:
    """The counter columns of a table: those asked for that at least one result of the table carries.

    iobench writes every counter the platform measures, zeros included (read_calls
    of an output workload, read_bytes on tmpfs); a default column (`asked` False)
    that is 0 in every result of the table explains nothing and is left out. A
    column asked for with --counters is shown wherever a result carries it.
    """
    cells = [c for r in table.rows for c in r.cells if c.ok]
    columns = [counter_columns.column(k) for k in keys]
    values = {col.key: [v for v in (col.value(c) for c in cells) if v is not None] for col in columns}
    # End-to-end and other CPU by default only where a method's own threads worked (as the summary).
    others_worked = any(counter_columns.other_threads_worked(c) for c in cells)
    return [col for col in columns if values[col.key] and (asked or any(values[col.key]))
            and (asked or others_worked or col.key not in counter_columns.OTHER_THREADS_COLUMNS)]


def available_counters(files: list[ResultFile]) -> list[str]:
    """Every counter key --counters can name in these files: the known ones first, then the others."""
    present = set()
    for f in files:
        for b in f.benchmarks.values():
            present.update(b.counters)
            if b.median:
                present.update(k for k in b.median if k not in ("real_time", "cpu_time"))
    keys = [c.key for c in counter_columns.KNOWN if c.counter in present]
    others = sorted(present - {c.counter for c in counter_columns.KNOWN} - counter_columns.STANDARD)
    return keys + others


def resolve_counters(files: list[ResultFile], asked: list[str] | None) -> list[str]:
    """The counter keys to show: DEFAULT when not asked, "all", "none", or a list (InputError if unknown)."""
    if asked is None:
        return list(counter_columns.DEFAULT)
    available = available_counters(files)
    if asked == ["none"]:
        return []
    if asked == ["all"]:
        return available
    unknown = [k for k in asked if k not in available]
    if unknown:
        listed = ", ".join(available) if available else "none"
        raise InputError(f"--counters {','.join(asked)}: no counter {', '.join(unknown)} in these files "
                         f"(counters: {listed})")
    return asked


def _summaries(workloads: list[Workload], files: list[ResultFile], baseline_file: int) -> list[Summary]:
    summaries = []
    for i in range(len(files)):
        if i == baseline_file:
            continue
        ratios, per_item, counted = [], 0, 0
        for table in workloads:
            for row in table.rows:
                cell = row.cells[i]
                if row.is_limit or cell.ratio is None or cell.verdict in (None, "baseline"):
                    continue
                ratios.append(cell.ratio)
                if cell.verdict == COUNT_VERDICT:
                    counted += 1
                else:
                    per_item += table.per_item
        geomean = float(scipy.stats.gmean(ratios)) if ratios else None
        summaries.append(Summary(i, baseline_file, geomean, len(ratios), per_item, counted))
    return summaries


# A spread is put down to the host or to other work when the time the hypervisor took
# (steal_time) or tasks spent waiting for a CPU (cpu_wait) is at least this share of
# a run's wall time: as iobench's own summary says it (core/report/report_rules.hpp).
INTERFERENCE_SHARE = rules.INTERFERENCE_SHARE


def _spread(cell: Cell) -> bool:
    """True when a result's repetitions disagree: cv >= 5 % or a 95 % interval wider than ±5 %."""
    if cell.cv is not None and cell.cv >= CV_WARNING:
        return True
    if cell.ci is None or not cell.value:
        return False
    return max(cell.value - cell.ci[0], cell.ci[1] - cell.value) / cell.value > rules.INTERVAL_FLAG


def interference(comparison: Comparison) -> dict[str, list[str]]:
    """The results whose spread came with outside work, as "name (n%)" (with the file's label when
    there are several files): "host" where the hypervisor took CPU time (steal_time), else "cpu" where
    tasks waited for a CPU (cpu_wait); n is that time as a share of the run's wall time."""
    found: dict[str, list[str]] = {"host": [], "cpu": []}
    several = len(comparison.files) > 1
    for workload in comparison.workloads:
        for row in workload.rows:
            for f, cell in zip(comparison.files, row.cells):
                if not cell.ok or not cell.time or not _spread(cell):
                    continue
                for kind, counter in (("host", "steal_time"), ("cpu", "cpu_wait")):
                    share = cell.counters.get(counter, 0.0) / cell.time
                    if share >= INTERFERENCE_SHARE:
                        where = f", {f.label}" if several else ""
                        found[kind].append(f"{row.name} ({share:.0%}{where})")
                        break
    return found


def _note_short_runs(table: Workload) -> None:
    """Says why a sys cell is blank where a row's repetitions measured too little time."""
    if not any(c.key == "sys" for c in table.columns):
        return
    if not any(cell.ok and "system_time" in cell.counters and counter_columns.cpu_split_too_short(cell)
               for row in table.rows for cell in row.cells):
        return
    text = (f"{counter_columns.BY_KEY['sys'].header} is left out where a repetition's runs took under "
            f"{counter_columns.MIN_SECONDS_FOR_CPU_SHARE * 1000:.0f} ms in all: too short for the kernel's "
            f"split of CPU time into user and system (it samples scheduler ticks)")
    table.note = f"{table.note}; {text}" if table.note else text


def _rows_by_workload(files: list[ResultFile]) -> dict[str, dict[str, Row]]:
    """Every benchmark of the files as a row of its workload (keyed by the rest of its name), with a cell per file."""
    by_workload: dict[str, dict[str, Row]] = {}
    for f in files:
        for name, bench in f.benchmarks.items():
            structure = describe(name, bench)
            rows = by_workload.setdefault(structure.workload, {})
            if structure.key not in rows:
                rows[structure.key] = Row(name, structure.key, structure.method, list(structure.params),
                                          [summarize(g.benchmarks.get(name)) for g in files], structure=structure)
    return by_workload


def _compare_pairs(table: Workload, pairs, files: list[ResultFile], alpha: float) -> None:
    """Compares each cell of `pairs` (see _pairs) with its baseline cell, or sets the verdict saying why not."""
    for cell, i, base, j, base_row in pairs:
        if cell is base:
            _mark_baseline(cell)
        elif cell.ok and base.ok:
            why = _comparable(cell, i, base, j, table, files)
            if why is None:
                _compare(cell, base, alpha, table)
            else:
                cell.verdict = why


def _cold_warm_tables(workloads: list[Workload]) -> None:
    """Gives the rows of each cold-cache table their time against the warm table of the same workload."""
    for table in workloads:
        if table.part == f"{CACHE_PARAM}:cold":
            warm = [w for w in workloads if w.name == table.name and w.part == f"{CACHE_PARAM}:warm"]
            if warm:
                _cold_warm(table, warm[0])


def compare(files: list[ResultFile], baseline_file: int = 0, baseline_methods: list[str] | None = None,
            alpha: float = 0.05, counters: list[str] | None = None) -> Comparison:
    """Lines up the files' benchmarks by name and compares each with its baseline.

    With `baseline_methods` every cell is compared with the first of those methods
    found in the same workload and file (same parameters if it has them);
    otherwise with the same benchmark in file `baseline_file` (0-based).
    `counters`: the counter columns to show (see resolve_counters).
    Raises InputError if the files have no benchmark in common, no workload has
    any of the baseline methods, or a counter asked for is in no file.
    """
    baseline_methods = baseline_methods or []
    if len(files) > 1:
        common = set(files[0].benchmarks).intersection(*(f.benchmarks for f in files[1:]))
        if not common:
            raise _no_common_benchmark(files)
    counter_keys = resolve_counters(files, counters)

    by_workload = _rows_by_workload(files)
    parts = [(workload, part, part_rows) for workload, rows in by_workload.items()
             for part, part_rows in _split_by_cache(rows)]
    workloads = []
    found_baseline = False
    for workload, part, rows in parts:
        first = next(iter(rows.values())).structure
        table = Workload(workload, list(rows.values()), item_unit=first.item_unit, compared_per=first.compared_per,
                         part=part)
        pairs = _pairs(table, rows, files, baseline_file, baseline_methods)
        found_baseline |= bool(pairs)
        _choose_unit(table, pairs, files)
        if _instructions_figure(table):
            table.figure = "instructions"
        _compare_pairs(table, pairs, files, alpha)
        _fastest(table, files)
        _order(table, baseline_file if not baseline_methods else 0)
        if baseline_methods and all(row.baseline is None for row in table.rows):
            table.note = f"no baseline method ({', '.join(baseline_methods)}) in this workload"
        table.columns = _columns(table, counter_keys, counters is not None)
        _note_short_runs(table)
        workloads.append(table)

    _cold_warm_tables(workloads)
    if baseline_methods and not found_baseline:
        methods = sorted({row.method for w in workloads for row in w.rows})
        raise InputError(f"--baseline-method {','.join(baseline_methods)}: no such method in these files "
                         f"(methods: {', '.join(methods)})")
    summaries = _summaries(workloads, files, baseline_file) if not baseline_methods and len(files) > 1 else []
    return Comparison(files, workloads, None if baseline_methods else baseline_file, baseline_methods, alpha,
                      _context_notes(files) + _row_notes(files), summaries, counter_keys)


def sweeps(workload: Workload) -> dict[str, list[Row]]:
    """Parameter sweeps of a workload: parameter name -> rows, for every numeric
    parameter that takes at least two values ("buf" for `/buf:<bytes>`)."""
    found: dict[str, list[Row]] = {}
    for row in workload.rows:
        for k, v in row.params:
            if v.isdigit():
                found.setdefault(k, []).append(row)
    return {k: rows for k, rows in found.items() if len({dict(r.params)[k] for r in rows}) >= 2}
