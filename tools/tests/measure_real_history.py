#!/usr/bin/env python3
"""Measures the history's change points on real runs of one build: false ones, and injected steps found.

Give it the result files of N >= 30 runs of one build of iobench (e.g. `iobench --suite quick
--results-dir DIR`, N times). Then:

1. **Flat**: the first 30 runs (by date) are added to a new SQLite history, labelled r1..r30,
   and the history is read back as `--history DB` lists it: every change point is a false one.
   With more than 30 runs, every window of 30 consecutive runs is also checked (in memory, by the
   same functions): the false change points per series of 30 runs.
2. **Steps**: for each benchmark and each factor (x1.2, x1.5, /1.2), the runs 16 to 30 of the first
   window are copies of the real files with that benchmark's times scaled by the factor (its
   repetitions, its aggregates, its interval; rates divided by it), the other benchmarks left as
   measured: a step is found when a change point of that benchmark falls within one run of run 16;
   any other change point (of it or of another benchmark) is a false one.

Prints Markdown (docs/report.md, History, quotes it).

    PYTHONPATH=tools python3 tools/tests/measure_real_history.py DIR
"""

from __future__ import annotations

import argparse
import copy
import glob
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True

from iobench_compare import changepoints, history  # noqa: E402
from iobench_compare.results import load  # noqa: E402
from history_support import scale_row_times  # noqa: E402

WINDOW = 30
STEP_AT = 15  # 0-based: the 16th run
FACTORS = (1.2, 1.5, 1 / 1.2)


def scaled(data: dict, benchmark: str, factor: float) -> dict:
    """A copy of a result file's JSON with `benchmark`'s times scaled by `factor` (rates divided by it)."""
    data = copy.deepcopy(data)
    for row in data["benchmarks"]:
        if (row.get("run_name") or row["name"]) != benchmark or row.get("aggregate_name") == "cv":
            continue
        scale_row_times(row, factor)
    return data


def new_runs(tmp: str, datas: list[dict], names: list[str]) -> list[history.NewRun]:
    """The result files (as JSON) written to `tmp` and prepared as runs labelled r1, r2, ..."""
    out = []
    for i, (data, name) in enumerate(zip(datas, names)):
        path = os.path.join(tmp, f"{i:03d}-{name}")
        text = json.dumps(data).encode()
        with open(path, "wb") as f:
            f.write(text)
        out.append(history.prepare(load(path), text, f"r{i + 1}"))
    return out


def series_of(runs: list[history.NewRun]) -> history.Series:
    """The runs as one series, as history.read builds it (without a database)."""
    series = history.Series(("real",) * 6, [])
    for k, new in enumerate(runs):
        series.runs.append(history.Run(k, new.run["label"], new.run["run_at"], new.run["file_name"],
                                       *([None] * 11)))
        for row in new.rows:
            ci = (row["ci_low_s"], row["ci_high_s"]) if row["ci_low_s"] is not None else None
            values = series.benchmarks.setdefault(row["benchmark"], [None] * len(runs))
            values[k] = history.Result(row["status"], row["error"], row["median_s"], ci,
                                       row["instructions_per_item"], row["repetitions"])
    return series


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", help="the result files of one build")
    args = parser.parse_args()
    paths = sorted(glob.glob(os.path.join(args.directory, "*.json")))
    datas = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            datas.append(json.load(f))
    order = sorted(range(len(datas)), key=lambda i: datas[i]["context"].get("date", ""))
    datas = [datas[i] for i in order]
    names = [os.path.basename(paths[i]) for i in order]
    if len(datas) < WINDOW:
        sys.exit(f"{len(datas)} result files: give {WINDOW} or more")
    with tempfile.TemporaryDirectory() as tmp:
        prepared = new_runs(tmp, datas, names)
        # 1. The first 30 through a real history, read back as the listing reads it.
        db = history.database(os.path.join(tmp, "history.sqlite"))
        for new in prepared[:WINDOW]:
            history.add(db, [new])
        read = history.read(db)
        steps = changepoints.machine_changes(read.series[0])
        listed = [c for c in changepoints.all_changes(read.series) if not changepoints.at_machine_step(c, steps)]
        benchmarks = sorted(read.series[0].benchmarks)
        print(f"{len(datas)} runs of one build, {len(benchmarks)} benchmarks each\n")
        print(f"- the first {WINDOW} runs in a history: {len(listed)} change points"
              + "".join(f"\n  - {c.benchmark} {c.figure} {c.change:+.1%} {c.commits}" for c in listed))
        machine = changepoints.machine_changes(read.series[0])
        print(f"- steps of the machine (every benchmark together) in them: {len(machine)}"
              + "".join(f"\n  - {c.change:+.1%} {c.commits}" for c in machine))
        windows = len(prepared) - WINDOW + 1
        false = 0
        hit_series = 0
        for start in range(windows):
            series = series_of(prepared[start:start + WINDOW])
            for benchmark in series.benchmarks:
                steps = changepoints.machine_changes(series)
                found = [c for c in changepoints.changes(series, benchmark, changepoints.TIME)
                         if not changepoints.at_machine_step(c, steps)]
                false += len(found)
                hit_series += bool(found)
        print(f"- every window of {WINDOW} consecutive runs ({windows} windows x {len(benchmarks)} benchmarks = "
              f"{windows * len(benchmarks)} series of time): {false} false change points, in {hit_series} series")
        # 2. Steps injected into real files.
        print(f"\n| step injected at run {STEP_AT + 1} of {WINDOW} | benchmarks | found | other change points |")
        print("| --- | ---: | ---: | ---: |")
        missed_by_factor = {}
        for factor in FACTORS:
            found_steps = others = 0
            missed = missed_by_factor.setdefault(factor, [])
            for benchmark in benchmarks:
                found_before = found_steps
                stepped = [scaled(d, benchmark, factor) if k >= STEP_AT else d for k, d in enumerate(datas[:WINDOW])]
                series = series_of(new_runs(tmp, stepped, names[:WINDOW]))
                steps = changepoints.machine_changes(series)
                for name in series.benchmarks:
                    for c in changepoints.changes(series, name, changepoints.TIME):
                        if changepoints.at_machine_step(c, steps):
                            continue
                        if name == benchmark and abs(c.first_after - STEP_AT) <= 1:
                            found_steps += 1
                        else:
                            others += 1
                if found_steps == found_before:
                    missed.append(benchmark)
            print(f"| times x{factor:.3g} ({factor - 1:+.0%}) | {len(benchmarks)} | {found_steps} | {others} |")
        for factor, missed in missed_by_factor.items():
            if missed:
                print(f"\nnot found at x{factor:.3g}: {', '.join(missed)}")


if __name__ == "__main__":
    main()
