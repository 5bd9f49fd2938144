"""The regression gate: --fail-on-regression PCT of BASE.json against NEW.json.

Every row of BASE (the limit rows aside: references, not methods) is judged
against the same row of NEW by the figures --gate-on names (default
instructions,syscalls), each figure the row carries in both files:

- `instructions`: instructions per item (`instructions_per_item`, iobench
  --instructions): a count, reproducible to about 5 significant digits, so a
  change beyond PCT is a change and no statistical test is made. A count of 0
  (or below) in a row that ran is not a count: bad input.
- `syscalls`: system calls per item by kind (`syscalls_write`, `_read`,
  `_sync`, `_futex`, `_memory`, `_other`; per run where the row has no `items`
  counter), counted exactly by the kernel: no test either. A kind with 0 in
  BASE and any in NEW (a new fdatasync per flush) is a regression whatever PCT;
  otherwise a change beyond PCT is. Where the counts depend on timing
  (`syscalls_exact` 0 on either side: several threads, a method's own threads, a
  program's process), only write, read and sync are judged.
- `time` (the median time per run, or per item where the table compares per
  item), `p50`, `p99`, `p99.9` (the per-call rows' latency_p50_ns,
  latency_p99_ns, latency_p999_ns of each repetition): the two-sided
  Mann-Whitney U test at --alpha on the repetitions decides, and its result is
  one of regression, improvement, no change or undecided (see judge_samples).

A row that carries none of the counts named in both files is judged by its
median time (a note says which rows). A row verified in BASE and failed in NEW
regressed. Coverage is part of the verdict: a row of BASE that NEW lacks (or
skipped), a method or family of --require without a row in a file, and a family
of a plugin or an added family named in either file's context without a row in
a file make the gate fail (not measured is not a pass). A row only NEW has is a
note. A row whose times are invalid (NaN, infinite, zero) or whose figures are
not finite is bad input.

Exit statuses (cli.py): 2 bad input or something not measured; 4 a
regression; undecided rows 2 (--undecided fail: 4; --undecided pass: 0); 0
passed. The last line says how many rows were judged and by which figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy
import scipy.stats

from .compare import MIN_REPETITIONS, Comparison, Row, Workload, describe, emulation_mismatch
from .number_format import format_time
from .results import ResultFile

# What --gate-on takes, and its default: the two exact counts (user space and the kernel's work).
FIGURES = ("instructions", "syscalls", "time", "p50", "p99", "p99.9")
DEFAULT_FIGURES = ("instructions", "syscalls")

INSTRUCTIONS = "instructions_per_item"

# How the report names each figure of --gate-on.
NAMES = {"instructions": "instructions per item", "syscalls": "system calls", "time": "median time",
         "p50": "p50 latency", "p99": "p99 latency", "p99.9": "p99.9 latency"}

# The latency percentiles of a per-call row (core/measure/latency.hpp: LatencySummary), in ns per call.
PERCENTILES = {"p50": "latency_p50_ns", "p99": "latency_p99_ns", "p99.9": "latency_p999_ns"}


@dataclass(frozen=True)
class SyscallKind:
    """A kind of system call iobench counts apart (core/os/syscall_counts.hpp: SyscallKind)."""

    counter: str  # the JSON counter: syscalls_write, ...
    name: str  # how a gate line names it
    exact_only: bool  # judged only where the counts are exact (one thread in iobench's process)


SYSCALL_KINDS = (
    SyscallKind("syscalls_write", "write-family system calls", False),
    SyscallKind("syscalls_read", "read-family system calls", False),
    SyscallKind("syscalls_sync", "fdatasync-family system calls", False),
    SyscallKind("syscalls_futex", "futex system calls", True),
    SyscallKind("syscalls_memory", "mmap-family system calls", True),
    SyscallKind("syscalls_other", "other system calls", True),
)
SYSCALLS_ALL = "syscalls"  # every system call: judged only where a file has no kinds
SYSCALLS_EXACT = "syscalls_exact"  # 1: exact counts; 0: they depend on timing


@dataclass
class Change:
    """One figure of one benchmark: a regression, an improvement or undecided (the rows with no change are only
    counted)."""

    benchmark: str
    kind: str  # "regression", "improvement" or "undecided"
    figure: str  # "instructions per item", "median time per run", "p99 latency per call", "write-family system
    #              calls per item", ..., or "verification" for a row that failed in NEW
    base: float | None
    new: float | None
    change: float | None  # new / base - 1; None for a failure, or a kind new in NEW (base 0)
    detail: str = ""  # the test's p-value, the smallest step it could detect, the failure's reason
    unit: str = ""  # how the numbers are written: "time", "ns", or "" (a plain number)


@dataclass
class GateResult:
    """What the gate found: every change beyond the threshold, what is undecided, what was not measured, bad
    input, and how many rows it judged by which figure."""

    threshold: float  # a fraction: 0.05 for 5 %
    changes: list[Change]
    notes: list[str]
    tested: int = 0  # rows judged: at least one figure with a verdict (regression, improvement, no change)
    by_figure: dict[str, int] = field(default_factory=dict)  # figure -> rows it judged
    missing: list[str] = field(default_factory=list)  # what was not measured (coverage): each fails the gate
    bad: list[str] = field(default_factory=list)  # bad input: rows that cannot be judged honestly

    @property
    def regressions(self) -> list[Change]:
        return [c for c in self.changes if c.kind == "regression"]

    @property
    def improvements(self) -> list[Change]:
        return [c for c in self.changes if c.kind == "improvement"]

    @property
    def undecided(self) -> list[Change]:
        return [c for c in self.changes if c.kind == "undecided"]


# Exit statuses of the gate (cli.py's): bad input or not measured, a regression.
EXIT_BAD = 2
EXIT_REGRESSION = 4
UNDECIDED_STATUS = {"error": EXIT_BAD, "fail": EXIT_REGRESSION, "pass": 0}


def status(result: GateResult, undecided: str = "error") -> int:
    """The exit status of a gate: 2 bad input; 4 a regression; 2 something not measured; for undecided rows
    UNDECIDED_STATUS[undecided] (`error` the default: 2); 2 when no row could be judged; else 0."""
    if result.bad:
        return EXIT_BAD
    if result.regressions:
        return EXIT_REGRESSION
    if result.missing:
        return EXIT_BAD
    if result.undecided and UNDECIDED_STATUS[undecided]:
        return UNDECIDED_STATUS[undecided]
    if not result.tested:
        return EXIT_BAD
    return 0


# --- the U test: regression, improvement, no change or undecided --------------------------------------------

def fewest_repetitions(alpha: float) -> int:
    """The fewest repetitions a side (as many on both) with which the exact two-sided U test can reach p < alpha:
    completely separated samples give p = 2 / C(2n, n) (4 at 0.05: 2/70 = 0.029)."""
    n = MIN_REPETITIONS
    while 2 / math.comb(2 * n, n) >= alpha:
        n += 1
    return n


def can_reach(n1: int, n2: int, alpha: float) -> bool:
    """Whether the exact two-sided U test of n1 against n2 values can give p < alpha at all (compare.significance
    calls the rest "too few repetitions")."""
    return n1 >= MIN_REPETITIONS and n2 >= MIN_REPETITIONS and 2 / math.comb(n1 + n2, n1) < alpha


def _p_value(new: list[float], base: list[float]) -> float:
    return float(scipy.stats.mannwhitneyu(new, base, alternative="two-sided").pvalue)


def detectable_step(base: list[float], new: list[float], alpha: float) -> float | None:
    """The smallest step the U test could have detected at `alpha` with these repetitions, as spread as they are:
    the smallest s such that NEW's repetitions made (1 + s) times slower, against BASE's, each side first scaled
    to its own median (so that only the spread of each remains, not the difference between them), give
    p < alpha. Exact, not simulated: the test changes only where a scaled NEW value passes a BASE value, so the
    candidates are the ratios of one to the other, searched by bisection (the p-value falls as s grows).
    None when no step is enough (can_reach is False)."""
    if not can_reach(len(base), len(new), alpha):
        return None
    b_mid, n_mid = float(numpy.median(base)), float(numpy.median(new))
    b = [x / b_mid for x in base]
    n = [x / n_mid for x in new]
    candidates = sorted({bi / ni - 1 for bi in b for ni in n if bi / ni - 1 >= 0} | {0.0})

    def separated_at(step: float) -> bool:
        shifted = step * (1 + 1e-9) + 1e-12  # just past the candidate: the two values no longer tie
        return _p_value([x * (1 + shifted) for x in n], b) < alpha

    low, high = 0, len(candidates) - 1
    if not separated_at(candidates[high]):
        return candidates[high]  # (cannot happen when can_reach: past every candidate they are separated)
    while low < high:
        mid = (low + high) // 2
        if separated_at(candidates[mid]):
            high = mid
        else:
            low = mid + 1
    return candidates[low]


def judge_samples(base: list[float], new: list[float], base_value: float, new_value: float, threshold: float,
                  alpha: float) -> tuple[str, str]:
    """A time or a percentile of NEW's repetitions against BASE's: (verdict, detail). The verdict is
    "regression" or "improvement" (p < alpha and the ratio of the medians beyond the threshold), "no change"
    (p < alpha within the threshold, p >= alpha with NEW not worse beyond it, or the very same samples), or
    "undecided": too few repetitions for the test ever to reach alpha (the detail says how many it needs), or
    p >= alpha while NEW is worse beyond the threshold (the detail gives the smallest step it could have
    detected, detectable_step)."""
    n1, n2 = len(base), len(new)
    ratio = new_value / base_value
    if not can_reach(n1, n2, alpha):
        fewest = fewest_repetitions(alpha)
        return "undecided", (f"{n1} vs {n2} repetitions: the U test cannot reach p < {alpha:g} whatever the step: "
                             f"run at least {fewest} each")
    if sorted(base) == sorted(new):
        return "no change", "the same repetitions"
    p = _p_value(new, base)
    if math.isnan(p):  # every value equal on both sides
        return "no change", "every repetition equal"
    if p < alpha:
        if ratio - 1 > threshold:
            return "regression", f"p = {p:.3g}"
        if ratio - 1 < -threshold:
            return "improvement", f"p = {p:.3g}"
        return "no change", f"p = {p:.3g}"
    if ratio - 1 <= threshold:  # (an apparent improvement the test does not confirm is no regression)
        return "no change", f"p = {p:.3g}"
    step = detectable_step(base, new, alpha)
    return "undecided", (f"p = {p:.3g} >= {alpha:g}: with {n1} vs {n2} repetitions as spread as these, the U test "
                         f"detects a step from {step:+.1%}" if step is not None else f"p = {p:.3g} >= {alpha:g}")


# --- one row -------------------------------------------------------------------------------------------------

def _median(values: list[float]) -> float:
    return float(numpy.median(values))


def _per_rep(bench, counter: str) -> list[float] | None:
    """The counter's value in each repetition (or the median row's, where the file has only that), or None."""
    values = bench.counters.get(counter)
    if values is not None and bench.real_times and len(values) == len(bench.real_times):
        return list(values)
    if not bench.real_times and bench.median is not None and counter in bench.median:
        return [bench.median[counter]]
    return None


def _per_item(bench, counter: str) -> tuple[float, str] | None:
    """The median per item of a count (per run where the row has no items counter), and "item" or "run"."""
    values = _per_rep(bench, counter)
    if values is None:
        return None
    items = _per_rep(bench, "items")
    if items is not None and len(items) == len(values) and all(i > 0 for i in items):
        return _median([v / i for v, i in zip(values, items)]), "item"
    return _median(values), "run"


def _count_change(name: str, figure: str, base: float, new: float, threshold: float,
                  counter: str) -> Change | None:
    """A count of NEW against BASE: the change beyond the threshold, or None. A count that was 0 in BASE and is
    not in NEW is a regression whatever the threshold (a kind of call the code did not make before)."""
    if base == 0:
        if new > 0:
            return Change(name, "regression", figure, base, new, None, f"new: {counter}")
        return None
    change = new / base - 1
    detail = f"a count ({counter}): no test needed" if counter != INSTRUCTIONS else "a count: no test needed"
    if change > threshold:
        return Change(name, "regression", figure, base, new, change, detail)
    if change < -threshold:
        return Change(name, "improvement", figure, base, new, change, detail)
    return None


class _Judge:
    """Judges the rows of one comparison; collects what GateResult holds."""

    def __init__(self, comparison: Comparison, threshold: float, figures: tuple[str, ...], alpha: float):
        self.files = comparison.files
        self.threshold = threshold
        self.figures = figures
        self.alpha = alpha
        self.changes: list[Change] = []
        self.notes: list[str] = []
        self.bad: list[str] = []
        self.missing: list[str] = []
        self.tested = 0
        self.by_figure: dict[str, set[str]] = {}  # figure -> the rows it judged
        self.by_time: list[str] = []  # rows judged by median time for want of the counts asked for
        self.not_exact: list[str] = []  # rows whose futex, memory and other calls were not judged
        self.judged_rows: set[str] = set()

    def _validate(self, name: str, benches) -> bool:
        """Bad input in the figures the gate may use: a counter that is not finite, instructions of 0 or below,
        a negative system-call count. Adds a line per problem; True when the row is sound."""
        sound = True
        used = [INSTRUCTIONS, "items", SYSCALLS_ALL, SYSCALLS_EXACT, *(k.counter for k in SYSCALL_KINDS),
                *PERCENTILES.values()]
        for side, bench in zip(("BASE", "NEW"), benches):
            for counter in used:
                if counter in bench.not_finite:
                    self.bad.append(f"{name}: {counter} is not finite (null, NaN or infinite) in {side}'s "
                                    f"repetition {bench.not_finite[counter] + 1}")
                    sound = False
        for counter in (INSTRUCTIONS,):
            values = [_per_rep(b, counter) for b in benches]
            if values[0] is not None and values[1] is not None:
                for side, other, v, w in (("BASE", "NEW", values[0], values[1]), ("NEW", "BASE", values[1],
                                                                                   values[0])):
                    if min(v) <= 0:
                        self.bad.append(f"{name}: {counter} is {min(v):g} in {side} ({other}: {_median(w):.6g}): a "
                                        "run that executed counts instructions")
                        sound = False
        for side, bench in zip(("BASE", "NEW"), benches):
            for counter in (SYSCALLS_ALL, *(k.counter for k in SYSCALL_KINDS)):
                values = _per_rep(bench, counter)
                if values is not None and min(values) < 0:
                    self.bad.append(f"{name}: {counter} is {min(values):g} in {side}: a count is never negative")
                    sound = False
            exact = _per_rep(bench, SYSCALLS_EXACT)
            if exact is not None and any(v not in (0, 1) for v in exact):
                self.bad.append(f"{name}: {SYSCALLS_EXACT} is {max(exact):g} in {side}: 1 or 0")
                sound = False
        return sound

    def _available(self, benches) -> list[str]:
        """The figures of --gate-on this row carries in both files."""
        found = []
        for figure in self.figures:
            if figure == "instructions":
                ok = all(_per_rep(b, INSTRUCTIONS) is not None for b in benches)
            elif figure == "syscalls":
                ok = all(any(_per_rep(b, c) is not None for c in (SYSCALLS_ALL, *(k.counter for k in SYSCALL_KINDS)))
                         for b in benches)
            elif figure == "time":
                ok = True
            else:
                ok = all(_per_rep(b, PERCENTILES[figure]) is not None for b in benches)
            if ok:
                found.append(figure)
        return found

    def _decided(self, name: str, figure: str) -> None:
        self.judged_rows.add(name)
        self.by_figure.setdefault(figure, set()).add(name)

    def _instructions(self, name: str, benches) -> None:
        base, new = (_median(_per_rep(b, INSTRUCTIONS)) for b in benches)
        change = _count_change(name, "instructions per item", base, new, self.threshold, INSTRUCTIONS)
        if change is not None:
            self.changes.append(change)
        self._decided(name, "instructions per item")

    def _syscalls(self, name: str, benches) -> None:
        exact = [_per_rep(b, SYSCALLS_EXACT) for b in benches]
        both_exact = all(e is not None and min(e) == 1 for e in exact)
        kinds = [k for k in SYSCALL_KINDS if all(_per_rep(b, k.counter) is not None for b in benches)]
        if not kinds:  # a file with the total only
            kinds = [SyscallKind(SYSCALLS_ALL, "system calls", True)]
        judged, unit = False, "run"
        for kind in kinds:
            if kind.exact_only and not both_exact:
                if name not in self.not_exact:
                    self.not_exact.append(name)
                continue
            (base, unit), (new, _) = (_per_item(b, kind.counter) for b in benches)
            figure = f"{kind.name} per {unit}"
            change = _count_change(name, figure, base, new, self.threshold, kind.counter)
            if change is not None:
                self.changes.append(change)
            judged = True
        if judged:
            self._decided(name, f"system calls per {unit}")

    def _sampled(self, name: str, figure: str, key: str, base: list[float] | None, new: list[float] | None,
                 base_value: float | None, new_value: float | None, unit: str, why_not: str = "") -> None:
        """A time or a percentile: judge_samples, or undecided when there is nothing to test."""
        if base_value is None or new_value is None or not base_value:
            self.changes.append(Change(name, "undecided", figure, base_value, new_value, None,
                                       why_not or "no value in both files", unit))
            return
        verdict, detail = judge_samples(base or [], new or [], base_value, new_value, self.threshold, self.alpha)
        if verdict == "no change":
            self._decided(name, key)
            return
        change = new_value / base_value - 1
        self.changes.append(Change(name, verdict, figure, base_value, new_value, change, detail, unit))
        if verdict != "undecided":
            self._decided(name, key)

    def _time(self, name: str, table: Workload, row: Row) -> None:
        base, new = row.cells[0], row.cells[1]
        why = f"not comparable: no {table.unit} count in both files" if table.per_item else ""
        self._sampled(name, f"median time per {table.unit}", "median time", base.value_samples,
                      new.value_samples, base.value, new.value, "time", why)

    def _percentile(self, name: str, figure: str, benches) -> None:
        counter = PERCENTILES[figure]
        base, new = (_per_rep(b, counter) for b in benches)
        self._sampled(name, f"{figure} latency per call", figure, base, new, _median(base), _median(new), "ns")

    def row(self, table: Workload, row: Row) -> None:
        name = row.name
        base_cell, new_cell = row.cells[0], row.cells[1]
        if base_cell.status == "missing":
            self.notes.append(f"{name}: only in NEW (a new benchmark): not judged")
            return
        if new_cell.status == "missing":
            self.missing.append(f"{name}: in BASE, no row in NEW")
            return
        for side, cell in (("BASE", base_cell), ("NEW", new_cell)):
            if cell.status == "invalid":
                self.bad.append(f"{name}: invalid in {side}: {cell.error}")
        if base_cell.status == "invalid" or new_cell.status == "invalid":
            return
        if base_cell.ok and new_cell.status == "failed":
            self.changes.append(Change(name, "regression", "verification", base_cell.value, None, None,
                                       f"failed in NEW: {new_cell.error or 'no result'}",
                                       "time" if not table.per_item else ""))
            self.judged_rows.add(name)
            return
        if base_cell.ok and new_cell.status == "skipped":
            self.missing.append(f"{name}: skipped in NEW ({new_cell.error}), verified in BASE")
            return
        if not base_cell.ok:
            self.notes.append(f"{name}: {base_cell.status} in BASE ({base_cell.error}): not judged"
                              + ("" if new_cell.ok else f"; {new_cell.status} in NEW too"))
            return
        why = emulation_mismatch(self.files[0], self.files[1])
        if why is not None:  # an emulator's time against a CPU's: never a verdict
            self.changes.append(Change(name, "undecided", f"median time per {table.unit}", base_cell.value,
                                       new_cell.value, None, why, "time"))
            return
        benches = [f.benchmarks[name] for f in self.files]
        if not self._validate(name, benches):
            return
        figures = self._available(benches)
        for figure in figures:
            if figure == "instructions":
                self._instructions(name, benches)
            elif figure == "syscalls":
                self._syscalls(name, benches)
            elif figure == "time":
                self._time(name, table, row)
            else:
                self._percentile(name, figure, benches)
        # None of the figures asked for could judge the row (none in both files, or only counts that depend on
        # timing): its median time does, and a note says so. Never judged by nothing.
        if name not in self.judged_rows and not any(c.benchmark == name for c in self.changes):
            self.by_time.append(name)
            self._time(name, table, row)


def _rows_of(f: ResultFile, name: str) -> list[str]:
    """The benchmarks of `f` whose method or family is `name`."""
    found = []
    for bench_name, bench in f.benchmarks.items():
        s = describe(bench_name, bench)
        if name in (s.method, s.family) and not s.reference:
            found.append(bench_name)
    return found


def context_families(f: ResultFile) -> list[tuple[str, str]]:
    """The families the file's context names: (family, where) for each family of a plugin (`plugins[].families`)
    and each added family (`added_families[].family`, iobench_add_executable's)."""
    found = []
    plugins = f.context.get("plugins")
    if isinstance(plugins, list):
        for plugin in plugins:
            families = plugin.get("families") if isinstance(plugin, dict) else None
            if isinstance(families, list):
                found += [(fam, "a plugin's family") for fam in families if isinstance(fam, str) and fam]
    added = f.context.get("added_families")
    if isinstance(added, list):
        for entry in added:
            family = entry.get("family") if isinstance(entry, dict) else None
            if isinstance(family, str) and family:
                found.append((family, "an added family"))
    return found


def _families_of(f: ResultFile) -> set[str]:
    return {describe(n, b).family for n, b in f.benchmarks.items()} - {None}


def _coverage(comparison: Comparison, required: list[str], judge: _Judge) -> None:
    """--require and the context's families: each must have rows in both files (and a row judged)."""
    base, new = comparison.files
    sides = (("BASE", base), ("NEW", new))
    for name in required:
        rows = {side: _rows_of(f, name) for side, f in sides}
        lacking = [side for side, found in rows.items() if not found]
        if lacking:
            where = "either file" if len(lacking) == 2 else lacking[0]
            judge.missing.append(f"--require {name}: no row of this method or family in {where}")
        elif not judge.judged_rows.intersection(rows["BASE"]):
            judge.missing.append(f"--require {name}: none of its {len(rows['BASE'])} row(s) could be judged")
    named: dict[str, str] = {}
    for side, f in sides:
        for family, what in context_families(f):
            named.setdefault(family, f"{what}, in {side}'s context")
    for family, what in named.items():
        for side, f in sides:
            if family not in _families_of(f):
                judge.missing.append(f"family {family} ({what}): no row in {side}")


def _listed(names: list[str], most: int = 8) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def gate(comparison: Comparison, threshold: float, figures: tuple[str, ...] = DEFAULT_FIGURES,
         required: list[str] | None = None, alpha: float | None = None) -> GateResult:
    """Checks NEW (the second file) against BASE (the first) at `threshold` (a fraction) by `figures` (FIGURES),
    requiring rows of each method or family in `required`. The comparison must hold exactly two files, the
    first the baseline; `alpha` defaults to the comparison's."""
    assert len(comparison.files) == 2 and comparison.baseline_file == 0
    judge = _Judge(comparison, threshold, tuple(figures), comparison.alpha if alpha is None else alpha)
    for table in comparison.workloads:
        for row in table.rows:
            if not row.is_limit:
                judge.row(table, row)
    _coverage(comparison, required or [], judge)
    notes = list(judge.notes)
    if judge.by_time:
        asked = " or ".join(NAMES[f] for f in figures if f != "time")
        notes.append(f"judged by median time (no {asked} in both files that could judge them): "
                     f"{_listed(judge.by_time)}")
    if judge.not_exact:
        notes.append("futex, mmap-family and other system calls not judged where their counts depend on timing "
                     f"(syscalls_exact 0: several threads or processes): {_listed(judge.not_exact)}")
    changes = sorted(judge.changes, key=lambda c: (["regression", "undecided", "improvement"].index(c.kind),
                                                   c.benchmark))
    order = ["instructions per item", "system calls per item", "system calls per run", "median time", "p50", "p99",
             "p99.9"]
    by_figure = {k: len(judge.by_figure[k]) for k in order if k in judge.by_figure}
    return GateResult(threshold, changes, notes, len(judge.judged_rows), by_figure, judge.missing, judge.bad)


# --- the report ----------------------------------------------------------------------------------------------

def _number(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "time":
        return format_time(value)
    if unit == "ns":
        return format_time(value * 1e-9)
    return f"{value:.6g}"


def _line(c: Change) -> str:
    if c.kind == "regression" and c.change is None and c.base == 0:  # a kind of system call new in NEW
        return f"{c.kind}: {c.benchmark}: 0 -> {_number(c.new, c.unit)}, {c.figure} ({c.detail})"
    change = f"{c.change:+.1%}" if c.change is not None else "failed"
    ratio = f" ({c.new / c.base:.3g}x)" if c.kind == "undecided" and c.base and c.new is not None else ""
    by = f" ({c.detail})" if c.detail else ""
    values = f"{_number(c.base, c.unit)} -> {_number(c.new, c.unit)}"
    return f"{c.kind}: {c.benchmark}: {values} {change}{ratio}, {c.figure}{by}"


def report(result: GateResult, undecided: str = "error") -> str:
    """The gate's lines: bad input, regressions, undecided rows, improvements, what was not measured, the notes,
    then one line with the verdict and how many rows were judged by which figure."""
    lines = [f"bad input: {b}" for b in result.bad]
    lines += [_line(c) for c in result.changes]
    lines += [f"not measured: {m}" for m in result.missing]
    lines += [f"note: {n}" for n in result.notes]
    limit = f"{result.threshold * 100:g} %"
    figures = ", ".join(f"{n} by {figure}" for figure, n in result.by_figure.items())
    judged = f"{result.tested} row(s) judged" + (f" ({figures})" if figures else "")
    n_reg, n_undecided = len(result.regressions), len(result.undecided)
    problems = []
    if result.missing:
        problems.append(f"{len(result.missing)} not measured")
    if n_undecided:
        problems.append(f"{n_undecided} undecided")
    if result.bad:
        lines.append(f"gate: FAILED, bad input: {len(result.bad)} problem(s) above; nothing else is trusted")
    elif n_reg:
        extra = "".join(f", {p}" for p in problems)
        lines.append(f"gate: FAILED, {n_reg} regression(s) beyond {limit}{extra}; {judged}")
    elif result.missing:
        lines.append(f"gate: FAILED, {', '.join(problems)}; {judged}")
    elif n_undecided and undecided != "pass":
        what = "FAILED (--undecided fail)" if undecided == "fail" else "undecided"
        lines.append(f"gate: {what}, {n_undecided} undecided (above: the ratio and the smallest step the test could "
                     f"detect); {judged}")
    elif not result.tested:
        lines.append(f"gate: FAILED, nothing judged (the rows above say why); {judged}")
    else:
        improvements = f", {len(result.improvements)} improvement(s)" if result.improvements else ""
        passed_undecided = f", {n_undecided} undecided let pass (--undecided pass)" if n_undecided else ""
        lines.append(f"gate: passed, no regression beyond {limit}{improvements}{passed_undecided}; {judged}")
    return "\n".join(lines) + "\n"
