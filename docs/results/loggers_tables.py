#!/usr/bin/env python3
"""Print the tables of loggers.md's "The logger benchmark's tables, re-run" from a run of `loggers-anchor`.

Run it from the repository's root on the JSON file of one run of the suite:

    python3 docs/results/loggers_tables.py docs/results/loggers-anchor-tmpfs-gcc.json

It prints, in Markdown, one table per message (log_ints_double, log_ints_string) and thread
count (1, 4): for each logger, the p50, p75, p90, p95, p99 and p99.9 of a call here four ways (the
benchmark's own method: batches of 20 calls averaged, a batch every 2.86 ms per thread,
`/rate:7000/batch:20`; the same batches back to back, `/batch:20`; each call timed alone at
that pace, `/rate:7000`; each call timed alone as fast as it can, saturated), then the figures
Quill's README publishes for that logger (odygrd/quill, README.md, "Latency", the tables of
the two messages; measured with odygrd/logger_benchmarks on an isolated Intel Core i5-12600 at
4.8 GHz; every percentile its tables have). Every number of this machine is the median over the repetitions of the rows'
per-repetition figures, and the records dropped per run where the logger drops. Standard
library and tools/iobench_compare only.
"""

import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from iobench_compare import number_format  # noqa: E402

# Quill's README (odygrd/quill, README.md, "Latency"), in ns: the 50th, 75th, 90th, 95th, 99th and
# 99.9th percentiles of each table. Names as iobench's methods; the README's rows are "Quill
# Unbounded Queue", "Quill Bounded Dropping Queue", "fmtlog", "spdlog".
PUBLISHED = {
    ("log_ints_double", 1): {"quill_unbounded": (8, 9, 9, 9, 11, 13), "quill_bounded_dropping": (8, 9, 9, 9, 11, 13),
                             "fmtlog_drop": (8, 9, 10, 10, 12, 13),
                             "spdlog_async_block": (148, 151, 154, 157, 165, 173)},
    ("log_ints_double", 4): {"quill_unbounded": (8, 9, 10, 10, 13, 15),
                             "quill_bounded_dropping": (8, 9, 10, 10, 12, 15), "fmtlog_drop": (9, 9, 9, 10, 12, 13),
                             "spdlog_async_block": (215, 251, 320, 357, 449, 734)},
    ("log_ints_string", 1): {"quill_unbounded": (12, 13, 14, 15, 17, 19),
                             "quill_bounded_dropping": (10, 12, 13, 13, 15, 16),
                             "fmtlog_drop": (10, 12, 13, 13, 15, 16),
                             "spdlog_async_block": (126, 129, 132, 135, 142, 151)},
    ("log_ints_string", 4): {"quill_unbounded": (13, 14, 16, 17, 20, 23),
                             "quill_bounded_dropping": (12, 13, 14, 15, 16, 18),
                             "fmtlog_drop": (10, 12, 13, 14, 16, 19),
                             "spdlog_async_block": (197, 224, 276, 306, 394, 689)},
}
LOGGERS = ["quill_unbounded", "quill_bounded_dropping", "fmtlog_drop", "spdlog_async_block"]
PERCENTILES = ["latency_p50_ns", "latency_p75_ns", "latency_p90_ns", "latency_p95_ns", "latency_p99_ns",
               "latency_p999_ns"]
MODES = [("/rate:7000/batch:20", "its method: batch of 20 averaged, paced"), ("/batch:20", "batches back to back"),
         ("/rate:7000", "each call, paced"), ("", "each call, saturated")]


def ns(value):
    return number_format.format_time(value * 1e-9)


def load(path):
    """{row name: [each repetition's row]} of the file's per-repetition rows."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "iteration" and not b.get("error_occurred"):
            rows.setdefault(b["run_name"], []).append(b)
    return rows


def median_of(reps, key):
    values = [r[key] for r in reps if key in r]
    return statistics.median(values) if values else None


def table(rows, workload, threads):
    sink = "/threads:1" if threads == 1 else f"/threads:{threads}/sink:shared"
    out = [f"| `{workload}`, {threads} thread{'s' if threads > 1 else ''} | how | p50 | p75 | p90 | p95 | p99 | "
           "p99.9 | records dropped per run |", "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for logger in LOGGERS:
        for suffix, how in MODES:
            reps = rows.get(f"{workload}/{logger}{sink}{suffix}")
            if not reps:
                continue
            cells = [ns(v) if v is not None else "" for v in (median_of(reps, k) for k in PERCENTILES)]
            dropped = median_of(reps, "records_dropped")
            out.append(f"| `{logger}` | {how} | " + " | ".join(cells) + " | " +
                       ("" if dropped is None else number_format.format_count(dropped)) + " |")
        published = PUBLISHED[(workload, threads)][logger]
        out.append(f"| `{logger}` | **published** (Quill's README) | " +
                   " | ".join(f"**{v} ns**" for v in published) + " | |")
    return "\n".join(out)


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: loggers_tables.py <results of --suite loggers-anchor>.json")
    rows = load(argv[1])
    for workload in ("log_ints_double", "log_ints_string"):
        for threads in (1, 4):
            print(table(rows, workload, threads))
            print()


if __name__ == "__main__":
    main(sys.argv)
