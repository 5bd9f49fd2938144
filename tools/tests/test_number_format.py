"""iobench-compare writes numbers as tests/data/number_format.json specifies (as the C++ console does)."""

import json
import os
import unittest

from support import TOOLS, main

from iobench_compare import number_format

SPECIFICATION = os.path.join(os.path.dirname(TOOLS), "tests", "data", "number_format.json")


class NumberFormatTest(unittest.TestCase):
    """Every example of the specification, by kind; every kind has a function."""

    @classmethod
    def setUpClass(cls):
        with open(SPECIFICATION, encoding="utf-8") as f:
            cls.examples = json.load(f)["examples"]

    def test_every_example(self):
        self.assertGreater(len(self.examples), 20)
        for example in self.examples:
            with self.subTest(**example):
                write = number_format.FORMATS[example["kind"]]
                self.assertEqual(write(example["value"]), example["text"])

    def test_every_kind_is_specified(self):
        self.assertEqual({e["kind"] for e in self.examples}, set(number_format.FORMATS))


if __name__ == "__main__":
    main()
