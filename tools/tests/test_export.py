#!/usr/bin/env python3
"""Tests of the exports for continuous-benchmarking services: the JSON the CI job would upload.

--format bencher: Bencher Metric Format (https://bencher.dev/docs/reference/bencher-metric-format/);
--format github-action-benchmark: its customSmallerIsBetter input
(https://github.com/benchmark-action/github-action-benchmark). Both from one result file.
Golden files: expected/quick-gcc.bencher.json and expected/quick-gcc.github-action-benchmark.json.
"""

import json
import re
import statistics
import unittest

from support import check_golden, fixture, iteration_rows, iteration_times, main, run, run_ok


# A date as RFC 3339 and ISO 8601 write it ("2026-11-23").
ISO_DATE = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")


def strict_json(text):
    """Parses JSON as a strict consumer does: NaN and Infinity are errors."""
    def refuse(name):
        raise ValueError(f"{name} is not JSON")
    return json.loads(text, parse_constant=refuse)


def benchmark_names(name):
    with open(fixture(name), encoding="utf-8") as f:
        rows = json.load(f)["benchmarks"]
    names = []
    for r in rows:
        if r.get("run_type", "iteration") == "iteration" and not r.get("error_occurred") and r["name"] not in names:
            names.append(r["name"])
    return names


class BencherTest(unittest.TestCase):
    """Bencher Metric Format: latency (ns per run) and throughput (items per second) per benchmark."""

    def test_golden(self):
        check_golden(self, "quick-gcc.bencher.json", run_ok(self, fixture("quick-gcc.json"), "--format", "bencher"))

    def test_schema_and_values(self):
        bmf = strict_json(run_ok(self, fixture("quick-gcc.json"), "--format", "bencher"))
        self.assertIsInstance(bmf, dict)
        self.assertEqual(sorted(bmf), sorted(benchmark_names("quick-gcc.json")))  # every benchmark
        for name, measures in bmf.items():
            self.assertEqual(set(measures), {"latency", "throughput"}, name)
            for slug, metric in measures.items():
                self.assertTrue(set(metric) <= {"value", "lower_value", "upper_value"}, metric)
                self.assertLessEqual(metric["lower_value"], metric["value"])
                self.assertLessEqual(metric["value"], metric["upper_value"])
            times = [t * 1e9 for t in iteration_times("quick-gcc.json", name)]
            self.assertAlmostEqual(measures["latency"]["value"], statistics.median(times), delta=1e-6)
            self.assertAlmostEqual(measures["latency"]["lower_value"], min(times), delta=1e-6)
            self.assertAlmostEqual(measures["latency"]["upper_value"], max(times), delta=1e-6)
            items = [r["items_per_second"] for r in iteration_rows("quick-gcc.json", name)]
            self.assertAlmostEqual(measures["throughput"]["value"], statistics.median(items), delta=1e-3)

    def test_file_read_throughput_is_bytes_and_skipped_rows_are_left_out(self):
        status, out, err = run(fixture("file-read-shm.json"), "--format", "bencher")
        self.assertEqual((status, err), (0, ""))  # a skipped method is normal: no warning
        bmf = strict_json(out)
        self.assertNotIn("file_read/mmap_MADV_HUGEPAGE/cache:warm", bmf)
        name = "file_read/read/buf:65536/cache:warm"
        rates = [r["bytes_per_second"] for r in iteration_rows("file-read-shm.json", name)]
        self.assertAlmostEqual(bmf[name]["throughput"]["value"], statistics.median(rates), delta=1e-3)

    def test_one_repetition_has_no_bounds(self):
        bmf = strict_json(run_ok(self, fixture("sweep-gcc.json"), "--format", "bencher"))
        self.assertEqual(set(bmf["ints_out/obuf/buf:4096"]["latency"]), {"value"})


class GithubActionBenchmarkTest(unittest.TestCase):
    """customSmallerIsBetter: a list of {name, unit, value, range, extra}, value = median ns per run."""

    def test_golden(self):
        check_golden(self, "quick-gcc.github-action-benchmark.json",
                     run_ok(self, fixture("quick-gcc.json"), "--format", "github-action-benchmark"))

    def test_schema_and_values(self):
        entries = strict_json(run_ok(self, fixture("quick-gcc.json"), "--format", "github-action-benchmark"))
        self.assertIsInstance(entries, list)
        self.assertEqual(sorted(e["name"] for e in entries), sorted(benchmark_names("quick-gcc.json")))
        bmf = strict_json(run_ok(self, fixture("quick-gcc.json"), "--format", "bencher"))
        for e in entries:
            self.assertEqual(set(e), {"name", "unit", "value", "range", "extra"})
            self.assertEqual(e["unit"], "ns")
            self.assertIsInstance(e["value"], float)
            self.assertAlmostEqual(e["value"], bmf[e["name"]]["latency"]["value"], delta=1e-3)
            self.assertRegex(e["range"], r"^± \d+\.\d{3}$")
            times = [t * 1e9 for t in iteration_times("quick-gcc.json", e["name"])]
            self.assertAlmostEqual(float(e["range"][2:]), statistics.stdev(times), delta=1e-3)
            self.assertIn(f"median of {len(times)} repetitions", e["extra"])
            self.assertIn("compiler GNU 12.2.0", e["extra"])
        write = [e for e in entries if e["name"] == "ints_out/write"][0]
        self.assertIn("write calls 100,000", write["extra"])

    def test_failed_and_invalid_rows_are_left_out_with_a_warning(self):
        status, out, err = run(fixture("failed.json"), "--format", "github-action-benchmark")
        self.assertEqual(status, 0)
        self.assertEqual([e["name"] for e in strict_json(out)], ["ints_out/obuf", "ints_out/fprintf"])  # fastest first
        self.assertEqual(err.splitlines(), [
            "iobench-compare: warning: left out of the export: hello/fwrite (failed: "
            "fclose(full/output-hello-fwrite): No space left on device)",
            "iobench-compare: warning: left out of the export: hello/obuf (failed: "
            "write(full/output-hello-obuf): No space left on device)"])
        status, out, err = run(fixture("invalid-times.json"), "--format", "bencher")
        self.assertEqual(status, 0)
        self.assertEqual(list(strict_json(out)), ["hello/fwrite"])  # NaN, inf and 0 never reach the service
        self.assertIn("ints_out/obuf (invalid: real_time is NaN in repetition 1)", err)

    def test_reproducible(self):
        first = run_ok(self, fixture("quick-gcc.json"), "--format", "github-action-benchmark")
        self.assertEqual(first, run_ok(self, fixture("quick-gcc.json"), "--format", "github-action-benchmark"))
        # No date: neither the file's (its context has one) nor the day of the export, whatever the year.
        with open(fixture("quick-gcc.json"), encoding="utf-8") as f:
            self.assertRegex(json.load(f)["context"]["date"], ISO_DATE)
        for fmt in ("github-action-benchmark", "bencher"):
            self.assertNotRegex(run_ok(self, fixture("quick-gcc.json"), "--format", fmt), ISO_DATE)


if __name__ == "__main__":
    main()
