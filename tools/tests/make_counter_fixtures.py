#!/usr/bin/env python3
"""Regenerates the fixtures with counters (issue 10) and the bad-input fixtures derived from them.

    make_counter_fixtures.py --gcc BUILD_GCC/iobench --clang BUILD_CLANG/iobench

Real runs, made small like make_fixtures.py does (shrink()):

- quick-gcc.json: `iobench --suite quick` built with GCC (scale 0.01, 3 repetitions).
- quick-clang-tenth.json: the same suite built with Clang at `--scale 0.001`: a
  tenth of the integers and lines, so a comparison must go per item.
- file-read-shm.json: `--suite file-read --file-size 2M`, warm cache, on /dev/shm,
  five methods: a buffer-size sweep, and mmap_MADV_HUGEPAGE, which tmpfs refuses
  (a skipped row, "skipped: madvise(MADV_HUGEPAGE) ...") where transparent huge
  pages are off for shmem, as on the machine that made them.

ADDED BY HAND (iobench does not write them yet; issue 10 adds them): every row's
counters read_calls, write_calls, bytes_per_call, user_time, system_time,
page_faults, context_switches, read_bytes and write_bytes, the context key
"counters", a `<workload>/limit` row for ints_out, ints_in and hello, and x_limit
on the rows of those workloads. add_counters() derives them, deterministically,
from what the real row says: calls = bytes / the method's buffer size (one call
per item for `write`, one more read for the end of file), system time = calls x
~0.3 us + bytes / 6 GB/s (capped at the CPU time), user time = CPU time - system
time, page faults = buffer / 4 KiB + 2, context switches only for `write` (others
0, so absent, as iobench leaves out a zero counter), storage traffic 0 (tmpfs: so
absent). A limit row takes 0.85 x the fastest method's time in each repetition,
with 1 MiB calls. A counter a real run already has is never touched.

Derived, not run: all-errors.json (failed.json's hello rows only: every row an
error) and invalid-times.json (gcc.json with a NaN, an infinite and a zero
real_time). Afterwards rerun the tests with IOBENCH_UPDATE_GOLDEN=1 and review the
difference before committing it.
"""

import argparse
import copy
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy

from make_fixtures import FIXTURES, shrink

FILE_READ_SUITE = {
    "name": "file-read-fixture",
    "description": "a buffer-size sweep of file_read and a method tmpfs refuses, for the report tests",
    "repetitions": 3,
    "min_time": 0.02,
    "benchmarks": [
        {"workload": "file_read", "methods": ["fread", "read"], "buffer_sizes": [512, 4096, 65536, 1048576],
         "cache": ["warm"]},
        {"workload": "file_read", "methods": ["mmap_scan", "mmap_MADV_HUGEPAGE"], "cache": ["warm"]},
    ],
}

COUNTERS = ["read_calls", "write_calls", "bytes_per_call", "user_time", "system_time", "page_faults",
            "context_switches", "read_bytes", "write_bytes"]

# Bytes per call of each method's buffer (glibc stdio: st_blksize, 4 KiB on tmpfs;
# libstdc++ filebuf: BUFSIZ - 1; obuf/ibuf: 64 KiB); None: one call per item.
CALL_SIZE = {"fprintf": 4096, "fwrite": 4096, "fscanf": 4096, "ofstream": 8191, "ifstream": 8191,
             "obuf": 65536, "ibuf": 65536, "write": None, "limit": 1 << 20, "mmap_scan": 0}
READ_WORKLOADS = {"ints_in", "file_read"}
LIMIT_WORKLOADS = ("ints_out", "ints_in", "hello")


def _method(name):
    return name.split("/")[1]


def _param(name, key):
    for part in name.split("/")[2:]:
        if part.startswith(key + ":"):
            return int(part.split(":", 1)[1])
    return None


def _per_run(row):
    """Bytes and items of one run, from the row's rates and wall time."""
    seconds = row["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[row["time_unit"]]
    return row["bytes_per_second"] * seconds, row["items_per_second"] * seconds, seconds


def _counters_of(row):
    """The counters added by hand to one iteration row (see the module's docstring)."""
    name = row["name"]
    workload, method = name.split("/")[0], _method(name)
    nbytes, items, _ = _per_run(row)
    cpu = row["cpu_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[row["time_unit"]]
    size = _param(name, "buf") or CALL_SIZE.get(method, 4096)
    if size == 0:  # mmap: no read call at all
        calls = 0
    elif size is None:
        calls = round(items)
    else:
        calls = math.ceil(nbytes / size) + (1 if workload in READ_WORKLOADS else 0)
    system = min(cpu, calls * 0.3e-6 + nbytes / 6e9)
    out = {
        "read_calls" if workload in READ_WORKLOADS else "write_calls": float(calls),
        "bytes_per_call": nbytes / calls if calls else 0.0,
        "user_time": max(cpu - system, 0.0),
        "system_time": system,
        "page_faults": float((row.get("buffer_size") or size or 4096) // 4096 + 2),
        "context_switches": float(calls // 20000) if method == "write" else 0.0,
        "read_bytes": 0.0,
        "write_bytes": 0.0,
    }
    return {k: v for k, v in out.items() if v != 0 and k not in row}  # iobench leaves out a zero counter


def _aggregate(rows, name):
    """The mean, median, stddev and cv rows Google Benchmark writes after the iteration rows."""
    base = {k: v for k, v in rows[0].items() if k not in ("repetition_index",)}
    out = []
    for aggregate, fn in (("mean", numpy.mean), ("median", numpy.median),
                          ("stddev", lambda v: numpy.std(v, ddof=1)),
                          ("cv", lambda v: numpy.std(v, ddof=1) / numpy.mean(v) if numpy.mean(v) else 0.0)):
        row = dict(base, name=f"{name}_{aggregate}", run_type="aggregate", aggregate_name=aggregate,
                   aggregate_unit="percentage" if aggregate == "cv" else "time", iterations=len(rows))
        for key, value in rows[0].items():
            if isinstance(value, float):  # times and counters
                row[key] = float(fn([r[key] for r in rows]))
        out.append(row)
    return out


def _limit_rows(iterations, workload, family):
    """A `<workload>/limit` benchmark: 0.85 x the fastest method's time in each repetition, 1 MiB calls."""
    by_name = {}
    for row in iterations:
        if row["name"].startswith(workload + "/"):
            by_name.setdefault(row["name"], []).append(row)
    fastest = min(by_name.values(), key=lambda rows: numpy.median([r["real_time"] for r in rows]))
    out = []
    for rep in fastest:
        row = copy.deepcopy(rep)
        for key in [k for k in row if k in COUNTERS or k in ("buffer_size", "x_limit")]:
            del row[key]
        row["name"] = row["run_name"] = f"{workload}/limit"
        row["family_index"] = family
        row["real_time"] = rep["real_time"] * 0.85
        row["cpu_time"] = rep["cpu_time"] * 0.85
        row["bytes_per_second"] = rep["bytes_per_second"] / 0.85
        row["items_per_second"] = rep["items_per_second"] / 0.85
        row["buffer_size"] = float(1 << 20)
        out.append(row)
    return out


def add_counters(path):
    """Adds the hand-made counters, limit rows and x_limit to a real result file (in place)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = data["benchmarks"]
    iterations = [r for r in rows if r.get("run_type") == "iteration" and not r.get("error_occurred")]
    families = max(r["family_index"] for r in rows) + 1
    workloads = {r["name"].split("/")[0] for r in iterations}
    for k, workload in enumerate(w for w in LIMIT_WORKLOADS if w in workloads):
        iterations += _limit_rows(iterations, workload, families + k)
    for row in iterations:
        row.update(_counters_of(row))
    limit_time = {}
    for row in iterations:
        if _method(row["name"]) == "limit":
            limit_time.setdefault(row["name"].split("/")[0], []).append(row["real_time"])
    for row in iterations:
        workload = row["name"].split("/")[0]
        if workload in limit_time:
            row["x_limit"] = row["real_time"] / float(numpy.median(limit_time[workload]))
    # Rebuild the list: per benchmark its iteration rows, then its aggregates; errors as they were.
    out, seen = [], set()
    for row in rows + iterations:
        name = row.get("run_name", row["name"])
        if name in seen:
            continue
        seen.add(name)
        errors = [r for r in rows if r.get("run_name", r["name"]) == name and r.get("error_occurred")]
        if errors:
            out += errors
            continue
        reps = [r for r in iterations if r["name"] == name]
        out += reps + (_aggregate(reps, name) if len(reps) > 1 else [])
    data["benchmarks"] = out
    data["context"]["counters"] = ",".join(COUNTERS)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)


def derive_bad_inputs():
    """all-errors.json and invalid-times.json from the committed fixtures."""
    with open(os.path.join(FIXTURES, "failed.json"), encoding="utf-8") as f:
        data = json.load(f)
    data["benchmarks"] = [r for r in data["benchmarks"] if r["name"].startswith("hello/")]
    _write_small(data, "all-errors.json")
    with open(os.path.join(FIXTURES, "gcc.json"), encoding="utf-8") as f:
        data = json.load(f)
    first = {}
    for row in data["benchmarks"]:
        if row["run_type"] == "iteration":
            first.setdefault(row["name"], row)
    first["ints_out/obuf"]["real_time"] = float("nan")
    first["ints_out/fprintf"]["real_time"] = 0.0
    first["hello/obuf"]["real_time"] = float("inf")
    _write_small(data, "invalid-times.json")


def _write_small(data, name):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)  # NaN and Infinity as Google Benchmark writes them
        shrink(path, os.path.join(FIXTURES, name), data["context"].get("target_dir", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gcc", required=True, help="iobench built with GCC")
    parser.add_argument("--clang", required=True, help="iobench built with Clang")
    parser.add_argument("--dir", default="/dev/shm", help="where the runs write (default /dev/shm)")
    args = parser.parse_args()
    gcc, clang = os.path.abspath(args.gcc), os.path.abspath(args.clang)
    with tempfile.TemporaryDirectory() as tmp:
        suite = os.path.join(tmp, "file-read-fixture.json")
        with open(suite, "w", encoding="utf-8") as f:
            json.dump(FILE_READ_SUITE, f)
        runs = [
            ("quick-gcc.json", gcc, "quick", ()),
            ("quick-clang-tenth.json", clang, "quick", ("--scale", "0.001")),
            ("file-read-shm.json", gcc, suite, ("--file-size", "2M")),
        ]
        for name, binary, suite, extra in runs:
            out = os.path.join(tmp, name)
            cmd = [binary, "--suite", suite, "--dir", args.dir, "--benchmark_out=" + out, *extra]
            print("+", " ".join(cmd), file=sys.stderr)
            status = subprocess.run(cmd, cwd=tmp, stdout=subprocess.DEVNULL, check=False).returncode
            if status != 0:
                sys.exit(f"make_counter_fixtures: {name}: iobench exited with {status}")
            add_counters(out)
            shrink(out, os.path.join(FIXTURES, name), args.dir)
    derive_bad_inputs()


if __name__ == "__main__":
    main()
