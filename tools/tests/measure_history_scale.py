#!/usr/bin/env python3
"""Measures the history at a team's scale: the time and memory of listing it and of drawing its page.

Generates an SQLite history of RUNS runs x BENCHMARKS benchmarks (one machine, compiler and suite:
one series), each run's median times with 5 % log-normal noise between runs, a 95 % interval of
+-10 % around each, instructions per item for every benchmark, and two real steps (+30 % in the
times of two benchmarks from the middle run on), added in one transaction. Then runs
`iobench-compare --history DB` (the listing) and `--format html -o page.html` (the page) as
processes of their own, and prints their wall time and their peak resident memory (ru_maxrss).

    PYTHONPATH=tools python3 tools/tests/measure_history_scale.py [--runs 100 300 1000 3000] [--benchmarks 50]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from types import SimpleNamespace

import numpy

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True

from iobench_compare import history  # noqa: E402


def generate(path: str, runs: int, benchmarks: int, seed: int = 1) -> None:
    """The history described above, at `path`."""
    rng = numpy.random.default_rng(seed)
    names = [f"w{b // 6}/m{b % 6}" for b in range(benchmarks)]
    base = numpy.exp(rng.uniform(numpy.log(1e-4), numpy.log(1e-1), benchmarks))
    stepped = {0: 1.3, benchmarks // 2: 1.3}
    new_runs = []
    for k in range(runs):
        context = {"host_name": "vm", "cpu_model": "AMD EPYC", "compiler": "GNU 12.2.0", "suite": "team",
                   "scale": "1", "date": f"2026-{1 + k // 2000:02d}-01T00:00:00+00:00", "run": k}
        run = {"label": f"c{k + 1}", "run_at": f"2026-01-01T00:00:00+00:00#{k:06d}", "added_at": "2026-12-01",
               "file_name": f"run-{k + 1}.json", "context": json.dumps(context)}
        for column in history._CONTEXT_COLUMNS:
            run[column] = None
        run.update(host="vm", cpu_model="AMD EPYC", compiler="GNU 12.2.0", suite="team", scale="1")
        noise = numpy.exp(rng.normal(0, 0.05, benchmarks))
        rows = []
        for b, name in enumerate(names):
            median = base[b] * noise[b] * (stepped.get(b, 1.0) if k >= runs // 2 else 1.0)
            rows.append({"benchmark": name, "status": "ok", "error": None, "median_s": median,
                         "ci_low_s": median / 1.1, "ci_high_s": median * 1.1, "instructions_per_item": 100.0 + b,
                         "repetitions": 6, "p50_s": None, "p99_s": None, "p999_s": None,
                         "bytes_per_second": 1e6 / median, "items_per_second": None})
        sha = hashlib.sha256(f"{seed} {k}".encode()).hexdigest()
        new_runs.append(history.NewRun(SimpleNamespace(path=f"run-{k + 1}.json"), sha, run, rows))
    history.add(history.database(path), new_runs)


def timed(args: list[str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds (user + system), peak resident MiB) of the tool run with `args` as a process of
    its own. On a busy machine the CPU time is the steadier figure: the wall time adds the waits for a CPU."""
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
               MPLBACKEND="Agg")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    before, cpu = usage.ru_maxrss, usage.ru_utime + usage.ru_stime
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "iobench_compare", *args], env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"{args}: exit status {done.returncode}: {done.stderr.strip()}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, usage.ru_utime + usage.ru_stime - cpu, max(usage.ru_maxrss, before) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[100, 300, 1000, 3000])
    parser.add_argument("--benchmarks", type=int, default=50)
    args = parser.parse_args()
    print("| runs x benchmarks | listing: wall (s) | CPU (s) | peak memory (MiB) | HTML page: wall (s) | CPU (s) | "
          "peak memory (MiB) | page size (MB) | load average |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for runs in args.runs:
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "history.sqlite")
            generate(db, runs, args.benchmarks)
            listing, listing_cpu, listing_rss = timed(["--history", db])
            page = os.path.join(tmp, "history.html")
            html, html_cpu, html_rss = timed(["--history", db, "--format", "html", "-o", page])
            size = os.path.getsize(page) / 1e6
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
            print(f"| {runs} x {args.benchmarks} | {listing:.1f} | {listing_cpu:.1f} | {listing_rss:.0f} | {html:.1f} | "
                  f"{html_cpu:.1f} | {html_rss:.0f} | {size:.1f} | {load:.1f} |", flush=True)


if __name__ == "__main__":
    main()
