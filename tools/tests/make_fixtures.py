#!/usr/bin/env python3
"""Regenerates the JSON fixtures of the iobench-compare tests with the real iobench.

Every fixture is a real iobench run; this script only makes it small and free of
machine-specific strings: the "caches" block is dropped, each benchmark row is
written on one line, and the context keys that name local paths ("executable",
"target_dir") or the kernel's local build tag are shortened. Nothing the tool
reads (names, run types, times, counters, errors, compiler, OS, suite, scale)
is touched.

    make_fixtures.py --gcc BUILD_GCC/iobench --clang BUILD_CLANG/iobench --full-dir DIR

DIR must be an (empty) directory on a file system of about 128 KiB, so that the
small ints_out workload fits and the larger hello workload fails with "No space
left on device" (as root: mount -t tmpfs -o size=128k tmpfs DIR).
Runs take about a minute. Afterwards rerun the tests with IOBENCH_UPDATE_GOLDEN=1
to rewrite the golden tables, and review the difference before committing it.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")

# Two workloads, two methods each: ints_out (10,000 integers) and hello (100,000 lines).
# Five repetitions: the fewest for which Mann-Whitney U can reach p < 0.01.
MAIN_SUITE = {
    "name": "compare-fixtures",
    "description": "small run for the iobench-compare tests",
    "scale": 0.001,
    "min_time": 0.02,
    "repetitions": 5,
    "benchmarks": [
        {"workload": "ints_out", "methods": ["fprintf", "obuf"]},
        {"workload": "hello", "methods": ["fwrite", "obuf"]},
    ],
}

# A buffer-size sweep: names end in /buf:<bytes>; one repetition keeps it small.
SWEEP_SUITE = {
    "name": "compare-sweep",
    "description": "buffer-size sweep for the iobench-compare chart tests",
    "scale": 0.001,
    "min_time": 0.02,
    "repetitions": 1,
    "benchmarks": [
        {"workload": "ints_out", "methods": ["obuf", "fprintf"], "buffer_sizes": [512, 4096, 65536]},
    ],
}

# A workload the main suite does not have: no benchmark in common with it.
OTHER_SUITE = {
    "name": "compare-other",
    "description": "a run sharing no benchmark with the main fixtures",
    "scale": 0.001,
    "min_time": 0.02,
    "repetitions": 1,
    "benchmarks": [{"workload": "ints_in", "methods": ["ibuf"]}],
}


def run(binary, suite, out, directory, cwd, *extra):
    """Runs iobench on `suite` (a dict) and writes its JSON to `out`; returns the exit status."""
    suite_path = os.path.join(cwd, suite["name"] + ".json")
    with open(suite_path, "w", encoding="utf-8") as f:
        json.dump(suite, f)
    cmd = [binary, "--suite", suite_path, "--dir", directory, "--benchmark_out=" + out, *extra]
    print("+", " ".join(cmd), file=sys.stderr)
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if done.returncode not in (0, 1):
        sys.stderr.write(done.stderr)
    return done.returncode


def shrink(src, dst, target_dir):
    """Copies a result file to the fixtures, small and without machine-specific strings."""
    with open(src, encoding="utf-8") as f:
        data = json.load(f)
    context = data["context"]
    context.pop("caches", None)
    context["executable"] = "iobench"
    context["target_dir"] = target_dir
    if "kernel" in context:
        context["kernel"] = context["kernel"].split("-")[0].split()[0]
    lines = ["{", '  "context": ' + json.dumps(context, indent=1).replace("\n", "\n  ") + ",", '  "benchmarks": [']
    rows = [json.dumps(row, separators=(",", ":")) for row in data["benchmarks"]]
    lines.append("\n".join("    " + row + ("," if i + 1 < len(rows) else "") for i, row in enumerate(rows)))
    lines += ["  ]", "}"]
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gcc", required=True, help="iobench built with GCC")
    parser.add_argument("--clang", required=True, help="iobench built with Clang")
    parser.add_argument("--full-dir", required=True, help="a directory on a ~128 KiB file system")
    parser.add_argument("--dir", default="/dev/shm", help="where the other runs write (default /dev/shm)")
    args = parser.parse_args()
    gcc, clang = os.path.abspath(args.gcc), os.path.abspath(args.clang)
    full_dir = os.path.abspath(args.full_dir)

    with tempfile.TemporaryDirectory() as tmp:
        # Run in tmp with a relative "full" so that error messages name no local path.
        os.symlink(full_dir, os.path.join(tmp, "full"))
        runs = [
            # name, binary, suite, directory, expected status, extra flags
            ("gcc.json", gcc, MAIN_SUITE, args.dir, 0),
            ("clang.json", clang, MAIN_SUITE, args.dir, 0),
            ("gcc-2reps.json", gcc, MAIN_SUITE, args.dir, 0,
             "--benchmark_repetitions=2", "--benchmark_filter=^ints_out/"),
            ("gcc-aggregates.json", gcc, MAIN_SUITE, args.dir, 0,
             "--benchmark_report_aggregates_only=true", "--benchmark_filter=^ints_out/"),
            ("failed.json", gcc, MAIN_SUITE, "full", 1, "--benchmark_repetitions=3"),
            ("sweep-gcc.json", gcc, SWEEP_SUITE, args.dir, 0),
            ("sweep-clang.json", clang, SWEEP_SUITE, args.dir, 0),
            ("ints-in.json", gcc, OTHER_SUITE, args.dir, 0),
        ]
        for name, binary, suite, directory, expected, *extra in runs:
            out = os.path.join(tmp, name)
            status = run(binary, suite, out, directory, tmp, *extra)
            if status != expected:
                sys.exit(f"make_fixtures: {name}: iobench exited with {status}, expected {expected}")
            shrink(out, os.path.join(FIXTURES, name), directory)
        # A run cut short while writing its JSON: not JSON.
        with open(os.path.join(FIXTURES, "gcc.json"), encoding="utf-8") as f:
            head = f.read(600)
        with open(os.path.join(FIXTURES, "truncated.json"), "w", encoding="utf-8") as f:
            f.write(head)
        # A suite file is JSON with a "benchmarks" list, but not a benchmark result.
        with open(os.path.join(FIXTURES, "suite-not-result.json"), "w", encoding="utf-8") as f:
            json.dump(MAIN_SUITE, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
