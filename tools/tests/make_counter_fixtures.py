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
error), invalid-times.json (gcc.json with a NaN, an infinite and a zero
real_time) and syscalls-log.json (threads-log.json with the system-call
counters of each row, syscalls_<kind> and syscalls_exact, as iobench writes
them: derived from each row's own
write_calls, read_calls and context switches until a run of an iobench that
counts them replaces it; see derive_syscall_counts). `--derived-only` makes
only these. Afterwards rerun the tests with IOBENCH_UPDATE_GOLDEN=1 and review the
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


def derive_syscall_counts():
    """syscalls-log.json: threads-log.json (the log workload at 1, 2, 4 and 8 threads, per-call rows) with
    system calls per run by kind, as iobench counts them (core/os/syscall_counts.hpp): the writes and reads
    are the row's own write_calls and read_calls; a run opens, stats and closes its file (3 other calls) and
    maps 4 areas; a thread more adds a clone and 2 mappings, and its futex calls (a lock that slept) are taken
    from the row's context switches, which depend on timing: syscalls_exact is 1 only for the rows of one
    thread in iobench's process (no counters_scope), 0 for the others."""
    with open(os.path.join(FIXTURES, "threads-log.json"), encoding="utf-8") as f:
        data = json.load(f)
    # (The context's syscall_counter, how they were counted, comes with a real run: the keys a context may have
    # are tools/iobench_compare/spec/results_format.json's, which names it once iobench writes it.)
    for row in data["benchmarks"]:
        if row.get("error_occurred") or "write_calls" not in row:
            continue
        spread = row.get("aggregate_name") in ("stddev", "cv")
        threads = int(row.get("params", {}).get("threads", 1))
        counts = {
            "syscalls_write": row["write_calls"],
            "syscalls_read": row.get("read_calls", 0.0),
            "syscalls_sync": 0.0,
            "syscalls_futex": 0.0 if threads == 1 else float(round(row.get("context_switches", 0.0))),
            "syscalls_memory": 4.0 + 2 * (threads - 1),
            "syscalls_other": 3.0 + (threads - 1),
        }
        if spread:  # a stddev or cv row: the counts of one thread do not vary
            counts = {k: (0.0 if "counters_scope" not in row or k != "syscalls_futex" else row.get(
                "context_switches", 0.0)) for k in counts}
        row["syscalls"] = sum(counts.values())
        row.update(counts)
        row["syscalls_exact"] = 0.0 if "counters_scope" in row else 1.0
    _write_small(data, "syscalls-log.json")


def _write_small(data, name):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)  # NaN and Infinity as Google Benchmark writes them
        shrink(path, os.path.join(FIXTURES, name), data["context"].get("target_dir", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gcc", help="iobench built with GCC")
    parser.add_argument("--clang", help="iobench built with Clang")
    parser.add_argument("--derived-only", action="store_true",
                        help="only the fixtures derived from the committed ones (no run)")
    parser.add_argument("--mingw", help="iobench.exe built with MinGW-w64, run under wine (cold-mingw-wine.json)")
    parser.add_argument("--dir", default="/dev/shm", help="where the runs write (default /dev/shm)")
    parser.add_argument("--disk-dir", default=".",
                        help="a directory on a disk file system, for the cold-cache run (default: the current one; "
                             "the run works in a temporary directory inside it)")
    parser.add_argument("--only", action="append", metavar="NAME", help="make only this fixture (repeatable)")
    args = parser.parse_args()
    if args.derived_only:
        derive_bad_inputs()
        derive_syscall_counts()
        return
    if not args.gcc or not args.clang:
        parser.error("--gcc and --clang are required (or --derived-only)")
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
        derive_syscall_counts()


if __name__ == "__main__":
    main()
