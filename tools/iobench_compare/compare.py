"""Lining up benchmarks across result files: medians, ratios to a baseline, significance.

Names are `<workload>/<method>[/<param>:<value>]`; a table is one workload, its rows
are the rest of the name ("obuf", "obuf/buf:4096"), its column groups the files.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy
import scipy.stats

from .results import Benchmark, InputError, ResultFile

# Mann-Whitney U needs this many repetitions on each side before it is run at all.
MIN_REPETITIONS = 3

# A coefficient of variation at or above this is flagged (docs/methodology.md).
CV_WARNING = 0.05

# Context keys that must agree for times to be comparable; a difference is noted.
COMPARABLE_CONTEXT = ("suite", "scale", "build_type", "build_flags", "target_filesystem")


@dataclass
class Cell:
    """One benchmark in one file, summarised; times in seconds, rates per second.

    status is "ok", "failed" (error holds the reason; no number is reported) or
    "missing" (the file has no such benchmark). source says where the medians come
    from: "repetitions" (median of the iteration rows), "single run" (one
    repetition), or "median row" (only the file's median aggregate row).
    """

    status: str
    error: str | None = None
    source: str | None = None
    samples: list[float] = field(default_factory=list)  # wall time per repetition
    time: float | None = None
    cpu_time: float | None = None
    bytes_per_second: float | None = None
    items_per_second: float | None = None
    cv: float | None = None
    ratio: float | None = None  # time / the baseline's time
    p_value: float | None = None
    verdict: str | None = None  # baseline, significant, not significant, too few repetitions, identical samples

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass
class Row:
    """A method (with its parameters) of a workload, one Cell per file."""

    name: str  # full benchmark name
    key: str  # the name without the workload: "obuf/buf:4096"
    method: str  # "obuf"
    params: list[tuple[str, str]]  # [("buf", "4096")]
    cells: list[Cell]
    baseline: str | None = None  # what the row is compared with, for the CSV


@dataclass
class Workload:
    """One table: a workload's rows, and a note when it has no baseline."""

    name: str
    rows: list[Row]
    note: str | None = None


@dataclass
class Comparison:
    """Everything the renderers and the plots need."""

    files: list[ResultFile]
    workloads: list[Workload]
    baseline_file: int | None  # index of the baseline column, or None with a baseline method
    baseline_methods: list[str]
    alpha: float
    notes: list[str]


def split_name(name: str) -> tuple[str, str, str, list[tuple[str, str]]]:
    """Splits `<workload>/<method>[/<param>:<value>...]` into workload, key, method, params."""
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


def summarize(bench: Benchmark | None) -> Cell:
    """Medians of one benchmark's repetitions (or of what the file gives instead)."""
    if bench is None:
        return Cell("missing")
    if bench.error is not None:
        return Cell("failed", error=bench.error)
    if bench.real_times:
        n = len(bench.real_times)
        cell = Cell("ok", source="repetitions" if n > 1 else "single run", samples=list(bench.real_times))
        cell.time = float(numpy.median(bench.real_times))
        if len(bench.cpu_times) == n:
            cell.cpu_time = float(numpy.median(bench.cpu_times))
        for counter in ("bytes_per_second", "items_per_second"):
            values = getattr(bench, counter)
            if len(values) == n:
                setattr(cell, counter, float(numpy.median(values)))
        if n >= 2:
            cell.cv = float(scipy.stats.variation(bench.real_times, ddof=1))
        return cell
    if bench.median is not None:
        cell = Cell("ok", source="median row", time=bench.median["real_time"], cv=bench.cv)
        cell.cpu_time = bench.median.get("cpu_time")
        cell.bytes_per_second = bench.median.get("bytes_per_second")
        cell.items_per_second = bench.median.get("items_per_second")
        return cell
    return Cell("failed", error="no repetition and no median row in the file")


def significance(samples: list[float], base: list[float], alpha: float) -> tuple[float | None, str]:
    """Two-sided Mann-Whitney U test of two sets of wall times: (p-value, verdict).

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


def _compare(cell: Cell, base: Cell, alpha: float) -> None:
    if not cell.ok or not base.ok:
        return
    if base.time and base.time > 0:
        cell.ratio = cell.time / base.time
    cell.p_value, cell.verdict = significance(cell.samples, base.samples, alpha)


def _mark_baseline(cell: Cell) -> None:
    if cell.ok:
        cell.ratio = 1.0
        cell.verdict = "baseline"


def _baseline_row(rows: dict[str, Row], row: Row, specs: list[str]) -> Row | None:
    """The row `row` is compared with: the first spec present, with row's parameters if it has them."""
    for spec in specs:
        if "/" in spec:
            if spec in rows:
                return rows[spec]
            continue
        with_params = "/".join([spec] + [f"{k}:{v}" for k, v in row.params])
        if with_params in rows:
            return rows[with_params]
        if spec in rows:
            return rows[spec]
    return None


def _context_notes(files: list[ResultFile]) -> list[str]:
    notes = []
    for key in COMPARABLE_CONTEXT:
        values = [str(f.context.get(key, "?")) for f in files]
        if len(set(values)) > 1:
            listed = ", ".join(f"{v} ({f.label})" for v, f in zip(values, files))
            notes.append(f"the files differ in {key}: {listed}; their times may not be comparable")
    return notes


def compare(files: list[ResultFile], baseline_file: int = 0, baseline_methods: list[str] | None = None,
            alpha: float = 0.05) -> Comparison:
    """Lines up the files' benchmarks by name and compares each with its baseline.

    With `baseline_methods` every cell is compared with the first of those methods
    found in the same workload and file (same parameters if it has them);
    otherwise with the same benchmark in file `baseline_file` (0-based).
    Raises InputError if the files have no benchmark in common or no workload has
    any of the baseline methods.
    """
    baseline_methods = baseline_methods or []
    if len(files) > 1:
        common = set(files[0].benchmarks).intersection(*(f.benchmarks for f in files[1:]))
        if not common:
            names = [f.name for f in files]
            listed = " and ".join([", ".join(names[:-1]), names[-1]])
            raise InputError(f"{listed} have no benchmark in common")

    by_workload: dict[str, dict[str, Row]] = {}
    for f in files:
        for name in f.benchmarks:
            workload, key, method, params = split_name(name)
            rows = by_workload.setdefault(workload, {})
            if key not in rows:
                rows[key] = Row(name, key, method, params, [summarize(g.benchmarks.get(name)) for g in files])

    workloads = []
    found_baseline = False
    for workload, rows in by_workload.items():
        table = Workload(workload, list(rows.values()))
        for row in table.rows:
            if baseline_methods:
                base_row = _baseline_row(rows, row, baseline_methods)
                if base_row is None:
                    continue
                found_baseline = True
                row.baseline = base_row.name
                for cell, base in zip(row.cells, base_row.cells):
                    if base_row is row:
                        _mark_baseline(cell)
                    else:
                        _compare(cell, base, alpha)
            else:
                row.baseline = files[baseline_file].label
                for i, cell in enumerate(row.cells):
                    if i == baseline_file:
                        _mark_baseline(cell)
                    else:
                        _compare(cell, row.cells[baseline_file], alpha)
        if baseline_methods and all(row.baseline is None for row in table.rows):
            table.note = f"no baseline method ({', '.join(baseline_methods)}) in this workload"
        workloads.append(table)

    if baseline_methods and not found_baseline:
        methods = sorted({row.method for w in workloads for row in w.rows})
        raise InputError(f"--baseline-method {','.join(baseline_methods)}: no such method in these files "
                         f"(methods: {', '.join(methods)})")
    return Comparison(files, workloads, None if baseline_methods else baseline_file, baseline_methods, alpha,
                      _context_notes(files))


def sweeps(workload: Workload) -> dict[str, list[Row]]:
    """Parameter sweeps of a workload: parameter name -> rows, for every numeric
    parameter that takes at least two values ("buf" for `/buf:<bytes>`)."""
    found: dict[str, list[Row]] = {}
    for row in workload.rows:
        for k, v in row.params:
            if v.isdigit():
                found.setdefault(k, []).append(row)
    return {k: rows for k, rows in found.items() if len({dict(r.params)[k] for r in rows}) >= 2}
