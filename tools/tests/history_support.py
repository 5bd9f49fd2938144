"""What the history tests share: result files made from the fixtures, adding them, reading a history back.

A synthetic history is built from real fixture files: copies whose times (or instructions per item)
are scaled by known factors and whose dates follow one another, so that the steps, and the commits
they fall in, are known beforehand.
"""

import json
import os
import sqlite3
import subprocess
import sys

import support
from support import fixture, tool_env

try:
    import sqlalchemy  # noqa: F401
except ImportError as e:  # fail loudly: a skipped test would hide a missing dependency
    sys.exit(f"iobench-compare history tests: {e}: run them with a Python 3 that has python3-sqlalchemy "
             "(tools/install-deps.sh --tools)")

UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}

# A small run-to-run wobble of the times, the same every time: within the change points' noise floor.
WOBBLE = [1.0, 1.006, 0.995, 1.003, 0.997, 1.004, 0.996, 1.002, 0.998, 1.005]


def scale_row_times(row, factor):
    """Multiplies a results row's times (and its median's interval) by `factor`, its rates divided by it."""
    for key in ("real_time", "cpu_time", "median_ci_low", "median_ci_high"):
        if isinstance(row.get(key), (int, float)):
            row[key] *= factor
    for key in ("bytes_per_second", "items_per_second"):
        if isinstance(row.get(key), (int, float)):
            row[key] /= factor


def variant(directory, source, index, time_factors=None, instruction_factors=None):
    """A copy of fixture `source` as run `index` (0-based): dated `index` hours after 2026-12-01, every time
    scaled by WOBBLE[index] and, for the benchmarks named in `time_factors`, by their factor too (rates
    divided by it); instructions per item of those in `instruction_factors` scaled by theirs. Returns its path."""
    with open(fixture(source), encoding="utf-8") as f:
        data = json.load(f)
    data["context"]["date"] = f"2026-12-01T{index:02d}:00:00+00:00"
    for row in data["benchmarks"]:
        name = row.get("run_name") or row["name"]
        factor = WOBBLE[index % len(WOBBLE)] * (time_factors or {}).get(name, 1.0)
        if row.get("aggregate_name") not in ("cv", "stddev"):
            scale_row_times(row, factor)
        if name in (instruction_factors or {}) and isinstance(row.get("instructions_per_item"), (int, float)):
            row["instructions_per_item"] *= instruction_factors[name]
    path = os.path.join(directory, f"{os.path.splitext(source)[0]}-{index + 1}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    return path


def medians(source):
    """{benchmark: median wall time (s)} of a fixture's iteration rows, computed here, not by the tool."""
    import statistics

    with open(fixture(source), encoding="utf-8") as f:
        rows = json.load(f)["benchmarks"]
    times = {}
    for r in rows:
        if r.get("run_type") == "iteration" and not r.get("error_occurred"):
            times.setdefault(r["name"], []).append(r["real_time"] * UNITS[r["time_unit"]])
    return {name: statistics.median(values) for name, values in times.items()}


def run_tool(*args, cwd=None, env=None):
    """Runs the tool with this interpreter: (status, stdout, stderr)."""
    return support.run_tool(args, cwd=cwd, env=env)


def start_tool(*args):
    """Starts the tool with this interpreter (a writer running beside another)."""
    return subprocess.Popen([sys.executable, "-m", "iobench_compare", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=tool_env())


def file_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def sqlite_rows(path, query):
    """The rows of a query on an SQLite file, read with Python's sqlite3 (read-only), not through the tool."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return conn.execute(query).fetchall()


def csv_history(testcase, db):
    """The history's CSV, parsed back: a list of dicts."""
    import csv
    import io

    status, out, err = run_tool("--history", db, "--format", "csv")
    testcase.assertEqual((status, err), (0, ""))
    return list(csv.DictReader(io.StringIO(out)))
