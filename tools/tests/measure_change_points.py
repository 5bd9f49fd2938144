#!/usr/bin/env python3
"""Measures how well the history's change points (iobench_compare.changepoints) find known steps.

Synthetic series of runs with steps where they are put, and noise as a run's repetitions have it:
each run is 6 repetitions, the run's level times exp(N(0, between)) (the machine of that moment),
each repetition times exp(N(0, within)); the run keeps the median of its repetitions and their
95 % interval of the median (for 6 repetitions: the smallest and the largest), as a history
keeps a result. In the "outliers" rows one run in ten is also 20-50 % slower (a busy moment of a
shared machine). A step is found when a change point is within one run of it; any other change
point is a false one. Prints a Markdown table (docs/report.md, History, quotes it).

    PYTHONPATH=tools python3 tools/tests/measure_change_points.py [--trials 1000] [--base 1.5]
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True

from iobench_compare import changepoints  # noqa: E402

# (name, runs, steps as (first run of the new level, factor)): the series the table measures.
SCENARIOS = [
    ("30 runs, no step", 30, []),
    ("30 runs, +20 % at 15", 30, [(15, 1.20)]),
    ("30 runs, -20 % at 15", 30, [(15, 1 / 1.20)]),
    ("30 runs, +20 % at 10, -15 % at 20", 30, [(10, 1.20), (20, 0.85)]),
    ("30 runs, +20 % at 27 (3 runs after it)", 30, [(27, 1.20)]),
    ("30 runs, +10 % at 15", 30, [(15, 1.10)]),
    ("30 runs, +5 % at 15", 30, [(15, 1.05)]),
    ("8 runs, +25 % at 4", 8, [(4, 1.25)]),
    ("8 runs, no step", 8, []),
    ("300 runs, no step", 300, []),
    ("300 runs, +20 % at 100, +20 % at 200", 300, [(100, 1.20), (200, 1.20)]),
]
# (between-run, within-run) noise as standard deviations of log time.
NOISES = [(0.005, 0.01), (0.02, 0.05), (0.05, 0.10), (0.05, 0.20)]
REPETITIONS = 6


def series(rng, runs: int, steps, between: float, within: float, outliers: bool):
    """(medians, intervals) of `runs` runs around 1 ms with the steps and the noise."""
    level = numpy.full(runs, 1e-3)
    for start, factor in steps:
        level[start:] *= factor
    run_level = level * numpy.exp(rng.normal(0.0, between, runs))
    if outliers:
        hit = rng.random(runs) < 0.1
        run_level[hit] *= 1 + rng.uniform(0.2, 0.5, hit.sum())
    repetitions = run_level[:, None] * numpy.exp(rng.normal(0.0, within, (runs, REPETITIONS)))
    medians = numpy.median(repetitions, axis=1)
    intervals = list(zip(repetitions.min(axis=1), repetitions.max(axis=1)))  # 6 repetitions: rank 1
    return list(medians), intervals


def score(found: list[int], steps) -> tuple[int, int]:
    """(true steps found within one run, change points that match no step)."""
    true = [s for s, _ in steps]
    hits = {t for t in true if any(abs(k - t) <= 1 for k in found)}
    false = [k for k in found if not any(abs(k - t) <= 1 for t in true)]
    return len(hits), len(false)


def measure(trials: int, base: float | None = None, seed: int = 1):
    """Per scenario and noise: (scenario, noise, true steps, found, false change points, series with any)."""
    rng = numpy.random.default_rng(seed)
    rows = []
    for name, runs, steps in SCENARIOS:
        for noise in NOISES + ["outliers"]:
            outliers = noise == "outliers"
            between, within = (0.02, 0.05) if outliers else noise
            found = false = with_false = 0
            for _ in range(trials):
                values, intervals = series(rng, runs, steps, between, within, outliers)
                points = changepoints.change_points(values, changepoints.TIME_NOISE, intervals,
                                                    changepoints.MIN_TIME_EFFECT, base)
                hits, wrong = score(points, steps)
                found += hits
                false += wrong
                with_false += wrong > 0
            shown = ("2 % / 5 %, and 1 run in 10 20-50 % slower" if outliers
                     else f"{between * 100:g} % / {within * 100:g} %")
            rows.append((name, shown, len(steps) * trials, found, false, with_false))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--base", type=float, default=changepoints.THRESHOLD_BASE,
                        help="the threshold's constant, in standard errors (THRESHOLD_BASE)")
    args = parser.parse_args()
    print(f"binary segmentation, threshold {args.base:g} + sqrt(2 ln n) standard errors, minimum step "
          f"{changepoints.MIN_TIME_EFFECT:.0%}, {args.trials} series each\n")
    print("| series | noise between runs / within a run (sigma of log time) | true steps | found | "
          "false change points | series with a false one |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for name, noise, true, found, false, with_false in measure(args.trials, args.base):
        share = f"{found / true:.1%}" if true else "-"
        print(f"| {name} | {noise} | {true} | {found} ({share}) | {false} | {with_false} of {args.trials} |")


if __name__ == "__main__":
    main()
