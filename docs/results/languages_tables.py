#!/usr/bin/env python3
"""Print the tables of languages.md from the two JSON files of the suite `languages`.

Run it from the repository's root with the ext4 run first and the tmpfs run second:

    python3 docs/results/languages_tables.py docs/results/languages-ext4-gcc.json docs/results/languages-tmpfs-gcc.json

It prints, in Markdown, one table per workload (every row of the workload, fastest first
on the first run: the first run's columns, then the second run's time and ratio) and the
table of each language's best row, as they stand under "## The tables" in languages.md.
Every number is taken from the rows' `_median` aggregates (Google Benchmark's median of the
repetitions, counter by counter, over the repetitions that have the counter); a ratio is one
median time over another of the same run. A counter the row does not have (unknown, e.g. the
user and system time of a program whose whole life had no clock tick to split its CPU time
by) is an empty cell. Numbers are written by iobench-compare's number format (as in every
report: tests/data/number_format.json). Standard library and tools/iobench_compare only.
"""

import json
import os
import sys

# The one number format of every report: iobench-compare's (tools/iobench_compare/number_format.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from iobench_compare import number_format  # noqa: E402

WORKLOADS = ["ints_out", "ints_in", "hello", "lines", "doubles_out"]
LANGUAGES = ["C", "C++", "Go", "Rust", "Java", "Python", "Node.js"]
LANGUAGE_OF_FAMILY = {
    "limit": "reference",
    "stdio": "C",
    "posix": "C",
    "iostream": "C++",
    "obuf": "C++",
    "go": "Go",
    "rust": "Rust",
    "java": "Java",
    "python": "Python",
    "node": "Node.js",
}
TO_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load(path):
    """The run's file system and its median rows: {workload: {method: row}}."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = {}
    for b in data["benchmarks"]:
        if b.get("run_type") != "aggregate" or b.get("aggregate_name") != "median":
            continue
        workload, method = b["workload"], b["method"]  # every row of iobench's files says what it is
        row = dict(b)
        row["seconds"] = b["real_time"] * TO_SECONDS[b["time_unit"]]
        row["language"] = LANGUAGE_OF_FAMILY.get(b.get("family"), b.get("family", "?"))
        rows.setdefault(workload, {})[method] = row
    return data["context"].get("target_filesystem", path), rows


def wall(seconds):
    """A wall time, as every iobench report writes it (tests/data/number_format.json)."""
    if seconds is None:
        return ""
    return number_format.format_time(seconds)


def cpu(seconds):
    """A CPU time, likewise."""
    return wall(seconds)


def ratio(x):
    return number_format.format_ratio(x)


def count(x):
    if x is None:
        return ""
    return number_format.format_count(x)


def size(x):
    """Bytes (bytes per call), as the summary writes them."""
    if x is None:
        return ""
    return number_format.format_bytes(x)


def reference_of(methods):
    return "ibuf" if "ibuf" in methods else "obuf"


def workload_table(workload, fs1, rows1, fs2, rows2):
    ref = reference_of(rows1)
    r1, r2 = rows1[ref]["seconds"], rows2[ref]["seconds"] if ref in rows2 else None
    lim1 = rows1["limit"]["seconds"]
    reading = ref == "ibuf"
    out = [
        "#### " + workload,
        "",
        "| method | language | %s | x %s | x limit | calls | bytes/call | user | system"
        " | start | warm-up run | %s | x %s |" % (fs1, ref, fs2, ref),
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for method, row in sorted(rows1.items(), key=lambda kv: kv[1]["seconds"]):
        program = row.get("counters_scope") == "program"
        other = rows2.get(method)
        cells = [
            "`%s`" % method,
            row["language"],
            wall(row["seconds"]),
            ratio(row["seconds"] / r1),
            ratio(row["seconds"] / lim1),
            count(row.get("read_calls" if reading else "write_calls")),
            size(row.get("bytes_per_call")),
            cpu(row.get("user_time")),
            cpu(row.get("system_time")),
            wall(row.get("start_time")) if program else "",
            wall(row.get("warmup_time")) if program else "",
            wall(other["seconds"]) if other else "",
            ratio(other["seconds"] / r2) if other and r2 else "",
        ]
        out.append("| " + " | ".join(cells) + " |")
    return out


def best(rows, language):
    """The fastest row of a language in one workload of one run: (method, seconds)."""
    found = [(r["seconds"], m) for m, r in rows.items() if r["language"] == language]
    if not found:
        return None
    seconds, method = min(found)
    return method, seconds


def best_table(fs1, runs1, fs2, runs2):
    out = [
        "#### best row of each language",
        "",
        "| workload | language | %s: best row | / obuf (ibuf) | / limit"
        " | %s: best row | / obuf (ibuf) | / limit |" % (fs1, fs2),
        "| --- | --- | --- | ---: | ---: | --- | ---: | ---: |",
    ]
    for workload in [w for w in WORKLOADS if w in runs1]:
        for language in LANGUAGES:
            cells = [workload, language]
            for runs in (runs1, runs2):
                rows = runs.get(workload, {})
                b = best(rows, language)
                if b is None:
                    cells += ["", "", ""]
                    continue
                method, seconds = b
                cells += [
                    "`%s` %s" % (method, wall(seconds)),
                    ratio(seconds / rows[reference_of(rows)]["seconds"]),
                    ratio(seconds / rows["limit"]["seconds"]),
                ]
            if any(cells[2:]):
                out.append("| " + " | ".join(cells) + " |")
    return out


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    fs1, runs1 = load(argv[1])
    fs2, runs2 = load(argv[2])
    blocks = []
    for workload in WORKLOADS + sorted(set(runs1) - set(WORKLOADS)):
        if workload in runs1:
            blocks.append(workload_table(workload, fs1, runs1[workload], fs2,
                                         runs2.get(workload, {})))
    blocks.append(best_table(fs1, runs1, fs2, runs2))
    print("\n\n".join("\n".join(b) for b in blocks))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
