"""iobench-compare's tables use the summary's columns (spec/summary_columns.json, the package's data), as iobench's
summary does: its build generates the summary's table from the same file (tests/core/report/summary_columns_test.cpp checks the
generated table against the file, entry by entry). A column added to the file alone shows in iobench-compare's
tables and is what the README legend's check asks for (NewColumnTest; the console summary: summary.new_column).
"""

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from support import TOOLS, fixture, main, run_ok, tool_env

from iobench_compare import columns, compare, number_format, render, results
from iobench_compare import rules as rules_module
from iobench_compare import counters as counter_columns

ROOT = os.path.dirname(TOOLS)
DATA = os.path.join(ROOT, "tests", "data")

# The columns only iobench-compare has.
OWN_HEADERS = {"file", "ratio", "significance", "note"} | {c.header for c in counter_columns.KNOWN
                                                            if c.key not in columns.BY_KEY}


def load(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return json.load(f)


def header_lines(text):
    """The header cells of every console table: the line under a title that starts with the method column."""
    first = columns.SUMMARY_COLUMNS[0].header
    return [re.split(r"\s{2,}", line.strip()) for line in text.splitlines()
            if line.startswith(f"  {first} ") and not line.startswith("  ---")]


class SpecificationTest(unittest.TestCase):
    """columns.py is spec/summary_columns.json, and every name it uses is explained there."""

    @classmethod
    def setUpClass(cls):
        with open(os.path.join(TOOLS, "iobench_compare", "spec", "summary_columns.json"), encoding="utf-8") as f:
            cls.spec = json.load(f)

    def test_the_table_is_the_specification_entry_by_entry(self):
        self.assertEqual([dataclasses.asdict(c) for c in columns.SUMMARY_COLUMNS], self.spec["columns"])

    def test_a_column_with_a_member_more_or_less_is_refused(self):
        spec = json.loads(json.dumps(self.spec))
        del spec["columns"][3]["description"]
        with self.assertRaisesRegex(ValueError, "column 'throughput' has the members"):
            columns._columns(spec)

    def test_every_field_format_condition_and_flag_is_explained(self):
        rules = set(rules_module.RULES)
        for c in columns.SUMMARY_COLUMNS:
            with self.subTest(column=c.key):
                self.assertIn(c.field, self.spec["fields"])
                self.assertIn(c.format, self.spec["formats"])
                self.assertIn(c.shown, self.spec["shown"])
                self.assertTrue(c.flag is None or c.flag in rules, c.flag)
                if c.format not in ("text", "interval"):
                    self.assertIn(c.format, number_format.FORMATS)
        self.assertEqual(len(columns.BY_KEY), len(columns.SUMMARY_COLUMNS), "a key twice")


class HeadersTest(unittest.TestCase):
    """The tool writes the summary's headers: its counter columns and its own tables' columns."""

    def test_counter_columns_are_the_summarys(self):
        for spec in columns.SUMMARY_COLUMNS:
            if spec.key not in counter_columns.BY_KEY:
                continue
            with self.subTest(column=spec.key):
                col = counter_columns.BY_KEY[spec.key]
                self.assertEqual((col.header, col.kind, col.counter), (spec.header, spec.format, spec.counter))
        # Every column of a counter the summary shows is one of them.
        counted = {c.key for c in columns.SUMMARY_COLUMNS if c.field in ("counter", "cpu_share") and c.compare}
        self.assertEqual(counted - set(counter_columns.BY_KEY), set())

    def test_the_tables_show_the_summarys_headers(self):
        # Every column the tool shows appears under the summary's header (the counters in the fixtures
        # that carry them), and every header of its tables is the summary's or its own.
        outputs = [run_ok(self, fixture(name))
                   for name in ("quick-gcc.json", "file-read-cache.json", "instructions-valgrind.json",
                                "threads-log.json", "paced-log.json")]
        shown = {h for text in outputs for line in header_lines(text) for h in line}
        wanted = {c.header for c in columns.SUMMARY_COLUMNS if c.compare and c.key != "binary_size"}
        self.assertEqual(wanted - shown, set())
        self.assertEqual(shown - {c.header for c in columns.SUMMARY_COLUMNS} - OWN_HEADERS, set())
        self.assertNotIn("sys %", shown)

    def test_end_to_end_and_other_cpu_only_where_other_threads_worked(self):
        # paced-log.json: obuf_thread's writer thread used ~0.5 ms of CPU a run, so its table shows both
        # columns; with every row's other threads idle, as with synchronous methods only, neither shows,
        # unless --counters names it.
        with open(fixture("paced-log.json"), encoding="utf-8") as f:
            data = json.load(f)
        headers = {h for line in header_lines(run_ok(self, fixture("paced-log.json"))) for h in line}
        self.assertLessEqual({"end-to-end", "other CPU"}, headers)
        for row in data["benchmarks"]:
            if "other_threads_cpu_ns" in row:
                row["other_threads_cpu_ns"] = 0.005 * row["end_to_end_ns"]  # below 1 %
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "idle-others.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f)
            headers = {h for line in header_lines(run_ok(self, path)) for h in line}
            self.assertFalse({"end-to-end", "other CPU"} & headers)
            asked = run_ok(self, path, "--counters", "end_to_end,other_cpu")
            self.assertLessEqual({"end-to-end", "other CPU"}, {h for line in header_lines(asked) for h in line})
            page = run_ok(self, fixture("paced-log.json"), "--format", "html")
            self.assertIn("end-to-end", page)
            self.assertIn("523.7 us", page)  # obuf_thread/threads:1's other CPU, as the summary printed it

    def test_a_table_per_item_says_so_in_its_time_header(self):
        comparison = compare.compare([results.load(fixture("quick-gcc.json")),
                                      results.load(fixture("quick-clang-tenth.json"))])
        units = {w.unit for w in comparison.workloads}
        self.assertIn("integer", units)
        for workload in comparison.workloads:
            with self.subTest(workload=workload.title):
                want = "time" if workload.unit == "run" else f"time/{workload.unit}"
                self.assertEqual(render.headers(comparison, workload)[2], want)

    def test_the_interval_header_says_the_confidence_level(self):
        self.assertEqual(render.CI_HEADER, f"{compare.CI_LEVEL:.0%} CI")


class AtResolutionTest(unittest.TestCase):
    """A per-call figure within 4 steps of the clock's resolution is marked "≤" and explained, never shown
    as a measurement; with a fine clock nothing is marked."""

    def tables_with_resolution(self, resolution_ns):
        with open(fixture("threads-log.json"), encoding="utf-8") as f:
            data = json.load(f)
        for row in data["benchmarks"]:
            if "latency_p50_ns" in row:
                row["latency_resolution_ns"] = resolution_ns
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "threads-log.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f)
            return run_ok(self, path), run_ok(self, path, "--format", "html")

    def test_a_coarse_clock_marks_the_figures_at_its_resolution(self):
        # obuf/threads:1's p50 is 91.9 ns, its p90 109 ns: within 4 steps of a 25 ns clock (100 ns) only the p50.
        text, page = self.tables_with_resolution(25.0)
        line = next(line for line in text.splitlines() if line.strip().startswith("obuf/threads:1 "))
        self.assertIn("≤91.9 ns", line)
        self.assertNotIn("≤109 ns", line)
        self.assertIn("109 ns", line)
        legend = "at the clock's resolution (25.0 ns): an upper bound, not a measurement"
        self.assertIn(legend, text)
        self.assertIn("≤91.9 ns", page)
        self.assertIn(legend.replace("'", "&#x27;"), page)

    def test_a_fine_clock_marks_nothing(self):
        text, page = self.tables_with_resolution(1.0)
        self.assertNotIn("≤", text)
        self.assertNotIn("at the clock's resolution", text)
        self.assertNotIn("≤", page)


class LegendTest(unittest.TestCase):
    """The READMEs explain every header their tables show."""

    @staticmethod
    def section(path, title):
        with open(path, encoding="utf-8") as f:
            return f.read().split(title, 1)[1].split("\n## ", 1)[0]

    @classmethod
    def not_in_the_readme_legend(cls, summary_columns):
        """The headers of `summary_columns` (after the method) that README.md's legend does not explain."""
        legend = cls.section(os.path.join(ROOT, "README.md"), "## Reading the results")
        return [c.header for c in summary_columns[1:]  # after the method: the rows of a table
                if not re.search(rf"(\*\*|`){re.escape(c.header)}(\*\*|`)", legend)]

    def test_the_readme_legend_names_every_column_of_the_summary(self):
        self.assertEqual(self.not_in_the_readme_legend(columns.SUMMARY_COLUMNS), [])

    def test_the_tools_legend_names_every_column_it_shares(self):
        legend = self.section(os.path.join(TOOLS, "README.md"), "## The tables")
        for c in columns.SUMMARY_COLUMNS:
            if not c.compare or c.key == "method":  # the method: the rows of a table
                continue
            with self.subTest(column=c.key):
                self.assertRegex(legend, rf"(\*\*|`){re.escape(c.header)}(\*\*|`)")


class NewColumnTest(unittest.TestCase):
    """A new column of the summary is one entry of the spec: iobench-compare shows it, under its header, in its
    number format, with no other edit, and the README legend's check asks for it."""

    COLUMN = load("summary_new_column.json")  # the console summary's test adds it too (summary.new_column)

    def test_one_spec_entry_shows_in_the_tables(self):
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.join(TOOLS, "iobench_compare"), os.path.join(tmp, "iobench_compare"),
                            ignore=shutil.ignore_patterns("__pycache__"))
            path = os.path.join(tmp, "iobench_compare", "spec", "summary_columns.json")
            with open(path, encoding="utf-8") as f:
                spec = json.load(f)
            spec["columns"].append(self.COLUMN)
            with open(path, "w", encoding="utf-8") as f:
                json.dump(spec, f)
            env = tool_env(PYTHONPATH=tmp)
            done = subprocess.run([sys.executable, "-m", "iobench_compare", fixture("quick-gcc.json")],
                                  capture_output=True, text=True, check=False, env=env, cwd=tmp)
            self.assertEqual((done.returncode, done.stderr), (0, ""))
            # Under its header in every time table, after the summary's other columns; each cell the row's
            # user_time per run in the time format.
            blocks = [block.splitlines() for block in done.stdout.split("\n\n")]
            tables = [[re.split(r"\s{2,}", line.strip()) for line in lines] for lines in blocks
                      if len(lines) > 1 and lines[1].startswith("  method ")]
            self.assertTrue(tables)
            for table in tables:
                self.assertEqual(table[1][-1], "user CPU", table[0])
            ints_out = next(t for t in tables if t[0][0] == "ints_out: time per run")
            obuf = next(row for row in ints_out if row[0] == "obuf")
            with open(fixture("quick-gcc.json"), encoding="utf-8") as f:
                median = next(b for b in json.load(f)["benchmarks"]
                              if b["name"] == "ints_out/obuf_median")
            self.assertEqual(obuf[-1], number_format.format_time(median["user_time"]))
            helped = subprocess.run([sys.executable, "-m", "iobench_compare", "--help"], capture_output=True,
                                    text=True, check=False, env=env, cwd=tmp).stdout
            self.assertIn("user_cpu", helped)
            # Without the entry, the same run shows no such column: the entry alone made it.
            self.assertNotIn("user CPU", run_ok(self, fixture("quick-gcc.json")))

    def test_the_readme_legend_check_asks_for_it(self):
        added = columns.SUMMARY_COLUMNS + columns._columns({"columns": [self.COLUMN]})
        self.assertEqual(LegendTest.not_in_the_readme_legend(added), ["user CPU"])


if __name__ == "__main__":
    main()
