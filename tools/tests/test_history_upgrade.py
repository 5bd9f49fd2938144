#!/usr/bin/env python3
"""Tests of the history's schema version 2: a version-1 history (fixtures/history-v1.sqlite, written by the
version-1 iobench-compare) opens and is upgraded in place, in one transaction that leaves it whole when it
fails or its process is killed; what version 2 keeps (p50, p99, p99.9 per call, throughput); the default
label of --add (the user's project's commit, never iobench's), with real git repositories.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

import history_support as hs
from support import fixture, main, tool_env

from iobench_compare import history

V1 = fixture("history-v1.sqlite")

# The version-1 fixture's runs and results, as the version-1 tool wrote them (read here with sqlite3).
RUNS_QUERY = "SELECT id, sha256, label, run_at, file_name, context FROM iobench_runs ORDER BY id"
RESULTS_QUERY = ("SELECT run_id, benchmark, status, error, median_s, ci_low_s, ci_high_s, instructions_per_item, "
                 "repetitions FROM iobench_results ORDER BY run_id, benchmark")


class UpgradeTest(unittest.TestCase):
    """A version-1 history is upgraded in place, never refused, nothing lost, even when interrupted."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.db = os.path.join(self.tmp, "history.sqlite")
        shutil.copy(V1, self.db)
        self.runs = hs.sqlite_rows(self.db, RUNS_QUERY)
        self.results = hs.sqlite_rows(self.db, RESULTS_QUERY)

    def version(self):
        return hs.sqlite_rows(self.db, "SELECT version FROM iobench_schema")

    def columns(self):
        return [r[1] for r in hs.sqlite_rows(self.db, "PRAGMA table_info(iobench_results)")]

    def check_v1_whole(self):
        """Still version 1, byte for byte what it held (no column added)."""
        self.assertEqual(self.version(), [(1,)])
        self.assertNotIn("p50_s", self.columns())
        self.assertEqual(hs.sqlite_rows(self.db, RUNS_QUERY), self.runs)
        self.assertEqual(hs.sqlite_rows(self.db, RESULTS_QUERY), self.results)

    def check_upgraded(self, added=0):
        """Version 2, every run and result of version 1 as it was (and `added` runs more)."""
        self.assertEqual(self.version(), [(2,)])
        self.assertEqual(self.columns()[-5:], list(history.ADDED_IN_2))
        runs = hs.sqlite_rows(self.db, RUNS_QUERY)
        self.assertEqual((runs[:len(self.runs)], len(runs)), (self.runs, len(self.runs) + added))
        results = [r for r in hs.sqlite_rows(self.db, RESULTS_QUERY) if r[0] <= len(self.runs)]
        self.assertEqual(results, self.results)

    def test_the_fixture_is_version_1(self):
        self.assertEqual(self.version(), [(1,)])
        self.assertEqual(len(self.runs), 6)
        self.assertEqual(len(self.results), 75)

    def test_listing_upgrades_it_in_place(self):
        status, out, err = hs.run_tool("--history", self.db)
        self.assertEqual((status, err), (0, ""))
        self.assertIn("6 runs in 4 series", out)
        self.check_upgraded()
        rows = hs.csv_history(self, self.db)
        self.assertEqual(len(rows), 75)
        self.assertEqual({r["p50_s"] for r in rows}, {""})  # not kept by version 1: empty, not invented
        # And the next listing is the same (nothing more to do).
        self.assertEqual(hs.run_tool("--history", self.db)[1], out)

    def test_adding_upgrades_it_and_adds(self):
        status, out, err = hs.run_tool("--history", self.db, "--add", "--label", "v2-t1", fixture("threads-log.json"),
                                       fixture("quick-clang-tenth.json"))
        self.assertEqual((status, err), (0, ""), out)
        self.assertIn("threads-log.json: already in the history as run 4 (label v1-t1)", out)
        self.assertIn("quick-clang-tenth.json: added to the history as run 7 (label v2-t1)", out)
        self.check_upgraded(added=1)

    def test_a_failure_inside_the_upgrade_leaves_it_whole(self):
        db = history.database(self.db)
        with mock.patch.object(history, "_set_version", side_effect=RuntimeError("failed in the upgrade")):
            with self.assertRaises(RuntimeError):
                history.upgrade(db)
            with self.assertRaises(RuntimeError):
                history.add(db, [history.prepare(*_loaded(fixture("gcc.json")), "x")])
        self.check_v1_whole()
        self.assertFalse(os.path.exists(self.db + "-journal") and os.path.getsize(self.db + "-journal"))
        history.upgrade(db)
        self.check_upgraded()

    def test_killed_in_the_upgrade(self):
        # A process that upgrades, told to stop inside the transaction (after the columns are added, before the
        # version is recorded), killed there with SIGKILL: the history opens afterwards as it was, and upgrades.
        ready = os.path.join(self.tmp, "ready")
        script = (
            "import os, sys, time\n"
            "from unittest import mock\n"
            "from iobench_compare import history\n"
            "def stop(conn):\n"
            f"    open({ready!r}, 'w').close()\n"
            "    time.sleep(600)\n"
            "with mock.patch.object(history, '_set_version', stop):\n"
            f"    history.upgrade(history.database({self.db!r}))\n")
        process = subprocess.Popen([sys.executable, "-c", script], env=tool_env())
        try:
            deadline = time.monotonic() + 120
            while not os.path.exists(ready):
                self.assertIsNone(process.poll(), "the upgrading process ended before it was killed")
                self.assertLess(time.monotonic(), deadline, "the upgrading process never reached the upgrade")
                time.sleep(0.05)
            # Inside the transaction: the columns are added in the journalled pages, not yet committed.
            self.assertGreater(os.path.getsize(self.db + "-journal"), 0)
            os.kill(process.pid, signal.SIGKILL)
        finally:
            process.wait(timeout=60)
        self.assertEqual(process.returncode, -signal.SIGKILL)
        # What a reader that does not roll the journal back would see is not checked: the tool opens it.
        status, out, err = hs.run_tool("--history", self.db)
        self.assertEqual((status, err), (0, ""))
        self.assertIn("6 runs in 4 series", out)
        self.check_upgraded()


def _loaded(path):
    from iobench_compare.results import load

    return load(path), hs.file_bytes(path)


class FiguresTest(unittest.TestCase):
    """What version 2 keeps beside the median: p50, p99, p99.9 per call and the throughput, as the file has them."""

    def test_percentiles_and_throughput(self):
        import statistics

        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "history.sqlite")
            status, out, err = hs.run_tool("--history", db, "--add", "--label", "t1", fixture("threads-log.json"),
                                           fixture("quick-gcc.json"))
            self.assertEqual((status, err), (0, ""))
            rows = {(r["file"], r["benchmark"]): r for r in hs.csv_history(self, db)}
            for name in ("threads-log.json", "quick-gcc.json"):
                with open(fixture(name), encoding="utf-8") as f:
                    data = json.load(f)["benchmarks"]
                per_benchmark = {}
                for r in data:
                    if r.get("run_type") == "iteration" and not r.get("error_occurred"):
                        per_benchmark.setdefault(r.get("run_name") or r["name"], []).append(r)
                latency = 0
                for benchmark, reps in per_benchmark.items():
                    row = rows[(name, benchmark)]
                    for column, counter, factor in (("p50_s", "latency_p50_ns", 1e-9),
                                                    ("p99_s", "latency_p99_ns", 1e-9),
                                                    ("p999_s", "latency_p999_ns", 1e-9),
                                                    ("bytes_per_second", "bytes_per_second", 1),
                                                    ("items_per_second", "items_per_second", 1)):
                        values = [r[counter] for r in reps if counter in r]
                        if len(values) == len(reps) and values and statistics.median(values) > 0:
                            self.assertAlmostEqual(float(row[column]), statistics.median(values) * factor,
                                                   delta=abs(statistics.median(values) * factor) * 1e-12,
                                                   msg=(name, benchmark, column))
                            latency += column == "p999_s"
                        else:
                            self.assertEqual(row[column], "", (name, benchmark, column))
                if name == "threads-log.json":
                    self.assertGreater(latency, 3)  # per-call rows with their percentiles
                else:
                    self.assertEqual(latency, 0)  # quick: no per-call row
            # The page draws them beside the median: the percentiles' and the throughput's lines.
            status, page, err = hs.run_tool("--history", db, "--format", "html")
            self.assertEqual((status, err), (0, ""))
            per_call = [b for (f, b), r in rows.items() if f == "threads-log.json" and r["p99_s"]]
            from iobench_compare.history_report import anchor

            series = 1 + (hs.csv_history(self, db)[0]["file"] != "threads-log.json")
            for suffix in ("time", "p50", "p99", "p999", "throughput"):
                self.assertIn(f'<g id="{anchor(series, per_call[0])}-{suffix}"', page, suffix)


class LabelTest(unittest.TestCase):
    """The default label of --add: the commit of the project whose repository the current directory is in;
    in iobench's own checkout, or outside any repository, --label is required (exit status 2, one line)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.env = tool_env(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t",
                            GIT_COMMITTER_EMAIL="t@example.org", GIT_CONFIG_NOSYSTEM="1", HOME=self.tmp,
                            GIT_CEILING_DIRECTORIES=self.tmp)

    def repository(self, name, files=()):
        repo = os.path.join(self.tmp, name)
        os.makedirs(repo)
        for path in files:
            os.makedirs(os.path.dirname(os.path.join(repo, path)), exist_ok=True)
            with open(os.path.join(repo, path), "w", encoding="utf-8") as f:
                f.write("x\n")
        for cmd in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-q", "--allow-empty", "-m", "x"]):
            subprocess.run(cmd, cwd=repo, env=self.env, check=True, capture_output=True)
        return repo

    def describe(self, repo):
        return subprocess.run(["git", "describe", "--always", "--dirty"], cwd=repo, env=self.env, check=True,
                              capture_output=True, text=True).stdout.strip()

    def test_the_projects_commit(self):
        project = self.repository("project", ["src/logger.cpp"])
        inside = os.path.join(project, "src")
        db = os.path.join(self.tmp, "history.sqlite")
        status, out, err = hs.run_tool("--history", db, "--add", fixture("gcc.json"), cwd=inside, env=self.env)
        self.assertEqual((status, err), (0, ""))
        self.assertIn(f"(label {self.describe(project)})", out)
        self.assertEqual(hs.sqlite_rows(db, "SELECT label FROM iobench_runs"), [(self.describe(project),)])
        # A change not committed: the label says so.
        with open(os.path.join(project, "src", "logger.cpp"), "a", encoding="utf-8") as f:
            f.write("y\n")
        status, out, err = hs.run_tool("--history", db, "--add", fixture("clang.json"), cwd=inside, env=self.env)
        self.assertEqual((status, err), (0, ""))
        self.assertIn(f"(label {self.describe(project)})", out)
        self.assertTrue(self.describe(project).endswith("-dirty"))

    def check_required(self, cwd, message):
        db = os.path.join(self.tmp, "new.sqlite")
        status, out, err = hs.run_tool("--history", db, "--add", fixture("gcc.json"), cwd=cwd, env=self.env)
        self.assertEqual((status, out, err.count("\n")), (2, "", 1), err)
        self.assertIn(message, err)
        self.assertFalse(os.path.exists(db))
        # With --label it is added.
        status, out, err = hs.run_tool("--history", db, "--add", "--label", "p1", fixture("gcc.json"), cwd=cwd,
                                       env=self.env)
        self.assertEqual((status, err), (0, ""))
        os.unlink(db)

    def test_iobench_own_checkout_requires_a_label(self):
        # A checkout of iobench (its tool and engine in a git repository), and the one these tests run from.
        checkout = self.repository("iobench", ["tools/iobench_compare/history.py", "core/engine/runner.cpp"])
        self.check_required(os.path.join(checkout, "core"), "is in iobench's own checkout")
        here = os.path.dirname(os.path.abspath(__file__))
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=here, capture_output=True, text=True)
        if top.returncode == 0:  # (a source tree outside git, as a release archive, has none)
            env = dict(self.env)
            del env["GIT_CEILING_DIRECTORIES"]
            db = os.path.join(self.tmp, "new.sqlite")
            status, out, err = hs.run_tool("--history", db, "--add", fixture("gcc.json"), cwd=here, env=env)
            self.assertEqual((status, out, err.count("\n")), (2, "", 1), err)
            self.assertIn("is in iobench's own checkout", err)

    def test_no_repository_requires_a_label(self):
        outside = os.path.join(self.tmp, "plain")
        os.mkdir(outside)
        self.check_required(outside, "--label: not given, and the current directory is in no git repository")


if __name__ == "__main__":
    main()
