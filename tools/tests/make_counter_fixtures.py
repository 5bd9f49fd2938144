#!/usr/bin/env python3
"""Regenerates the fixtures with counters (issue 10) and the bad-input fixtures derived from them.

    make_counter_fixtures.py --gcc BUILD_GCC/iobench --clang BUILD_CLANG/iobench

Real runs, made small like make_fixtures.py does (shrink()); every counter, the
context key "counters", the limit rows and x_limit are iobench's own:

- quick-gcc.json: `iobench --suite quick` built with GCC (the suite as it is:
  scale 0.01, its repetitions, its limit rows).
- quick-clang-tenth.json: the same suite built with Clang at `--scale 0.001`: a
  tenth of the integers and lines, so a comparison must go per item.
- file-read-shm.json: FILE_READ_SUITE below with `--file-size 2M`, warm cache, on
  /dev/shm: fread and read at four buffer sizes, mmap_scan, and
  mmap_MADV_HUGEPAGE, which tmpfs refuses (a skipped row, "skipped:
  madvise(MADV_HUGEPAGE) ...") where transparent huge pages are off for shmem,
  as on the machine that made them.

Derived, not run: all-errors.json (failed.json's hello rows only: every row an
error) and invalid-times.json (gcc.json with a NaN, an infinite and a zero
real_time). Afterwards rerun the tests with IOBENCH_UPDATE_GOLDEN=1 and review the
difference before committing it.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

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
            shrink(out, os.path.join(FIXTURES, name), args.dir)
    derive_bad_inputs()


if __name__ == "__main__":
    main()
