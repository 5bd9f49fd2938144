#!/usr/bin/env python3
"""Measures the regression gate's false alarms and detection per figure on real runs of one build.

RUNS is a directory of result files of one build, one suite, made one after the other (e.g. 40 runs
of `iobench --suite quick --results-dir RUNS/NN`); in name order, runs 1 and 2 are a pair, 3 and 4
the next, ... Two runs of one build are no change at all: every pair the gate fails is a false
alarm. Then a step is injected into one row of the second run of each pair (its times, or the
percentile judged, times 1 + step) and the gate should catch it. Prints what docs/report.md quotes.

    PYTHONPATH=tools python3 tools/tests/measure_gate.py RUNS --figures time,p50,p99,p99.9 \
        --row log/obuf/threads:1
"""

from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True

from iobench_compare import compare, gate  # noqa: E402
from iobench_compare.results import parse  # noqa: E402

STEPS = (0.05, 0.10, 0.20, 0.50, 1.0)
COUNTERS = {"time": None, "instructions": "instructions_per_item", "p50": "latency_p50_ns",
            "p99": "latency_p99_ns", "p99.9": "latency_p999_ns"}


def load(path: str, step: float = 0.0, row: str | None = None, counter: str | None = None):
    """A result file, with `row` made 1 + step times slower by `counter` (None: its times)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    for r in data["benchmarks"] if step else []:
        if r.get("run_name") != row or r.get("error_occurred") or r.get("aggregate_name") == "cv":
            continue
        if counter is None:
            for key in ("real_time", "cpu_time"):
                r[key] *= 1 + step
            for key in ("items_per_second", "bytes_per_second"):
                if key in r:
                    r[key] /= 1 + step
        elif counter in r:
            r[counter] *= 1 + step
    return parse(path, data)


def judge(base, new, figure: str, pct: float):
    result = gate.gate(compare.compare([base, new], 0, [], 0.05, None), pct / 100, (figure,))
    return result, gate.status(result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", help="a directory of result files of one build (searched recursively)")
    parser.add_argument("--figures", default="time", help="comma-separated figures of --gate-on (default time)")
    parser.add_argument("--row", required=True, help="the benchmark a step is injected into")
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(args.runs, "**", "*.json"), recursive=True))
    pairs = [(files[i], files[i + 1]) for i in range(0, len(files) - 1, 2)]
    print(f"{args.runs}: {len(pairs)} pairs")
    for figure in args.figures.split(","):
        for pct in (3, 5):
            statuses, rows, worst, steps = collections.Counter(), collections.Counter(), (0.0, ""), []
            for a, b in pairs:
                result, status = judge(load(a), load(b), figure, pct)
                statuses[status] += 1
                rows.update(regressions=len(result.regressions), undecided=len(result.undecided),
                            judged=result.tested)
                for c in result.changes:
                    if c.change is not None and abs(c.change) > abs(worst[0]):
                        worst = (c.change, c.benchmark)
                    found = re.search(r"step from \+([0-9.]+)%", c.detail)
                    if found:
                        steps.append(float(found.group(1)))
            print(f"  {figure} at {pct} %: pairs failed (exit 4) {statuses[4]}, undecided (exit 2) {statuses[2]}, "
                  f"passed {statuses[0]}; rows: {rows['regressions']} regressions, {rows['undecided']} undecided, "
                  f"{rows['judged']} judged; largest change {worst[0]:+.1%} ({worst[1]})")
            if steps:
                print(f"    detectable step of the undecided rows: median {statistics.median(steps):.0f} %, "
                      f"{min(steps):.0f}-{max(steps):.0f} %")
        for step in STEPS:
            caught = undecided = 0
            for a, b in pairs:
                result, _ = judge(load(a), load(b, step, args.row, COUNTERS[figure]), figure, 5)
                kinds = {c.kind for c in result.changes if c.benchmark == args.row}
                caught += "regression" in kinds
                undecided += "regression" not in kinds and "undecided" in kinds
            print(f"    +{step:.0%} injected into {args.row}, at 5 %: caught in {caught} of {len(pairs)} pairs, "
                  f"undecided in {undecided}")


if __name__ == "__main__":
    main()
