"""iobench-compare flags results by spec/report_rules.json (the package's data), as iobench's summary and the README say."""

import json
import os
import unittest

from support import TOOLS, fixture, main, run_ok

from iobench_compare import compare, render, results, rules
from iobench_compare import counters as counter_columns

ROOT = os.path.dirname(TOOLS)
SPECIFICATION = os.path.join(TOOLS, "iobench_compare", "spec", "report_rules.json")

# Each rule of the specification and the constant of rules.py that holds it.
CONSTANTS = {
    "cv_flag": "CV_FLAG",
    "interval_flag": "INTERVAL_FLAG",
    "confidence": "CONFIDENCE",
    "min_repetitions_for_interval": "MIN_REPETITIONS_FOR_INTERVAL",
    "interference_share": "INTERFERENCE_SHARE",
    "min_seconds_for_cpu_share": "MIN_SECONDS_FOR_CPU_SHARE",
}


def written(value: float, text: str) -> bool:
    """True when `text` is how the reports write `value`: a percentage, seconds or a count."""
    if text.endswith("%"):
        return text.lstrip("±") == f"{value * 100:.0f}%"
    if text.endswith(" ms"):
        return text == f"{value * 1e3:.0f} ms"
    if text == "half":
        return value == 0.5
    return text == f"{value:g}"


class RulesTest(unittest.TestCase):
    """One value per rule in the tool, the summary (tested in C++) and the README's legend."""

    @classmethod
    def setUpClass(cls):
        with open(SPECIFICATION, encoding="utf-8") as f:
            cls.rules = {r["name"]: r for r in json.load(f)["rules"]}

    def test_each_rule_writes_its_own_value(self):
        for name, rule in self.rules.items():
            with self.subTest(rule=name):
                self.assertTrue(written(rule["value"], rule["text"]), f"{rule['text']} is not {rule['value']}")
                for where in ("summary", "compare", "readme"):
                    self.assertIn(where, rule)

    def test_the_tool_holds_the_values(self):
        for name, constant in CONSTANTS.items():
            with self.subTest(rule=name):
                self.assertEqual(getattr(rules, constant), self.rules[name]["value"])
        self.assertEqual(set(self.rules) - set(CONSTANTS),
                         {"stopped_share", "stopped_min_seconds", "stopped_max_wait_share"},
                         "the rules iobench-compare does not apply are the summary's alone")

    def test_the_fewest_repetitions_with_an_interval(self):
        n = rules.MIN_REPETITIONS_FOR_INTERVAL
        self.assertGreater(compare.median_interval_rank(n, rules.CONFIDENCE), 0)
        self.assertEqual(compare.median_interval_rank(n - 1, rules.CONFIDENCE), 0)

    def test_the_tool_writes_the_phrases(self):
        # Results that trip the rules: flagged cvs, runs too short for a sys share (the console), too few
        # repetitions for an interval (the HTML report), a spread beside stolen time (the legend).
        text = run_ok(self, fixture("quick-gcc.json"))
        html = run_ok(self, fixture("gcc-2reps.json"), "--format", "html")
        comparison = compare.compare([results.load(fixture("quick-gcc.json"))])
        cell = next(row.cells[0] for w in comparison.workloads for row in w.rows if row.cells[0].ok)
        cell.cv = 2 * rules.CV_FLAG
        cell.counters["steal_time"] = 2 * rules.INTERFERENCE_SHARE * cell.time
        phrases = "\n".join([text, html] + render.legends(comparison))
        for name, rule in self.rules.items():
            if rule["compare"] is None:
                continue
            with self.subTest(rule=name):
                self.assertTrue(rule["compare"] in phrases, f"{rule['compare']!r} is not in the reports")

    def test_the_readme_legend_says_the_same(self):
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        legend = readme.split("## Reading the results", 1)[1].split("\n## ", 1)[0]
        for name, rule in self.rules.items():
            if rule["readme"] is None:
                continue
            with self.subTest(rule=name):
                self.assertIn(rule["readme"], legend)



RESULTS_FORMAT = os.path.join(TOOLS, "iobench_compare", "spec", "results_format.json")


class ResultsFormatTest(unittest.TestCase):
    """What the results file says beyond Google Benchmark's fields, as iobench writes it (tested in C++)."""

    @classmethod
    def setUpClass(cls):
        with open(RESULTS_FORMAT, encoding="utf-8") as f:
            cls.spec = json.load(f)

    def test_the_reader_knows_every_structure_field_in_order(self):
        self.assertEqual(results.STRUCTURE_FIELDS, tuple(f["field"] for f in self.spec["row_structure"]))

    def test_skipped_rows_are_told_by_the_same_prefix(self):
        self.assertEqual(results.SKIPPED_PREFIX, self.spec["skipped_prefix"])

    def test_the_readme_names_every_field(self):
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        for field in self.spec["row_structure"]:
            with self.subTest(field=field["field"]):
                # `field`, or "field" inside a snippet (`"counters_scope": "process"`)
                self.assertRegex(readme, f"[`\"]{field['field']}[`\"]")
        self.assertIn(f'`"{self.spec["skipped_prefix"]}<reason>"`', readme)

if __name__ == "__main__":
    main()


class OsCountersTest(unittest.TestCase):
    """The OS counters iobench-compare knows are spec/os_counters.json's, as iobench's are (tested in C++)."""

    def test_the_tool_lists_the_specifications_counters_in_order(self):
        with open(os.path.join(TOOLS, "iobench_compare", "spec", "os_counters.json"), encoding="utf-8") as f:
            spec = [(c["name"], c["unit"]) for c in json.load(f)["counters"]]
        self.assertEqual(list(counter_columns.OS_COUNTERS), spec)

    def test_the_readme_names_every_counter(self):
        # The README's "Reading the results" says what each counter of a row is: a counter added to the
        # spec alone fails here until it does.
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            results_section = f.read().split("## Reading the results", 1)[1].split("\n## ", 1)[0]
        missing = [name for name in counter_columns.OS_COUNTER_NAMES if f"`{name}`" not in results_section]
        self.assertEqual(missing, [])

    def test_every_counter_of_a_row_has_a_csv_column_or_explains_a_spread(self):
        for name in counter_columns.OS_COUNTER_NAMES:
            with self.subTest(counter=name):
                self.assertTrue(name in render.CSV_COUNTERS or name in ("steal_time", "cpu_wait"))
