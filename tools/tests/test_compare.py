#!/usr/bin/env python3
"""Tests of iobench-compare's tables on JSON fixtures written by iobench itself.

Run: python3 tools/tests/test_compare.py [-v] [TestClass]; ctest runs one class per test.
IOBENCH_UPDATE_GOLDEN=1 rewrites the golden files in expected/ instead of comparing.

Fixtures (fixtures/, see make_fixtures.py and make_counter_fixtures.py):
gcc.json and clang.json, the same small suite (ints_out and hello, two methods
each, 5 repetitions) built with GCC and Clang, from before iobench wrote the
issue-10 counters; gcc-2reps.json (2 repetitions), gcc-aggregates.json (aggregate
rows only), failed.json (hello failed: no space left on device; 3 repetitions),
sweep-gcc.json and sweep-clang.json (buffer sizes 512/4096/65536, 1 repetition),
ints-in.json (another suite: no benchmark in common), quick-gcc.json (the quick
suite, scale 0.01, 6 interleaved repetitions, with iobench's counters and limit
rows) and quick-clang-tenth.json (the same built with Clang at scale 0.001: a
tenth of the counts), file-read-shm.json
(a file_read buffer sweep on tmpfs with a skipped method), invalid-times.json
(gcc.json with a NaN, an infinite and a zero time), all-errors.json (every row an
error), truncated.json (cut short), suite-not-result.json (a suite file),
cold-gcc.json and cold-mingw-wine.json (file_read warm and cold and hello, 3
repetitions, on Linux and under wine: cold rows that say how their pages were
dropped, cold rows skipped and rows without call counts that say why).
"""

import json
import math
import os
import random
import resource
import shutil
import signal
import stat
import statistics
import subprocess
import sys
import tempfile
import threading
import unittest

from support import (EXPECTED, FIXTURES, TOOLS, check_golden, csv_rows, fixture, iteration_rows, iteration_times,
                     main, rows_of, run, run_ok, run_tool, tool_env)

from iobench_compare import compare as cmp  # noqa: E402
from iobench_compare import counters as counter_columns  # noqa: E402
from iobench_compare import results  # noqa: E402
from iobench_compare.render import SUMMARY_TITLE, format_ratio, format_throughput  # noqa: E402


def write_json(directory, name, data):
    path = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    return path


TIME_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load_json(name):
    with open(fixture(name), encoding="utf-8") as f:
        return json.load(f)


class GoldenTest(unittest.TestCase):
    """Console and Markdown output, byte for byte."""

    def check(self, golden, *args):
        out = run_ok(self, *args)
        check_golden(self, golden, out)
        return out

    def test_console(self):
        out = self.check("gcc-clang.txt", fixture("gcc.json"), fixture("clang.json"))
        self.assertNotIn(FIXTURES, out)  # file names only: the output is the same on every machine

    def test_markdown(self):
        self.check("gcc-clang.md", fixture("gcc.json"), fixture("clang.json"), "--format", "md")

    def test_per_item_with_counters(self):
        out = self.check("quick-per-item.txt", fixture("quick-gcc.json"), fixture("quick-clang-tenth.json"))
        self.assertIn("ints_out: time per integer (the files ran different counts", out)

    def test_one_file_with_a_skipped_row(self):
        out = self.check("file-read.txt", fixture("file-read-shm.json"))
        self.assertIn("skipped: madvise(MADV_HUGEPAGE)", out)

    def test_one_table_per_cache_state(self):
        out = self.check("file-read-cache.txt", fixture("file-read-cache.json"))
        self.assertIn("cold/warm", out)

    def test_readme_shows_the_real_output(self):
        with open(os.path.join(EXPECTED, "gcc-clang.md"), encoding="utf-8") as f:
            markdown = f.read()
        with open(os.path.join(TOOLS, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        self.assertIn(markdown, readme, "update the example in tools/README.md")

    def test_output_file_is_stdout(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "table.md")
            self.assertEqual(run_ok(self, fixture("gcc.json"), fixture("clang.json"), "--format", "md", "-o", path), "")
            with open(path, encoding="utf-8") as f:
                with open(os.path.join(EXPECTED, "gcc-clang.md"), encoding="utf-8") as g:
                    self.assertEqual(f.read(), g.read())


class ColumnsTest(unittest.TestCase):
    """Lining up N files, labels, medians, the baseline file and the baseline method."""

    def test_three_files(self):
        out = run_ok(self, fixture("gcc.json"), fixture("clang.json"), fixture("gcc-2reps.json"))
        # Two files with the same compiler and OS: the file name tells them apart.
        for label in ("GNU 12.2.0 / Linux (gcc)", "Clang 14.0.6 / Linux", "GNU 12.2.0 / Linux (gcc-2reps)"):
            self.assertIn(label, out)
        rows = csv_rows(self, fixture("gcc.json"), fixture("clang.json"), fixture("gcc-2reps.json"))
        self.assertEqual(len(rows), 4 * 3)  # 4 benchmarks x 3 files
        self.assertEqual(rows[("hello/fwrite", "gcc-2reps.json")]["status"], "missing")  # run with ints_out only
        self.assertEqual(rows[("ints_out/obuf", "gcc-2reps.json")]["verdict"], "too few repetitions")
        self.assertEqual(rows[("ints_out/obuf", "gcc.json")]["verdict"], "baseline")

    def test_a_line_per_method_and_file(self):
        out = run_ok(self, fixture("gcc.json"), fixture("clang.json"))
        table = out.split("ints_out: time per run\n", 1)[1].split("\n\n", 1)[0].splitlines()
        self.assertEqual(table[0].split(), ["method", "file", "time", "95%", "CI", "throughput", "cv", "x",
                                            "fastest", "ratio", "significance"])
        self.assertTrue(table[2].lstrip().startswith("obuf      GNU 12.2.0 / Linux"), table[2])
        self.assertTrue(table[3].lstrip().startswith("Clang 14.0.6 / Linux"), table[3])  # the method once
        self.assertIn("baseline", table[2])

    def test_fastest_first_then_the_reference_then_the_rows_without_a_result(self):
        # Interleaved repetitions: the file lists the benchmarks at random; the order is the medians'.
        out = run_ok(self, fixture("quick-gcc.json"))
        names = list(dict.fromkeys(r["run_name"] for r in rows_of("quick-gcc.json")))
        for workload in ("ints_out", "ints_in", "hello"):
            lines = out.split(f"{workload}: time per run\n", 1)[1].split("\n\n", 1)[0].splitlines()
            table = [line for line in lines if not line.startswith("  (")][2:]  # notes under the title, header
            methods = [line.split()[0] for line in table]
            ran = [n for n in names if n.startswith(workload + "/") and not n.endswith("/limit")]
            by_median = sorted(ran, key=lambda n: statistics.median(iteration_times("quick-gcc.json", n)))
            self.assertEqual(methods, [n.split("/", 1)[1] for n in by_median] + ["limit"])
            self.assertIn("  ref  ", table[-1])  # the reference's x fastest
        csv_order = [bench for bench, _ in csv_rows(self, fixture("quick-gcc.json"))]
        self.assertEqual(csv_order[:3], ["ints_out/obuf", "ints_out/ofstream", "ints_out/fprintf"])
        # A skipped row last, though the suite registered it before others.
        out = run_ok(self, fixture("file-read-shm.json"))
        table = out.split("file_read: time per run\n", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
        self.assertTrue(table[-1].split()[0].startswith("mmap_MADV_HUGEPAGE"), table[-1])
        self.assertEqual(table[-1].split()[1], "skipped")
        skipped = [r["run_name"] for r in rows_of("file-read-shm.json") if r.get("error_occurred")][0]
        self.assertNotEqual(list(dict.fromkeys(r["run_name"] for r in rows_of("file-read-shm.json")))[-1], skipped)

    def test_ordered_by_the_baseline_file(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("clang.json"), "--baseline-file", "2")
        order = list(dict.fromkeys(bench for bench, _ in rows))
        self.assertEqual(order, ["ints_out/obuf", "ints_out/fprintf", "hello/obuf", "hello/fwrite"])

    def test_median_of_the_repetitions(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("clang.json"))
        for bench in ("ints_out/fprintf", "ints_out/obuf", "hello/fwrite", "hello/obuf"):
            gcc = statistics.median(iteration_times("gcc.json", bench))
            clang = statistics.median(iteration_times("clang.json", bench))
            self.assertAlmostEqual(float(rows[(bench, "gcc.json")]["real_time_s"]), gcc, delta=gcc * 1e-12)
            self.assertAlmostEqual(float(rows[(bench, "clang.json")]["ratio"]), clang / gcc, places=12)
            self.assertEqual(rows[(bench, "gcc.json")]["repetitions"], "5")
            self.assertEqual(rows[(bench, "gcc.json")]["compared_per"], "run")

    def test_x_fastest(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("clang.json"))
        for f in ("gcc.json", "clang.json"):
            fprintf = statistics.median(iteration_times(f, "ints_out/fprintf"))
            obuf = statistics.median(iteration_times(f, "ints_out/obuf"))
            self.assertAlmostEqual(float(rows[("ints_out/fprintf", f)]["x_fastest"]), fprintf / obuf, places=12)
            self.assertEqual(float(rows[("ints_out/obuf", f)]["x_fastest"]), 1.0)

    def test_baseline_file(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("clang.json"), "--baseline-file", "2")
        self.assertEqual(rows[("ints_out/obuf", "clang.json")]["verdict"], "baseline")
        gcc = float(rows[("ints_out/obuf", "gcc.json")]["real_time_s"])
        clang = float(rows[("ints_out/obuf", "clang.json")]["real_time_s"])
        self.assertAlmostEqual(float(rows[("ints_out/obuf", "gcc.json")]["ratio"]), gcc / clang, places=12)

    def test_baseline_method(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("clang.json"), "--baseline-method", "fprintf,fwrite")
        for f in ("gcc.json", "clang.json"):
            fprintf = statistics.median(iteration_times(f, "ints_out/fprintf"))
            obuf = statistics.median(iteration_times(f, "ints_out/obuf"))
            self.assertAlmostEqual(float(rows[("ints_out/obuf", f)]["ratio"]), obuf / fprintf, places=12)
            self.assertEqual(rows[("ints_out/obuf", f)]["baseline"], "ints_out/fprintf")
            self.assertEqual(rows[("ints_out/fprintf", f)]["verdict"], "baseline")
            self.assertEqual(rows[("hello/obuf", f)]["baseline"], "hello/fwrite")  # fwrite where there is no fprintf
        self.assertLess(float(rows[("ints_out/obuf", "gcc.json")]["ratio"]), 0.5)  # obuf is the faster one

    def test_baseline_method_in_a_sweep_uses_the_same_buffer_size(self):
        rows = csv_rows(self, fixture("sweep-gcc.json"), "--baseline-method", "fprintf")
        for size in ("512", "4096", "65536"):
            row = rows[(f"ints_out/obuf/buf:{size}", "sweep-gcc.json")]
            self.assertEqual(row["baseline"], f"ints_out/fprintf/buf:{size}")
            self.assertEqual(row["source"], "single run")  # one repetition: the row itself
            self.assertEqual(row["verdict"], "too few repetitions")
            self.assertEqual(row["p_value"], "")

    def test_workload_without_the_baseline_method(self):
        out = run_ok(self, fixture("gcc.json"), "--baseline-method", "fprintf")
        self.assertIn("(no baseline method (fprintf) in this workload)", out)

    def test_one_file_has_no_ratio_columns(self):
        out = run_ok(self, fixture("gcc.json"))
        self.assertNotIn("ratio", out.split("\n\n", 2)[2])
        two = run_ok(self, fixture("gcc.json"), fixture("clang.json"))  # what is looked for, where it is
        self.assertIn("ratio", two.split("\n\n", 2)[2])
        self.assertIn(SUMMARY_TITLE, two)
        self.assertNotIn(SUMMARY_TITLE, out)

    def test_the_files_own_interval_and_cv_are_read_not_recomputed(self):
        # iobench writes the interval of the median (median_ci_low/_high, the row's time unit) and the cv
        # into its aggregate rows: given values no recomputation could give, the tool shows them.
        doc = load_json("quick-structure.json")
        medians = {}
        for row in doc["benchmarks"]:
            if row.get("aggregate_name") == "median" and not row.get("error_occurred"):
                row["median_ci_low"], row["median_ci_high"] = row["real_time"] * 0.5, row["real_time"] * 3
                medians[row["run_name"]] = row["real_time"] * TIME_UNIT_SECONDS[row["time_unit"]]
            if row.get("aggregate_name") == "cv" and not row.get("error_occurred"):
                row["real_time"] = 0.4242
        self.assertGreater(len(medians), 10)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "own-statistics.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(doc, f)
            rows = csv_rows(self, path)
            plain = csv_rows(self, fixture("quick-structure.json"))
        checked = 0
        for (bench, _), row in rows.items():
            if bench not in medians or row["compared_per"] != "run":
                continue
            median = float(row["real_time_s"])
            self.assertAlmostEqual(median, medians[bench], delta=median * 1e-9)  # the median: as computed
            self.assertAlmostEqual(float(row["ci_low_s"]), medians[bench] * 0.5, delta=median * 1e-9)
            self.assertAlmostEqual(float(row["ci_high_s"]), medians[bench] * 3, delta=median * 1e-9)
            self.assertEqual(float(row["cv"]), 0.4242)
            checked += 1
        self.assertGreater(checked, 10)
        # Without them (a file from before), the same columns come from the repetitions.
        row = plain[("ints_out/obuf", "quick-structure.json")]
        self.assertNotEqual(float(row["cv"]), 0.4242)
        self.assertLess(float(row["ci_high_s"]), float(row["real_time_s"]) * 3)

    def test_median_row_when_there_are_no_repetitions(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("gcc-aggregates.json"))
        row = rows[("ints_out/obuf", "gcc-aggregates.json")]
        median = [r for r in load_json("gcc-aggregates.json")["benchmarks"] if r["name"] == "ints_out/obuf_median"][0]
        self.assertEqual(row["source"], "median row")
        self.assertEqual(row["compared_per"], "run")  # its count (median rate x median time) is close enough
        self.assertAlmostEqual(float(row["real_time_s"]), median["real_time"] * 1e-3, places=15)
        self.assertEqual(row["verdict"], "too few repetitions")

    def test_labels(self):
        out = run_ok(self, fixture("gcc.json"), fixture("clang.json"), "--label", "gcc.json=GCC -O2",
                     "--label", "2=Clang -O3")
        self.assertIn("GCC -O2", out)
        self.assertIn("Clang -O3", out)
        self.assertNotIn("GNU 12.2.0", out)
        out = run_ok(self, fixture("gcc.json"), fixture("clang.json"), "--label", "first", "--label", "second")
        self.assertIn("Baseline: first (gcc.json)", out)
        self.assertIn("second", out)

    def test_the_same_file_twice_is_labelled_once(self):
        out = run_ok(self, fixture("gcc.json"), fixture("gcc.json"))
        self.assertIn("Baseline: GNU 12.2.0 / Linux (gcc).", out)
        self.assertIn("GNU 12.2.0 / Linux (gcc) #2 ", out)
        self.assertNotIn("(gcc) (gcc)", out)

    def test_context_differences_are_noted(self):
        files = [results.load(fixture("gcc.json")), results.load(fixture("clang.json"))]
        files[1].context["scale"] = "0.01"
        for f in files:
            f.label = results.default_label(f.context, f.path)
        notes = cmp.compare(files).notes
        self.assertEqual([n.split(":")[0] for n in notes],
                         ["the files differ in scale", "the files differ in build_flags"])  # -O2 and -O3
        self.assertIn("0.001 (GNU 12.2.0 / Linux), 0.01 (Clang 14.0.6 / Linux)", notes[0])
        self.assertIn("compare time per item", notes[0])
        self.assertEqual(cmp.compare(files[:1] * 2).notes, [])

    def test_names(self):
        self.assertEqual(cmp.split_name("ints_out/obuf/buf:4096"),
                         ("ints_out", "obuf/buf:4096", "obuf", [("buf", "4096")]))
        self.assertEqual(cmp.split_name("hello/fwrite"), ("hello", "fwrite", "fwrite", []))


class StructureTest(unittest.TestCase):
    """What a row is: from its own fields, or, in files from before iobench wrote them, from its name."""

    def test_files_without_the_fields_fall_back_to_the_names(self):
        from iobench_compare import compare, results

        quick = results.load(fixture("quick-gcc.json"))
        self.assertNotIn("workload", rows_of("quick-gcc.json")[0])  # written before the rows carried it
        self.assertTrue(all(b.structure is None for b in quick.benchmarks.values()))
        limit = compare.describe("ints_out/limit", quick.benchmarks["ints_out/limit"])
        self.assertEqual((limit.workload, limit.key, limit.method, limit.reference, limit.params),
                         ("ints_out", "limit", "limit", True, ()))
        obuf = compare.describe("hello/obuf", quick.benchmarks["hello/obuf"])
        self.assertEqual((obuf.reference, obuf.item_unit, obuf.compared_per, obuf.family), (False, "line", "item", None))
        self.assertEqual(compare.describe("ints_in/ibuf", quick.benchmarks["ints_in/ibuf"]).item_unit, "integer")
        self.assertFalse(compare.reads_a_file(quick))
        shm = results.load(fixture("file-read-shm.json"))
        read = compare.describe("file_read/read/buf:65536/cache:warm", shm.benchmarks["file_read/read/buf:65536/cache:warm"])
        self.assertEqual((read.workload, read.method, read.params, read.compared_per),
                         ("file_read", "read", (("buf", "65536"), ("cache", "warm")), "byte"))
        self.assertTrue(compare.reads_a_file(shm))


class StructureFieldsTest(unittest.TestCase):
    """Files whose rows carry their structure: what a row is comes from those fields, not from its name."""

    def test_fields_are_read(self):
        data = rows_of("quick-structure.json")
        self.assertTrue(all("workload" in r for r in data))  # every row, aggregates and skipped ones too
        f = results.load(fixture("quick-structure.json"))
        for name, bench in f.benchmarks.items():
            row = next(r for r in data if r.get("run_name", r["name"]) == name)
            found = cmp.describe(name, bench)
            self.assertEqual((found.workload, found.method, found.family, found.reference, dict(found.params),
                              found.item_unit, found.compared_per),
                             (row["workload"], row["method"], row["family"], row["reference"],
                              {k: str(v) for k, v in row["params"].items()}, row["item_unit"], row["compared_per"]))
        self.assertTrue(cmp.describe("ints_out/limit", f.benchmarks["ints_out/limit"]).reference)

    def test_the_fields_decide_not_the_name(self):
        # A row whose fields say it is the reference is the reference, whatever its name; the item unit is
        # the row's own (the fields of the fixture's rows, changed here: the only way to tell them apart).
        with open(fixture("quick-structure.json"), encoding="utf-8") as f:
            data = json.load(f)
        for row in data["benchmarks"]:
            if row.get("run_name", row["name"]) == "hello/obuf":
                row["reference"], row["item_unit"] = True, "greeting"
        f = results.parse("renamed.json", data)
        found = cmp.describe("hello/obuf", f.benchmarks["hello/obuf"])
        self.assertTrue(found.reference)
        self.assertEqual(found.item_unit, "greeting")

    def test_counts_per_run_come_from_the_rows(self):
        rows = csv_rows(self, fixture("quick-structure.json"))
        for name in ("ints_out/obuf", "hello/fwrite", "ints_in/ibuf"):
            reps = iteration_rows("quick-structure.json", name)
            self.assertEqual(float(rows[(name, "quick-structure.json")]["items_per_run"]),
                             statistics.median(r["items"] for r in reps))
            self.assertEqual(float(rows[(name, "quick-structure.json")]["bytes_per_run"]),
                             statistics.median(r["bytes"] for r in reps))
            self.assertAlmostEqual(float(rows[(name, "quick-structure.json")]["x_limit"]),
                                   statistics.median(r["x_limit"] for r in reps), places=12)

    def test_old_and_new_files_line_up(self):
        out = run_ok(self, fixture("quick-gcc.json"), fixture("quick-structure.json"))
        self.assertIn("ints_out: time per integer (the files ran different counts", out)
        rows = csv_rows(self, fixture("quick-gcc.json"), fixture("quick-structure.json"))
        self.assertEqual(rows[("ints_out/limit", "quick-structure.json")]["x_fastest"], "")  # the reference


class CacheStateTest(unittest.TestCase):
    """file_read with warm and cold rows: one table per cache state, each with its own fastest; the cold
    table says how much slower each method was cold than warm."""

    def tables(self, out):
        return {title: [line for line in block.split("\n")[2:] if line] for title, block in
                (part.split(": time per run\n", 1) for part in out.split("\n\n") if ": time per run\n" in part)}

    def test_one_table_per_cache_state(self):
        out = run_ok(self, fixture("file-read-cache.json"))
        tables = self.tables(out)
        self.assertEqual(list(tables), ["file_read, cache:warm", "file_read, cache:cold"])
        for state, lines in (("warm", tables["file_read, cache:warm"]), ("cold", tables["file_read, cache:cold"])):
            self.assertEqual(len(lines), 4)
            self.assertTrue(all(f"/cache:{state}" in line for line in lines), lines)
            self.assertIn(" 1.00x ", lines[0])  # each table has its own fastest
        self.assertNotIn("cold/warm", out.split("file_read, cache:cold")[0])

    def test_cold_over_warm(self):
        rows = csv_rows(self, fixture("file-read-cache.json"))
        out = run_ok(self, fixture("file-read-cache.json"))
        cold = self.tables(out)["file_read, cache:cold"]
        for method in ("fread/buf:4096", "fread/buf:65536", "read/buf:4096", "read/buf:65536"):
            warm = statistics.median(iteration_times("file-read-cache.json", f"file_read/{method}/cache:warm"))
            cold_time = statistics.median(iteration_times("file-read-cache.json", f"file_read/{method}/cache:cold"))
            line = [x for x in cold if x.split()[0] == f"{method}/cache:cold"][0]
            self.assertIn(f"  {format_ratio(cold_time / warm)}  ", line)
            # x fastest of a cold row is against the fastest cold row, never a warm one.
            fastest_cold = min(float(r["real_time_s"]) for (b, _), r in rows.items() if b.endswith("cache:cold"))
            self.assertAlmostEqual(float(rows[(f"file_read/{method}/cache:cold", "file-read-cache.json")]["x_fastest"]),
                                   cold_time / fastest_cold, places=9)

    def test_html_and_charts_per_cache_state(self):
        from iobench_compare import compare, report, results

        f = results.load(fixture("file-read-cache.json"))
        f.label = "gcc"
        page = report.to_html(compare.compare([f]))
        for state in ("warm", "cold"):
            self.assertIn(f"<h2>file_read, cache:{state}</h2>", page)
            self.assertIn(f"file_read, cache:{state}: throughput by method", page)
        self.assertEqual(page.count("<th>cold/warm</th>"), 1)
        with tempfile.TemporaryDirectory() as tmp:
            run_ok(self, fixture("file-read-cache.json"), "--plot", tmp)
            self.assertEqual(sorted(os.listdir(tmp)), sorted(
                f"file_read_cache_{s}{chart}.{ext}" for s in ("warm", "cold") for chart in ("", "-buf")
                for ext in ("png", "svg")))


class PerItemTest(unittest.TestCase):
    """Files that ran different counts are compared per item, never per run."""

    A, B = "quick-gcc.json", "quick-clang-tenth.json"

    def per_item(self, name, bench):
        """Median time per item of a fixture's benchmark, from its rows: 1 / items per second."""
        return statistics.median(1 / r["items_per_second"] for r in iteration_rows(name, bench))

    def test_ratio_per_integer_and_per_line(self):
        rows = csv_rows(self, fixture(self.A), fixture(self.B))
        for bench, unit in (("ints_out/obuf", "integer"), ("ints_in/ibuf", "integer"), ("hello/fwrite", "line")):
            a, b = rows[(bench, self.A)], rows[(bench, self.B)]
            self.assertEqual((a["compared_per"], b["compared_per"]), (unit, unit))
            self.assertAlmostEqual(float(a["items_per_run"]) / float(b["items_per_run"]), 10, places=6)
            self.assertAlmostEqual(float(b["compared_time_s"]), self.per_item(self.B, bench), delta=1e-15)
            self.assertAlmostEqual(float(b["ratio"]), self.per_item(self.B, bench) / self.per_item(self.A, bench),
                                   places=9)
            # Per run, the Clang file would look about ten times faster: that is not what is compared.
            per_run = statistics.median(iteration_times(self.B, bench)) / statistics.median(
                iteration_times(self.A, bench))
            self.assertLess(per_run, 0.3)
            self.assertGreater(float(b["ratio"]), 0.5)

    def test_the_table_says_what_it_compares(self):
        out = run_ok(self, fixture(self.A), fixture(self.B))
        self.assertIn("ints_out: time per integer (the files ran different counts of integers per run: "
                      "100,000 (GNU 12.2.0 / Linux), 10,000 (Clang 14.0.6 / Linux))", out)
        self.assertIn("hello: time per line (", out)
        self.assertIn("time/integer", out)
        self.assertIn("time/line", out)
        self.assertNotIn("time/run", out)
        self.assertIn("they ran different counts, so tables where the counts differ compare time per item", out)

    def test_same_counts_compare_per_run(self):
        out = run_ok(self, fixture("gcc.json"), fixture("clang.json"))
        self.assertIn("ints_out: time per run", out)
        self.assertNotIn("per integer", out)

    def test_file_read_compares_per_byte(self):
        data = load_json("file-read-shm.json")
        data["context"]["file_size"] = str(int(data["context"]["file_size"]) // 4)
        for row in data["benchmarks"]:  # the same runs on a quarter of the file: a quarter of the time
            if "real_time" in row and row.get("aggregate_name") not in ("cv",):
                row["real_time"] /= 4
        with tempfile.TemporaryDirectory() as tmp:
            path = write_json(tmp, "quarter.json", data)
            rows = csv_rows(self, fixture("file-read-shm.json"), path)
        row = rows[("file_read/read/buf:65536/cache:warm", "quarter.json")]
        self.assertEqual(row["compared_per"], "byte")
        self.assertAlmostEqual(float(row["ratio"]), 1.0, places=9)  # bytes_per_second unchanged

    def test_no_count_no_ratio(self):
        # Different scales and no rates to count the items with: nothing is compared.
        data = load_json(self.B)
        for row in data["benchmarks"]:
            row.pop("items_per_second", None)
            row.pop("bytes_per_second", None)
        with tempfile.TemporaryDirectory() as tmp:
            path = write_json(tmp, "norates.json", data)
            rows = csv_rows(self, fixture(self.A), path)
        row = rows[("ints_out/obuf", "norates.json")]
        self.assertEqual(row["ratio"], "")
        self.assertTrue(row["verdict"].startswith("not comparable"), row["verdict"])


class CountersTest(unittest.TestCase):
    """The counters each row carries, medians per run, and --counters."""

    def test_default_columns_where_present(self):
        out = run_ok(self, fixture("quick-gcc.json"))
        ints_out = out.split("ints_out: time per run\n", 1)[1].split("\n\n", 1)[0]
        ints_in = out.split("ints_in: time per run\n", 1)[1].split("\n\n", 1)[0]
        for header in ("write calls", "bytes/call", "sys", "x limit"):
            self.assertIn(header, ints_out)
        self.assertNotIn("read calls", ints_out)  # 0 in every row of a write workload: explains nothing
        self.assertTrue(all(r["read_calls"] == 0 for r in rows_of("quick-gcc.json")
                            if r["name"].startswith("ints_out/") and r["run_type"] == "iteration"))
        self.assertIn("read calls", ints_in)
        self.assertNotIn("write calls", ints_in)
        self.assertNotIn("page faults", out)  # not by default
        # Files from before the counters: no counter column at all.
        self.assertNotIn("calls", run_ok(self, fixture("gcc.json"), fixture("clang.json")))

    def test_values_are_the_medians_per_run(self):
        rows = csv_rows(self, fixture("quick-gcc.json"))
        for bench in ("ints_out/obuf", "ints_out/write", "hello/fwrite", "ints_in/fscanf"):
            reps = iteration_rows("quick-gcc.json", bench)
            row = rows[(bench, "quick-gcc.json")]
            for counter in ("write_calls", "read_calls", "bytes_per_call", "system_time", "x_limit"):
                values = [r[counter] for r in reps if counter in r]
                if values:
                    self.assertAlmostEqual(float(row[counter]), statistics.median(values), places=12)
                else:
                    self.assertEqual(row[counter], "")

    def test_sys_percent_and_x_limit_text(self):
        out = run_ok(self, fixture("quick-gcc.json"), "--counters", "sys,x_limit,write_calls")
        line = [x for x in out.splitlines() if x.strip().startswith("write ") and "ms" in x][0]
        reps = iteration_rows("quick-gcc.json", "ints_out/write")
        sys_percent = 100 * statistics.median(r["system_time"] for r in reps) / statistics.median(
            r["real_time"] * 1e-3 for r in reps)
        self.assertIn(f"{sys_percent:.1f}%", line)  # one decimal, as every percentage
        self.assertIn(f"{statistics.median(r['x_limit'] for r in reps):.0f}x", line)
        self.assertIn(f"{statistics.median(r['write_calls'] for r in reps):,.0f}", line)
        header = [x for x in out.splitlines() if x.strip().startswith("method")][0]
        self.assertLess(header.index(" sys "), header.index("x limit"))  # in the order asked for
        self.assertLess(header.index("x limit"), header.index("write calls"))

    def test_a_zero_column_asked_for_is_shown(self):
        out = run_ok(self, fixture("quick-gcc.json"), "--counters", "read_calls")
        ints_out = out.split("ints_out: time per run\n", 1)[1].split("\n\n", 1)[0].splitlines()
        self.assertEqual(ints_out[0].split()[-2:], ["read", "calls"])
        for line in ints_out[2:]:
            self.assertEqual(line.split()[-1], "0", line)  # measured: no read call at all

    def test_choose_all_or_none(self):
        self.assertNotIn("write calls", run_ok(self, fixture("quick-gcc.json"), "--counters", "none"))
        out = run_ok(self, fixture("quick-gcc.json"), "--counters", "all")
        for header in ("page faults", "user", "system", "buffer_size"):
            self.assertIn(header, out)
        out = run_ok(self, fixture("quick-gcc.json"), "--counters", "write_calls", "--counters", "page_faults")
        self.assertIn("write calls", out)
        self.assertIn("page faults", out)

    def test_unknown_counter(self):
        status, out, err = run(fixture("quick-gcc.json"), "--counters", "write_calls,nosuch")
        self.assertEqual((status, out), (2, ""))
        self.assertIn("--counters write_calls,nosuch: no counter nosuch in these files (counters: write_calls, "
                      "read_calls", err)


WINE_CALLS = ("not counted under wine: GetProcessIoCounters counted 0 writes and 0 reads for one WriteFile and one "
              "ReadFile")
LINUX_DROP = "cache dropped: fdatasync + posix_fadvise(POSIX_FADV_DONTNEED)"


class RowNotesTest(unittest.TestCase):
    """What the rows say beside their numbers, as iobench's summary says it: why a row has no call counts
    (calls_not_counted) and how a cold row's pages were dropped (label); cold-gcc.json and
    cold-mingw-wine.json are the same suite on Linux and under wine."""

    def test_wine_rows_say_why_they_have_no_calls_and_cold_rows_are_skipped(self):
        out = run_ok(self, fixture("cold-mingw-wine.json"))
        self.assertIn(f"\nnote: in the calls columns of every row: {WINE_CALLS}\n", out)
        self.assertNotIn("write calls", out)  # no row carries them
        cold = out.split("file_read, cache:cold: time per run\n", 1)[1].split("\n\n", 1)[0]
        self.assertIn("skipped: no cold page cache under wine 8.0: opening the file with FILE_FLAG_NO_BUFFERING",
                      cold)
        self.assertNotIn("cache dropped", out)  # no cold row ran

    def test_linux_cold_rows_say_how_their_pages_were_dropped(self):
        out = run_ok(self, fixture("cold-gcc.json"))
        self.assertIn(f"\nnote: file_read, cache:cold: {LINUX_DROP}\n", out)
        self.assertEqual(out.count(LINUX_DROP), 1)  # once for the table, not per row or repetition
        self.assertNotIn("in the calls columns", out)  # Linux counts every call
        self.assertIn("write calls", out)
        self.assertTrue(all(r.get("label") == LINUX_DROP for r in rows_of("cold-gcc.json")
                            if r["name"].endswith("/cache:cold")))

    def test_with_several_files_a_note_names_its_file(self):
        files = [results.load(fixture("cold-gcc.json")), results.load(fixture("cold-mingw-wine.json"))]
        for f in files:
            f.label = results.default_label(f.context, f.path)
        notes = cmp.compare(files).notes
        self.assertIn(f"in the calls columns of every row of {files[1].label}: {WINE_CALLS}", notes)
        self.assertIn(f"file_read, cache:cold of {files[0].label}: {LINUX_DROP}", notes)
        markdown = run_ok(self, fixture("cold-gcc.json"), fixture("cold-mingw-wine.json"), "--format", "md")
        self.assertIn(f"- note: in the calls columns of every row of {files[1].label}: {WINE_CALLS}\n", markdown)

    def test_a_reason_of_some_methods_names_them(self):
        # The io_uring methods' reason (Method::calls_not_counted) holds for their rows only: given here to
        # hello/fwrite of the Linux file, whose other rows (fread, limit) keep their counts.
        data = load_json("cold-gcc.json")
        for row in data["benchmarks"]:
            if row["name"] == "hello/fwrite":
                row["calls_not_counted"] = "writes are requests in a ring"
        with tempfile.TemporaryDirectory() as tmp:
            out = run_ok(self, write_json(tmp, "ring.json", data))
        self.assertIn("\nnote: in the calls columns of fwrite: writes are requests in a ring\n", out)


class InstructionsTest(unittest.TestCase):
    """Files of `iobench --instructions`: instructions per item shown and exported as they are."""

    def test_instructions_column_and_legend(self):
        out = run_ok(self, fixture("instructions-valgrind.json"))
        ints_out = out.split("ints_out: instructions per item (every row counted them: ranked and compared by the "
                             "counts, ratios without a test)\n", 1)[1].split("\n\n", 1)[0]
        self.assertIn("instr/item", ints_out.splitlines()[0])
        for bench in ("ints_out/obuf", "ints_out/fprintf", "ints_out/limit"):
            (row,) = iteration_rows("instructions-valgrind.json", bench)
            method = bench.split("/")[1]
            line = [x for x in ints_out.splitlines() if x.split()[:1] == [method]][0]
            # The summary's count format (tests/data/number_format.json): "639", "36.0", "0.0".
            self.assertIn(" " + counter_columns.format_value(counter_columns.BY_KEY["instructions_per_item"],
                                                             row["instructions_per_item"]) + " ", line + " ")
        self.assertIn("instr/item: user-space instructions per item of the measured calls (iobench --instructions; "
                      "counted by GNU 12.2.0 / Linux: valgrind)", out)
        self.assertIn("Counted under valgrind: those files' times are ~50x the real ones", out)
        # Files without the counter: neither the column nor the legend.
        plain = run_ok(self, fixture("quick-gcc.json"))
        self.assertNotIn("instr/item", plain)

    def test_ranked_and_compared_by_the_counts_where_every_row_has_them(self):
        data = load_json("instructions-valgrind.json")
        # The same counts, every time three times slower: a valgrind run's times are not the figure.
        slower = json.loads(json.dumps(data))
        for row in slower["benchmarks"]:
            for key in ("real_time", "cpu_time"):
                if key in row:
                    row[key] *= 3
            if row.get("name", "").startswith("ints_out/fprintf") and "instructions_per_item" in row:
                row["instructions_per_item"] *= 1.25
        with tempfile.TemporaryDirectory() as tmp:
            files = [results.load(fixture("instructions-valgrind.json")), results.load(write_json(tmp, "b.json", slower))]
            comparison = cmp.compare(files)
            html = run_ok(self, fixture("instructions-valgrind.json"), write_json(tmp, "c.json", slower),
                          "--format", "html")
        ints_out = next(w for w in comparison.workloads if w.name == "ints_out")
        self.assertEqual(ints_out.figure, "instructions")
        methods = [r.method for r in ints_out.rows if not r.is_limit]
        counts = [r.cells[0].counters["instructions_per_item"] for r in ints_out.rows if not r.is_limit]
        self.assertEqual(counts, sorted(counts))  # fewest instructions first
        fprintf = next(r for r in ints_out.rows if r.method == "fprintf")
        self.assertAlmostEqual(fprintf.cells[1].ratio, 1.25)
        self.assertEqual(fprintf.cells[1].verdict, cmp.COUNT_VERDICT)
        self.assertIsNone(fprintf.cells[1].p_value)
        obuf = next(r for r in ints_out.rows if r.method == "obuf")
        self.assertAlmostEqual(obuf.cells[1].ratio, 1.0)  # three times the time, the same count
        self.assertEqual(methods[0], "obuf")
        self.assertAlmostEqual(obuf.cells[0].x_fastest, 1.0)
        (summary,) = comparison.summaries
        self.assertEqual(summary.by_instructions, summary.rows)
        self.assertGreater(summary.rows, 0)
        # The HTML greys the times of a valgrind run and says what the overall figure is of.
        self.assertIn("by instructions per item", html)
        self.assertIn('<td class="muted num">', html)

    def test_times_rank_where_a_file_lacks_the_counts(self):
        comparison = cmp.compare([results.load(fixture("quick-gcc.json"))])
        self.assertTrue(all(w.figure == "time" for w in comparison.workloads))

    def test_csv_carries_the_count(self):
        rows = csv_rows(self, fixture("instructions-valgrind.json"))
        (row,) = iteration_rows("instructions-valgrind.json", "hello/obuf")
        self.assertEqual(float(rows[("hello/obuf", "instructions-valgrind.json")]["instructions_per_item"]),
                         row["instructions_per_item"])


class ShortRunsAndInterferenceTest(unittest.TestCase):
    """The sys share left out where the runs were too short, and spreads put down to the host or the machine."""

    def test_sys_left_out_where_a_repetition_measured_under_50_ms(self):
        files = [results.load(fixture("quick-gcc.json"))]
        comparison = cmp.compare(files)
        sys_column = counter_columns.BY_KEY["sys"]
        checked = {"left out": 0, "shown": 0}
        for workload in comparison.workloads:
            for row in workload.rows:
                bench = files[0].benchmarks[row.name]
                cell = row.cells[0]
                if not cell.ok or "system_time" not in cell.counters:
                    continue
                shortest = min(i * t for i, t in zip(bench.iterations, bench.real_times))
                if shortest < 0.05:
                    self.assertIsNone(sys_column.value(cell), row.name)
                    checked["left out"] += 1
                else:
                    self.assertAlmostEqual(sys_column.value(cell), cell.counters["system_time"] / cell.time)
                    checked["shown"] += 1
        self.assertGreater(checked["left out"], 0)  # the fixture has both kinds
        self.assertGreater(checked["shown"], 0)
        out = run_ok(self, fixture("quick-gcc.json"))
        self.assertIn("sys is left out where a repetition's runs took under 50 ms", out)

    def test_spread_with_stolen_time_is_the_host_and_with_cpu_wait_a_busy_machine(self):
        comparison = cmp.compare([results.load(fixture("quick-gcc.json"))])
        cells = [(row, row.cells[0]) for w in comparison.workloads for row in w.rows if row.cells[0].ok]
        (row_a, a), (row_b, b), (row_c, c) = cells[:3]
        for cell in (a, b, c):
            cell.counters.pop("steal_time", None)
            cell.counters.pop("cpu_wait", None)
        a.cv, b.cv, c.cv = 0.20, 0.20, 0.01
        a.counters["steal_time"] = 0.10 * a.time  # 10 % stolen
        a.counters["cpu_wait"] = 0.50 * a.time  # both: the host is named
        b.counters["cpu_wait"] = 0.02 * b.time
        c.counters["steal_time"] = 0.50 * c.time  # no spread: nothing to explain
        c.ci = None
        found = cmp.interference(comparison)
        self.assertIn(f"{row_a.name} (10%)", found["host"])
        self.assertIn(f"{row_b.name} (2%)", found["cpu"])
        self.assertNotIn(row_a.name, " ".join(found["cpu"]))
        self.assertNotIn(row_c.name + " ", " ".join(found["host"] + found["cpu"]) + " ")
        b.counters["cpu_wait"] = 0.005 * b.time  # under 1 %: not named
        self.assertNotIn(row_b.name + " ", " ".join(cmp.interference(comparison)["cpu"]) + " ")


class LimitTest(unittest.TestCase):
    """A workload's limit row is a reference: shown last, never the fastest, not in the summary."""

    def test_limit_row(self):
        rows = csv_rows(self, fixture("quick-gcc.json"), fixture("quick-clang-tenth.json"))
        for f in ("quick-gcc.json", "quick-clang-tenth.json"):
            limit = rows[("ints_out/limit", f)]
            obuf = rows[("ints_out/obuf", f)]
            self.assertLess(float(limit["compared_time_s"]), float(obuf["compared_time_s"]))  # faster, yet:
            self.assertEqual(limit["x_fastest"], "")
            self.assertEqual(float(obuf["x_fastest"]), 1.0)
        out = run_ok(self, fixture("quick-gcc.json"))
        table = out.split("ints_out: time per run\n", 1)[1].split("\n\n", 1)[0].splitlines()
        self.assertTrue(table[-1].lstrip().startswith("limit"), table[-1])
        self.assertIn("limit: the workload's memory-bound limit", out)

    def test_summary_excludes_limit_rows(self):
        rows = csv_rows(self, fixture("quick-gcc.json"), fixture("quick-clang-tenth.json"))
        ratios = [float(r["ratio"]) for (bench, f), r in rows.items()
                  if f == "quick-clang-tenth.json" and r["ratio"] and not bench.endswith("/limit")]
        geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        out = run_ok(self, fixture("quick-gcc.json"), fixture("quick-clang-tenth.json"))
        self.assertIn(f"Clang 14.0.6 / Linux against GNU 12.2.0 / Linux: {geomean:.2f}x over {len(ratios)} rows, "
                      f"{len(ratios)} of them per item", out)


class EmulatedTest(unittest.TestCase):
    """A run on an emulated CPU (an ARM64 build under qemu-aarch64: the context's emulator, every row's emulated)
    is never ranked against a run on a real CPU: its cells say why, its summary line too, a note names the
    emulator; two emulated runs compare as any two runs do."""

    EMULATOR = "qemu-aarch64: the kernel runs /usr/bin/qemu-aarch64 (/proc/self/exe), which shows ./iobench as this program"

    def files(self, *emulated):
        loaded = [results.load(fixture(name)) for name in ("gcc.json", "clang.json")]
        for f, how in zip(loaded, emulated):
            if how == "context":
                f.context["emulator"] = self.EMULATOR
            elif how == "rows":
                for b in f.benchmarks.values():
                    b.structure = dict(b.structure or {}, workload=b.name.split("/")[0], method=b.name.split("/")[1],
                                       emulated=True)
            f.label = results.default_label(f.context, f.path)
        return loaded

    def test_an_emulated_file_is_not_ranked_against_a_native_one(self):
        files = self.files(None, "context")
        comparison = cmp.compare(files)
        cells = [row.cells[1] for table in comparison.workloads for row in table.rows]
        self.assertTrue(cells)
        for cell in cells:
            self.assertIsNone(cell.ratio)
            self.assertEqual(cell.verdict, "not comparable: Clang 14.0.6 / Linux ran on an emulated CPU "
                                           "(qemu-aarch64), GNU 12.2.0 / Linux on its own")
        self.assertEqual(comparison.summaries[0].geomean, None)
        self.assertTrue(any(n.startswith("Clang 14.0.6 / Linux ran on an emulated CPU (qemu-aarch64: ") and
                            n.endswith("not compared with those of a file measured on a real CPU")
                            for n in comparison.notes), comparison.notes)
        from iobench_compare.render import summary_lines
        self.assertEqual(summary_lines(comparison), ["Clang 14.0.6 / Linux against GNU 12.2.0 / Linux: not "
                                                     "comparable: Clang 14.0.6 / Linux ran on an emulated CPU "
                                                     "(qemu-aarch64), GNU 12.2.0 / Linux on its own"])
        # The other way round (the emulated file the baseline) too.
        comparison = cmp.compare(list(reversed(files)))
        self.assertTrue(all(row.cells[1].ratio is None for table in comparison.workloads for row in table.rows))

    def test_the_rows_alone_say_so(self):
        files = self.files("rows", None)
        self.assertEqual(files[0].emulator, "unnamed")
        self.assertIsNone(files[1].emulator)
        comparison = cmp.compare(files)
        self.assertTrue(all(row.cells[1].verdict.startswith("not comparable: GNU 12.2.0 / Linux ran on an emulated "
                                                            "CPU (unnamed)")
                            for table in comparison.workloads for row in table.rows))

    def test_two_emulated_files_compare(self):
        comparison = cmp.compare(self.files("context", "context"))
        ratios = [row.cells[1].ratio for table in comparison.workloads for row in table.rows]
        self.assertTrue(ratios and all(r is not None for r in ratios))
        self.assertIsNotNone(comparison.summaries[0].geomean)
        self.assertEqual(sum("ran on an emulated CPU" in n for n in comparison.notes), 2)
        self.assertFalse(any("not compared" in n for n in comparison.notes))

    def test_one_emulated_file_says_whose_times_they_are(self):
        comparison = cmp.compare(self.files("context")[:1])
        self.assertIn(f"the run ran on an emulated CPU ({self.EMULATOR}): its times are the emulator's, not a CPU's",
                      comparison.notes)

    def test_native_files_say_nothing_of_it(self):
        comparison = cmp.compare(self.files(None, None))
        self.assertFalse(any("emulat" in n for n in comparison.notes))
        self.assertTrue(all(row.cells[1].ratio is not None for table in comparison.workloads for row in table.rows))


class SummaryTest(unittest.TestCase):
    """The geometric mean of the ratios per file pair (Google Benchmark compare.py's OVERALL_GEOMEAN)."""

    def test_geomean(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("clang.json"), fixture("gcc-2reps.json"))
        out = run_ok(self, fixture("gcc.json"), fixture("clang.json"), fixture("gcc-2reps.json"))
        for f, label, n in (("clang.json", "Clang 14.0.6 / Linux", 4),
                            ("gcc-2reps.json", "GNU 12.2.0 / Linux (gcc-2reps)", 2)):
            ratios = [float(r["ratio"]) for (_, g), r in rows.items() if g == f and r["ratio"]]
            self.assertEqual(len(ratios), n)  # gcc-2reps.json has no hello rows
            geomean = math.exp(sum(math.log(x) for x in ratios) / n)
            self.assertIn(f"{label} against GNU 12.2.0 / Linux (gcc): {geomean:.2f}x over {n} rows\n", out)

    def test_failed_rows_are_not_counted(self):
        out = run_ok(self, fixture("gcc.json"), fixture("failed.json"))
        self.assertIn("GNU 12.2.0 / Linux (failed) against GNU 12.2.0 / Linux (gcc): ", out)
        self.assertIn(" over 2 rows\n", out)  # hello failed in failed.json

    def test_no_summary_against_a_method(self):
        from iobench_compare import report

        files = (fixture("gcc.json"), fixture("clang.json"))
        against_method = ("--baseline-method", "fprintf,fwrite")
        # The summary's title is there against a file (so its absence below means something) ...
        self.assertIn(SUMMARY_TITLE, run_ok(self, *files))
        self.assertNotIn(SUMMARY_TITLE, run_ok(self, *files, *against_method))
        # ... and so is the HTML report's summary section.
        loaded = [results.load(f) for f in files]
        self.assertIn('<section id="summary">', report.to_html(cmp.compare(loaded)))
        self.assertNotIn('<section id="summary">',
                         report.to_html(cmp.compare(loaded, baseline_methods=["fprintf", "fwrite"])))


class SignificanceTest(unittest.TestCase):
    """Mann-Whitney U verdicts on the repetitions' times."""

    def test_clearly_different_files(self):
        # gcc.json's fprintf took 515 us, failed.json's (same build, 3 repetitions) 397 us,
        # every repetition apart: the exact test's smallest p-value for 5 against 3 is 2/56.
        rows = csv_rows(self, fixture("gcc.json"), fixture("failed.json"))
        row = rows[("ints_out/fprintf", "failed.json")]
        self.assertEqual(row["verdict"], "significant")
        self.assertAlmostEqual(float(row["p_value"]), 2 / math.comb(8, 3), places=12)
        out = run_ok(self, fixture("gcc.json"), fixture("failed.json"))
        self.assertIn("significant (p=0.036)", out)

    def test_same_code_two_compilers_not_significant(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("clang.json"))
        self.assertEqual(rows[("hello/fwrite", "clang.json")]["verdict"], "not significant")
        self.assertGreater(float(rows[("hello/fwrite", "clang.json")]["p_value"]), 0.05)

    def test_clearly_different_methods(self):
        rows = csv_rows(self, fixture("gcc.json"), "--baseline-method", "fprintf")
        row = rows[("ints_out/obuf", "gcc.json")]
        self.assertEqual(row["verdict"], "significant")
        self.assertAlmostEqual(float(row["p_value"]), 2 / math.comb(10, 5), places=12)
        # The same two methods with 3 repetitions each: every one apart, but p cannot go below 0.1.
        rows = csv_rows(self, fixture("failed.json"), "--baseline-method", "fprintf")
        row = rows[("ints_out/obuf", "failed.json")]
        self.assertEqual(row["verdict"], "too few repetitions")
        self.assertAlmostEqual(float(row["p_value"]), 0.1, places=12)
        self.assertLess(float(row["ratio"]), 0.5)

    def test_too_few_repetitions(self):
        out = run_ok(self, fixture("gcc.json"), fixture("gcc-2reps.json"))
        self.assertIn("too few repetitions", out)
        self.assertNotIn("significant", out.split("alpha 0.05.", 1)[1])
        rows = csv_rows(self, fixture("gcc.json"), fixture("gcc-2reps.json"))
        self.assertEqual(rows[("ints_out/fprintf", "gcc-2reps.json")]["p_value"], "")

    def test_rules(self):
        fast, slow = [1.0, 1.1, 1.2, 1.3], [2.0, 2.1, 2.2, 2.3]
        self.assertEqual(cmp.significance(fast[:2], slow, 0.05), (None, "too few repetitions"))
        # 3 against 3 cannot reach p < 0.05 even when every value is apart (p = 0.1).
        p, verdict = cmp.significance(fast[:3], slow[:3], 0.05)
        self.assertEqual(verdict, "too few repetitions")
        self.assertAlmostEqual(p, 0.1)
        self.assertEqual(cmp.significance(fast[:3], slow[:3], 0.2)[1], "significant")
        p, verdict = cmp.significance(fast, slow, 0.05)
        self.assertEqual(verdict, "significant")
        self.assertAlmostEqual(p, 2 / 70)
        self.assertEqual(cmp.significance([1.0, 2.0, 3.0, 4.0], [1.5, 2.5, 3.5, 4.5], 0.05)[1], "not significant")
        self.assertEqual(cmp.significance(fast, list(reversed(fast)), 0.05), (None, "identical samples"))


class ProblemRowsTest(unittest.TestCase):
    """Rows without a result say why and never show a number: FAILED, skipped (not a failure), invalid."""

    def line(self, out, start, contains):
        return [x for x in out.splitlines() if x.strip().startswith(start) and contains in x][0]

    def test_failed(self):
        out = run_ok(self, fixture("gcc.json"), fixture("failed.json"))
        line = self.line(out, "GNU 12.2.0 / Linux (failed)", "fclose")
        self.assertEqual(line.split(), ["GNU", "12.2.0", "/", "Linux", "(failed)", "FAILED", "FAILED:",
                                        "fclose(full/output-hello-fwrite):", "No", "space", "left", "on", "device"])
        self.assertIn("FAILED: write(full/output-hello-obuf): No space left on device", out)

    def test_failed_markdown(self):
        out = run_ok(self, fixture("gcc.json"), fixture("failed.json"), "--format", "md")
        line = [x for x in out.splitlines() if "fclose" in x][0]
        cells = [c.strip() for c in line.strip("|").split("|")]
        self.assertEqual(cells, ["", "GNU 12.2.0 / Linux (failed)", "FAILED", "", "", "", "", "",
                                 "FAILED: fclose(full/output-hello-fwrite): No space left on device"])

    def test_failed_csv(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("failed.json"))
        row = rows[("hello/obuf", "failed.json")]
        self.assertEqual(row["status"], "failed")
        self.assertEqual(row["error"], "write(full/output-hello-obuf): No space left on device")
        for column in ("real_time_s", "bytes_per_second", "ratio", "p_value", "verdict", "x_fastest"):
            self.assertEqual(row[column], "", column)
        # The baseline failed: nothing to compare the other file with.
        rows = csv_rows(self, fixture("failed.json"), fixture("gcc.json"))
        self.assertEqual(rows[("hello/obuf", "gcc.json")]["ratio"], "")
        self.assertEqual(rows[("hello/obuf", "gcc.json")]["status"], "ok")

    def test_skipped_is_not_failed(self):
        out = run_ok(self, fixture("file-read-shm.json"))
        self.assertNotIn("FAILED", out)
        line = self.line(out, "mmap_MADV_HUGEPAGE/cache:warm", "skipped")
        self.assertIn("skipped: madvise(MADV_HUGEPAGE) accepted, but the kernel mapped no huge page", line)
        rows = csv_rows(self, fixture("file-read-shm.json"))
        row = rows[("file_read/mmap_MADV_HUGEPAGE/cache:warm", "file-read-shm.json")]
        self.assertEqual(row["status"], "skipped")
        self.assertTrue(row["error"].startswith("madvise(MADV_HUGEPAGE) accepted"), row["error"])
        self.assertEqual(row["real_time_s"], "")

    def test_nan_infinite_and_zero_times_are_invalid(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("invalid-times.json"))
        for bench, why in (("ints_out/obuf", "real_time is NaN in repetition 1"),
                           ("ints_out/fprintf", "real_time is zero in repetition 1"),
                           ("hello/obuf", "real_time is infinite in repetition 1")):
            row = rows[(bench, "invalid-times.json")]
            self.assertEqual((row["status"], row["error"]), ("invalid", why))
            for column in ("real_time_s", "ratio", "p_value", "verdict"):
                self.assertEqual(row[column], "", column)
        self.assertEqual(rows[("hello/fwrite", "invalid-times.json")]["status"], "ok")
        out = run_ok(self, fixture("gcc.json"), fixture("invalid-times.json"))
        self.assertIn("invalid: real_time is NaN in repetition 1", out)
        self.assertNotRegex(out, r"\b(nan|inf)\b|(nan|inf)x")  # as Python prints them
        self.assertIn(" over 1 row\n", out)  # only hello/fwrite is compared
        # As the baseline: nothing is compared with it either.
        rows = csv_rows(self, fixture("invalid-times.json"), fixture("gcc.json"))
        self.assertEqual(rows[("ints_out/obuf", "gcc.json")]["ratio"], "")

    def test_null_times_as_iobench_writes_them_are_invalid(self):
        # iobench writes a time that is not finite as null (JSON has no NaN).
        data = load_json("gcc.json")
        for row in data["benchmarks"]:
            if row["name"] == "ints_out/obuf":
                row["real_time"] = None
                row["cpu_time"] = None
        with tempfile.TemporaryDirectory() as tmp:
            rows = csv_rows(self, fixture("gcc.json"), write_json(tmp, "null.json", data))
        row = rows[("ints_out/obuf", "null.json")]
        self.assertEqual((row["status"], row["error"]), ("invalid", "real_time is NaN in repetition 1"))
        self.assertEqual(rows[("hello/fwrite", "null.json")]["status"], "ok")

    def test_invalid_median_row(self):
        data = load_json("gcc-aggregates.json")
        for row in data["benchmarks"]:
            if row["name"] == "ints_out/obuf_median":
                row["real_time"] = float("-inf")
        with tempfile.TemporaryDirectory() as tmp:
            rows = csv_rows(self, fixture("gcc.json"), write_json(tmp, "agg.json", data))
        self.assertEqual(rows[("ints_out/obuf", "agg.json")]["error"], "real_time is infinite in the median row")


class CsvTest(unittest.TestCase):
    """CSV parses back to the numbers the tables show."""

    def test_parse_back(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("clang.json"))
        self.assertEqual(len(rows), 8)
        for (bench, f), row in rows.items():
            self.assertEqual(row["status"], "ok")
            self.assertEqual(row["workload"], bench.split("/")[0])
            for column in ("real_time_s", "cpu_time_s", "bytes_per_second", "items_per_second", "cv", "ratio",
                           "items_per_run", "bytes_per_run", "compared_time_s", "x_fastest"):
                self.assertGreater(float(row[column]), 0, column)
            if f == "clang.json":
                self.assertTrue(0 < float(row["p_value"]) <= 1)
                self.assertIn(row["verdict"], ("significant", "not significant"))
        console = run_ok(self, fixture("gcc.json"), fixture("clang.json"))
        row = rows[("ints_out/obuf", "clang.json")]
        self.assertIn(f"{float(row['ratio']):.2f}x", console)
        self.assertIn(f"{float(row['bytes_per_second']) / 1e6:.1f} MB/s", console)
        self.assertEqual(float(rows[("ints_out/obuf", "gcc.json")]["items_per_run"]), 10000)  # scale 0.001

    def test_interval_family_reference(self):
        rows = csv_rows(self, fixture("quick-structure.json"))
        times = sorted(iteration_times("quick-structure.json", "ints_out/obuf"))  # 6: the interval is [min, max]
        obuf = rows[("ints_out/obuf", "quick-structure.json")]
        self.assertAlmostEqual(float(obuf["ci_low_s"]), times[0], places=15)
        self.assertAlmostEqual(float(obuf["ci_high_s"]), times[-1], places=15)
        self.assertEqual((obuf["family"], obuf["reference"]), ("obuf", "false"))
        self.assertEqual(rows[("ints_out/limit", "quick-structure.json")]["reference"], "true")
        old = csv_rows(self, fixture("gcc.json"))  # 5 repetitions: no interval; no family in the rows
        self.assertEqual((old[("ints_out/obuf", "gcc.json")]["ci_low_s"], old[("ints_out/obuf", "gcc.json")]["family"]),
                         ("", ""))
        cache = csv_rows(self, fixture("file-read-cache.json"))
        cold = cache[("file_read/read/buf:4096/cache:cold", "file-read-cache.json")]
        warm = cache[("file_read/read/buf:4096/cache:warm", "file-read-cache.json")]
        self.assertAlmostEqual(float(cold["cold_warm"]), float(cold["real_time_s"]) / float(warm["real_time_s"]))
        self.assertEqual(warm["cold_warm"], "")


class PlotTest(unittest.TestCase):
    """Charts: non-empty PNG and SVG files, a bar chart per workload and a line chart per sweep."""

    def check_charts(self, directory, stems):
        for stem in stems:
            with open(os.path.join(directory, stem + ".png"), "rb") as f:
                png = f.read()
            self.assertTrue(png.startswith(b"\x89PNG\r\n\x1a\n"), stem)
            self.assertGreater(len(png), 1000)
            with open(os.path.join(directory, stem + ".svg"), encoding="utf-8") as f:
                svg = f.read()
            self.assertIn("<svg", svg)
            self.assertGreater(len(svg), 1000)

    def test_bar_charts(self):
        with tempfile.TemporaryDirectory() as tmp:
            charts = os.path.join(tmp, "charts")  # created by the tool
            run_ok(self, fixture("gcc.json"), fixture("clang.json"), fixture("failed.json"), "--plot", charts)
            self.check_charts(charts, ["ints_out", "hello"])
            self.assertEqual(sorted(os.listdir(charts)), ["hello.png", "hello.svg", "ints_out.png", "ints_out.svg"])

    def test_sweep_line_chart(self):
        with tempfile.TemporaryDirectory() as tmp:
            run_ok(self, fixture("sweep-gcc.json"), fixture("sweep-clang.json"), "--plot", tmp)
            self.check_charts(tmp, ["ints_out", "ints_out-buf"])
            with open(os.path.join(tmp, "ints_out-buf.svg"), encoding="utf-8") as f:
                svg = f.read()
            self.assertIn("buffer size (bytes), log scale", svg)

    def test_threads_line_chart_and_percentile_plot(self):
        # A real run of the threads suite (log, fprintf/obuf/obuf_mutex, 1-8 threads):
        # throughput against threads, a chart per sink with a line per method that
        # starts at its one-thread row; and one call's time by percentile.
        with tempfile.TemporaryDirectory() as tmp:
            run_ok(self, fixture("threads-log.json"), "--plot", tmp)
            self.check_charts(tmp, ["log", "log-threads-per_thread", "log-threads-shared", "log-latency"])
            with open(os.path.join(tmp, "log-threads-per_thread.svg"), encoding="utf-8") as f:
                per_thread = f.read()
            with open(os.path.join(tmp, "log-threads-shared.svg"), encoding="utf-8") as f:
                shared = f.read()
            for svg in (per_thread, shared):
                self.assertIn("threads, log scale", svg)
                self.assertNotIn("limit:", svg)  # one thread's prepared bytes would squash every line
            self.assertIn("log, sink:per_thread: throughput against threads", per_thread)
            self.assertIn("log, sink:shared: throughput against threads", shared)
            for method in ("fprintf", "obuf", "obuf_mutex"):
                self.assertIn(f"<!-- {method} -->", per_thread)
            self.assertIn("<!-- fprintf -->", shared)
            self.assertNotIn("<!-- obuf -->", shared)  # obuf's sink is never shared: no such line
            with open(os.path.join(tmp, "log-latency.svg"), encoding="utf-8") as f:
                svg = f.read()
            self.assertIn("one call's time by percentile", svg)
            self.assertIn("p99.9", svg)

    def test_no_percentile_plot_without_per_call_rows(self):
        with tempfile.TemporaryDirectory() as tmp:
            run_ok(self, fixture("quick-gcc.json"), "--plot", tmp)
            self.assertFalse([n for n in os.listdir(tmp) if "latency" in n])

    def test_limit_is_a_reference_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            run_ok(self, fixture("quick-gcc.json"), "--plot", tmp)
            with open(os.path.join(tmp, "ints_out.svg"), encoding="utf-8") as f:
                svg = f.read()
            # The dashed line is labelled with the limit row's median throughput, read from the fixture here.
            rate = statistics.median(r["bytes_per_second"] for r in iteration_rows("quick-gcc.json", "ints_out/limit"))
            self.assertIn(f"limit: {format_throughput(rate)}", svg)
            self.assertNotIn("<!-- limit -->", svg)  # no bar (tick label) named limit

    def test_value_labels_clear_of_the_limit_lines(self):
        from iobench_compare import compare, plot, results

        # hello: obuf's label would cross both files' limit lines, which lie just beyond its bar.
        files = [results.load(fixture("quick-gcc.json")), results.load(fixture("quick-clang-tenth.json"))]
        for f in files:
            f.label = f.name
        comparison = compare.compare(files)
        for workload in comparison.workloads:
            chart = plot.bar_chart(comparison, workload)
            ax = chart.figure.axes[0]
            renderer = chart.figure.canvas.get_renderer()
            lines = [ax.transData.transform((line.get_xdata()[0], 0))[0] for line in ax.lines
                     if line.get_linestyle() == "--"]
            self.assertTrue(lines, workload.name)
            labels = [t for t in ax.texts if t.get_text().strip().endswith("B/s")]
            self.assertEqual(len(labels), sum(1 for r in workload.rows if not r.is_limit for c in r.cells if c.ok))
            for text in labels:
                box = text.get_window_extent(renderer)
                for x in lines:
                    self.assertFalse(box.x0 <= x <= box.x1, f"{workload.name}: {text.get_text()} crosses {x}")
                self.assertLessEqual(box.x1, ax.get_window_extent(renderer).x1, text.get_text())  # inside
            plot.plt.close(chart.figure)

    def test_svg_is_reproducible(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            run_ok(self, fixture("sweep-gcc.json"), "--plot", a)
            run_ok(self, fixture("sweep-gcc.json"), "--plot", b)
            for name in ("ints_out.svg", "ints_out-buf.svg"):
                with open(os.path.join(a, name), encoding="utf-8") as f:
                    with open(os.path.join(b, name), encoding="utf-8") as g:
                        self.assertEqual(f.read(), g.read(), name)


class OutputFileTest(unittest.TestCase):
    """Where the output goes: never over an input, never half-written over an
    earlier file, never replacing a FIFO or device; a standard output that
    cannot be written is one line and exit status 1."""

    def tool(self, *args, stdout=subprocess.PIPE, limit_bytes=None):
        def limit():
            if limit_bytes is not None:  # a disk that fills at limit_bytes: writes fail with EFBIG
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
        return run_tool(args, stdout=stdout, preexec=limit)

    def test_an_input_is_never_the_output(self):
        with tempfile.TemporaryDirectory() as tmp:
            a = write_json(tmp, "a.json", load_json("gcc.json"))
            with open(a, "rb") as f:
                before = f.read()
            os.symlink(a, os.path.join(tmp, "link.json"))
            for output in (a, os.path.join(tmp, "link.json")):
                status, out, err = self.tool(a, fixture("clang.json"), "-o", output)
                self.assertEqual(status, 2, err)
                self.assertEqual(err, f"iobench-compare: error: --output {output}: is the input file {a}: "
                                      "it would be overwritten\n")
                with open(a, "rb") as f:
                    self.assertEqual(f.read(), before)

    def test_a_full_disk_leaves_the_earlier_report_whole(self):
        with tempfile.TemporaryDirectory() as tmp:
            report = os.path.join(tmp, "report.md")
            with open(report, "w", encoding="utf-8") as f:
                f.write("earlier report\n")
            # (Markdown: the HTML report imports matplotlib, which may write its cache first.)
            status, _, err = self.tool(fixture("gcc.json"), fixture("clang.json"), "--format", "md", "-o", report,
                                       limit_bytes=1024)
            self.assertEqual(status, 1, err)
            self.assertTrue(err.startswith(f"iobench-compare: error: --output {report}: "), err)
            self.assertIn("nothing replaced", err)
            with open(report, encoding="utf-8") as f:
                self.assertEqual(f.read(), "earlier report\n")
            self.assertEqual(os.listdir(tmp), ["report.md"])  # no temporary file left

    def test_an_existing_files_mode_is_kept(self):
        with tempfile.TemporaryDirectory() as tmp:
            report = os.path.join(tmp, "report.md")
            with open(report, "w", encoding="utf-8") as f:
                f.write("earlier report\n")
            os.chmod(report, 0o600)
            status, _, err = self.tool(fixture("gcc.json"), fixture("clang.json"), "--format", "md", "-o", report)
            self.assertEqual(status, 0, err)
            self.assertEqual(stat.S_IMODE(os.lstat(report).st_mode), 0o600)
            with open(report, encoding="utf-8") as f, open(os.path.join(EXPECTED, "gcc-clang.md"),
                                                           encoding="utf-8") as g:
                self.assertEqual(f.read(), g.read())

    def test_a_link_of_ones_own_names_the_file_replaced(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.chmod(tmp, 0o700)  # a directory only this user can write to
            target = os.path.join(tmp, "target.md")
            with open(target, "w", encoding="utf-8") as f:
                f.write("earlier report\n")
            link = os.path.join(tmp, "link.md")
            os.symlink(target, link)
            status, _, err = self.tool(fixture("gcc.json"), "--format", "md", "-o", link)
            self.assertEqual(status, 0, err)
            self.assertTrue(os.path.islink(link))
            with open(target, encoding="utf-8") as f:
                self.assertIn("ints_out", f.read())

    def test_what_another_user_planted_in_a_shared_directory_is_left_alone(self):
        # Another user (uid 4242, no account needed) plants links to a private
        # file, a FIFO and a file of its own in a sticky directory everyone can
        # write to, as in /tmp; the tool, run by this user, must follow no link,
        # open no FIFO and replace nothing of theirs.
        if not hasattr(os, "geteuid") or os.geteuid() != 0:
            self.skipTest("needs root to act as a second user (setpriv --reuid)")
        if not shutil.which("setpriv"):
            self.skipTest("needs setpriv (util-linux) to act as a second user")
        other = ["setpriv", "--reuid=4242", "--regid=4242", "--clear-groups"]
        with tempfile.TemporaryDirectory() as tmp:
            os.chmod(tmp, 0o755)  # the other user may reach the shared directory inside
            shared = os.path.join(tmp, "S")
            os.mkdir(shared)
            os.chmod(shared, 0o1777)
            private = os.path.join(tmp, "private")
            with open(private, "w", encoding="utf-8") as f:
                f.write("secret\n")
            os.chmod(private, 0o600)
            mine = os.path.join(tmp, "mine")
            os.mkdir(mine)
            for command in (["ln", "-s", private, os.path.join(shared, "report.html")],
                            ["ln", "-s", private, os.path.join(shared, "hello.svg")],
                            ["ln", "-s", mine, os.path.join(shared, "charts")],
                            ["mkfifo", os.path.join(shared, "fifo.md")],
                            ["sh", "-c", 'echo theirs > "$0"', os.path.join(shared, "theirs.md")]):
                subprocess.run(other + command, check=True)
            cases = (
                (["--format", "html", "-o", os.path.join(shared, "report.html")],
                 f"--output {shared}/report.html: is a symbolic link in a directory others can write to: not "
                 "followed (remove it, or name another file)"),
                (["--plot", shared], f"--plot {shared}/hello.svg: is a symbolic link in a directory others can "
                                     "write to: not followed (remove it, or name another file)"),
                (["--plot", os.path.join(shared, "charts")],
                 f"--plot {shared}/charts: is a symbolic link in a directory others can write to: not followed "
                 "(remove it, or name another directory)"),
                (["--format", "md", "-o", os.path.join(shared, "fifo.md")],
                 f"--output {shared}/fifo.md: is a FIFO of another user (uid 4242) in a directory others can "
                 "write to: not opened"),
                (["--format", "md", "-o", os.path.join(shared, "theirs.md")],
                 f"--output {shared}/theirs.md: belongs to another user (uid 4242) in a directory others can "
                 "write to: left alone"),
            )
            for args, message in cases:
                with self.subTest(args=args):
                    status, _, err = run_tool([fixture("gcc.json"), *args], timeout=120)
                    self.assertEqual(status, 2, err)
                    self.assertEqual(err, f"iobench-compare: error: {message}\n")
            with open(private, encoding="utf-8") as f:
                self.assertEqual(f.read(), "secret\n")
            self.assertEqual(stat.S_IMODE(os.stat(private).st_mode), 0o600)
            self.assertEqual(os.listdir(mine), [])
            with open(os.path.join(shared, "theirs.md"), encoding="utf-8") as f:
                self.assertEqual(f.read(), "theirs\n")
            self.assertEqual(sorted(os.listdir(shared)), ["charts", "fifo.md", "hello.svg", "report.html", "theirs.md"])
            # A new name in the shared directory is this user's own file.
            new = os.path.join(shared, "new.md")
            status, _, err = self.tool(fixture("gcc.json"), "--format", "md", "-o", new)
            self.assertEqual(status, 0, err)
            self.assertTrue(stat.S_ISREG(os.lstat(new).st_mode))
            self.assertEqual(os.lstat(new).st_uid, os.geteuid())

    def test_a_fifo_output_is_written_through_not_replaced(self):
        with tempfile.TemporaryDirectory() as tmp:
            fifo = os.path.join(tmp, "out")
            os.mkfifo(fifo)
            received = []
            reader = threading.Thread(target=lambda: received.append(open(fifo, encoding="utf-8").read()))
            reader.start()
            status, _, err = self.tool(fixture("gcc.json"), fixture("clang.json"), "--format", "md", "-o", fifo)
            reader.join(30)
            self.assertEqual(status, 0, err)
            self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode))
            with open(os.path.join(EXPECTED, "gcc-clang.md"), encoding="utf-8") as g:
                self.assertEqual(received, [g.read()])

    def test_inputs_that_never_end_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            fifo = os.path.join(tmp, "fifo.json")
            os.mkfifo(fifo)  # no writer: reading it would wait forever
            zero = os.path.join(tmp, "zero.json")
            os.symlink(os.devnull.replace("null", "zero"), zero)  # a link to /dev/zero, never opened
            for path, what in ((fifo, "a FIFO"), (zero, "a character device")):
                status, out, err = self.tool(fixture("gcc.json"), path)
                self.assertEqual(status, 2, err)
                self.assertEqual(out, "")
                self.assertEqual(err, f"iobench-compare: error: {path}: is {what}, not a result file "
                                      "(only regular files are read)\n")

    def test_standard_output_closed_or_full(self):
        status, _, err = self.tool(fixture("gcc.json"), stdout=subprocess.DEVNULL)
        self.assertEqual(status, 0, err)
        closed = subprocess.run(["sh", "-c", '"$0" -m iobench_compare "$1" >&-', sys.executable, fixture("gcc.json")],
                                capture_output=True, text=True, check=False, env=tool_env())
        self.assertEqual(closed.returncode, 1, closed.stderr)
        self.assertEqual(closed.stderr, "iobench-compare: error: standard output is closed: nothing written "
                                        "(use -o FILE)\n")
        with tempfile.TemporaryDirectory() as tmp:
            full = "/dev/full"
            if os.geteuid() == 0:  # a device of our own rather than the machine's
                full = os.path.join(tmp, "full")
                os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
            with open(full, "w", encoding="utf-8") as out:
                status, _, err = self.tool(fixture("gcc.json"), stdout=out)
        self.assertEqual(status, 1, err)
        self.assertEqual(err, "iobench-compare: error: writing to standard output failed: No space left on device\n")


class BadInputTest(unittest.TestCase):
    """Bad input: exit status 2, nothing on stdout, one line on stderr."""

    def check(self, args, message):
        status, out, err = run(*args)
        self.assertEqual(status, 2, err)
        self.assertEqual(out, "")
        self.assertEqual(err.count("\n"), 1, err)
        self.assertTrue(err.startswith("iobench-compare: error: "), err)
        self.assertIn(message, err)

    def test_not_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "text.json")
            with open(path, "w", encoding="utf-8") as f:
                f.write("ints_out/obuf 61.5 us\n")
            self.check([fixture("gcc.json"), path], "text.json: not JSON (Expecting value at line 1 column 1)")
            with open(path, "w", encoding="utf-8") as f:
                f.write("")
            self.check([path], "text.json: empty file, not JSON")
            with open(path, "wb") as f:
                f.write(b"\xff\xfe\x00")
            self.check([path], "text.json: not JSON (not UTF-8 text)")

    def test_truncated(self):
        self.check([fixture("gcc.json"), fixture("truncated.json")],
                   "truncated.json: truncated JSON: the file ends at line 24 before the JSON is complete")
        with open(fixture("quick-gcc.json"), encoding="utf-8") as f:
            text = f.read()
        with tempfile.TemporaryDirectory() as tmp:
            for cut in (len(text) // 2, len(text) - 3):  # inside a row, and before the last brackets
                path = os.path.join(tmp, "cut.json")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text[:cut])
                self.check([path], "cut.json: truncated JSON: the file ends at line")

    def test_not_a_benchmark_result(self):
        self.check([fixture("gcc.json"), fixture("suite-not-result.json")],
                   "suite-not-result.json: not a Google Benchmark result (it looks like an iobench suite file)")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "list.json")
            with open(path, "w", encoding="utf-8") as f:
                f.write("[1, 2, 3]\n")
            self.check([path], "list.json: not a Google Benchmark result (not a JSON object)")
            with open(path, "w", encoding="utf-8") as f:
                f.write('{"context": {}, "benchmarks": []}\n')
            self.check([path], "list.json: contains no benchmark")

    def test_a_field_of_the_wrong_type_or_range(self):
        # One changed field of a real results file gave a traceback (exit 1).
        with open(fixture("quick-gcc.json"), encoding="utf-8") as f:
            text = f.read()
        first = '"name":"hello/obuf",'
        self.assertIn(first, text)
        for field, value, message in (
                ("repetitions", "NaN", '"repetitions" must be a whole number from 0 to 1000000, not NaN'),
                ("repetitions", "Infinity", '"repetitions" must be a whole number from 0 to 1000000, not Infinity'),
                ("repetitions", "1e300", '"repetitions" must be a whole number from 0 to 1000000, not 1e+300'),
                ("real_time", "1" + "0" * 400, '"real_time" must be a number within a double\'s range, not 1000'),
                ("iterations", "1" + "0" * 400, '"iterations" must be a whole number from 0 to 9223372036854775807'),
                ("write_calls", "1" + "0" * 400, '"write_calls" must be a number within a double\'s range'),
                ("time_unit", "[]", '"time_unit" must be a string, not []'),
                ("time_unit", '"h"', '"time_unit" must be one of ns, us, ms, s, not "h"'),
                ("run_type", '"median"', '"run_type" must be "iteration" or "aggregate", not "median"'),
                ("error_occurred", '"yes"', '"error_occurred" must be true or false, not "yes"'),
                ("threads", "0", '"threads" must be a whole number from 1 to 1000000, not 0'),
                # A counter that is not a number was left out without a word.
                ("bytes_per_second", '"fast"', '"bytes_per_second" must be a number (a counter), not "fast"'),
                ("write_calls", "[1]", '"write_calls" must be a number (a counter), not [1]'),
                ("write_calls", "true", '"write_calls" must be a number (a counter), not true')):
            with self.subTest(field=field, value=value[:10]), tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "changed.json")
                with open(path, "w", encoding="utf-8") as f:
                    end = text.index("}", text.index(first))  # the first row's end: the later key wins
                    f.write(f'{text[:end]}, "{field}": {value}{text[end:]}')
                self.check([path], f"changed.json: benchmark 'hello/obuf': {message}")

    def test_rows_without_run_type(self):
        # Without "run_type" the mean/median/stddev/cv rows were counted as
        # repetitions (cv 16.0 % became 31.9 %). Other programs and older Google
        # Benchmark versions write no run_type, some no aggregate_name either.
        expected = run_ok(self, fixture("gcc.json"), "--format", "csv")
        data = load_json("gcc.json")
        with tempfile.TemporaryDirectory() as tmp:
            for row in data["benchmarks"]:
                del row["run_type"]
            # (Under the same file name: the table names the file.)
            self.assertEqual(run_ok(self, write_json(tmp, "gcc.json", data), "--format", "csv"), expected)
            for row in data["benchmarks"]:
                row.pop("aggregate_name", None)
                row.pop("aggregate_unit", None)
                row.pop("run_name", None)
            older = write_json(tmp, "gcc.json", data)
            self.assertEqual(run_ok(self, older, "--format", "csv"), expected)
            bench = results.load(older).benchmarks["ints_out/fprintf"]
            self.assertEqual(len(bench.real_times), 5)
            self.assertIsNotNone(bench.median)
            self.assertIsNotNone(bench.cv)

    def test_mutated_results_files_never_give_a_traceback(self):
        # A fixed sample of one to three changed fields (also in params and the
        # context) of real results files, through every table and export: each is
        # read, or refused with InputError (one line, exit status 2), never a traceback.
        from iobench_compare import compare, export, render
        weird = [math.nan, math.inf, -math.inf, 10 ** 400, -(10 ** 400), 1e300, -1, 0, 2.5, [], {}, "x", "", None,
                 True, False, [1], {"a": 1}, 2 ** 64]
        names = ["gcc.json", "clang.json", "quick-gcc.json", "quick-structure.json", "sweep-gcc.json",
                 "file-read-cache.json", "failed.json", "gcc-aggregates.json"]
        docs = {name: load_json(name) for name in names}
        rng = random.Random(28)
        read = refused = 0
        for trial in range(400):
            name = rng.choice(names)
            data = json.loads(json.dumps(docs[name]))
            for _ in range(rng.choice((1, 1, 2, 3))):
                if rng.random() < 0.15:
                    where = data["context"]
                else:
                    where = rng.choice(data["benchmarks"])
                    key = rng.choice(list(where))
                    if isinstance(where[key], dict) and where[key] and rng.random() < 0.5:
                        where = where[key]
                key = rng.choice(list(where))
                if rng.random() < 0.15:
                    del where[key]
                else:
                    where[key] = rng.choice(weird)
            try:
                files = [results.parse("a.json", data), results.parse("b.json", docs[name])]
                for f in files:
                    f.label = f.name
                for comparison in (compare.compare(files), compare.compare(files, 1, [], 0.05, ["all"]),
                                   compare.compare(files[:1])):
                    render.to_console(comparison)
                    render.to_markdown(comparison)
                    render.to_csv(comparison)
                export.to_bencher(comparison)
                export.to_github_action_benchmark(comparison)
                read += 1
            except results.InputError as e:
                self.assertNotIn("\n", str(e))
                refused += 1
            except Exception as e:  # noqa: BLE001 (the point of the test)
                self.fail(f"trial {trial} ({name}): {type(e).__name__}: {e}")
        self.assertGreater(read, 50)  # the sample reaches the tables, not only the checks
        self.assertGreater(refused, 50)

    def test_every_row_an_error(self):
        self.check([fixture("gcc.json"), fixture("all-errors.json")],
                   "all-errors.json: no benchmark has a result: each of its 2 failed, was skipped or is invalid "
                   "(hello/fwrite: fclose(full/output-hello-fwrite): No space left on device)")
        data = load_json("gcc.json")
        for row in data["benchmarks"]:
            row["real_time"] = float("nan")
        with tempfile.TemporaryDirectory() as tmp:
            self.check([write_json(tmp, "nan.json", data)],
                       "nan.json: no benchmark has a result: each of its 4 failed, was skipped or is invalid "
                       "(ints_out/fprintf: real_time is NaN in repetition 1)")

    def test_no_benchmark_in_common(self):
        self.check([fixture("gcc.json"), fixture("ints-in.json")],
                   "gcc.json and ints-in.json have no benchmark in common: they ran different suites "
                   "(compare-fixtures (gcc.json), compare-other (ints-in.json))")
        self.check([fixture("gcc.json"), fixture("clang.json"), fixture("ints-in.json")],
                   "gcc.json, clang.json and ints-in.json have no benchmark in common: they ran different suites")
        self.check([fixture("gcc.json"), fixture("file-read-shm.json")],
                   "gcc.json and file-read-shm.json have no benchmark in common: they ran different suites")
        # The same suite, different filters: no suite to blame.
        data = load_json("gcc.json")
        data["context"]["suite"] = "compare-other"
        with tempfile.TemporaryDirectory() as tmp:
            status, _, err = run(write_json(tmp, "same-suite.json", data), fixture("ints-in.json"))
        self.assertEqual(status, 2)
        self.assertTrue(err.rstrip().endswith("have no benchmark in common"), err)

    def test_missing_file(self):
        self.check([fixture("gcc.json"), fixture("nosuch.json")], "nosuch.json: no such file")
        self.check([fixture("gcc.json"), FIXTURES], ": is a directory")

    def test_unknown_baseline_method(self):
        self.check([fixture("gcc.json"), fixture("clang.json"), "--baseline-method", "nosuch"],
                   "--baseline-method nosuch: no such method in these files (methods: fprintf, fwrite, obuf)")

    def test_bad_options(self):
        self.check([fixture("gcc.json"), fixture("clang.json"), "--baseline-file", "3"],
                   "--baseline-file 3: there are 2 files")
        self.check([fixture("gcc.json"), "--baseline-file", "1", "--baseline-method", "fprintf"], "not allowed with")
        self.check([fixture("gcc.json"), "--format", "pdf"], "invalid choice: 'pdf'")
        self.check([fixture("gcc.json"), "--label", "a", "--label", "b"], "--label b: more labels than files (1)")
        self.check([fixture("gcc.json"), "--counters", "all,write_calls"], "'all' and 'none' stand alone")
        self.check([fixture("gcc.json"), "--counters", ","], "--counters: no counter given")
        self.check([fixture("gcc.json"), "--alpha", "1"], "--alpha 1: must be between 0 and 1")
        self.check([fixture("gcc.json"), fixture("clang.json"), "--format", "bencher"],
                   "--format bencher exports one result file (got 2)")
        self.check([], "the following arguments are required")


if __name__ == "__main__":
    main()
