"""What the iobench-compare tests share: paths, running the tool from the source tree, golden files.

The tool runs as `python -m iobench_compare` with tools/ on PYTHONPATH (no pip
install needed, nothing written into the source tree), with the interpreter that
runs the tests. Fixtures: fixtures/ (see make_fixtures.py and
make_counter_fixtures.py); golden outputs: expected/ (IOBENCH_UPDATE_GOLDEN=1
rewrites them instead of comparing).
"""

import csv
import io
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
LAUNCHER = os.path.join(TOOLS, "iobench-compare")
FIXTURES = os.path.join(HERE, "fixtures")
EXPECTED = os.path.join(HERE, "expected")
sys.path.insert(0, TOOLS)
sys.dont_write_bytecode = True

try:
    import matplotlib  # noqa: F401
    import scipy  # noqa: F401
    import tabulate  # noqa: F401
except ImportError as e:  # fail loudly: a skipped test would hide a missing dependency
    sys.exit(f"iobench-compare tests: {e}: run them with a Python 3 that has python3-scipy, python3-matplotlib "
             "and python3-tabulate")


def fixture(name):
    return os.path.join(FIXTURES, name)


def tool_env(**extra):
    """The environment the tool runs in: tools/ first on PYTHONPATH, no bytecode, no display."""
    env = dict(os.environ)
    env["PYTHONPATH"] = TOOLS + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("MPLBACKEND", "Agg")
    env.update(extra)
    return env


def run(*args, cwd=None):
    """Runs the tool with this interpreter; returns (exit status, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "iobench_compare", *args], capture_output=True, text=True,
                          check=False, env=tool_env(), cwd=cwd)
    return done.returncode, done.stdout, done.stderr


def run_ok(testcase, *args):
    status, out, err = run(*args)
    testcase.assertEqual(status, 0, err)
    testcase.assertEqual(err, "")
    return out


def csv_rows(testcase, *args):
    """The tool's CSV output, parsed back: {(benchmark, file): row}."""
    from iobench_compare.render import CSV_COLUMNS

    out = run_ok(testcase, *args, "--format", "csv")
    reader = csv.DictReader(io.StringIO(out))
    testcase.assertEqual(reader.fieldnames, CSV_COLUMNS)
    return {(r["benchmark"], r["file"]): r for r in reader}


def rows_of(name):
    with open(fixture(name), encoding="utf-8") as f:
        return json.load(f)["benchmarks"]


def iteration_rows(name, benchmark):
    return [r for r in rows_of(name) if r["name"] == benchmark and r["run_type"] == "iteration"]


def iteration_times(name, benchmark):
    """Wall times in seconds of a fixture's iteration rows, read independently of the tool."""
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    return [r["real_time"] * scale[r["time_unit"]] for r in iteration_rows(name, benchmark)]


def check_golden(testcase, golden, text):
    """Compares `text` with expected/<golden> (or rewrites it with IOBENCH_UPDATE_GOLDEN=1)."""
    path = os.path.join(EXPECTED, golden)
    if os.environ.get("IOBENCH_UPDATE_GOLDEN"):
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    with open(path, encoding="utf-8", newline="") as f:
        testcase.assertEqual(text, f.read(), f"differs from {golden}; IOBENCH_UPDATE_GOLDEN=1 rewrites it")


def main():
    """unittest.main(), with run_tests.py's exit status: 77 when every test that ran was skipped."""
    import unittest

    from run_tests import status

    program = unittest.main(exit=False)
    sys.exit(status(program.result))
