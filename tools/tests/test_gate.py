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


class GateTest(unittest.TestCase):
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
        self.assertIn("(2 improvement(s))", err)

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

    def test_nothing_judged_is_not_a_pass(self):
        # 2 repetitions a side: the U test cannot reach 0.05, and there are no counts.
        status, _, err = self.gate(fixture("gcc-2reps.json"), fixture("gcc-2reps.json"))
        self.assertEqual(status, 2, err)
        self.assertIn("gate: nothing could be judged", err)
        self.assertIn("not judged: too few repetitions", err)

    def test_bad_uses_are_refused_with_one_line(self):
        for args, message in [
            ((fixture("gcc.json"), "--fail-on-regression", "5"), "compares two files"),
            ((fixture("gcc.json"), fixture("gcc.json"), fixture("gcc.json"), "--fail-on-regression", "5"),
             "compares two files"),
            ((fixture("gcc.json"), fixture("gcc.json"), "--fail-on-regression", "-1"), "of 0 or more"),
            ((fixture("gcc.json"), fixture("gcc.json"), "--fail-on-regression", "nan"), "of 0 or more"),
            ((fixture("gcc.json"), fixture("gcc.json"), "--fail-on-regression", "5", "--baseline-file", "2"),
             "not with --baseline-method or --baseline-file"),
        ]:
            status, out, err = run(*args)
            self.assertEqual(status, 2, (args, err))
            self.assertEqual(out, "")
            self.assertEqual(len(err.splitlines()), 1, err)
            self.assertIn(message, err)


if __name__ == "__main__":
    main()
