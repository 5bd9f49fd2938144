"""Change points of a history's series: the runs where a benchmark's figure moved to another level.

Per benchmark of a series, separately for its median time and for its instructions per item,
ruptures' PELT (the exact segmentation that minimises a cost plus a penalty per change point;
Killick, Fearnhead and Eckley 2012) on the log of the values, so that a step of x % weighs the
same at any level. The cost is the least absolute deviation from each segment's median
(ruptures' "l1"): one run of a busy moment, 50 % slower, moves a median not at all, where it
would make a squared-error cost ("l2") see a change on each side of it (measured: 4 false
change points per 30 runs against 0.5; docs/report.md, History). The penalty is PENALTY_FACTOR x
sigma x ln(n), BIC-shaped, with sigma the run-to-run noise of the series estimated robustly: the
median absolute deviation of the differences between neighbouring runs, scaled to a normal
standard deviation and divided by sqrt(2) (a difference has the noise of two runs). Differences
see a step once, so a few steps barely move the estimate, where the series' own spread would
count each step as noise. The noise is taken as at least TIME_NOISE or COUNT_NOISE: a series
steadier than that (identical times, exact counts) must not make every last-digit wobble a
change. A segment has at least MIN_SEGMENT runs: one run is no level, so a step is found once
two runs are on its far side.

Instructions per item are counts, the same to about 5 significant digits in every run of one
build (docs/report.md, the regression gate): a step of a few times COUNT_NOISE is already a change
of the code. How well this finds known steps: tools/tests/measure_change_points.py, quoted in
docs/report.md (History).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy
import ruptures
import scipy.stats

from .history import Result, Series

# The fewest runs in a segment: one run is no level.
MIN_SEGMENT = 2

# The penalty per change point, in units of sigma ln(n) (sigma: the noise, as a standard deviation of the
# log values): on the synthetic series of tools/tests/measure_change_points.py, 1.5 found a few more small
# steps and twice the false ones, 2 a step of 4 sigma or more nearly always with about one false change point
# in 100 series of 30 runs (docs/report.md, History).
PENALTY_FACTOR = 2.0

# ruptures' cost: the least absolute deviation from a segment's median.
COST = "l1"

# The smallest noise believed, as a fraction (the standard deviation of log values): times, counts.
TIME_NOISE = 0.01
COUNT_NOISE = 0.0005

TIME = "time"
INSTRUCTIONS = "instr/item"


def noise(log_values: numpy.ndarray) -> float:
    """The run-to-run noise of a series of log values (a standard deviation), robust to steps: the MAD of
    the first differences, scaled to a normal's standard deviation, / sqrt(2)."""
    if len(log_values) < 3:
        return 0.0
    differences = numpy.diff(log_values)
    return float(scipy.stats.median_abs_deviation(differences, scale="normal")) / math.sqrt(2)


def change_points(values: list[float], floor: float, penalty_factor: float = PENALTY_FACTOR) -> list[int]:
    """Where the positive `values` (in order) change level: the indices that start a new segment
    (0 < k < len(values)), found by PELT on their logs with the cost and penalty described above, the
    noise taken as at least `floor`. A series too short for two segments has none."""
    n = len(values)
    if n < 2 * MIN_SEGMENT:
        return []
    y = numpy.log(numpy.asarray(values, dtype=float))
    sigma = max(noise(y), floor)
    penalty = penalty_factor * sigma * math.log(n)
    found = ruptures.Pelt(model=COST, min_size=MIN_SEGMENT, jump=1).fit(y.reshape(-1, 1)).predict(pen=penalty)
    return [k for k in found if k < n]


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


def changes(series: Series, benchmark: str, figure: str) -> list[Change]:
    """The change points of one benchmark's figure in a series (runs without a value left out); none of the
    time of runs under valgrind (~50x the real one, and not the figure: their instructions are)."""
    if figure == TIME and not series.real_times:
        return []
    found = points(series, benchmark, figure)
    values = [v for _, v in found]
    starts = change_points(values, TIME_NOISE if figure == TIME else COUNT_NOISE)
    out = []
    bounds = [0, *starts, len(values)]
    for i, k in enumerate(starts):
        before = float(numpy.median(values[bounds[i]:k]))
        after = float(numpy.median(values[k:bounds[i + 2]]))
        out.append(Change(series, benchmark, figure, before, after, found[k - 1][0], found[k][0]))
    return out


def all_changes(series_list: list[Series]) -> list[Change]:
    """Every change point of every benchmark and figure, series by series, benchmarks in name order,
    time before instructions."""
    out = []
    for series in series_list:
        for benchmark in series.benchmarks:
            for figure in (TIME, INSTRUCTIONS):
                out += changes(series, benchmark, figure)
    return out
