"""Exports of one result file for the services that track benchmarks over commits.

- Bencher Metric Format (https://bencher.dev/docs/reference/bencher-metric-format/):
  {"<benchmark>": {"latency": {"value", "lower_value", "upper_value"}, "throughput": {...}}},
  latency in nanoseconds per run (median, lower/upper: the fastest and slowest
  repetition), throughput in items per second (operations per second: integers,
  lines; bytes for byte workloads), with the same median/min/max.
- github-action-benchmark's customSmallerIsBetter
  (https://github.com/benchmark-action/github-action-benchmark): a list of
  {"name", "unit", "value", "range", "extra"}, value = median ns per run,
  range = "± <standard deviation of the repetitions>", extra = repetitions, cv,
  throughput and the counters the workload's table shows (--counters).

Only benchmarks with a result are exported: skipped, failed and invalid ones are
left out (the caller reports the failed and invalid ones). The output carries no
date and no path: the same file always gives the same bytes.
"""

from __future__ import annotations

import json

import numpy

from .compare import Cell, Comparison, Row, Workload
from . import counters as counter_columns
from .number_format import format_count, format_percent
from .render import format_throughput

NS = 1e9


def _rows(comparison: Comparison) -> list[tuple[Workload, Row, Cell]]:
    return [(w, r, r.cells[0]) for w in comparison.workloads for r in w.rows if r.cells[0].ok]


def _per_second(workload: Workload, cell: Cell) -> tuple[list[float], float | None, str]:
    """Throughput samples (per repetition), the median, and what is counted."""
    if workload.compared_per == "byte" or cell.items_per_second is None:
        return cell.rates.get("bytes", []), cell.bytes_per_second, "bytes"
    return cell.rates.get("items", []), cell.items_per_second, workload.item_unit + "s"


def _metric(value: float, samples: list[float], scale: float = 1.0) -> dict:
    metric = {"value": value * scale}
    if len(samples) > 1:
        metric["lower_value"] = min(samples) * scale
        metric["upper_value"] = max(samples) * scale
    return metric


def to_bencher(comparison: Comparison) -> str:
    """Bencher Metric Format JSON of the first (only) file."""
    out = {}
    for workload, row, cell in _rows(comparison):
        measures = {"latency": _metric(cell.time, cell.samples, NS)}
        samples, rate, _ = _per_second(workload, cell)
        if rate is not None:
            measures["throughput"] = _metric(rate, samples)
        if "binary_size" in cell.counters:
            measures["file-size"] = {"value": cell.counters["binary_size"]}
        out[row.name] = measures
    return json.dumps(out, indent=2) + "\n"


def _extra(comparison: Comparison, workload: Workload, cell: Cell) -> str:
    """Repetitions, cv, throughput, the counters the workload's table shows, and the build and platform."""
    f = comparison.files[0]
    n = len(cell.samples)
    parts = [f"median of {n} repetitions" if n > 1 else ("one repetition" if n == 1 else "median row")]
    if cell.cv is not None:
        parts.append(f"cv {format_percent(cell.cv)}")
    if cell.bytes_per_second is not None:
        parts.append(format_throughput(cell.bytes_per_second))
    _, rate, what = _per_second(workload, cell)
    if rate is not None and what != "bytes":
        parts.append(f"{format_count(rate)} {what}/s")
    for col in workload.columns:
        value = col.value(cell)
        if value is not None:
            parts.append(f"{col.header} {counter_columns.format_value(col, value)}")
    for key in ("compiler", "os", "target_filesystem", "scale"):
        if f.context.get(key) not in (None, ""):
            parts.append(f"{key} {f.context[key]}")
    return "; ".join(parts)


def to_github_action_benchmark(comparison: Comparison) -> str:
    """github-action-benchmark customSmallerIsBetter JSON of the first (only) file."""
    out = []
    for workload, row, cell in _rows(comparison):
        entry = {"name": row.name, "unit": "ns", "value": round(cell.time * NS, 3)}
        if len(cell.samples) > 1:
            entry["range"] = f"± {float(numpy.std(cell.samples, ddof=1)) * NS:.3f}"
        entry["extra"] = _extra(comparison, workload, cell)
        out.append(entry)
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def left_out(comparison: Comparison) -> list[str]:
    """The failed and invalid benchmarks an export leaves out, with the reason (skipped ones are normal)."""
    return [f"{r.name} ({r.cells[0].status}: {r.cells[0].error})" for w in comparison.workloads for r in w.rows
            if r.cells[0].status in ("failed", "invalid")]
