"""Change points of a history's series: the runs where a benchmark's figure moved to another level.

Per benchmark of a series, separately for its median time and for its instructions per item, on
the log of the values (a step of x % weighs the same at any level), by binary segmentation: the
series is split where two levels fit it best, each part split again, until a split no longer
stands out of the runs' own noise. That test decides; finding the split only proposes:

- **Where** (proposed): the split that maximises sqrt(nL nR / n) |mean_L - mean_R| (the least
  squares' best single split) on the logs after a running median of RUNNING_MEDIAN runs, which
  removes one or two slow runs of a busy moment and keeps a step's edge where it is.
- **Whether** (decided): the step, the difference of the two parts' medians (of the raw logs),
  is at least THRESHOLD(n) standard errors, where the standard error of a part's median of k
  runs is sqrt(pi/2) sigma / sqrt(k) and sigma is the noise of one run: the larger of the
  run-to-run noise (the median absolute deviation of the differences between neighbouring runs,
  scaled to a normal standard deviation, / sqrt(2): differences see a step once, so steps barely
  move it), the runs' own noise (the median over the runs of the half width of their 95 %
  interval of the median / 1.96, for times whose results carry an interval) and a floor
  (TIME_NOISE, COUNT_NOISE: identical times and exact counts must not make every last digit a
  change); and, for times, the step is at least MIN_TIME_EFFECT.
- THRESHOLD(n) = THRESHOLD_BASE + sqrt(2 ln n): the largest of n - 1 candidate splits of pure
  noise grows like sqrt(2 ln n) standard errors; THRESHOLD_BASE is set so that flat series of 30
  runs show at most about 1 false change point in 1,000 (tools/tests/measure_change_points.py,
  docs/report.md, History).

A part has at least MIN_SEGMENT runs: one or two runs are no level, so a step is found once three
runs are on its far side. The work is O(n) per level of splitting (cumulative sums and medians
of numpy arrays): a series of n runs with c change points costs O(n (c + 1)) at most, O(n log n)
for splits that halve it; `WORK` counts the values examined (the tests check its growth).

Instructions per item are counts, the same to about 5 significant digits in every run of one
build (docs/report.md, the regression gate): a step of a few times COUNT_NOISE is already a
change of the code, and no minimum effect applies to them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy
import scipy.ndimage

from .history import Result, Series

# The fewest runs in a part: one run, or one slow run and one other, is no level.
MIN_SEGMENT = 3

# The width of the running median that proposes where to split (runs): removes 2 adjacent outliers.
RUNNING_MEDIAN = 5

# The decision's threshold in standard errors of the difference of two medians: THRESHOLD_BASE + sqrt(2 ln n).
THRESHOLD_BASE = 1.5

# A part is a level when at most 1 in STRAYS of its runs (rounded down) is nearer the other part's level: a part
# of 3 runs of which 2 are slow runs of a busy moment is no level.
STRAYS = 4
SHORT = 10

# The smallest noise believed, as a fraction (the standard deviation of log values): times, counts.
TIME_NOISE = 0.01
COUNT_NOISE = 0.0005

# The smallest step of a time taken for a change, whatever its significance: 5 %. Runs of one build on a
# shared machine drift by more than their intervals say (docs/report.md, History).
MIN_TIME_EFFECT = 0.05

# The standard error of a median of k normal values is sqrt(pi / 2) sigma / sqrt(k) (asymptotically).
_MEDIAN_SE = math.sqrt(math.pi / 2)

TIME = "time"
INSTRUCTIONS = "instr/item"
MACHINE = "machine"

# The fewest benchmarks with a time in a run for its machine level to be told apart from one benchmark's.
MACHINE_BENCHMARKS = 5

# The number of values examined by change_points since the module was loaded (its cost, for the tests).
WORK = 0


def threshold(n: int) -> float:
    """The step, in standard errors, that a split of a part of n runs must reach to be a change point."""
    return THRESHOLD_BASE + math.sqrt(2 * math.log(max(n, 2)))


def noise(log_values: numpy.ndarray) -> float:
    """The run-to-run noise of a series of log values (a standard deviation), robust to steps: the median
    absolute deviation of the first differences, scaled to a normal's standard deviation, / sqrt(2)."""
    if len(log_values) < 3:
        return 0.0
    differences = numpy.diff(log_values)
    mad = numpy.median(numpy.abs(differences - numpy.median(differences)))
    return float(mad) * 1.482602218505602 / math.sqrt(2)


def interval_noise(values: list[float], intervals: list[tuple[float, float] | None] | None) -> float:
    """The runs' own noise from their 95 % intervals of the median: the median over the runs with an interval
    of its half width in log units / 1.96 (the standard error of a run's median); 0 without intervals."""
    if not intervals:
        return 0.0
    widths = [(math.log(high) - math.log(low)) / 2 / 1.96 for v, ci in zip(values, intervals) if ci is not None
              for low, high in [ci] if 0 < low <= high]
    return float(numpy.median(widths)) if widths else 0.0


def _running_median(y: numpy.ndarray, width: int) -> numpy.ndarray:
    """The median of each value's window of `width` (odd) values around it; at the ends the end value stands
    for the values beyond it (scipy.ndimage's "nearest")."""
    if len(y) <= width:
        return y.copy()
    return scipy.ndimage.median_filter(y, size=width, mode="nearest")


def _best_split(f: numpy.ndarray) -> int:
    """The split k (MIN_SEGMENT <= k <= len - MIN_SEGMENT) of `f` that maximises sqrt(kL kR / n) |mean_L -
    mean_R|: the least-squares best split into two levels."""
    n = len(f)
    csum = numpy.cumsum(f)
    k = numpy.arange(MIN_SEGMENT, n - MIN_SEGMENT + 1)
    left = csum[k - 1] / k
    right = (csum[-1] - csum[k - 1]) / (n - k)
    score = (k * (n - k) / n) * (left - right) ** 2
    return int(k[int(numpy.argmax(score))])


def _refine(y: numpy.ndarray, start: int, end: int, k: int) -> int:
    """The split of y[start:end] within RUNNING_MEDIAN // 2 runs of k that is best on the raw values (the
    running median blurs an edge by up to that much in noisy series)."""
    reach = RUNNING_MEDIAN // 2
    low, high = max(start + MIN_SEGMENT, k - reach), min(end - MIN_SEGMENT, k + reach)
    part = y[start:end]
    n = end - start
    csum = numpy.cumsum(part)
    best, where = -1.0, k
    for j in range(low, high + 1):
        i = j - start
        score = i * (n - i) / n * (csum[i - 1] / i - (csum[-1] - csum[i - 1]) / (n - i)) ** 2
        if score > best:
            best, where = score, j
    return where


def change_points(values: list[float], floor: float, intervals: list[tuple[float, float] | None] | None = None,
                  min_effect: float = 0.0, base: float | None = None) -> list[int]:
    """Where the positive `values` (in order) change level: the indices that start a new part
    (0 < k < len(values)), by binary segmentation on their logs as described above. `intervals` (one per
    value, or None) are the runs' 95 % intervals of the median, `floor` the smallest noise believed,
    `min_effect` the smallest step (a fraction), `base` THRESHOLD_BASE unless given. A series too short for
    two parts of MIN_SEGMENT runs has none."""
    global WORK
    n = len(values)
    if n < 2 * MIN_SEGMENT:
        return []
    base = THRESHOLD_BASE if base is None else base
    y = numpy.log(numpy.asarray(values, dtype=float))
    sigma = max(noise(y), interval_noise(values, intervals), floor)
    smallest = math.log1p(min_effect) if min_effect > 0 else 0.0
    filtered = _running_median(y, RUNNING_MEDIAN)
    WORK += n
    found = []
    parts = [(0, n)]
    while parts:
        start, end = parts.pop()
        m = end - start
        if m < 2 * MIN_SEGMENT:
            continue
        WORK += m
        k = start + _best_split(filtered[start:end])
        k = _refine(y, start, end, k)
        left, right = y[start:k], y[k:end]
        low, high = float(numpy.median(left)), float(numpy.median(right))
        step = abs(high - low)
        error = _MEDIAN_SE * sigma * math.sqrt(1 / len(left) + 1 / len(right))
        if step < smallest or step < (base + math.sqrt(2 * math.log(m))) * error:
            continue
        middle = (low + high) / 2
        if high < low:
            left, right = -left, -right
            middle = -middle
        if ((len(left) < SHORT and numpy.count_nonzero(left > middle) > len(left) // STRAYS) or
                (len(right) < SHORT and numpy.count_nonzero(right < middle) > len(right) // STRAYS)):
            continue
        found.append(k)
        parts += [(start, k), (k, end)]
    return sorted(found)


@dataclass
class Change:
    """A step in one benchmark's figure in a series: the level before and after (medians of the runs of the
    two segments: seconds, or instructions per item), the change (after / before - 1), and the last run
    before the step and the first after it (their positions in the series' runs)."""

    series: Series
    benchmark: str
    figure: str  # TIME or INSTRUCTIONS
    before: float
    after: float
    last_before: int
    first_after: int

    @property
    def change(self) -> float:
        """The step as a fraction of the level before it: +0.10 is 10 % more (slower, or more instructions)."""
        return self.after / self.before - 1

    @property
    def regression(self) -> bool:
        """Slower, or more instructions per item."""
        return self.after > self.before

    @property
    def commits(self) -> str:
        """The commit range the step falls in: "label_a..label_b"."""
        return f"{self.series.runs[self.last_before].label}..{self.series.runs[self.first_after].label}"


def _figure(result: Result | None, figure: str) -> float | None:
    if result is None or not result.ok:
        return None
    value = result.median if figure == TIME else result.instructions
    return value if value is not None and value > 0 else None


def points(series: Series, benchmark: str, figure: str) -> list[tuple[int, float]]:
    """(run position in the series, value) of every run with a value of `figure` for `benchmark`."""
    found = []
    for index, result in enumerate(series.benchmarks.get(benchmark, [])):
        value = _figure(result, figure)
        if value is not None:
            found.append((index, value))
    return found


def machine_levels(series: Series) -> list[float]:
    """Per run of a series, the level of its machine as a factor: the median over the run's benchmarks (with a
    time) of each one's time over that benchmark's median time in the series, the factors then divided by their
    median over the runs. 1.0 for a run with fewer than MACHINE_BENCHMARKS benchmarks with a time (too few to
    tell the machine from a benchmark). A load that slows every benchmark of a run shows here."""
    n = len(series.runs)
    logs: list[list[float]] = [[] for _ in range(n)]
    for results in series.benchmarks.values():
        found = [(k, math.log(r.median)) for k, r in enumerate(results) if r is not None and r.ok and r.median > 0]
        if len(found) < 2:
            continue
        centre = float(numpy.median([v for _, v in found]))
        for k, v in found:
            logs[k].append(v - centre)
    level = numpy.array([float(numpy.median(v)) if len(v) >= MACHINE_BENCHMARKS else 0.0 for v in logs])
    counted = [len(v) >= MACHINE_BENCHMARKS for v in logs]
    if any(counted):
        level[numpy.array(counted)] -= float(numpy.median(level[numpy.array(counted)]))
    return [float(math.exp(v)) for v in level]


def changes(series: Series, benchmark: str, figure: str, machine: list[float] | None = None) -> list[Change]:
    """The change points of one benchmark's figure in a series (runs without a value left out); none of the
    time of runs under valgrind (~50x the real one, and not the figure: their instructions are). A time's
    change point is kept only where its times relative to their run's machine level (`machine`,
    machine_levels() unless given) change too (within one run): a step that every benchmark made together is
    the machine's (machine_changes), not this benchmark's. The levels before and after are of its own times."""
    if figure == TIME and not series.real_times:
        return []
    found = points(series, benchmark, figure)
    values = [v for _, v in found]
    if figure == TIME:
        results = series.benchmarks[benchmark]
        intervals = [results[x].ci for x, _ in found]
        starts = change_points(values, TIME_NOISE, intervals, MIN_TIME_EFFECT)
        if starts and len(series.benchmarks) >= MACHINE_BENCHMARKS:
            machine = machine_levels(series) if machine is None else machine
            relative = change_points([v / machine[x] for x, v in found], TIME_NOISE,
                                     [(ci[0] / machine[x], ci[1] / machine[x]) if ci is not None else None
                                      for (x, _), ci in zip(found, intervals)], MIN_TIME_EFFECT)
            starts = [k for k in starts if any(abs(k - j) <= 1 for j in relative)]
    else:
        starts = change_points(values, COUNT_NOISE)
    out = []
    bounds = [0, *starts, len(values)]
    for i, k in enumerate(starts):
        before = float(numpy.median(values[bounds[i]:k]))
        after = float(numpy.median(values[k:bounds[i + 2]]))
        out.append(Change(series, benchmark, figure, before, after, found[k - 1][0], found[k][0]))
    return out


def at_machine_step(change: Change, machine_steps: list[Change]) -> Change | None:
    """The machine's step (of machine_changes) within one run of a time's change point, or None."""
    if change.figure != TIME:
        return None
    return next((m for m in machine_steps if m.series is change.series and
                 abs(m.first_after - change.first_after) <= 1), None)


def machine_changes(series: Series, machine: list[float] | None = None) -> list[Change]:
    """The change points of the machine level of a series' runs (machine_levels; its figure MACHINE, its
    levels factors): steps every benchmark made together (a load, another machine behind the same name, or a
    change of the code common to all: their instructions per item tell which). None with fewer than
    MACHINE_BENCHMARKS benchmarks, or for times under valgrind."""
    if not series.real_times or len(series.benchmarks) < MACHINE_BENCHMARKS:
        return []
    machine = machine_levels(series) if machine is None else machine
    starts = change_points(machine, TIME_NOISE, None, MIN_TIME_EFFECT)
    bounds = [0, *starts, len(machine)]
    return [Change(series, "(every benchmark)", MACHINE, float(numpy.median(machine[bounds[i]:k])),
                   float(numpy.median(machine[k:bounds[i + 2]])), k - 1, k) for i, k in enumerate(starts)]


def all_changes(series_list: list[Series]) -> list[Change]:
    """Every change point of every benchmark and figure, series by series, benchmarks in name order,
    time before instructions."""
    out = []
    for series in series_list:
        machine = machine_levels(series)
        for benchmark in series.benchmarks:
            for figure in (TIME, INSTRUCTIONS):
                out += changes(series, benchmark, figure, machine)
    return out
