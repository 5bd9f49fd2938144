#!/usr/bin/env python3
"""Regenerates the fixtures with counters and the bad-input fixtures derived from them.

    make_counter_fixtures.py --gcc BUILD_GCC/iobench --clang BUILD_CLANG/iobench
                             [--mingw BUILD_MINGW/iobench.exe] [--only NAME ...]

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
- file-read-cache.json: FILE_READ_CACHE_SUITE below with `--file-size 2M` in a
  directory on a disk file system (--disk-dir; tmpfs skips cold rows): fread and
  read at two buffer sizes, warm and cold cache, 6 repetitions (the fewest with a
  95% interval of the median).
- quick-structure.json: `iobench --suite quick --scale 0.001` (GCC): rows that
  carry their structure (workload, method, family, reference, params, item_unit,
  compared_per, items, bytes), beside the older fixtures, which do not.
- instructions-valgrind.json: `iobench --instructions --suite quick --scale
  0.001` (GCC, a build without sanitizers, valgrind on PATH where the CPU has no
  counter for perf): every row with instructions_per_item, the context's
  instructions_source.
file-read-cache.json carries it too; the other fixtures were made before
iobench wrote it and test that such files still load.
- cold-gcc.json and cold-mingw-wine.json: COLD_SUITE below with `--file-size 2M`
  in a directory on a disk file system, built with GCC and run on Linux, and
  built with MinGW-w64 and run under wine (--mingw; `wine` from PATH, with the
  caller's WINEPREFIX): the Linux cold rows say how their pages were dropped
  (their `label`), the wine ones are skipped (no Windows call drops Linux's page
  cache), and every wine row says why it has no call counts
  (`calls_not_counted`: wine's GetProcessIoCounters returns zeros).

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


FILE_READ_CACHE_SUITE = {
    "name": "file-read-cache",
    "description": "file_read with a warm and a cold page cache, for the per-cache-state tables",
    "repetitions": 6,
    "min_time": 0.02,
    "benchmarks": [
        {"workload": "file_read", "methods": ["fread", "read"], "buffer_sizes": [4096, 65536],
         "cache": ["warm", "cold"]},
    ],
}


COLD_SUITE = {
    "name": "cold",
    "description": "file_read warm and cold and a write workload, for the notes on how a row was measured",
    "repetitions": 3,
    "min_time": 0.02,
    "scale": 0.001,
    "benchmarks": [
        {"workload": "file_read", "methods": ["fread"], "buffer_sizes": [65536], "cache": ["warm", "cold"]},
        {"workload": "hello", "methods": ["fwrite", "limit"]},
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
    parser.add_argument("--mingw", help="iobench.exe built with MinGW-w64, run under wine (cold-mingw-wine.json)")
    parser.add_argument("--dir", default="/dev/shm", help="where the runs write (default /dev/shm)")
    parser.add_argument("--disk-dir", default=".",
                        help="a directory on a disk file system, for the cold-cache run (default: the current one; "
                             "the run works in a temporary directory inside it)")
    parser.add_argument("--only", action="append", metavar="NAME", help="make only this fixture (repeatable)")
    args = parser.parse_args()
    gcc, clang = os.path.abspath(args.gcc), os.path.abspath(args.clang)
    mingw = ["wine", os.path.abspath(args.mingw)] if args.mingw else None
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory(dir=args.disk_dir) as disk:
        suite = os.path.join(tmp, "file-read-fixture.json")
        with open(suite, "w", encoding="utf-8") as f:
            json.dump(FILE_READ_SUITE, f)
        cache_suite = os.path.join(tmp, "file-read-cache.json")
        with open(cache_suite, "w", encoding="utf-8") as f:
            json.dump(FILE_READ_CACHE_SUITE, f)
        cold_suite = os.path.join(tmp, "cold.json")
        with open(cold_suite, "w", encoding="utf-8") as f:
            json.dump(COLD_SUITE, f)
        runs = [
            ("quick-gcc.json", [gcc], "quick", args.dir, ()),
            ("quick-clang-tenth.json", [clang], "quick", args.dir, ("--scale", "0.001")),
            ("file-read-shm.json", [gcc], suite, args.dir, ("--file-size", "2M")),
            ("file-read-cache.json", [gcc], cache_suite, disk, ("--file-size", "2M")),
            ("quick-structure.json", [gcc], "quick", args.dir, ("--scale", "0.001")),
            ("instructions-valgrind.json", [gcc], "quick", args.dir,
             ("--scale", "0.001", "--instructions=valgrind")),
            ("cold-gcc.json", [gcc], cold_suite, disk, ("--file-size", "2M")),
            ("cold-mingw-wine.json", mingw, cold_suite, disk, ("--file-size", "2M")),
        ]
        for name, binary, suite, directory, extra in runs:
            if args.only and name not in args.only:
                continue
            if binary is None:
                sys.exit(f"make_counter_fixtures: {name}: give --mingw")
            out = os.path.join(tmp, name)
            cmd = [*binary, "--suite", suite, "--dir", directory, "--benchmark_out=" + out, *extra]
            print("+", " ".join(cmd), file=sys.stderr)
            status = subprocess.run(cmd, cwd=tmp, stdout=subprocess.DEVNULL, check=False).returncode
            if status != 0:
                sys.exit(f"make_counter_fixtures: {name}: iobench exited with {status}")
            shrink(out, os.path.join(FIXTURES, name), "disk" if directory == disk else directory)
    if not args.only:
        derive_bad_inputs()


if __name__ == "__main__":
    main()
