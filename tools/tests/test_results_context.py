"""The context keys iobench-compare reads, and those of the stored results files, are the spec's.

spec/results_format.json's context_keys lists every key iobench writes into a
results file's context (the C++ tests check a real run against it, docs.results_context_keys
the README). The tool has no list of its own to read from it: it reads a few keys by name
(the report's context table, the notes where files differ, the labels), and each must be a
key of the spec, or the tool looks for something iobench never writes.
"""

import glob
import json
import os
import re
import unittest

from support import FIXTURES, TOOLS, main

from iobench_compare import compare, report

ROOT = os.path.dirname(TOOLS)
RESULTS_FORMAT = os.path.join(TOOLS, "iobench_compare", "spec", "results_format.json")

# Rows of the report's context table that are not context keys: the file's name, its repetitions.
NOT_FROM_THE_CONTEXT = {"file", "repetitions"}


def spec_keys() -> set[str]:
    with open(RESULTS_FORMAT, encoding="utf-8") as f:
        return {k["key"] for k in json.load(f)["context_keys"]}


def keys_read_by_name() -> dict[str, str]:
    """Each context key the package's sources read with a literal name (context.get("x"), context["x"]),
    and where."""
    found = {}
    for path in sorted(glob.glob(os.path.join(TOOLS, "iobench_compare", "*.py"))):
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                for key in re.findall(r"""context(?:\.get\(|\[)["']([^"']+)["']""", line):
                    found.setdefault(key, f"{os.path.basename(path)}:{number}")
    return found


class ContextKeysTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.keys = spec_keys()

    def test_the_report_and_the_notes_name_keys_of_the_spec(self):
        named = {key for key, _ in report.CONTEXT_ROWS} - NOT_FROM_THE_CONTEXT
        named |= set(compare.COMPARABLE_CONTEXT) | set(compare.COUNT_CONTEXT)
        self.assertEqual(named - self.keys, set(), "context keys the tool names that iobench never writes")

    def test_every_key_read_by_name_is_in_the_spec(self):
        found = keys_read_by_name()
        self.assertIn("instructions_source", found)  # (the search finds what it should)
        for key, where in found.items():
            with self.subTest(key=key):
                self.assertIn(key, self.keys, f"{where} reads context key {key!r}, which iobench never writes")

    def test_the_stored_results_files_have_no_key_the_spec_lacks(self):
        # Real runs of earlier versions and other platforms (MinGW under wine, valgrind's instruction counts):
        # keys they lack came later; a key they have that the spec does not list is one it misses.
        paths = sorted(glob.glob(os.path.join(FIXTURES, "*.json"))
                       + glob.glob(os.path.join(ROOT, "docs", "results", "*.json")))
        checked = 0
        for path in paths:
            try:
                with open(path, encoding="utf-8") as f:
                    data = json.load(f)
            except ValueError:
                continue  # (fixtures that are no JSON on purpose)
            if not isinstance(data, dict) or not isinstance(data.get("context"), dict):
                continue
            checked += 1
            with self.subTest(file=os.path.relpath(path, ROOT)):
                self.assertEqual(set(data["context"]) - self.keys, set())
        self.assertGreater(checked, 10)


if __name__ == "__main__":
    main()
