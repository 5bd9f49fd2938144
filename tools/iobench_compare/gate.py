"""The regression gate: --fail-on-regression PCT of BASE.json against NEW.json.

A benchmark regressed when NEW is more than PCT percent worse than BASE by the
figure the two files share that decides best:

- instructions per item (`instructions_per_item`, --instructions), where the
  comparison compares them (every row of the table counts them, in both
  files: compare.py's COUNT_VERDICT): a count, reproducible to about 5
  significant digits, so a change beyond PCT is a change and no statistical
  test is made;
- else the median time (per run, or per item where the table compares per
  item), when the difference is significant (the two-sided Mann-Whitney U test
  the tables already show, at --alpha) and larger than PCT.

A row that verified in BASE and failed in NEW regressed too. Improvements (the
same tests the other way) are listed, and never fail the gate. The limit rows
(references, not methods) and rows one file lacks are left out, the latter
listed as a note.
"""

from __future__ import annotations

from dataclasses import dataclass

from .compare import COUNT_VERDICT, INSTRUCTIONS, Comparison, Row, Workload
from .number_format import format_time


@dataclass
class Change:
    """One benchmark whose figure moved beyond the threshold, or failed."""

    benchmark: str
    kind: str  # "regression" or "improvement"
    figure: str  # "instructions per item", "median time per run", ..., or "verification" for a failure
    base: float | None
    new: float | None
    change: float | None  # new / base - 1
    detail: str = ""  # the test's p-value, or the failure's reason


@dataclass
class GateResult:
    """What the gate found: every change beyond the threshold, and what it could not compare."""

    threshold: float  # a fraction: 0.05 for 5 %
    changes: list[Change]
    notes: list[str]
    tested: int = 0  # benchmarks the gate could judge (a count on both sides, or a time test with a verdict)

    @property
    def regressions(self) -> list[Change]:
        return [c for c in self.changes if c.kind == "regression"]

    @property
    def improvements(self) -> list[Change]:
        return [c for c in self.changes if c.kind == "improvement"]


def _time_figure(table: Workload) -> str:
    return f"median time per {table.unit}"


def _check_row(table: Workload, row: Row, threshold: float, notes: list[str]) -> tuple[bool, Change | None]:
    """Whether the row could be judged, and its change beyond `threshold` if any."""
    base, new = row.cells[0], row.cells[1]
    if base.status == "missing" or new.status == "missing":
        notes.append(f"{row.name}: only in {'NEW' if base.status == 'missing' else 'BASE'}, not compared")
        return False, None
    if base.ok and not new.ok:
        return True, Change(row.name, "regression", "verification", base.value, None, None,
                            f"{new.status} in NEW: {new.error or 'no result'}")
    if not (base.ok and new.ok):
        return False, None
    if new.verdict == COUNT_VERDICT:  # the table compares instruction counts (compare._compare)
        change = new.ratio - 1
        detail = "a count: no test needed"
        figure = "instructions per item"
        base_value, new_value = base.counters[INSTRUCTIONS], new.counters[INSTRUCTIONS]
    else:
        if new.verdict not in ("significant", "not significant", "identical samples"):
            notes.append(f"{row.name}: not judged: {new.verdict or 'not compared'}")
            return False, None
        if new.verdict != "significant":
            return True, None
        change = new.ratio - 1
        detail = f"p = {new.p_value:.3g}" if new.p_value is not None else ""
        figure = _time_figure(table)
        base_value, new_value = base.value, new.value
    if change > threshold:
        return True, Change(row.name, "regression", figure, base_value, new_value, change, detail)
    if change < -threshold:
        return True, Change(row.name, "improvement", figure, base_value, new_value, change, detail)
    return True, None


def gate(comparison: Comparison, threshold: float) -> GateResult:
    """Checks NEW (the second file) against BASE (the first) at `threshold`
    (a fraction). The comparison must hold exactly two files, the first the
    baseline."""
    assert len(comparison.files) == 2 and comparison.baseline_file == 0
    changes: list[Change] = []
    notes: list[str] = []
    tested = 0
    for table in comparison.workloads:
        for row in table.rows:
            if row.is_limit:
                continue
            judged, change = _check_row(table, row, threshold, notes)
            tested += judged
            if change is not None:
                changes.append(change)
    changes.sort(key=lambda c: (c.kind != "regression", c.benchmark))
    return GateResult(threshold, changes, notes, tested)


def _number(value: float | None, figure: str) -> str:
    if value is None:
        return "-"
    if figure.startswith("median time"):
        return format_time(value)
    return f"{value:.6g}"


def report(result: GateResult) -> str:
    """The gate's lines: one per regression and improvement, then the notes and the verdict."""
    lines = []
    for c in result.changes:
        change = f"{c.change:+.1%}" if c.change is not None else "failed"
        by = f" ({c.detail})" if c.detail else ""
        lines.append(f"{c.kind}: {c.benchmark}: {_number(c.base, c.figure)} -> {_number(c.new, c.figure)} "
                     f"{change}, {c.figure}{by}")
    for note in result.notes:
        lines.append(f"note: {note}")
    n = len(result.regressions)
    limit = f"{result.threshold * 100:g} %"
    if not result.tested:
        lines.append("gate: nothing could be judged: no benchmark has instructions per item in both files or "
                     "enough repetitions for the U test (4 against 4 at --alpha 0.05; the notes above say why)")
    elif n:
        lines.append(f"gate: FAILED, {n} regression(s) beyond {limit}")
    else:
        lines.append(f"gate: passed, no regression beyond {limit} ({len(result.improvements)} improvement(s))")
    return "\n".join(lines) + "\n"
