#!/usr/bin/env python3
"""Tests of the history (--history) in SQLite: adding runs (once: re-adding is a no-op), two writers at
once, databases that are refused and left as they are, files of older iobench versions, the change
points of a history built from real fixture files with known steps, and its HTML page in headless
Chromium (skipped, with the reason, without one). PostgreSQL: test_history_postgresql.py.
"""

import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import unittest

import history_support as hs
import test_report
from support import fixture, main, rows_of

from iobench_compare import changepoints, history_report


class AddTest(unittest.TestCase):
    """--add: what a run keeps, once."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.db = os.path.join(self.tmp, "history.sqlite")

    def test_add_keeps_each_benchmark_and_readd_is_a_no_op(self):
        status, out, err = hs.run_tool("--history", self.db, "--add", "--label", "c1", fixture("quick-gcc.json"))
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(out, f"{fixture('quick-gcc.json')}: added to the history as run 1 (label c1)\n")
        before = hs.file_bytes(self.db)
        status, out, err = hs.run_tool("--history", self.db, "--add", "--label", "other", fixture("quick-gcc.json"))
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(out, f"{fixture('quick-gcc.json')}: already in the history as run 1 (label c1): "
                              "nothing added\n")
        self.assertEqual(hs.file_bytes(self.db), before)
        runs = hs.sqlite_rows(self.db, "SELECT label, compiler, host, cpu_model, kernel, suite, scale, "
                                       "iobench_commit, file_name FROM iobench_runs")
        self.assertEqual(runs, [("c1", "GNU 12.2.0", "vm", "AMD EPYC", "6.18.44", "quick", "0.01",
                                 "ad1ae7a34bd4db5bfb5a000305f145ce6c785a9e", "quick-gcc.json")])
        # Each benchmark's median and interval, computed here from the file's repetitions: 6 of them,
        # whose distribution-free 95 % interval of the median is [smallest, largest].
        rows = {r[0]: r[1:] for r in hs.sqlite_rows(
            self.db, "SELECT benchmark, status, median_s, ci_low_s, ci_high_s, repetitions FROM iobench_results")}
        expected = hs.medians("quick-gcc.json")
        self.assertEqual(set(rows), set(expected))
        for name, median in expected.items():
            times = sorted(t for t in [r["real_time"] * hs.UNITS[r["time_unit"]]
                                       for r in rows_of("quick-gcc.json")
                                       if r["name"] == name and r["run_type"] == "iteration"])
            status_, stored, low, high, repetitions = rows[name]
            self.assertEqual(status_, "ok")
            self.assertAlmostEqual(stored, median, delta=median * 1e-12)
            self.assertAlmostEqual(low, times[0], delta=median * 1e-12)
            self.assertAlmostEqual(high, times[-1], delta=median * 1e-12)
            self.assertEqual(repetitions, 6)

    def test_older_files_and_instructions(self):
        # gcc.json: iobench 0.1.0, rows without their structure, 5 repetitions (no interval); gcc-aggregates.json:
        # only the aggregate rows (the median row is the result); failed.json: a failed benchmark.
        files = [fixture(n) for n in ("gcc.json", "gcc-aggregates.json", "failed.json", "instructions-valgrind.json")]
        status, out, err = hs.run_tool("--history", self.db, "--add", "--label", "v1", *files)
        self.assertEqual((status, err), (0, ""), out)
        self.assertEqual(out.count("added to the history as run"), 4)
        rows = {(r[0], r[1]): r[2:] for r in hs.sqlite_rows(
            self.db, "SELECT file_name, benchmark, status, median_s, ci_low_s, instructions_per_item, error "
                     "FROM iobench_results JOIN iobench_runs ON iobench_runs.id = run_id")}
        median = hs.medians("gcc.json")["ints_out/obuf"]
        self.assertEqual(rows[("gcc.json", "ints_out/obuf")][:2], ("ok", median))
        self.assertIsNone(rows[("gcc.json", "ints_out/obuf")][2])  # 5 repetitions: no interval
        with open(fixture("gcc-aggregates.json"), encoding="utf-8") as f:
            median_row = [r for r in json.load(f)["benchmarks"] if r["name"] == "ints_out/fprintf_median"][0]
        self.assertAlmostEqual(rows[("gcc-aggregates.json", "ints_out/fprintf")][1],
                               median_row["real_time"] * hs.UNITS[median_row["time_unit"]], delta=1e-15)
        failed = rows[("failed.json", "hello/fwrite")]
        self.assertEqual(failed[0], "failed")
        self.assertIsNone(failed[1])
        self.assertIn("No space left on device", failed[4])
        with open(fixture("instructions-valgrind.json"), encoding="utf-8") as f:
            counted = {r["name"]: r["instructions_per_item"] for r in json.load(f)["benchmarks"]}
        for name, count in counted.items():
            self.assertEqual(rows[("instructions-valgrind.json", name)][3], count)

    def check_refused(self, args, message, db=None):
        """Bad input: exit status 2, one line, nothing written to standard output, the history unchanged."""
        db = db or self.db
        before = hs.file_bytes(db) if os.path.exists(db) else None
        status, out, err = hs.run_tool(*args)
        self.assertEqual((status, out), (2, ""), err)
        self.assertEqual(err.count("\n"), 1, err)
        self.assertTrue(err.startswith("iobench-compare: error: "), err)
        self.assertIn(message, err)
        self.assertEqual(hs.file_bytes(db) if os.path.exists(db) else None, before)

    def test_bad_input(self):
        gcc = fixture("gcc.json")
        self.check_refused(["--history", self.db, "--add", "--label", "c1", gcc, fixture("nosuch.json")],
                           "nosuch.json: no such file")
        self.assertFalse(os.path.exists(self.db))  # nothing added, not even the first file
        hs.run_tool("--history", self.db, "--add", "--label", "c1", gcc)
        for args, message in (
                (["--history", self.db, "--add", "--label", "c2", fixture("truncated.json")], "truncated JSON"),
                (["--history", self.db, "--add", "--label", "", gcc], "--label: empty"),
                (["--history", self.db, "--add", "--label", "a\nb", gcc], "has a control character"),
                (["--history", self.db, "--add", "--label", "a..b", gcc], "holds '..'"),
                (["--history", self.db, "--add", "--label", "a", "--label", "b", gcc], "one label for the runs"),
                (["--history", self.db, "--add"], "--add: no result file given"),
                (["--history", self.db, "--add", "--label", "c2", gcc, "-o", "x.html"],
                 "--add writes into the history"),
                (["--history", self.db, "--add", "--label", "c2", gcc, fixture("clang.json"), "--fail-on-regression",
                  "5"], "--fail-on-regression: an option of a comparison of result files, not of --history"),
                (["--history", self.db, "--baseline-file", "1"], "--baseline-file: an option of a comparison"),
                (["--history", self.db, "--alpha", "0.05"], "--alpha: an option of a comparison"),
                (["--history", self.db, gcc], "with --history, result files are added with --add"),
                (["--history", self.db, "--label", "x"], "--label: labels the runs added with --add"),
                (["--history", self.db, "--format", "bencher"], "--history writes console, md, csv or html"),
                (["--history", self.db, "--format", "html", "-o", self.db], "is the input file"),
                (["--add", gcc], "--add: adds result files to a history: give --history DB"),
                (["--history", "mysql://u@h/db"], "not in mysql"),
                (["--history", "sqlite://"], "an in-memory database keeps nothing"),
                (["--history", os.path.join(self.tmp, "none.sqlite")], "no such history"),
                (["--history", os.path.join(self.tmp, "no", "dir.sqlite"), "--add", "--label", "c", gcc],
                 "no such directory"),
                (["--history", self.tmp], "is a directory, not a history")):
            with self.subTest(args=args):
                self.check_refused(args, message)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "none.sqlite")))
        self.assertEqual(hs.sqlite_rows(self.db, "SELECT count(*) FROM iobench_runs"), [(1,)])

    def test_missing_dependency(self):
        # A Python without SQLAlchemy (or psycopg2, for PostgreSQL): --history exits with status 3 and says what
        # to install; the comparison, which does not need them, works as before.
        for module, args, message in (
                ("sqlalchemy", ["--history", self.db], "sqlalchemy is missing from this Python"),
                ("psycopg2", ["--history", "postgresql://u@127.0.0.1:1/db"], "psycopg2 is missing from this Python")):
            stubs = os.path.join(self.tmp, module)
            os.mkdir(stubs)
            with open(os.path.join(stubs, f"{module}.py"), "w", encoding="utf-8") as f:
                f.write(f"raise ImportError('No module named {module}', name='{module}')\n")
            env = hs.tool_env()
            env["PYTHONPATH"] = stubs + os.pathsep + env["PYTHONPATH"]
            status, out, err = hs.run_tool(*args, env=env)
            self.assertEqual((status, out, err.count("\n")), (3, "", 1), err)
            self.assertIn(message, err)
            self.assertNotIn("Traceback", err)
            status, out, err = hs.run_tool(fixture("gcc.json"), env=env)
            self.assertEqual((status, err), (0, ""))
            self.assertIn("ints_out: time per run", out)

    def test_sqlite_url(self):
        status, out, err = hs.run_tool("--history", "sqlite:///" + self.db, "--add", "--label", "c1",
                                       fixture("gcc.json"))
        self.assertEqual((status, err), (0, ""))
        status, out, err = hs.run_tool("--history", self.db)
        self.assertEqual((status, err), (0, ""))
        self.assertIn("1 run in 1 series", out)
        self.assertIn("series 1: vm (AMD EPYC), GNU 12.2.0, suite compare-fixtures, scale 0.001: 1 run, "
                      "4 benchmarks", out)


class RefusedTest(unittest.TestCase):
    """A database that is not a history of this version is refused with one line and left byte for byte."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def check(self, db, message):
        before = hs.file_bytes(db)
        for args in (["--history", db, "--add", "--label", "c1", fixture("gcc.json")], ["--history", db],
                     ["--history", db, "--format", "html", "-o", os.path.join(self.tmp, "h.html")]):
            with self.subTest(args=args):
                status, out, err = hs.run_tool(*args)
                self.assertEqual((status, out), (2, ""), err)
                self.assertEqual(err.count("\n"), 1, err)
                self.assertIn(message, err)
                self.assertEqual(hs.file_bytes(db), before)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "h.html")))
        self.assertEqual(sorted(os.listdir(self.tmp)), [os.path.basename(db)])  # no journal or WAL left

    def test_random_bytes(self):
        db = os.path.join(self.tmp, "random.sqlite")
        with open(db, "wb") as f:
            f.write(os.urandom(8192))
        self.check(db, "not an SQLite database (it does not start as one): not used, left as it is")

    def test_another_programs_database(self):
        db = os.path.join(self.tmp, "other.sqlite")
        with sqlite3.connect(db) as conn:
            conn.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT)")
            conn.execute("INSERT INTO accounts (name) VALUES ('x')")
        self.check(db, "holds tables that are not an iobench history (accounts): not used, left as it is")

    def test_a_newer_schema_version(self):
        db = os.path.join(self.tmp, "v3.sqlite")
        hs.run_tool("--history", db, "--add", "--label", "c1", fixture("gcc.json"))
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE iobench_schema SET version = 3")
        self.check(db, "an iobench history of schema version 3, newer than this iobench-compare's (2): not used, "
                       "left as it is")

    def test_damaged_tables(self):
        db = os.path.join(self.tmp, "damaged.sqlite")
        hs.run_tool("--history", db, "--add", "--label", "c1", fixture("gcc.json"))
        with sqlite3.connect(db) as conn:
            conn.execute("DROP TABLE iobench_results")
        self.check(db, "a damaged iobench history (no table iobench_results)")


class TwoWritersTest(unittest.TestCase):
    """Writers adding to one SQLite history at once, each a process of its own: every file once, none lost."""

    def test_two_writers(self):
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "history.sqlite")
            files = [hs.variant(tmp, "gcc.json", i) for i in range(8)]
            # One adds them all in one go; the other one by one, the last first: each file is added by both.
            first = hs.start_tool("--history", db, "--add", "--label", "a", *files)
            second = [hs.start_tool("--history", db, "--add", "--label", "b", f) for f in reversed(files[:4])]
            second += [hs.start_tool("--history", db, "--add", "--label", "b", f) for f in reversed(files[4:])]
            outputs = []
            for process in [first, *second]:
                out, err = process.communicate(timeout=300)
                self.assertEqual((process.returncode, err), (0, ""))
                outputs.append(out)
            text = "".join(outputs)
            self.assertEqual(text.count("added to the history as run"), 8, text)
            self.assertEqual(text.count("already in the history"), 8, text)
            runs = hs.sqlite_rows(db, "SELECT file_name, count(*) FROM iobench_runs GROUP BY file_name")
            self.assertEqual(sorted(runs), sorted((os.path.basename(f), 1) for f in files))
            per_run = hs.sqlite_rows(db, "SELECT run_id, count(*) FROM iobench_results GROUP BY run_id")
            self.assertEqual(sorted(n for _, n in per_run), [4] * 8)  # every benchmark of every file


def synthetic_history(tmp, db):
    """A history of 8 runs of quick-gcc.json labelled c1..c8 in which hello/fwrite is 30 % slower from c5 on,
    and 8 runs of instructions-valgrind.json (d1..d8) in which ints_out/obuf counts 2 % more instructions per
    item from d6 on, and ints_in/ibuf's time doubles from d5 on (a time under valgrind: no change point);
    every other time wobbles by under 1 %. Added through the module (the command line's
    --add is AddTest's), each run in a transaction of its own as the command does."""
    from iobench_compare import history
    from iobench_compare.results import load

    where = history.database(db)
    for i in range(8):
        for source, label, factors in (
                ("quick-gcc.json", f"c{i + 1}", {"time_factors": {"hello/fwrite": 1.3 if i >= 4 else 1.0}}),
                ("instructions-valgrind.json", f"d{i + 1}",
                 {"instruction_factors": {"ints_out/obuf": 1.02 if i >= 5 else 1.0},
                  "time_factors": {"ints_in/ibuf": 2.0 if i >= 4 else 1.0}})):
            path = hs.variant(tmp, source, i, **factors)
            history.add(where, [history.prepare(load(path), hs.file_bytes(path), label)])


def setUpModule():
    global SYNTHETIC_DIR, SYNTHETIC
    SYNTHETIC_DIR = tempfile.mkdtemp()
    SYNTHETIC = os.path.join(SYNTHETIC_DIR, "history.sqlite")
    synthetic_history(SYNTHETIC_DIR, SYNTHETIC)


def tearDownModule():
    shutil.rmtree(SYNTHETIC_DIR)


class ChangePointTest(unittest.TestCase):
    """The change points of a history built from real fixture files with known steps."""

    def setUp(self):
        self.db = SYNTHETIC

    def test_the_steps_and_nothing_else(self):
        status, out, err = hs.run_tool("--history", self.db)
        self.assertEqual((status, err), (0, ""))
        self.assertIn("16 runs in 2 series", out)
        regressions = out.split("\nregressions:", 1)[1].split("\nimprovements", 1)[0]
        lines = [line.split() for line in regressions.strip().splitlines()[3:]]
        # The levels, computed here: the fixture's median times the wobble's median on each side.
        import statistics

        median = hs.medians("quick-gcc.json")["hello/fwrite"]
        before = median * statistics.median(hs.WOBBLE[:4])
        after = median * 1.3 * statistics.median(hs.WOBBLE[4:8])
        from iobench_compare.number_format import format_time

        self.assertEqual(lines[0], ["hello/fwrite", "1", "time", *format_time(before).split(),
                                    *format_time(after).split(), f"{(after / before - 1) * 100:+.1f}%", "c4..c5"])
        self.assertEqual(lines[1][:3] + lines[1][-2:], ["ints_out/obuf", "2", "instr/item", "+2.0%", "d5..d6"])
        self.assertEqual(len(lines), 2, regressions)
        self.assertIn("improvements\n  none", out)

    def test_markdown_and_csv(self):
        status, out, err = hs.run_tool("--history", self.db, "--format", "md")
        self.assertEqual((status, err), (0, ""))
        self.assertRegex(out, r"\| hello/fwrite +\| 1 +\| time +\|.*\| c4\.\.c5 +\|")
        rows = hs.csv_history(self, self.db)
        fwrite = [r for r in rows if r["benchmark"] == "hello/fwrite" and r["series"] == "1"]
        self.assertEqual([r["label"] for r in fwrite], [f"c{i}" for i in range(1, 9)])
        median = hs.medians("quick-gcc.json")["hello/fwrite"]
        for i, r in enumerate(fwrite):
            self.assertAlmostEqual(float(r["median_s"]), median * hs.WOBBLE[i] * (1.3 if i >= 4 else 1.0),
                                   delta=median * 1e-9)

    def test_change_points_of_synthetic_steps(self):
        # The function itself: a step of 20 % among 1 % noise is found at its run; a flat series has none.
        import numpy

        rng = numpy.random.default_rng(7)
        noisy = list(numpy.exp(rng.normal(0, 0.01, 20)))
        stepped = [v * (1.2 if k >= 12 else 1.0) for k, v in enumerate(noisy)]
        self.assertEqual(changepoints.change_points(stepped, changepoints.TIME_NOISE), [12])
        self.assertEqual(changepoints.change_points(noisy, changepoints.TIME_NOISE), [])
        # One run 50 % slower is no level (an outlier, not a change), nor are three runs.
        self.assertEqual(changepoints.change_points(noisy[:10] + [noisy[10] * 1.5] + noisy[11:],
                                                    changepoints.TIME_NOISE), [])
        self.assertEqual(changepoints.change_points([1.0, 1.0, 1.5], changepoints.TIME_NOISE), [])
        # Counts: exact, so a step of 0.5 % is a change.
        counts = [412.0] * 5 + [414.06] * 4
        self.assertEqual(changepoints.change_points(counts, changepoints.COUNT_NOISE), [5])


class ChangePointJudgementTest(unittest.TestCase):
    """What a change point must stand out of: the runs' intervals, the spread between runs, a minimum step; a
    step of every benchmark together is the machine's; and the work grows linearly with the runs."""

    def test_the_runs_intervals(self):
        import numpy

        rng = numpy.random.default_rng(3)
        values = list(numpy.exp(rng.normal(0, 0.02, 30)) * [1.2 if k >= 15 else 1.0 for k in range(30)])
        narrow = [(v / 1.05, v * 1.05) for v in values]
        wide = [(v / 2.5, v * 2.5) for v in values]  # runs whose own repetitions spread 2.5x each way
        self.assertEqual(changepoints.change_points(values, changepoints.TIME_NOISE, narrow), [15])
        self.assertEqual(changepoints.change_points(values, changepoints.TIME_NOISE, wide), [])

    def test_the_minimum_step(self):
        values = [1.0] * 15 + [1.04] * 15  # exact, but 4 %: below MIN_TIME_EFFECT for times
        self.assertEqual(changepoints.change_points(values, changepoints.TIME_NOISE, None,
                                                    changepoints.MIN_TIME_EFFECT), [])
        self.assertEqual(changepoints.change_points(values, changepoints.COUNT_NOISE), [15])  # counts: a change

    def test_a_step_of_the_whole_machine(self):
        # Every benchmark of quick-gcc.json 80 % slower from the 5th run on (a load), hello/fwrite 80 % x 1.3: the
        # machine's step is listed apart, and hello/fwrite's step with it, not judged (a load slows benchmarks
        # unevenly); the others, which moved as the machine did, are no change of their own.
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "history.sqlite")
            names = list(hs.medians("quick-gcc.json"))
            for i in range(10):
                factors = {n: (1.8 if i >= 4 else 1.0) * (1.3 if n == "hello/fwrite" and i >= 4 else 1.0)
                           for n in names}
                path = hs.variant(tmp, "quick-gcc.json", i, time_factors=factors)
                self.assertEqual(hs.run_tool("--history", db, "--add", "--label", f"c{i + 1}", path)[0], 0)
            status, out, err = hs.run_tool("--history", db)
            self.assertEqual((status, err), (0, ""))
            regressions = out.split("\nregressions:", 1)[1].split("\nimprovements", 1)[0]
            lines = [line.split() for line in regressions.strip().splitlines()[3:]]
            self.assertEqual(lines, [], regressions)
            self.assertIn("improvements\n  none", out)
            machine = out.split("\nsteps of the machine:", 1)[1]
            self.assertRegex(machine, r"\(every benchmark\) +1 +machine +x0\.5\d +x1\.00 +\+(79|80)\.\d% +c4\.\.c5")
            self.assertRegex(machine, r"hello/fwrite +1 +time .* \+1\d\d\.\d% +c4\.\.c5")
            self.assertEqual(machine.count("c4..c5"), 2, machine)

    def test_emulated_runs_are_a_series_of_their_own(self):
        # Five runs of quick-gcc.json, then five of the same machine, compiler, suite and scale under an emulator
        # (the context's "emulator", as an ARM64 build under qemu-aarch64 writes it), 20x slower: two series, no
        # change point, no step of the machine; the emulated one's title says so.
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "history.sqlite")
            names = list(hs.medians("quick-gcc.json"))
            for i in range(10):
                path = hs.variant(tmp, "quick-gcc.json", i,
                                  time_factors={n: 20.0 for n in names} if i >= 5 else None)
                if i >= 5:
                    with open(path, encoding="utf-8") as f:
                        data = json.load(f)
                    data["context"]["emulator"] = "qemu-aarch64: /usr/bin/qemu-aarch64"
                    for row in data["benchmarks"]:
                        row["emulated"] = True
                    with open(path, "w", encoding="utf-8") as f:
                        json.dump(data, f)
                self.assertEqual(hs.run_tool("--history", db, "--add", "--label", f"c{i + 1}", path)[0], 0)
            status, out, err = hs.run_tool("--history", db)
            self.assertEqual((status, err), (0, ""))
            self.assertIn("10 runs in 2 series", out)
            self.assertIn(", emulated CPU (qemu-aarch64)", out)
            self.assertRegex(out, r"\nregressions:[^\n]*\n  none\n+improvements\n  none\n+steps of the machine:[^\n]*\n  none\n")
            self.assertNotIn("c5..c6", out)

    def test_thirty_runs_of_one_build_and_a_step(self):
        # 30 runs made of quick-gcc.json (its own repetitions and intervals: a run's median spreads by 4-15 %, by
        # 65 % for hello/limit), each benchmark's times scaled by a run-to-run noise of 3 % and every run by a
        # machine's of 3 %: no change point. The same with hello/fwrite 20 % slower from the 16th run on: that step,
        # and nothing else.
        import numpy

        from iobench_compare import history
        from iobench_compare.results import load

        names = list(hs.medians("quick-gcc.json"))
        rng = numpy.random.default_rng(11)
        noise = numpy.exp(rng.normal(0, 0.03, (30, len(names))) + rng.normal(0, 0.03, (30, 1)))
        for step, expected in ((1.0, []), (1.2, [("hello/fwrite", "time", "r15..r16")])):
            with tempfile.TemporaryDirectory() as tmp:
                where = history.database(os.path.join(tmp, "history.sqlite"))
                new_runs = []
                for i in range(30):
                    factors = {n: noise[i, k] * (step if n == "hello/fwrite" and i >= 15 else 1.0)
                               for k, n in enumerate(names)}
                    path = hs.variant(tmp, "quick-gcc.json", i, time_factors=factors)
                    new_runs.append(history.prepare(load(path), hs.file_bytes(path), f"r{i + 1}"))
                history.add(where, new_runs)
                found = history_report.find(history.read(where))
                self.assertEqual([(c.benchmark, c.figure, c.commits) for c in found.judged], expected)
                self.assertEqual(found.machine + found.at_machine, [])

    def test_work_grows_linearly(self):
        import numpy

        def work(n):
            rng = numpy.random.default_rng(5)
            level = numpy.ones(n)
            for start in (n // 4, n // 2, 3 * n // 4):
                level[start:] *= 1.3
            values = list(level * numpy.exp(rng.normal(0, 0.02, n)))
            before = changepoints.WORK
            found = changepoints.change_points(values, changepoints.TIME_NOISE)
            self.assertEqual(len(found), 3, found)
            return changepoints.WORK - before

        small, large = work(300), work(3000)
        # Binary segmentation: each level of splitting examines every value once at most.
        self.assertLessEqual(small, 300 * 5)
        self.assertLessEqual(large, 3000 * 5)
        self.assertLessEqual(large, 10 * small * 1.05)


class BrowserTest(unittest.TestCase):
    """The history's page in headless Chromium: the series, the interval band and the change point in the DOM,
    the screenshot no blank page and with the change point's red."""

    @classmethod
    def setUpClass(cls):
        cls.chromium = test_report.find_chromium()
        if not cls.chromium:
            raise unittest.SkipTest("no Chromium (chromium, chromium-browser or google-chrome on PATH): "
                                    "install Debian's chromium (tools/install-deps.sh) or set IOBENCH_CHROMIUM")
        cls.db = SYNTHETIC

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    chromium_run = test_report.BrowserTest.chromium_run

    def test_page(self):
        from matplotlib import image

        page = os.path.join(self.tmp, "history.html")
        status, out, err = hs.run_tool("--history", self.db, "--format", "html", "-o", page)
        self.assertEqual((status, out, err), (0, "", ""))
        with open(page, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(text, hs.run_tool("--history", self.db, "--format", "html")[1])  # the same bytes
        tags = test_report.parse(text)
        for tag in ("script", "link", "img", "iframe", "object", "embed", "base"):
            self.assertNotIn(tag, tags.starts, tag)
        self.assertEqual([link for link in tags.links if not link.startswith("#")], [])
        dom = self.chromium_run(page, "--dump-dom")
        for gid in ("s1-hello-fwrite-time", "s1-hello-fwrite-interval", "s1-hello-fwrite-change-1",
                    "s2-ints_out-obuf-instructions", "s2-ints_out-obuf-change-1"):
            self.assertRegex(dom, f'<g id="{gid}"', gid)
        self.assertNotIn('id="s1-hello-obuf-change-1"', dom)
        self.assertEqual(len(re.findall(r'<g id="s\d-[^"]*-change-\d+"', dom)), 2)
        regressions = dom.split('<section id="regressions">', 1)[1].split("</section>", 1)[0]
        self.assertIn('<a href="#s1-hello-fwrite">hello/fwrite</a>', regressions)
        self.assertIn("<code>c4..c5</code>", regressions)
        self.assertIn("<code>d5..d6</code>", regressions)
        png = os.path.join(self.tmp, "history.png")
        self.chromium_run(page, f"--screenshot={png}", "--window-size=1280,2000")
        keep = os.environ.get("IOBENCH_KEEP_SCREENSHOTS")
        if keep:
            os.makedirs(keep, exist_ok=True)
            shutil.copy(png, os.path.join(keep, "history.png"))
        rgb = image.imread(png)[:, :, :3]
        self.assertEqual(rgb.shape[:2], (2000, 1280))
        self.assertGreater((rgb.min(axis=2) < 0.85).mean(), 0.02, "the screenshot is (nearly) blank")

        def pixels(color):
            r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
            return ((abs(rgb[:, :, 0] - r) < 0.06) & (abs(rgb[:, :, 1] - g) < 0.06) &
                    (abs(rgb[:, :, 2] - b) < 0.06)).sum()

        from iobench_compare.history_report import CHANGE_COLOR, TIME_COLOR

        self.assertGreater(pixels(TIME_COLOR), 300, "no time series in the first 2000 pixels")
        self.assertGreater(pixels(CHANGE_COLOR), 100, "no change point in the first 2000 pixels")


if __name__ == "__main__":
    main()
