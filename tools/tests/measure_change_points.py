#!/usr/bin/env python3
"""Measures how well the history's change points (iobench_compare.changepoints) find known steps.

Synthetic series of median times with steps where they are put, and noise: each run's time is
the level times exp(N(0, sigma)) (log-normal, as a run's median time spreads), and in the
"outliers" rows one run in ten is also 20-50 % slower (a busy moment of a shared machine). A
step is found when a change point is within one run of it; any other change point is a false
one. Prints a Markdown table (docs/report.md, History, quotes it).

    PYTHONPATH=tools python3 tools/tests/measure_change_points.py [--trials 200] [--factor 3]
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
    ("30 runs, +20 % at 10, -15 % at 20", 30, [(10, 1.20), (20, 0.85)]),
    ("30 runs, +5 % at 15", 30, [(15, 1.05)]),
    ("30 runs, no step", 30, []),
    ("8 runs, +25 % at 4", 8, [(4, 1.25)]),
    ("8 runs, no step", 8, []),
]
NOISES = [0.005, 0.02, 0.05, 0.10]


def series(rng, runs: int, steps, sigma: float, outliers: bool) -> list[float]:
    """Median times (around 1 ms) with the steps and the noise."""
    level = numpy.full(runs, 1e-3)
    for start, factor in steps:
        level[start:] *= factor
    values = level * numpy.exp(rng.normal(0.0, sigma, runs))
    if outliers:
        hit = rng.random(runs) < 0.1
        values[hit] *= 1 + rng.uniform(0.2, 0.5, hit.sum())
    return list(values)


def score(found: list[int], steps) -> tuple[int, int]:
    """(true steps found within one run, change points that match no step)."""
    true = [s for s, _ in steps]
    hits = {t for t in true if any(abs(k - t) <= 1 for k in found)}
    false = [k for k in found if not any(abs(k - t) <= 1 for t in true)]
    return len(hits), len(false)


def measure(trials: int, factor: float, seed: int = 1) -> list[tuple[str, str, int, int, int, int]]:
    """Per scenario and noise: (scenario, noise, true steps, found, false change points, series with any)."""
    rng = numpy.random.default_rng(seed)
    rows = []
    for name, runs, steps in SCENARIOS:
        for sigma in NOISES + ["outliers"]:
            outliers = sigma == "outliers"
            s = 0.02 if outliers else sigma
            found = false = with_false = 0
            for _ in range(trials):
                points = changepoints.change_points(series(rng, runs, steps, s, outliers), changepoints.TIME_NOISE,
                                                    factor)
                hits, wrong = score(points, steps)
                found += hits
                false += wrong
                with_false += wrong > 0
            noise = "2 % + 1 in 10 runs 20-50 % slower" if outliers else f"{sigma * 100:g} %"
            rows.append((name, noise, len(steps) * trials, found, false, with_false))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--factor", type=float, default=changepoints.PENALTY_FACTOR,
                        help="the penalty per change point, in sigma ln(n)")
    args = parser.parse_args()
    print(f"cost {changepoints.COST}, penalty {args.factor:g} sigma ln(n), {args.trials} series each\n")
    print("| series | noise (sigma of log time) | true steps | found | false change points | series with a false one |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for name, noise, true, found, false, with_false in measure(args.trials, args.factor):
        share = f"{found / true:.0%}" if true else "-"
        print(f"| {name} | {noise} | {true} | {found} ({share}) | {false} | {with_false} of {args.trials} |")


if __name__ == "__main__":
    main()
