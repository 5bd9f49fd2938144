#!/usr/bin/env python3
"""Tests of the regression gate: iobench-compare BASE.json NEW.json --fail-on-regression PCT.

The files are iobench's own results (fixtures/gcc.json: 5 repetitions of ints_out
and hello; fixtures/instructions-valgrind.json: instructions per item counted by
callgrind, one repetition), and copies of them in which one method is made
slower the way a slower build would make it: every repetition's time (and
throughput) scaled, or its instructions per item.
"""

import json
import os
import tempfile
import unittest

from support import fixture, main, run


def load(name):
    with open(fixture(name), encoding="utf-8") as f:
        return json.load(f)


def slowed(data, method, time_factor=1.0, instructions_factor=1.0):
    """`data` with every row of `method` (any workload) `time_factor` times slower
    and `instructions_factor` times the instructions per item."""
    out = json.loads(json.dumps(data))
    for row in out["benchmarks"]:
        if row.get("name", "").split("/")[1:2] != [method]:
            continue
        for key in ("real_time", "cpu_time"):
            if key in row:
                row[key] *= time_factor
        for key in ("bytes_per_second", "items_per_second"):
            if key in row:
                row[key] /= time_factor
        if "instructions_per_item" in row:
            row["instructions_per_item"] *= instructions_factor
    return out


def failed(data, method):
    """`data` with every repetition of `method` failed (as a full disk fails one)."""
    out = json.loads(json.dumps(data))
    rows = []
    for row in out["benchmarks"]:
        if row.get("name", "").split("/")[1:2] == [method]:
            if row.get("run_type") == "aggregate":
                continue
            row = {k: v for k, v in row.items() if k in ("name", "run_name", "run_type", "repetitions",
                                                          "repetition_index", "threads", "family_index",
                                                          "per_family_instance_index")}
            row.update(error_occurred=True, error_message="verification failed: no space left on device")
        rows.append(row)
    out["benchmarks"] = rows
    return out


class GateCase(unittest.TestCase):
    """Temporary files and the gate's command line; no test of its own."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, data):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
        return path

    def gate(self, base, new, pct="5", *extra):
        return run(base, new, "--fail-on-regression", pct, *extra)


class GateTest(GateCase):

    def test_the_same_results_pass(self):
        status, out, err = self.gate(fixture("gcc.json"), fixture("gcc.json"))
        self.assertEqual(status, 0, err)
        self.assertIn("gate: passed, no regression beyond 5 %", err)
        self.assertIn("ints_out", out)  # the table is written as without the gate

    def test_a_method_30_percent_slower_fails_with_one_line(self):
        new = self.write("new.json", slowed(load("gcc.json"), "fprintf", time_factor=1.3))
        status, _, err = self.gate(fixture("gcc.json"), new)
        self.assertEqual(status, 4, err)
        lines = [line for line in err.splitlines() if line.startswith("regression: ")]
        self.assertEqual(len(lines), 1, err)  # ints_out/fprintf only: obuf and fwrite unchanged
        self.assertIn("ints_out/fprintf", lines[0])
        self.assertIn("+30.0%", lines[0])
        self.assertIn("median time per run", lines[0])
        self.assertIn("p = 0.00794", lines[0])  # 5 against 5, completely separated
        self.assertIn("gate: FAILED, 1 regression(s) beyond 5 %", err)

    def test_an_emulated_run_is_not_judged_against_a_native_one(self):
        emulated = load("gcc.json")
        emulated["context"]["emulator"] = "qemu-aarch64: the kernel runs /usr/bin/qemu-aarch64 (/proc/self/exe)"
        new = self.write("new.json", emulated)
        status, _, err = self.gate(fixture("gcc.json"), new)
        self.assertNotEqual(status, 0, err)  # the same times, but nothing could be judged: never a pass
        undecided = [line for line in err.splitlines() if line.startswith("undecided: ")]
        self.assertEqual(len(undecided), 4, err)  # ints_out and hello, two methods each
        self.assertTrue(all("ran on an emulated CPU (qemu-aarch64)" in line for line in undecided), err)
        self.assertNotIn("gate: passed", err)
        # Both emulated: judged as any two runs are.
        status, _, err = self.gate(new, new)
        self.assertEqual(status, 0, err)

    def test_a_slowdown_below_the_threshold_passes(self):
        new = self.write("new.json", slowed(load("gcc.json"), "fprintf", time_factor=1.3))
        status, _, err = self.gate(fixture("gcc.json"), new, "40")
        self.assertEqual(status, 0, err)

    def test_an_improvement_is_listed_and_passes(self):
        new = self.write("new.json", slowed(load("gcc.json"), "obuf", time_factor=0.6))
        status, _, err = self.gate(fixture("gcc.json"), new)
        self.assertEqual(status, 0, err)
        self.assertEqual(sum(line.startswith("improvement: ") for line in err.splitlines()), 2, err)
        self.assertIn("-40.0%", err)
        self.assertIn(", 2 improvement(s); ", err)

    def test_instructions_decide_where_both_files_count_them(self):
        base = load("instructions-valgrind.json")
        # 20 % more instructions, the times unchanged: a regression, and no test is needed.
        new = self.write("new.json", slowed(base, "fprintf", instructions_factor=1.2))
        status, _, err = self.gate(fixture("instructions-valgrind.json"), new)
        self.assertEqual(status, 4, err)
        line = next(line for line in err.splitlines() if line.startswith("regression: "))
        self.assertIn("instructions per item", line)
        self.assertIn("+20.0%", line)
        self.assertIn("a count: no test needed", line)
        # Times 30 % slower with the counts unchanged (valgrind's times are not the figure): passed.
        new = self.write("new2.json", slowed(base, "fprintf", time_factor=1.3))
        status, _, err = self.gate(fixture("instructions-valgrind.json"), new)
        self.assertEqual(status, 0, err)

    def test_a_row_failed_in_new_is_a_regression(self):
        new = self.write("new.json", failed(load("gcc.json"), "fwrite"))
        status, _, err = self.gate(fixture("gcc.json"), new)
        self.assertEqual(status, 4, err)
        self.assertIn("regression: hello/fwrite: ", err)
        self.assertIn("failed, verification (failed in NEW: verification failed: no space left on device)", err)

    def test_too_few_repetitions_is_undecided_with_its_ratio_never_a_pass(self):
        # 2 repetitions a side, no counts: the U test cannot reach 0.05 whatever the step. Each row is listed
        # with its ratio and how many repetitions the test needs; exit 2, or as --undecided says.
        new = self.write("new.json", slowed(load("gcc-2reps.json"), "fprintf", time_factor=2.0))
        status, _, err = self.gate(fixture("gcc-2reps.json"), new)
        self.assertEqual(status, 2, err)
        line = next(line for line in err.splitlines() if line.startswith("undecided: ints_out/fprintf: "))
        self.assertIn("+100.0% (2x), median time per run", line)
        self.assertIn("2 vs 2 repetitions: the U test cannot reach p < 0.05 whatever the step: run at least 4 each",
                      line)
        self.assertIn("undecided: ints_out/obuf: ", err)
        self.assertTrue(err.splitlines()[-1].startswith("gate: undecided, 2 undecided"), err)
        self.assertNotIn("nothing could be judged", err)
        status, _, err = self.gate(fixture("gcc-2reps.json"), new, "5", "--undecided", "fail")
        self.assertEqual(status, 4, err)
        self.assertIn("gate: FAILED (--undecided fail), 2 undecided", err)
        # --undecided pass lets undecided rows pass beside judged ones; a gate that judged none still fails.
        status, _, err = self.gate(fixture("gcc-2reps.json"), new, "5", "--undecided", "pass")
        self.assertEqual(status, 2, err)
        self.assertIn("gate: FAILED, nothing judged (the rows above say why); 0 row(s) judged", err)

    def test_the_last_line_says_how_many_rows_by_which_figure(self):
        status, _, err = self.gate(fixture("gcc.json"), fixture("gcc.json"))
        self.assertEqual(status, 0, err)
        self.assertEqual(err.splitlines()[-1], "gate: passed, no regression beyond 5 %; 4 row(s) judged (4 by median "
                                               "time)")
        self.assertIn("note: judged by median time (no instructions per item or system calls in both files that could "
                      "judge them): ints_out/obuf, ints_out/fprintf, hello/obuf, hello/fwrite", err)
        status, _, err = self.gate(fixture("instructions-valgrind.json"), fixture("instructions-valgrind.json"))
        self.assertEqual(status, 0, err)
        self.assertEqual(err.splitlines()[-1], "gate: passed, no regression beyond 5 %; 10 row(s) judged (10 by "
                                               "instructions per item)")

    def test_bad_uses_are_refused_with_one_line(self):
        for args, message in [
            ((fixture("gcc.json"), "--fail-on-regression", "5"), "compares two files"),
            ((fixture("gcc.json"), fixture("gcc.json"), fixture("gcc.json"), "--fail-on-regression", "5"),
             "compares two files"),
            ((fixture("gcc.json"), fixture("gcc.json"), "--fail-on-regression", "-1"), "of 0 or more"),
            ((fixture("gcc.json"), fixture("gcc.json"), "--fail-on-regression", "nan"), "of 0 or more"),
            ((fixture("gcc.json"), fixture("gcc.json"), "--fail-on-regression", "5", "--baseline-file", "2"),
             "not with --baseline-method or --baseline-file"),
            ((fixture("gcc.json"), fixture("gcc.json"), "--fail-on-regression", "5", "--gate-on", "time,p95"),
             "--gate-on time,p95: no figure p95 (figures: instructions, syscalls, time, p50, p99, p99.9)"),
            ((fixture("gcc.json"), fixture("gcc.json"), "--fail-on-regression", "5", "--gate-on", ","),
             "--gate-on ,: no figure given"),
            ((fixture("gcc.json"), fixture("gcc.json"), "--gate-on", "time"),
             "--gate-on: an option of the gate: give --fail-on-regression PCT"),
            ((fixture("gcc.json"), fixture("gcc.json"), "--require", "obuf"),
             "--require: an option of the gate: give --fail-on-regression PCT"),
            ((fixture("gcc.json"), fixture("gcc.json"), "--undecided", "pass"),
             "--undecided: an option of the gate: give --fail-on-regression PCT"),
            ((fixture("gcc.json"), fixture("gcc.json"), "--fail-on-regression", "5", "--undecided", "maybe"),
             "--undecided: invalid choice"),
        ]:
            status, out, err = run(*args)
            self.assertEqual(status, 2, (args, err))
            self.assertEqual(out, "")
            self.assertEqual(len(err.splitlines()), 1, err)
            self.assertIn(message, err)

    def test_minus_zero_is_zero(self):
        status, _, err = self.gate(fixture("gcc.json"), fixture("gcc.json"), "-0")
        self.assertEqual(status, 0, err)
        self.assertIn("no regression beyond 0 %", err)



def iterations_of(data, method):
    return [r for r in data["benchmarks"] if r.get("name", "").split("/")[1:2] == [method]
            and r.get("run_type") == "iteration"]


class CannotBeTalkedIntoAPassTest(GateCase):
    """Issue 52 item 9: NEW with a real 2x regression of fprintf, dressed up so that the gate would pass it.
    Each is bad input (exit 2, naming the rows) or judged against what is valid: never a pass."""

    def test_duplicated_rows_are_bad_input(self):
        # NEW: fprintf 2x slower, plus a copy of BASE's rows under the same names and repetition_index.
        base = load("gcc.json")
        new = slowed(base, "fprintf", time_factor=2.0)
        new["benchmarks"] += [dict(r) for r in iterations_of(base, "fprintf")]
        status, out, err = self.gate(fixture("gcc.json"), self.write("new.json", new))
        self.assertEqual(status, 2, err)
        self.assertEqual(out, "")
        self.assertIn("ints_out/fprintf", err)
        self.assertIn("repetition 0 appears twice", err)

    def test_rows_relabelled_as_aggregates_are_bad_input(self):
        # NEW: fprintf 2x slower, its repetitions relabelled as aggregates (their names unchanged).
        new = slowed(load("gcc.json"), "fprintf", time_factor=2.0)
        for row in iterations_of(new, "fprintf"):
            row["run_type"] = "aggregate"
        status, out, err = self.gate(fixture("gcc.json"), self.write("new.json", new))
        self.assertEqual(status, 2, err)
        self.assertIn("ints_out/fprintf", err)
        self.assertIn("aggregate", err)

    def test_repetitions_dropped_leaving_the_median_row_are_bad_input(self):
        # NEW: fprintf 2x slower, only its aggregate rows kept while every other benchmark has its repetitions.
        new = slowed(load("gcc.json"), "fprintf", time_factor=2.0)
        new["benchmarks"] = [r for r in new["benchmarks"] if r not in iterations_of(new, "fprintf")]
        status, out, err = self.gate(fixture("gcc.json"), self.write("new.json", new))
        self.assertEqual(status, 2, err)
        self.assertIn("ints_out/fprintf", err)
        self.assertIn("no repetition", err)

    def test_a_file_of_aggregates_only_is_still_read(self):
        # --benchmark_report_aggregates_only: no repetition of any benchmark with aggregates, while a benchmark of
        # one repetition (no aggregates) keeps its row. Not a relabelling.
        data = load("gcc-aggregates.json")
        single = dict(next(r for r in load("gcc.json")["benchmarks"] if r["name"] == "hello/obuf"),
                      repetitions=1, repetition_index=0)
        data["benchmarks"].append(single)
        path = self.write("aggregates.json", data)
        status, out, err = run(path, path)
        self.assertEqual(status, 0, err)
        self.assertIn("\nhello", out)
        self.assertIn("\nints_out", out)

    def test_a_nan_in_base_is_named_not_skipped(self):
        base = load("gcc.json")
        iterations_of(base, "fprintf")[0]["real_time"] = float("nan")
        new = slowed(load("gcc.json"), "fprintf", time_factor=2.0)
        status, _, err = self.gate(self.write("base.json", base), self.write("new.json", new))
        self.assertEqual(status, 2, err)
        self.assertIn("ints_out/fprintf", err)
        self.assertIn("NaN", err)
        self.assertNotIn("gate: passed", err)

    def test_a_counter_that_is_not_finite_is_named(self):
        # instructions_per_item null (iobench writes null for a value that is not finite) in one repetition.
        base = load("instructions-valgrind.json")
        iterations_of(base, "fprintf")[0]["instructions_per_item"] = None
        new = slowed(load("instructions-valgrind.json"), "fprintf", instructions_factor=2.0)
        status, _, err = self.gate(self.write("base.json", base), self.write("new.json", new))
        self.assertEqual(status, 2, err)
        self.assertIn("ints_out/fprintf", err)
        self.assertIn("instructions_per_item", err)

    def test_zero_instructions_in_base_is_bad_input(self):
        base = load("instructions-valgrind.json")
        for row in iterations_of(base, "fprintf"):
            row["instructions_per_item"] = 0
        new = load("instructions-valgrind.json")
        for row in iterations_of(new, "fprintf"):
            row["instructions_per_item"] = 20
        status, _, err = self.gate(self.write("base.json", base), self.write("new.json", new))
        self.assertEqual(status, 2, err)
        self.assertIn("ints_out/fprintf", err)
        self.assertIn("instructions_per_item is 0 in BASE", err)
        self.assertNotIn("gate: passed", err)


def without(data, name):
    """`data` without the rows of benchmark `name` (its repetitions and aggregates)."""
    out = json.loads(json.dumps(data))
    out["benchmarks"] = [r for r in out["benchmarks"] if r.get("run_name", r["name"]) != name]
    return out


def renamed(data, name, method, family):
    """`data` with a copy of benchmark `name`'s rows as method `method` of family `family` (a new family's rows,
    with registration indexes of their own)."""
    out = json.loads(json.dumps(data))
    workload = name.split("/")[0]
    last = max(r.get("family_index", 0) for r in out["benchmarks"])
    for row in [r for r in out["benchmarks"] if r.get("run_name", r["name"]) == name]:
        copy = dict(row)
        for key in ("name", "run_name"):
            copy[key] = row[key].replace(name, f"{workload}/{method}", 1)
        copy.update(method=method, family=family, family_index=last + 1)
        out["benchmarks"].append(copy)
    return out


class CoverageTest(GateCase):
    """What the gate did not measure fails it: a row of BASE missing in NEW, a --require without rows, a plugin's or
    an added family without rows. A row only in NEW is a note."""

    def test_a_benchmark_that_disappeared_fails(self):
        new = self.write("new.json", without(load("quick-structure.json"), "ints_out/ofstream"))
        status, _, err = self.gate(fixture("quick-structure.json"), new)
        self.assertEqual(status, 2, err)
        self.assertIn("not measured: ints_out/ofstream: in BASE, no row in NEW", err)
        self.assertTrue(err.splitlines()[-1].startswith("gate: FAILED, 1 not measured; 9 row(s) judged"), err)

    def test_a_limit_row_that_disappeared_is_no_failure(self):
        new = self.write("new.json", without(load("quick-structure.json"), "ints_out/limit"))
        status, _, err = self.gate(fixture("quick-structure.json"), new)
        self.assertEqual(status, 0, err)

    def test_a_benchmark_only_in_new_is_a_note(self):
        base = self.write("base.json", without(load("quick-structure.json"), "ints_out/ofstream"))
        status, _, err = self.gate(base, fixture("quick-structure.json"))
        self.assertEqual(status, 0, err)
        self.assertIn("note: ints_out/ofstream: only in NEW (a new benchmark): not judged", err)

    def test_a_row_skipped_in_new_is_not_measured(self):
        new = load("quick-structure.json")
        for row in iterations_of(new, "write"):
            row.update(error_occurred=True, error_message="skipped: refused by the platform")
        new["benchmarks"] = [r for r in new["benchmarks"] if not (r.get("method") == "write"
                                                                   and r.get("run_type") == "aggregate")]
        status, _, err = self.gate(fixture("quick-structure.json"), self.write("new.json", new))
        self.assertEqual(status, 2, err)
        self.assertIn("not measured: ints_out/write: skipped in NEW (refused by the platform), verified in BASE", err)

    def test_require_a_method_or_family(self):
        base = fixture("quick-structure.json")
        status, _, err = self.gate(base, base, "5", "--require", "obuf", "--require", "stdio,iostream")
        self.assertEqual(status, 0, err)
        status, _, err = self.gate(base, base, "5", "--require", "mylog")
        self.assertEqual(status, 2, err)
        self.assertIn("not measured: --require mylog: no row of this method or family in either file", err)
        # posix: the family of write, whose one row NEW lacks (that row is not measured, and so is the family).
        new = self.write("new.json", without(load("quick-structure.json"), "ints_out/write"))
        status, _, err = self.gate(base, new, "5", "--require", "posix")
        self.assertEqual(status, 2, err)
        self.assertIn("not measured: --require posix: no row of this method or family in NEW", err)

    def test_a_required_method_none_of_whose_rows_was_judged(self):
        status, _, err = self.gate(fixture("gcc-2reps.json"), fixture("gcc-2reps.json"), "5", "--require", "obuf",
                                   "--undecided", "pass")
        self.assertEqual(status, 2, err)
        self.assertIn("not measured: --require obuf: none of its 1 row(s) could be judged", err)

    def test_a_plugin_family_without_rows_fails(self):
        plugin = {"path": "/opt/team/libmylog.so", "owner": "root", "sha256": "0" * 64, "built_with": "GNU 12.2.0",
                  "families": ["mylog"], "methods": ["mylog"], "workloads": []}
        base = load("quick-structure.json")
        new = load("quick-structure.json")
        new["context"]["plugins"] = [plugin]
        status, _, err = self.gate(self.write("base.json", base), self.write("new.json", new))
        self.assertEqual(status, 2, err)
        self.assertIn("not measured: family mylog (a plugin's family, in NEW's context): no row in BASE", err)
        self.assertIn("not measured: family mylog (a plugin's family, in NEW's context): no row in NEW", err)
        # With the family's rows in both files (its method only per call, say): judged, passed.
        base = renamed(base, "hello/fwrite", "mylog", "mylog")
        new = renamed(new, "hello/fwrite", "mylog", "mylog")
        status, _, err = self.gate(self.write("base.json", base), self.write("new.json", new))
        self.assertEqual(status, 0, err)
        self.assertIn("11 row(s) judged", err)

    def test_an_added_family_without_rows_fails(self):
        base = load("quick-structure.json")
        base["context"]["added_families"] = [{"family": "teamlog", "compiler": "GNU 12.2.0",
                                              "standard_library": "libstdc++ 12", "build_type": "Release",
                                              "build_flags": "-O2"}]
        status, _, err = self.gate(self.write("base.json", base), fixture("quick-structure.json"))
        self.assertEqual(status, 2, err)
        self.assertIn("not measured: family teamlog (an added family, in BASE's context): no row in BASE", err)


def with_syscalls(data, name, **counts):
    """`data` with the system-call counters of benchmark `name` set to `counts` (per run) in every row."""
    out = json.loads(json.dumps(data))
    for row in out["benchmarks"]:
        if row.get("run_name") == name and not row.get("error_occurred"):
            row.update({k: float(v) for k, v in counts.items()})
    return out


class SyscallsTest(GateCase):
    """System calls per item by kind (syscalls-log.json: the log workload at 1-8 threads), judged as counts."""

    def test_the_same_counts_pass(self):
        status, _, err = self.gate(fixture("syscalls-log.json"), fixture("syscalls-log.json"))
        self.assertEqual(status, 0, err)
        self.assertEqual(err.splitlines()[-1], "gate: passed, no regression beyond 5 %; 18 row(s) judged (18 by "
                                               "system calls per item)")

    def test_an_fdatasync_per_flush_fails_whatever_the_threshold(self):
        # 12 fdatasync calls per run of 10,000 records where there were none: 0.0012 per record.
        new = self.write("new.json", with_syscalls(load("syscalls-log.json"), "log/obuf/threads:1", syscalls_sync=12))
        for pct in ("5", "1000"):
            status, _, err = self.gate(fixture("syscalls-log.json"), new, pct)
            self.assertEqual(status, 4, err)
            regressions = [line for line in err.splitlines() if line.startswith("regression: ")]
            self.assertEqual(regressions, ["regression: log/obuf/threads:1: 0 -> 0.0012, fdatasync-family system "
                                           "calls per item (new: syscalls_sync)"], err)
            self.assertTrue(err.splitlines()[-1].startswith(f"gate: FAILED, 1 regression(s) beyond {pct} %"), err)

    def test_more_writes_beyond_the_threshold_fail(self):
        base = load("syscalls-log.json")
        writes = iterations_of(base, "fprintf")[0]["syscalls_write"]  # 267 per run: the stdio buffer's flushes
        new = self.write("new.json", with_syscalls(base, "log/fprintf/threads:1", syscalls_write=writes * 2))
        status, _, err = self.gate(fixture("syscalls-log.json"), new)
        self.assertEqual(status, 4, err)
        self.assertIn("regression: log/fprintf/threads:1: 0.0267 -> 0.0534 +100.0%, write-family system calls per "
                      "item (a count (syscalls_write): no test needed)", err)
        status, _, err = self.gate(fixture("syscalls-log.json"), new, "150")
        self.assertEqual(status, 0, err)

    def test_futex_calls_are_judged_only_where_the_counts_are_exact(self):
        base = load("syscalls-log.json")
        # One thread (syscalls_exact 1): a lock that now sleeps is a regression.
        new = self.write("new.json", with_syscalls(base, "log/obuf_mutex/threads:1", syscalls_futex=40))
        status, _, err = self.gate(fixture("syscalls-log.json"), new)
        self.assertEqual(status, 4, err)
        self.assertIn("regression: log/obuf_mutex/threads:1: 0 -> 0.004, futex system calls per item (new: "
                      "syscalls_futex)", err)
        # Four threads on a shared sink (syscalls_exact 0): how often a lock sleeps depends on timing.
        new = self.write("new.json", with_syscalls(base, "log/obuf_mutex/threads:4/sink:shared", syscalls_futex=400))
        status, _, err = self.gate(fixture("syscalls-log.json"), new)
        self.assertEqual(status, 0, err)
        self.assertIn("note: futex, mmap-family and other system calls not judged where their counts depend on "
                      "timing (syscalls_exact 0: several threads or processes): ", err)

    def test_syscalls_alone_or_with_instructions(self):
        # --gate-on instructions on a file without instruction counts: the rows fall back to their median time
        # (2 repetitions: undecided), said in the note.
        status, _, err = self.gate(fixture("syscalls-log.json"), fixture("syscalls-log.json"), "5", "--gate-on",
                                   "instructions")
        self.assertEqual(status, 2, err)
        self.assertIn("note: judged by median time (no instructions per item in both files that could judge them): ",
                      err)

    def test_a_row_whose_counts_cannot_judge_it_falls_back_to_its_time(self):
        # Only the total, which depends on timing where several threads ran (syscalls_exact 0): those rows are
        # judged by their median time (2 repetitions: undecided), never by nothing.
        data = load("syscalls-log.json")
        for row in data["benchmarks"]:
            for kind in ("write", "read", "sync", "futex", "memory", "other"):
                row.pop(f"syscalls_{kind}", None)
        path = self.write("totals.json", data)
        status, _, err = self.gate(path, path)
        self.assertEqual(status, 2, err)
        self.assertIn("undecided: log/obuf_mutex/threads:4/sink:shared: ", err)
        self.assertIn("note: judged by median time (no instructions per item or system calls in both files that could "
                      "judge them): log/obuf_mutex/threads:8/sink:per_thread, ", err)
        self.assertIn("; 3 row(s) judged (3 by system calls per item)", err)  # the three rows of one thread

    def test_a_negative_count_is_bad_input(self):
        new = self.write("new.json", with_syscalls(load("syscalls-log.json"), "log/obuf/threads:1", syscalls_read=-1))
        status, _, err = self.gate(fixture("syscalls-log.json"), new)
        self.assertEqual(status, 2, err)
        self.assertIn("bad input: log/obuf/threads:1: syscalls_read is -1 in NEW: a count is never negative", err)


def with_repetitions(data, name, factors, scale=None):
    """`data` with benchmark `name`'s repetitions replaced by one per factor: its first repetition with every
    time and latency percentile times the factor (and `scale` times the figure named, if given: (counter,
    factor))."""
    out = json.loads(json.dumps(data))
    first = next(r for r in out["benchmarks"] if r.get("run_name") == name and r.get("run_type") == "iteration")
    rows = [r for r in out["benchmarks"] if r.get("run_name") != name]
    for i, f in enumerate(factors):
        row = dict(first, repetition_index=i, repetitions=len(factors))
        for key in ("real_time", "cpu_time", "latency_p50_ns", "latency_p99_ns", "latency_p999_ns"):
            row[key] = first[key] * f
        for key in ("items_per_second", "bytes_per_second"):
            row[key] = first[key] / f
        if scale is not None:
            row[scale[0]] = row[scale[0]] * scale[1]
        rows.append(row)
    out["benchmarks"] = rows
    return out


SPREAD = [1.00, 1.02, 0.98, 1.01, 0.99, 1.03]  # six repetitions within +-3 %


class TimesAndTailsTest(GateCase):
    """--gate-on time, p50, p99, p99.9: the U test at --alpha decides; undecided is a result of its own."""

    def files(self, base_factors, new_factors, scale=None):
        data = load("syscalls-log.json")
        name = "log/obuf/threads:1"
        return (self.write("base.json", with_repetitions(data, name, base_factors)),
                self.write("new.json", with_repetitions(data, name, new_factors, scale)))

    def test_p99_twice_as_long_fails(self):
        base, new = self.files(SPREAD, SPREAD, ("latency_p99_ns", 2.0))
        status, _, err = self.gate(base, new, "5", "--gate-on", "p99", "--undecided", "pass")
        self.assertEqual(status, 4, err)
        line = next(line for line in err.splitlines() if line.startswith("regression: "))
        self.assertTrue(line.startswith("regression: log/obuf/threads:1: "), line)
        self.assertIn("+100.0%, p99 latency per call (p = 0.00216)", line)
        # The same files by p50: no change (the other rows: 2 repetitions, undecided, let pass).
        status, _, err = self.gate(base, new, "5", "--gate-on", "p50", "--undecided", "pass")
        self.assertEqual(status, 0, err)
        self.assertIn("1 row(s) judged (1 by p50)", err)

    def test_a_step_the_test_cannot_confirm_is_undecided_with_the_step_it_could_detect(self):
        # NEW 8 % slower in its median but as spread as two repetitions 20 % apart: p >= 0.05.
        base, new = self.files([1.0, 1.2, 0.9, 1.1], [1.08, 1.3, 0.95, 1.2])
        status, _, err = self.gate(base, new, "5", "--gate-on", "time")
        self.assertEqual(status, 2, err)
        line = next(line for line in err.splitlines() if line.startswith("undecided: log/obuf/threads:1: "))
        self.assertIn("+8.6% (1.09x), median time per run (p = 0.561 >= 0.05: with 4 vs 4 repetitions as spread as "
                      "these, the U test detects a step from +37.1%)", line)

    def test_an_improvement_the_test_does_not_confirm_is_no_change(self):
        base, new = self.files([1.08, 1.3, 0.95, 1.2], [1.0, 1.2, 0.9, 1.1])
        status, _, err = self.gate(base, new, "5", "--gate-on", "time", "--undecided", "pass")
        self.assertEqual(status, 0, err)
        self.assertNotIn("log/obuf/threads:1: ", err)
        self.assertIn("; 1 row(s) judged (1 by median time)", err)

    def test_too_few_repetitions_names_the_fewest_that_could_decide(self):
        base, new = self.files([1.0, 1.01, 0.99], [2.0, 2.02, 1.98])
        status, _, err = self.gate(base, new, "5", "--gate-on", "time", "--alpha", "0.01")
        self.assertEqual(status, 2, err)
        self.assertIn("+100.0% (2x), median time per run (3 vs 3 repetitions: the U test cannot reach p < 0.01 "
                      "whatever the step: run at least 5 each)", err)

    def test_several_figures_each_judge(self):
        base, new = self.files(SPREAD, [f * 1.5 for f in SPREAD])
        status, _, err = self.gate(base, new, "5", "--gate-on", "syscalls,time,p99.9", "--undecided", "pass")
        self.assertEqual(status, 4, err)
        self.assertIn("+50.0%, median time per run (p = 0.00216)", err)
        self.assertIn("+50.0%, p99.9 latency per call (p = 0.00216)", err)
        self.assertIn("18 row(s) judged (18 by system calls per item, 1 by median time, 1 by p99.9)", err)


class DetectableStepTest(unittest.TestCase):
    """gate.detectable_step: the smallest step the U test detects with these repetitions."""

    def test_the_step_is_the_edge_of_significance(self):
        import scipy.stats
        from iobench_compare.gate import detectable_step

        base = [1.00, 1.02, 0.98, 1.01, 0.99]
        new = [2.00, 2.06, 1.96, 2.02, 1.99]
        step = detectable_step(base, new, 0.05)
        self.assertGreater(step, 0)
        shape = [x / 2.00 for x in new]

        def p(s):
            return scipy.stats.mannwhitneyu([x * (1 + s) for x in shape], base, alternative="two-sided").pvalue

        self.assertLess(p(step * 1.001 + 1e-9), 0.05)
        self.assertGreaterEqual(p(step * 0.999), 0.05)
        # As many repetitions, spread twice as wide: a larger step is needed.
        wider = detectable_step([1 + 2 * (x - 1) for x in base], [1 + 2 * (x / 2 - 1) for x in new], 0.05)
        self.assertGreater(wider, step)
        self.assertIsNone(detectable_step([1, 2, 3], [1, 2, 3], 0.05))  # 3 vs 3: no step is enough


if __name__ == "__main__":
    main()
