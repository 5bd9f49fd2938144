#!/usr/bin/env python3
"""Tests of iobench-compare on JSON fixtures written by iobench itself (see make_fixtures.py).

Run: python3 tools/tests/test_compare.py [-v] [TestClass]; ctest runs one class per test.
IOBENCH_UPDATE_GOLDEN=1 rewrites the golden files in expected/ instead of comparing.

Fixtures (fixtures/): gcc.json and clang.json, the same small suite (ints_out and
hello, two methods each, 5 repetitions) built with GCC and Clang; gcc-2reps.json
(2 repetitions), gcc-aggregates.json (aggregate rows only), failed.json (hello
failed: no space left on device; 3 repetitions), sweep-gcc.json and
sweep-clang.json (buffer sizes 512/4096/65536, 1 repetition), ints-in.json (no
benchmark in common with the others), truncated.json (not JSON),
suite-not-result.json (a suite file, not a result).
"""

import csv
import io
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
TOOL = os.path.join(TOOLS, "iobench-compare")
FIXTURES = os.path.join(HERE, "fixtures")
EXPECTED = os.path.join(HERE, "expected")
sys.path.insert(0, TOOLS)
sys.dont_write_bytecode = True

try:
    import matplotlib  # noqa: F401
    import scipy  # noqa: F401
except ImportError as e:  # fail loudly: a skipped test would hide a missing dependency
    sys.exit(f"test_compare: {e}: run the tests with a Python 3 that has python3-scipy and python3-matplotlib")

from iobench_compare import compare as cmp  # noqa: E402
from iobench_compare import results  # noqa: E402
from iobench_compare.render import CSV_COLUMNS  # noqa: E402


def fixture(name):
    return os.path.join(FIXTURES, name)


def run(*args):
    """Runs the tool with this interpreter; returns (exit status, stdout, stderr)."""
    done = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True, check=False)
    return done.returncode, done.stdout, done.stderr


def run_ok(testcase, *args):
    status, out, err = run(*args)
    testcase.assertEqual(status, 0, err)
    testcase.assertEqual(err, "")
    return out


def csv_rows(testcase, *args):
    """The tool's CSV output, parsed back: {(benchmark, file): row}."""
    out = run_ok(testcase, *args, "--format", "csv")
    reader = csv.DictReader(io.StringIO(out))
    testcase.assertEqual(reader.fieldnames, CSV_COLUMNS)
    return {(r["benchmark"], r["file"]): r for r in reader}


def iteration_times(name, benchmark):
    """Wall times in seconds of a fixture's iteration rows, read independently of the tool."""
    with open(fixture(name), encoding="utf-8") as f:
        rows = json.load(f)["benchmarks"]
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    return [r["real_time"] * scale[r["time_unit"]] for r in rows
            if r["name"] == benchmark and r["run_type"] == "iteration"]


class GoldenTest(unittest.TestCase):
    """Console and Markdown output for gcc.json against clang.json, byte for byte."""

    def check(self, golden, *args):
        out = run_ok(self, *args)
        path = os.path.join(EXPECTED, golden)
        if os.environ.get("IOBENCH_UPDATE_GOLDEN"):
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(out)
        with open(path, encoding="utf-8", newline="") as f:
            self.assertEqual(out, f.read(), f"differs from {golden}; IOBENCH_UPDATE_GOLDEN=1 rewrites it")
        return out

    def test_console(self):
        out = self.check("gcc-clang.txt", fixture("gcc.json"), fixture("clang.json"))
        self.assertNotIn(FIXTURES, out)  # file names only: the output is the same on every machine

    def test_markdown(self):
        self.check("gcc-clang.md", fixture("gcc.json"), fixture("clang.json"), "--format", "md")

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
    """Lining up N files, labels, medians, the baseline column and the baseline method."""

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

    def test_median_of_the_repetitions(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("clang.json"))
        for bench in ("ints_out/fprintf", "ints_out/obuf", "hello/fwrite", "hello/obuf"):
            gcc = statistics.median(iteration_times("gcc.json", bench))
            clang = statistics.median(iteration_times("clang.json", bench))
            self.assertAlmostEqual(float(rows[(bench, "gcc.json")]["real_time_s"]), gcc, delta=gcc * 1e-12)
            self.assertAlmostEqual(float(rows[(bench, "clang.json")]["ratio"]), clang / gcc, places=12)
            self.assertEqual(rows[(bench, "gcc.json")]["repetitions"], "5")

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

    def test_median_row_when_there_are_no_repetitions(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("gcc-aggregates.json"))
        row = rows[("ints_out/obuf", "gcc-aggregates.json")]
        with open(fixture("gcc-aggregates.json"), encoding="utf-8") as f:
            median = [r for r in json.load(f)["benchmarks"] if r["name"] == "ints_out/obuf_median"][0]
        self.assertEqual(row["source"], "median row")
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

    def test_context_differences_are_noted(self):
        files = [results.load(fixture("gcc.json")), results.load(fixture("clang.json"))]
        files[1].context["scale"] = "0.01"
        for f in files:
            f.label = results.default_label(f.context, f.path)
        notes = cmp.compare(files).notes
        self.assertEqual([n.split(":")[0] for n in notes],
                         ["the files differ in scale", "the files differ in build_flags"])  # -O2 and -O3
        self.assertIn("0.001 (GNU 12.2.0 / Linux), 0.01 (Clang 14.0.6 / Linux)", notes[0])
        self.assertEqual(cmp.compare(files[:1] * 2).notes, [])

    def test_names(self):
        self.assertEqual(cmp.split_name("ints_out/obuf/buf:4096"),
                         ("ints_out", "obuf/buf:4096", "obuf", [("buf", "4096")]))
        self.assertEqual(cmp.split_name("hello/fwrite"), ("hello", "fwrite", "fwrite", []))


class SignificanceTest(unittest.TestCase):
    """Mann-Whitney U verdicts on the repetitions' wall times."""

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


class FailedTest(unittest.TestCase):
    """A failed benchmark shows FAILED and its reason, never a number."""

    def test_console(self):
        out = run_ok(self, fixture("gcc.json"), fixture("failed.json"))
        self.assertIn("(1) failed.json, hello/fwrite: fclose(full/output-hello-fwrite): No space left on device", out)
        self.assertIn("(2) failed.json, hello/obuf: write(full/output-hello-obuf): No space left on device", out)
        fwrite = [line for line in out.splitlines() if line.strip().startswith("fwrite")][0]
        after = fwrite.split("FAILED (1)", 1)[1]
        self.assertEqual(after.strip(), "")  # nothing after it: no time, ratio or verdict

    def test_markdown(self):
        out = run_ok(self, fixture("gcc.json"), fixture("failed.json"), "--format", "md")
        self.assertIn("| FAILED (1) |  |  |  |  |", out)
        self.assertIn("- (1) failed.json, hello/fwrite: fclose(full/output-hello-fwrite): No space left on device", out)

    def test_csv(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("failed.json"))
        row = rows[("hello/obuf", "failed.json")]
        self.assertEqual(row["status"], "failed")
        self.assertEqual(row["error"], "write(full/output-hello-obuf): No space left on device")
        for column in ("real_time_s", "bytes_per_second", "ratio", "p_value", "verdict"):
            self.assertEqual(row[column], "", column)
        # The baseline failed: nothing to compare the other file with.
        rows = csv_rows(self, fixture("failed.json"), fixture("gcc.json"))
        self.assertEqual(rows[("hello/obuf", "gcc.json")]["ratio"], "")
        self.assertEqual(rows[("hello/obuf", "gcc.json")]["status"], "ok")


class CsvTest(unittest.TestCase):
    """CSV parses back to the numbers the tables show."""

    def test_parse_back(self):
        rows = csv_rows(self, fixture("gcc.json"), fixture("clang.json"))
        self.assertEqual(len(rows), 8)
        for (bench, f), row in rows.items():
            self.assertEqual(row["status"], "ok")
            self.assertEqual(row["workload"], bench.split("/")[0])
            for column in ("real_time_s", "cpu_time_s", "bytes_per_second", "items_per_second", "cv", "ratio"):
                self.assertGreater(float(row[column]), 0, column)
            if f == "clang.json":
                self.assertTrue(0 < float(row["p_value"]) <= 1)
                self.assertIn(row["verdict"], ("significant", "not significant"))
        console = run_ok(self, fixture("gcc.json"), fixture("clang.json"))
        row = rows[("ints_out/obuf", "clang.json")]
        self.assertIn(f"{float(row['ratio']):.2f}x", console)
        self.assertIn(f"{float(row['bytes_per_second']) / 1e6:.1f} MB/s", console)


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
            self.assertIn("buffer size (bytes)", svg)

    def test_svg_is_reproducible(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            run_ok(self, fixture("sweep-gcc.json"), "--plot", a)
            run_ok(self, fixture("sweep-gcc.json"), "--plot", b)
            for name in ("ints_out.svg", "ints_out-buf.svg"):
                with open(os.path.join(a, name), encoding="utf-8") as f:
                    with open(os.path.join(b, name), encoding="utf-8") as g:
                        self.assertEqual(f.read(), g.read(), name)


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
        self.check([fixture("gcc.json"), fixture("truncated.json")], "truncated.json: not JSON (")

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

    def test_no_benchmark_in_common(self):
        self.check([fixture("gcc.json"), fixture("ints-in.json")],
                   "gcc.json and ints-in.json have no benchmark in common")
        self.check([fixture("gcc.json"), fixture("clang.json"), fixture("ints-in.json")],
                   "gcc.json, clang.json and ints-in.json have no benchmark in common")

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
        self.check([fixture("gcc.json"), "--format", "html"], "invalid choice: 'html'")
        self.check([fixture("gcc.json"), "--label", "a", "--label", "b"], "--label b: more labels than files (1)")
        self.check([], "the following arguments are required")


if __name__ == "__main__":
    unittest.main()
